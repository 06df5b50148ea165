// Package pricing quotes delivery prices.
//
// A quote is decision support only: it creates no omni request, reserves no
// rate, buys no label and is not stored, and a later label may cost
// something else. Version 1 of the interface prices one service, the postal
// carrier's ground service. A [Service] comes from [rxdelivery.Client],
// and [Service.Quote] takes [QuoteParams]:
//
//	quotes, err := client.Pricing.Quote(ctx, &pricing.QuoteParams{
//		Pickup:  pricing.Location{Address: pricing.Address{ZIPCode: "43210"}},
//		Dropoff: pricing.Location{Address: pricing.Address{ZIPCode: "10001-2345"}},
//		PackageDimensions: pricing.PackageDimensions{
//			LengthIn: rxdelivery.MustDecimal("10"),
//			WidthIn:  rxdelivery.MustDecimal("8"),
//			HeightIn: rxdelivery.MustDecimal("4"),
//			WeightOz: rxdelivery.MustDecimal("12.5"),
//		},
//	})
//	var apiErr *rxdelivery.APIError
//	switch {
//	case errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusBadGateway:
//		fmt.Println(apiErr.Message) // the provider gave no reliable price
//	case err != nil:
//		return err
//	case len(quotes) == 0:
//		fmt.Println("no quote for this package")
//	default:
//		fmt.Println(quotes[0].Service, quotes[0].PriceUSD) // ground_service 8.45
//	}
//
// Every package measure is required: the platform never infers weight or
// dimensions. ZIP+4 codes are accepted and sent as 5 digits.
//
// What each service method sends is listed in [docs/endpoints.md].
//
// [rxdelivery.Client]: https://pkg.go.dev/github.com/rxdelivery/rxdelivery-go#Client
// [docs/endpoints.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/endpoints.md
package pricing
