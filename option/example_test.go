package option_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// An attempt hook that records each attempt's operation, templated path
// and status: what a hook may log, since it never sees the request's body,
// query or credentials.
func ExampleWithMiddleware() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	record := func(next option.AttemptFunc) option.AttemptFunc {
		return func(ctx context.Context, a *option.Attempt) option.AttemptResult {
			r := next(ctx, a)
			fmt.Println(a.Name, a.Path, "attempt", a.Number, r.StatusCode)
			return r
		}
	}
	client, err := srv.NewClient(option.WithMiddleware(record))
	if err != nil {
		log.Fatal(err)
	}
	srv.FailNext(rxdeliverytest.PharmaciesGet, 1, rxdeliverytest.Unavailable(0))
	if _, err := client.Pharmacies.Get(context.Background(), "5550001"); err != nil {
		log.Fatal(err)
	}
	// Output:
	// pharmacies.Get /api/v1/pharmacies/{id} attempt 1 503
	// pharmacies.Get /api/v1/pharmacies/{id} attempt 2 200
}

// A call hook that names each call's outcome by its kind, never by its
// message, which may repeat the platform's words.
func ExampleErrorKind() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	kinds := func(next option.CallFunc) option.CallFunc {
		return func(ctx context.Context, op *option.Operation) option.CallResult {
			r := next(ctx, op)
			fmt.Printf("%s: %q after %d attempts\n", op.Name, option.ErrorKind(r.Err), r.Metadata.Attempts)
			return r
		}
	}
	client := srv.Client()
	ctx := context.Background()
	_, _ = client.Orders.Get(ctx, "ord_999999", option.WithCallMiddleware(kinds))
	// Output:
	// orders.Get: "not_found" after 1 attempts
}

// The options of one call, gathered into one value that every call of an
// integration passes: no retry and a shorter attempt timeout.
func ExampleJoin() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	var md option.Metadata
	quick := option.Join(option.WithRetryMax(0), option.WithAttemptTimeout(2*time.Second), option.WithMetadata(&md))
	srv.FailNext(rxdeliverytest.PharmaciesGet, 1, rxdeliverytest.Unavailable(0))
	_, err := srv.Client().Pharmacies.Get(context.Background(), "5550001", quick)
	fmt.Println(err != nil, md.StatusCode, md.Attempts)
	// Output:
	// true 503 1
}
