package orders_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Following an order status by status until it reaches a final one.
func ExampleService_Watch() {
	// On the kit, a watch's waits move the simulator's clock instead of
	// sleeping: the courier's thirty seconds per step pass in no time.
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}

	// One line per status change, the first read included; the loop ends
	// after a final status.
	for o, err := range client.Orders.Watch(ctx, order.ID) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(o.Status, o.Status.Final())
	}
	// Output:
	// new false
	// submitted_to_courier false
	// picked_up false
	// delivered true
}

// Waiting for an order to reach a final status, bounded by a deadline.
func ExampleService_Wait() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}

	// Bound the wait: it ends with ctx's error when the deadline comes
	// first (the kit's clock stands for real time, not the deadline's).
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	done, err := client.Orders.Wait(ctx, order.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(done.Status, done.Delivery.Succeeded())
	// Output:
	// delivered true
}

// Until makes Wait return before the end, here once the courier has the
// order.
func ExampleUntil() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}

	got, err := client.Orders.Wait(ctx, order.ID, orders.Until(func(o *orders.Order) bool {
		return o.Pickup != nil
	}))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.Status)
	// Output:
	// picked_up
}

// Following many orders with one get-many read per round; a cancelled
// order leaves the watch at once.
func ExampleService_WatchMany() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	var ids []string
	for range 3 {
		o, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
		if err != nil {
			log.Fatal(err)
		}
		ids = append(ids, o.ID)
	}
	// The last order is cancelled: it leaves the watch at once.
	if err := client.Orders.Cancel(ctx, ids[2]); err != nil {
		log.Fatal(err)
	}

	// One get-many read per round for all three (batches of
	// DefaultPollBatchSize), not one read per order.
	delivered := 0
	for o, err := range client.Orders.WatchMany(ctx, ids) {
		if errors.Is(err, rxdelivery.ErrNotFound) {
			continue // gone from the platform: it left the watch
		}
		if err != nil {
			log.Fatal(err)
		}
		if o.Status == rxtypes.OrderStatusDelivered {
			delivered++
		}
		if o.Status == rxtypes.OrderStatusCancelled {
			fmt.Println(o.ID, "cancelled")
		}
	}
	fmt.Println(delivered, "delivered")
	fmt.Println(len(srv.CallsTo(rxdeliverytest.OrdersGet)), "single reads")
	// Output:
	// ord_000003 cancelled
	// 2 delivered
	// 0 single reads
}
