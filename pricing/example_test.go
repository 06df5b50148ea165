package pricing_test

import (
	"context"
	"fmt"
	"log"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// Quoting the price of a package between two ZIP codes; an empty list is
// an answer, not an error.
func ExampleService_Quote() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	quotes, err := client.Pricing.Quote(ctx, &pricing.QuoteParams{
		Pickup:  pricing.Location{Address: pricing.Address{ZIPCode: "43210-1234"}}, // sent as 43210
		Dropoff: pricing.Location{Address: pricing.Address{ZIPCode: "10001"}},
		PackageDimensions: pricing.PackageDimensions{
			LengthIn: rxdelivery.MustDecimal("10"), WidthIn: rxdelivery.MustDecimal("8"),
			HeightIn: rxdelivery.MustDecimal("4"), WeightOz: rxdelivery.MustDecimal("12.5"),
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	if len(quotes) == 0 {
		fmt.Println("no quote for this route") // an empty list is an answer, not an error
	}
	for _, q := range quotes {
		fmt.Println(q.Provider, q.Service, q.PriceUSD.Sign() > 0)
	}
	// Output:
	// postal ground_service true
}
