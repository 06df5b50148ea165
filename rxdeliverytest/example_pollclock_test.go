package rxdeliverytest_test

import (
	"context"
	"fmt"
	"log"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// dispatch is code under test: it creates a same-day order and waits for
// the courier to be done with it, as a service would.
func dispatch(ctx context.Context, c *rxdelivery.Client, p *orders.CreateParams) (*orders.Order, error) {
	o, err := c.Orders.Create(ctx, p)
	if err != nil {
		return nil, err
	}
	return c.Orders.Wait(ctx, o.ID)
}

// A test of code that waits for a delivery. The kit's client waits on
// PollClock: each wait between reads moves the simulator's clock instead
// of sleeping, so the courier's ninety seconds pass at once, and the test
// sees what the code would see in production at that pace.
func ExampleServer_PollClock() {
	// In a test function:
	//
	//	func TestDispatch(t *testing.T) {
	//		srv := rxdeliverytest.Start(t)
	//		got, err := dispatch(ctx, srv.Client(), rxdeliverytest.SamedayOrderParams())
	//		...
	//	}
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	got, err := dispatch(ctx, srv.Client(), rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.Status, got.Delivery.OccurredAt.Time.Format(time.Kitchen))
	fmt.Println("simulated time passed:", srv.Now().Sub(rxdeliverytest.DefaultStart) >= 3*rxdeliverytest.DefaultOrderCadence)
	// Output:
	// delivered 9:01AM
	// simulated time passed: true
}
