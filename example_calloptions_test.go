package rxdelivery_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"os"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// The examples of the README's sections on per-call options, metadata,
// observability and rate limiting. Each README block stands verbatim in
// one of them (TestReadmeBlocksAreCompiled checks it).

// Options for one call only: no retry, a shorter attempt timeout and a
// header of the program's own on a single read (the README's per-call
// options block).
func Example_perCallOptions() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	created, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}
	orderID := created.ID

	var md rxdelivery.Metadata
	order, err := client.Orders.Get(ctx, orderID,
		rxdelivery.WithRetryMax(0),
		rxdelivery.WithAttemptTimeout(2*time.Second),
		rxdelivery.WithHeader("X-Correlation-Id", "batch-7"),
		rxdelivery.WithMetadata(&md),
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(order.Status, md.StatusCode, md.Attempts)
	// Output:
	// new 200 1
}

// What a call saw of its response: status, the platform's request id and
// attempts, read after the call (the README's metadata block).
func Example_metadata() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	params := rxdeliverytest.SamedayOrderParams()
	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.Unavailable(0))

	var md rxdelivery.Metadata
	_, err := client.Orders.Create(ctx, params, rxdelivery.WithMetadata(&md))
	switch {
	case err == nil:
		fmt.Println("created: status", md.StatusCode, "after", md.Attempts, "attempts")
	case !md.OutcomeKnown:
		fmt.Println("unknown outcome: reconcile before creating again; request id", md.RequestID)
	default:
		fmt.Println("refused: status", md.StatusCode)
	}

	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.ServerError())
	_, err = client.Orders.Create(ctx, params, rxdelivery.WithMetadata(&md))
	fmt.Println(errors.Is(err, rxdelivery.ErrUnknownOutcome), md.OutcomeKnown, md.StatusCode, md.Attempts)
	// Output:
	// created: status 200 after 2 attempts
	// true false 500 1
}

// Logs and hooks: the default logger (here writing to standard output,
// without the time and the wait, which change from run to run) and an
// attempt hook (the README's observability block).
func Example_observability() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	old := slog.Default()
	defer slog.SetDefault(old)
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "waited" {
				return slog.Attr{}
			}
			return a
		},
	})))
	ctx := context.Background()
	srv.FailNext(rxdeliverytest.OrdersGet, 1, rxdeliverytest.Unavailable(0))
	created, err := srv.Client().Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}
	orderID := created.ID

	printAttempts := func(next option.AttemptFunc) option.AttemptFunc {
		return func(ctx context.Context, a *option.Attempt) option.AttemptResult {
			r := next(ctx, a)
			fmt.Printf("%s %s attempt %d (%s): %d\n", a.Name, a.Path, a.Number, a.Class, r.StatusCode)
			return r
		}
	}
	client, err := srv.NewClient(
		rxdelivery.WithLogger(slog.Default()),
		rxdelivery.WithMiddleware(printAttempts),
	)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Orders.Get(ctx, orderID); err != nil {
		log.Fatal(err)
	}
	// Output:
	// orders.Get /api/v1/orders/{id} attempt 1 (safe): 503
	// level=INFO msg="rxdelivery: retrying" operation=orders.Get method=GET path=/delivery/api/v1/orders/{id} attempt=2 after_status=503
	// orders.Get /api/v1/orders/{id} attempt 2 (safe): 200
}

// Staying under the platform's rate limits: a client-side limit per
// interface, so calls wait their turn instead of meeting 429s (the
// README's rate limiting block).
func Example_rateLimiting() {
	srv := rxdeliverytest.NewServer(rxdeliverytest.WithCredentials("key", "secret"))
	defer srv.Close()
	key, secret, deliveryURL := "key", "secret", srv.DeliveryURL()
	ctx := context.Background()
	created, err := srv.Client().Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}
	orderID := created.ID

	client, err := rxdelivery.NewClient(key, secret,
		rxdelivery.WithDeliveryURL(deliveryURL),
		rxdelivery.WithRateLimit(rxdelivery.Delivery, 1, 1), // one attempt a second
	)
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.Orders.Get(ctx, orderID) // the first is free
	fmt.Println(err)

	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	_, err = client.Orders.Get(short, orderID) // its turn comes after the deadline
	fmt.Println(errors.Is(err, context.DeadlineExceeded))
	// Output:
	// <nil>
	// true
}

// A client whose retry budget allows 20 retries beyond what its successes
// give back: during an outage its calls fail at once, with metadata that
// says so, instead of each sending three more attempts.
func ExampleWithRetryBudget() {
	client, err := rxdelivery.NewClient("key", "secret",
		rxdelivery.WithDeliveryURL("https://delivery.example.com"),
		rxdelivery.WithRetryBudget(20),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	var md rxdelivery.Metadata
	_, err = client.Orders.Get(context.Background(), "ord_1", rxdelivery.WithMetadata(&md))
	if err != nil && md.RetryBudgetExhausted {
		fmt.Println("the platform is down; not retried")
	}
	fmt.Println("budget:", rxdelivery.DefaultRetryBudget, "by default")
	// Output is left out: the call goes to the network.
}

// A job runner stopped for a deploy: its context ends while a create is in
// flight. With a write grace the create waits for the platform's response
// and returns the order instead of an unknown outcome.
func ExampleWithWriteGrace() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, err := srv.NewClient(rxdelivery.WithWriteGrace(10 * time.Second))
	if err != nil {
		log.Fatal(err)
	}
	// The platform takes 300 ms to respond to the next create.
	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.Committed(rxdeliverytest.StallFor(300*time.Millisecond)))

	ctx, stop := context.WithCancel(context.Background()) // signal.NotifyContext in a service
	go func() {
		for len(srv.Orders()) == 0 {
			time.Sleep(time.Millisecond)
		}
		stop() // SIGTERM arrives while the create is in flight
	}()
	var md rxdelivery.Metadata
	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams(), rxdelivery.WithMetadata(&md))
	fmt.Println(err == nil, order != nil && order.ID != "", md.GraceUsed)
	// Output:
	// true true true
}
