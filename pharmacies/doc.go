// Package pharmacies looks up pharmacies: it searches the pharmacies that
// deliver to an origin address or place id, one page at a time ([Service.Search]) or
// through an iterator over every page ([Service.All]), gets one pharmacy by
// its NCPDP identifier or NPI ([Service.Get]), all on the omni interface, and asks the delivery
// interface for a pharmacy's delivery information to an address
// ([Service.DeliveryInfo]).
//
// Programs get the [Service] from an [rxdelivery.Client] (client.Pharmacies).
// Params are validated before sending; an invalid value returns a
// [*rxtypes.ValidationError] listing every problem with its path.
//
//	params := &pharmacies.SearchParams{
//		OriginAddress: "42 Elm Avenue, Columbus, OH 43210",
//		PageSize:      50,
//	}
//	for ph, err := range client.Pharmacies.All(ctx, params) {
//		if err != nil {
//			return err
//		}
//		if ph.Preferred {
//			fmt.Println(ph.Name, ph.NCPDP, ph.DistanceFromOrigin, ph.PhoneNumber)
//		}
//	}
//
//	ph, err := client.Pharmacies.Get(ctx, "1234567") // NCPDP, or a 10-digit NPI
//
//	info, err := client.Pharmacies.DeliveryInfo(ctx, "1234567890", &pharmacies.DeliveryInfoParams{
//		Address: rxtypes.Address{
//			Street: "42 Elm Avenue", City: "Columbus", State: "OH", Zipcode: "43210",
//		},
//	})
//	// info.Raw holds the response as received; its schema is not documented.
//
// What each service method sends is listed in [docs/endpoints.md].
//
// [rxdelivery.Client]: https://pkg.go.dev/github.com/rxdelivery/rxdelivery-go#Client
// [docs/endpoints.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/endpoints.md
package pharmacies
