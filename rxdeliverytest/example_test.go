package rxdeliverytest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// In a test, Start(t) stops the server when the test ends; an Example has
// no testing.TB, so these use NewServer and Close.

// The shape of a test: start a simulator, call the code under test with
// the kit's client, move the clock, assert on the simulator's record.
func Example() {
	srv := rxdeliverytest.NewServer() // in a test: srv := rxdeliverytest.Start(t)
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}
	srv.Advance(3 * rxdeliverytest.DefaultOrderCadence) // submitted, picked up, delivered
	got, err := client.Orders.Get(ctx, order.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.Status, got.Delivery.OccurredAt.Time.Format(time.Kitchen))
	for _, c := range srv.Calls() {
		fmt.Println(c.Operation, c.Method, c.Path, c.Status)
	}
	// Output:
	// delivered 9:01AM
	// orders.Create POST /api/v1/orders 200
	// orders.Get GET /api/v1/orders/ord_000001 200
}

// Starting a simulator for one test: a sandbox client with the test's own
// options.
func ExampleStart() {
	// In a test function:
	//
	//	func TestNotifyCustomer(t *testing.T) {
	//		srv := rxdeliverytest.Start(t,
	//			rxdeliverytest.WithClientOptions(rxdelivery.WithUserAgent("my-service/1.2")))
	//		err := mypkg.NotifyCustomer(context.Background(), srv.Client(), "ord_1")
	//		...
	//	}
	//
	// Start fails the test when the server cannot start, and stops it in
	// the test's cleanup. NewServer is the same without a testing.TB.
	srv := rxdeliverytest.NewServer(rxdeliverytest.WithClientOptions(rxdelivery.WithUserAgent("my-service/1.2")))
	defer srv.Close()
	fmt.Println(srv.Client().Sandbox())
	// Output:
	// true
}

// Moving the simulator's clock by hand: each step of the courier shows
// once its time has come.
func ExampleServer_Advance() {
	srv := rxdeliverytest.NewServer(rxdeliverytest.WithOrderCadence(time.Minute))
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}
	for range 3 {
		srv.Advance(time.Minute) // one courier step per minute, applied before Advance returns
		got, err := client.Orders.Get(ctx, order.ID)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(srv.Now().Format(time.Kitchen), got.Status)
	}
	// Output:
	// 9:01AM submitted_to_courier
	// 9:02AM picked_up
	// 9:03AM delivered
}

// Putting an order in a status directly, here one the platform no longer
// cancels.
func ExampleServer_SetOrderStatus() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}
	// Jump straight to a state that takes a courier minutes to reach.
	if err := srv.SetOrderStatus(order.ID, rxtypes.OrderStatusPickedUp); err != nil {
		log.Fatal(err)
	}
	err = client.Orders.Cancel(ctx, order.ID)
	var apiErr *rxdelivery.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Message)
	}
	// Output:
	// 400 Order is not in a cancellable status
}

// Receiving the simulator's tracking notifications in the test's own
// handler, through an https URL that never reaches a network.
func ExampleServer_Listener() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	// The handler your service mounts on its listener URL.
	handler := tracking.NewHandler(func(_ context.Context, n *tracking.Notification) error {
		fmt.Println("notified:", n.TrackingNumber, n.Status)
		return nil
	})
	_, err := client.Tracking.Subscribe(ctx, &tracking.SubscribeParams{
		TrackingNumber: "9400100000000000000001",
		ListenerURL:    srv.Listener(handler), // https, in-process: no TLS, port or network
	})
	if err != nil {
		log.Fatal(err)
	}
	srv.Track("9400100000000000000001", tracking.TrackingMovingThroughNetwork)
	n := srv.Notifications()[0]
	fmt.Println(n.StatusCode == http.StatusNoContent)
	// Output:
	// notified: 9400100000000000000001 Moving Through Network
	// true
}

