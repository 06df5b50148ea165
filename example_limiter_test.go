package rxdelivery_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// A 429 with a Retry-After pauses the whole interface, for every call of
// the client: LimiterState shows the pause and the rate limit.
func ExampleClient_LimiterState() {
	srv := rxdeliverytest.NewServer(rxdeliverytest.WithClientOptions(
		rxdelivery.WithRateLimit(rxdelivery.Delivery, 10, 5),
	))
	defer srv.Close()
	client := srv.Client()

	srv.FailNext(rxdeliverytest.OrdersGet, 1, rxdeliverytest.RateLimited(30*time.Second))
	_, err := client.Orders.Get(context.Background(), "ord_1")
	fmt.Println(errors.Is(err, rxdelivery.ErrRateLimited))

	st := client.LimiterState(rxdelivery.Delivery)
	fmt.Println("paused for", st.PausedUntil.Sub(srv.Now()))
	fmt.Println("rate", st.Rate, "burst", st.Burst)

	// Until the pause ends, calls to the interface are not sent: one that
	// cannot wait that long fails at once with the pause's end.
	_, err = client.Orders.Get(context.Background(), "ord_2")
	var notSent *rxdelivery.NotSentError
	if errors.As(err, &notSent) {
		fmt.Println(errors.Is(err, rxdelivery.ErrNotSent), notSent.PausedUntil.Sub(srv.Now()))
	}

	srv.Advance(30 * time.Second)
	fmt.Println("paused:", !client.LimiterState(rxdelivery.Delivery).PausedUntil.IsZero())
	// Output:
	// true
	// paused for 30s
	// rate 5 burst 5
	// true 30s
	// paused: false
}
