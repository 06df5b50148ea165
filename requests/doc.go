// Package requests is the omni request interface: create a request to have
// an item (typically a prescription) picked up at a pharmacy and delivered to
// a patient, cancel it, and read one or several requests with their order
// (pickup, delivery, return and cancellation data) and request status.
//
// Programs get the [Service] from [rxdelivery.Client] as client.Requests:
//
//	req, err := client.Requests.Create(ctx, &requests.CreateParams{
//		Identifier:              "prog_123",
//		ExternalReferenceNumber: "rx-1001",
//		NDC:                     "00002143380",
//		Pharmacy:                requests.PharmacyParams{NCPDP: "1234567"},
//		Dropoff: requests.DropoffParams{
//			Name:        "Jane Doe",
//			PhoneNumber: "6145550100",
//			Address: requests.NewDropoffAddress(requests.Address{
//				Street1: "100 Main St", City: "Columbus", State: "OH", Zipcode: "43210",
//			}),
//		},
//		Patient: requests.PatientParams{
//			FirstName:   "Jane",
//			LastName:    "Doe",
//			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29},
//		},
//	})
//	if errors.Is(err, rxdelivery.ErrUnknownOutcome) {
//		// The request may exist: look it up before creating it again.
//	}
//	...
//	got, err := client.Requests.Get(ctx, req.ID)
//	if got.Order != nil && got.Order.Status == rxtypes.OrderStatusDelivered {
//		fmt.Println(got.Order.Delivery.SignedBy)
//	}
//
// Params are validated before anything is sent; every problem is reported
// with its JSON path in one [*rxtypes.ValidationError]. Responses are read
// tolerantly: an unknown status is kept as sent, an odd timestamp is kept in
// its Raw text, and the delivery [ETA] keeps its text with a parsed time when
// it is an ISO 8601 timestamp.
//
// The life cycle of a request and of its order, with their final and
// cancellable statuses, is drawn in [docs/lifecycles.md].
//
// [rxdelivery.Client]: https://pkg.go.dev/github.com/rxdelivery/rxdelivery-go#Client
// [docs/lifecycles.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/lifecycles.md
package requests