// Injecting faults into the next calls of one operation: two 429s the
// client retries before the third attempt succeeds.
func ExampleServer_FailNext() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	// The next two quote calls are rate limited with "Retry-After: 0": the
	// client retries twice, and the third attempt succeeds.
	srv.FailNext(rxdeliverytest.PricingQuote, 2, rxdeliverytest.RateLimited(0))
	quotes, err := client.Pricing.Quote(ctx, &pricing.QuoteParams{
		Pickup:  pricing.Location{Address: pricing.Address{ZIPCode: "43210"}},
		Dropoff: pricing.Location{Address: pricing.Address{ZIPCode: "10001"}},
		PackageDimensions: pricing.PackageDimensions{
			LengthIn: rxdelivery.MustDecimal("10"), WidthIn: rxdelivery.MustDecimal("8"),
			HeightIn: rxdelivery.MustDecimal("4"), WeightOz: rxdelivery.MustDecimal("12"),
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(quotes))
	for _, c := range srv.CallsTo(rxdeliverytest.PricingQuote) {
		fmt.Println(c.Status, c.Fault)
	}
	// Output:
	// 1
	// 429 rate_limit
	// 429 rate_limit
	// 200
}

// An order the platform created though its answer was lost: the client
// sees an unknown outcome, and the simulator shows what really exists.
func ExampleCommittedThenFailed() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	// The platform creates the order, and the answer is lost.
	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.CommittedThenFailed())
	_, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if errors.Is(err, rxdelivery.ErrUnknownOutcome) {
		fmt.Println("unknown outcome: reconcile, do not create again")
	}
	// What really exists: one order, under the reference that was sent.
	for _, o := range srv.Orders() {
		fmt.Println(o.ID, o.ExternalReferenceNumber, o.Status)
	}
	// Output:
	// unknown outcome: reconcile, do not create again
	// ord_000001 rx-2026-0001 new
}

// A server that never answers: the call ends with its context.
func ExampleStall() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client := srv.Client()

	srv.FailNext(rxdeliverytest.OrdersGet, 1, rxdeliverytest.Stall())
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := client.Orders.Get(ctx, "ord_000001")
	fmt.Println(errors.Is(err, context.DeadlineExceeded))
	// Output:
	// true
}

// Asserting on what the simulator received: the body as decoded, or
// decoded into a type of the test's own.
func ExampleServer_Calls() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	if _, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams()); err != nil {
		log.Fatal(err)
	}
	c := srv.CallsTo(rxdeliverytest.OrdersCreate)[0]
	// The body as the simulator decoded it: money stays exact.
	fmt.Println(c.Body["delivery_fee"], c.Body["external_reference_number"])
	// Or decoded into a type of yours.
	var sent struct {
		Patient struct {
			DateOfBirth string `json:"date_of_birth"`
		} `json:"patient"`
	}
	if err := c.DecodeBody(&sent); err != nil {
		log.Fatal(err)
	}
	fmt.Println(sent.Patient.DateOfBirth)
	// Output:
	// 5.00 rx-2026-0001
	// 1980-02-29
}

// Replacing the pharmacies that lookups answer with.
func ExampleServer_SetPharmacies() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	srv.SetPharmacies(rxdeliverytest.Pharmacy{
		NPI: "1234567893", NCPDP: "7770001", Name: "Only Pharmacy", Preferred: true,
		PhoneNumber: "2125550100", FaxNumber: "2125550101",
		Street1: "1 Main St", City: "New York", State: "NY", Zipcode: "10001",
	})
	p, err := client.Pharmacies.Get(ctx, "7770001")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Name, p.PhoneNumber)
	// Output:
	// Only Pharmacy 2125550100
}

// Making pricing answer an empty list of quotes.
func ExampleServer_SetEmptyQuotes() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	srv.SetEmptyQuotes(true)
	quotes, err := client.Pricing.Quote(ctx, &pricing.QuoteParams{
		Pickup:  pricing.Location{Address: pricing.Address{ZIPCode: "43210"}},
		Dropoff: pricing.Location{Address: pricing.Address{ZIPCode: "10001"}},
		PackageDimensions: pricing.PackageDimensions{
			LengthIn: rxdelivery.MustDecimal("10"), WidthIn: rxdelivery.MustDecimal("8"),
			HeightIn: rxdelivery.MustDecimal("4"), WeightOz: rxdelivery.MustDecimal("12"),
		},
	})
	fmt.Println(len(quotes), err)
	// Output:
	// 0 <nil>
}

