package requests_test

import (
	"context"
	"fmt"
	"log"

	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// Following a request until its order reaches a final status, starting
// before the platform has given it an order.
func ExampleService_Watch() {
	// On the kit, a watch's waits move the simulator's clock instead of
	// sleeping: the scenario's minute per step passes in no time.
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	p := exampleParams()
	p.TestMeta = &requests.TestMeta{Scenario: requests.ScenarioSuccessfulDelivery, DurationBetween: 60}
	req, err := client.Requests.Create(ctx, p)
	if err != nil {
		log.Fatal(err)
	}

	for r, err := range client.Requests.Watch(ctx, req.ID) {
		if err != nil {
			log.Fatal(err)
		}
		if r.Order == nil {
			fmt.Println("no order yet")
			continue
		}
		fmt.Println(r.Order.Status, r.Final())
	}
	// Output:
	// no order yet
	// new false
	// submitted_to_courier false
	// picked_up false
	// delivered true
}

// Waiting for a request to end, here in a return to the pharmacy.
func ExampleService_Wait() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	req, err := client.Requests.Create(ctx, exampleParams()) // unsuccessful_delivery
	if err != nil {
		log.Fatal(err)
	}

	done, err := client.Requests.Wait(ctx, req.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(done.Order.Status)
	// Output:
	// returned_to_pharmacy
}

// Returning from Wait as soon as the platform gives the request an order.
func ExampleUntil() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	req, err := client.Requests.Create(ctx, exampleParams())
	if err != nil {
		log.Fatal(err)
	}

	// Return as soon as the platform associates an order.
	got, err := client.Requests.Wait(ctx, req.ID, requests.Until(func(r *requests.Request) bool {
		return r.Order != nil
	}))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.Order.ID, got.Order.Status)
	// Output:
	// ord_000002 new
}

// Following many requests with get-many reads, each yielded as it changes.
func ExampleService_WatchMany() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	var ids []string
	for range 3 {
		r, err := client.Requests.Create(ctx, exampleParams())
		if err != nil {
			log.Fatal(err)
		}
		ids = append(ids, r.ID)
	}

	// Get-many reads in batches; each request is yielded as it changes and
	// leaves the batches once final.
	ended := 0
	for r, err := range client.Requests.WatchMany(ctx, ids) {
		if err != nil {
			log.Fatal(err)
		}
		if r.Final() {
			ended++
		}
	}
	fmt.Println(ended, "requests ended;", len(srv.CallsTo(rxdeliverytest.RequestsGet)), "single reads")
	// Output:
	// 3 requests ended; 0 single reads
}
