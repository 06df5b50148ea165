// Pricing-quote asks for the price of shipping a package between two ZIP
// codes and prints the quotes; then it asks for a route no service covers
// and handles the empty response as "no quote".
//
// It shows that ZIP+4 input ("11201-4321") is accepted as is (the SDK sends
// its first five digits), that every package measure is given explicitly
// as an exact decimal, and that an empty quote list is a response, not an
// error. A quote reserves nothing and creates nothing.
//
// It only reads, so it runs against any environment. Offline, with no
// RXDELIVERY_* variables set, it runs against the SDK's built-in simulator,
// where dropoff ZIP codes 00000 to 00999 have no service:
//
//	go run ./examples/pricing-quote
//
// Online, it needs RXDELIVERY_API_KEY, RXDELIVERY_API_SECRET and
// RXDELIVERY_PRICING_URL (for instance the values that
// go run ./cmd/rxdelivery sandbox --env-file sandbox.env writes).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := start(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pricing-quote:", err)
		os.Exit(1)
	}
}

// userAgent is the product token the examples add to the SDK's.
const userAgent = "rxdelivery-go-examples"

// start builds the client from the RXDELIVERY_* variables or, when they
// name no platform, against a simulator of the platform started here (the
// public test kit's, on the real clock, one second between the steps of an
// order), and runs the example with it.
func start(ctx context.Context, out io.Writer) error {
	sim, err := rxdeliverytest.StartIfUnconfigured(rxdeliverytest.WithOrderCadence(time.Second))
	if err != nil {
		return err
	}
	opts := []rxdelivery.Option{rxdelivery.WithUserAgent(userAgent)}
	if sim != nil {
		defer sim.Close()
		fmt.Fprintf(out, "No platform in the RXDELIVERY_* variables: running against a simulator at %s.\n", sim.URL())
		opts = append(sim.ClientOptions(), opts...)
	} else {
		fmt.Fprintln(out, "Running against the platform the RXDELIVERY_* variables describe.")
	}
	client, err := rxdelivery.NewClientFromEnv(opts...)
	if err != nil {
		return err
	}
	defer client.CloseIdleConnections()
	return run(ctx, client, out)
}

// box is the package to price. The platform never infers a measure: send
// all four, in inches and ounces.
var box = pricing.PackageDimensions{
	LengthIn: rxdelivery.MustDecimal("10"),
	WidthIn:  rxdelivery.MustDecimal("8"),
	HeightIn: rxdelivery.MustDecimal("4"),
	WeightOz: rxdelivery.MustDecimal("12.5"),
}

// run prices a package on a served route and on an unserved one, printing
// to out.
func run(ctx context.Context, c *rxdelivery.Client, out io.Writer) error {
	if err := quote(ctx, c, out, "11201-4321", "60611-2001"); err != nil {
		return err
	}
	// A dropoff with no service: the platform responds with no quote.
	return quote(ctx, c, out, "11201", "00501")
}

// quote prices box from pickupZIP to dropoffZIP and prints the result.
func quote(ctx context.Context, c *rxdelivery.Client, out io.Writer, pickupZIP, dropoffZIP string) error {
	fmt.Fprintf(out, "Quote %s -> %s, %s x %s x %s in, %s oz\n",
		pickupZIP, dropoffZIP, box.LengthIn, box.WidthIn, box.HeightIn, box.WeightOz)
	quotes, err := c.Pricing.Quote(ctx, &pricing.QuoteParams{
		Pickup:            pricing.Location{Address: pricing.Address{ZIPCode: pickupZIP}},
		Dropoff:           pricing.Location{Address: pricing.Address{ZIPCode: dropoffZIP}},
		PackageDimensions: box,
	})
	var apiErr *rxdelivery.APIError
	switch {
	case errors.Is(err, rxdelivery.ErrUnavailable) && errors.As(err, &apiErr):
		// 502: the provider gave no reliable price. The message is meant
		// for people; show it and let them try later.
		fmt.Fprintf(out, "  no price available now: %s\n", apiErr.Message)
		return nil
	case err != nil:
		return fmt.Errorf("quoting %s -> %s: %w", pickupZIP, dropoffZIP, err)
	case len(quotes) == 0:
		fmt.Fprintln(out, "  no quote: no service covers this route")
		return nil
	}
	for _, q := range quotes {
		fmt.Fprintf(out, "  %-8s %-16s $%s\n", q.Provider, q.Service, q.PriceUSD)
	}
	return nil
}
