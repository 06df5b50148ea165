// Pharmacy-search lists every pharmacy that delivers to an address, walking
// all the pages of the search with the Pharmacies.All iterator, then reads
// one pharmacy by its NCPDP identifier.
//
// It shows the two ways to read a paged search: Search for one page (and
// the totals it reports), and All, a range-over-func iterator that fetches
// the following pages as the loop reaches them. The page size is small on
// purpose, so that the walk takes several pages.
//
// It only reads, so it runs against any environment. Offline, with no
// RXDELIVERY_* variables set, it runs against the SDK's built-in simulator:
//
//	go run ./examples/pharmacy-search
//
// Online, it needs RXDELIVERY_API_KEY, RXDELIVERY_API_SECRET and
// RXDELIVERY_OMNI_URL (for instance the values that
// go run ./cmd/rxdelivery sandbox --env-file sandbox.env writes).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := start(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pharmacy-search:", err)
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

// pageSize is small so that the search spans several pages; the platform
// takes up to pharmacies.MaxPageSize.
const pageSize = 5

// run lists the pharmacies that deliver to an address and gets the first
// one by NCPDP, printing to out.
func run(ctx context.Context, c *rxdelivery.Client, out io.Writer) error {
	params := &pharmacies.SearchParams{
		// A street address in postal form, with its ZIP code, without
		// business names or apartment numbers.
		OriginAddress: "200 Court St, Brooklyn, NY 11201",
		PageSize:      pageSize,
	}

	// One page, for the totals.
	page, err := c.Pharmacies.Search(ctx, params)
	if err != nil {
		return fmt.Errorf("searching pharmacies: %w", err)
	}
	fmt.Fprintf(out, "%d pharmacies deliver to %s (%d pages of %d), preferred first, then nearest\n",
		page.Count, page.FormattedAddress, page.TotalPages, page.PageSize)

	// Every page. All fetches page after page as the loop needs them; an
	// error ends the walk and is yielded once.
	var first *pharmacies.Pharmacy
	n := 0
	for ph, err := range c.Pharmacies.All(ctx, params) {
		if err != nil {
			return fmt.Errorf("listing pharmacies (after %d): %w", n, err)
		}
		n++
		fmt.Fprintf(out, "  %2d. %-26s %8s  NCPDP %s  %s, %s%s\n",
			n, ph.Name, miles(ph.DistanceFromOrigin), ph.NCPDP, ph.Address.City, ph.Address.State, preferred(ph))
		if first == nil {
			first = &ph
		}
	}
	fmt.Fprintf(out, "Listed %d pharmacies\n", n)
	if first == nil {
		return nil
	}

	// One pharmacy by its NCPDP identifier (an NPI works too). Get has no
	// origin, so DistanceFromOrigin is nil.
	ph, err := c.Pharmacies.Get(ctx, first.NCPDP)
	if err != nil {
		return fmt.Errorf("getting pharmacy %s: %w", first.NCPDP, err)
	}
	fmt.Fprintf(out, "Pharmacy %s: %s, NPI %s, %s\n", ph.NCPDP, ph.Name, ph.NPI, address(ph.Address))
	if ph.Preferred {
		// Phone and fax numbers come with preferred pharmacies only.
		fmt.Fprintf(out, "  preferred partner; phone %s, fax %s\n", ph.PhoneNumber, ph.FaxNumber)
	}
	return nil
}

// address formats a pharmacy's address on one line.
func address(a pharmacies.Address) string {
	street := a.Street1
	if a.Street2 != "" {
		street += " " + a.Street2
	}
	return fmt.Sprintf("%s, %s, %s %s", street, a.City, a.State, a.Zipcode)
}

// miles formats a search distance, which is absent outside search results.
func miles(d *rxdelivery.Decimal) string {
	if d == nil {
		return "-"
	}
	return d.String() + " mi"
}

// preferred marks preferred pharmacies.
func preferred(ph pharmacies.Pharmacy) string {
	if ph.Preferred {
		return "  (preferred)"
	}
	return ""
}