// Putting the order of an omni request in a status directly, with no
// scenario.
func ExampleServer_SetRequestOrderStatus() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	req, err := client.Requests.Create(ctx, &requests.CreateParams{
		Identifier:              "program-123",
		ExternalReferenceNumber: "rx-2026-000124",
		NameOfPickup:            "Amoxicillin 500 mg",
		Pharmacy:                requests.PharmacyParams{NCPDP: "5550001"},
		Dropoff: requests.DropoffParams{
			Name: "Jane Doe", PhoneNumber: "6145550100",
			Address: requests.NewDropoffPlace("ChIJd8BlQ2BZwokRAFUEcm_qrcA"),
		},
		Patient: requests.PatientParams{FirstName: "Jane", LastName: "Doe", DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29}},
	})
	if err != nil {
		log.Fatal(err)
	}
	// No scenario was asked for: the test decides where the request goes.
	if err := srv.SetRequestOrderStatus(req.ID, rxtypes.OrderStatusDeliveryAttempted); err != nil {
		log.Fatal(err)
	}
	got, err := client.Requests.Get(ctx, req.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.Status.Name, got.Order.Status)
	// Output:
	// request_received delivery_attempted
}

// A 429 whose Retry-After is an HTTP date, beyond the client's wait cap:
// the call returns at once with the wait in the error.
func ExampleRateLimitedUntil() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	// Retry-After as an HTTP date an hour away: longer than the client's
	// wait cap, so the call returns at once with the wait it was given.
	srv.FailNext(rxdeliverytest.PharmaciesGet, 1, rxdeliverytest.RateLimitedUntil(time.Hour))
	_, err := client.Pharmacies.Get(ctx, "5550001")
	var apiErr *rxdelivery.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(errors.Is(err, rxdelivery.ErrRateLimited), apiErr.RetryAfter.Round(time.Hour))
	}
	// Output:
	// true 1h0m0s
}

// Call.ReceivedAt is real time: the gap between a 429 and its retry shows
// whether the client waited out the Retry-After.
func ExampleCall_receivedAt() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	// The kit's client caps its waits at a few milliseconds; this one
	// honours a Retry-After of a second.
	client, err := srv.NewClient(rxdelivery.WithRetryWaitMax(2 * time.Second))
	if err != nil {
		log.Fatal(err)
	}
	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.RateLimited(time.Second))
	if _, err := client.Orders.Create(context.Background(), rxdeliverytest.SamedayOrderParams()); err != nil {
		log.Fatal(err)
	}
	calls := srv.CallsTo(rxdeliverytest.OrdersCreate)
	for _, c := range calls {
		fmt.Println(c.Status, c.SimulatedAt.Format(time.Kitchen))
	}
	fmt.Println("waited out the Retry-After:", calls[1].ReceivedAt.Sub(calls[0].ReceivedAt) >= time.Second)
	// Output:
	// 429 9:00AM
	// 200 9:00AM
	// waited out the Retry-After: true
}

// CallCounts counts every call per operation, the ones the record's limit
// has dropped included.
func ExampleServer_CallCounts() {
	srv := rxdeliverytest.NewServer(rxdeliverytest.WithCallRecordLimit(2))
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}
	for range 5 {
		if _, err := client.Orders.Get(ctx, order.ID); err != nil {
			log.Fatal(err)
		}
	}
	counts := srv.CallCounts()
	fmt.Println("kept:", len(srv.Calls()))
	fmt.Println("creates:", counts[rxdeliverytest.OrdersCreate], "reads:", counts[rxdeliverytest.OrdersGet])
	// Output:
	// kept: 2
	// creates: 1 reads: 5
}
