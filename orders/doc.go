// Package orders calls the delivery order interface: it creates, cancels
// and reads delivery orders at the sameday, ondemand and shipping service
// levels, and adds or removes prescriptions on an existing order.
//
// Programs get the [Service] from an [rxdelivery.Client] (client.Orders).
// Every params type, such as [CreateParams], has a Validate method with the document's rules (lengths,
// enums, the rules of each service level and carrier); the client runs it
// before sending, and an invalid value returns a [*rxtypes.ValidationError]
// that lists every problem with its JSON path.
//
// A same-day order is the zero [ServiceLevel]: the platform takes an absent
// service_level field as sameday, and [ServiceLevelSameday] is "" so that the
// field is left out.
//
// Responses are decoded tolerantly: a status the SDK does not know is kept
// verbatim ([rxtypes.OrderStatus.Known] reports it), "submitted to courier" and
// "submitted_to_courier" are one status, a cancellation reason is read from
// cancellation_reason or reason, and the get-many array from orders or
// objects.
//
//	order, err := client.Orders.Create(ctx, &orders.CreateParams{
//		// ServiceLevel left empty: a same-day order.
//		DeliveryFee:             rxdelivery.Ptr(rxdelivery.MustDecimal("5.00")),
//		RxAmountDue:             rxdelivery.Ptr(rxdelivery.MustDecimal("10.00")),
//		ExternalReferenceNumber: "rx-2024-0001",
//		Pharmacy:                orders.Pharmacy{NPI: "1234567890", NCPDP: "1234567"},
//		Recipient:               orders.Recipient{Description: "Jane Doe", Address: addr},
//		Patient: orders.Patient{
//			FirstName: "Jane", LastName: "Doe", Gender: rxtypes.GenderFemale,
//			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29},
//		},
//		Prescriptions: []orders.Prescription{rx},
//	})
//	switch {
//	case errors.Is(err, rxdelivery.ErrInvalidParams):
//		// fix the params; nothing was sent
//	case errors.Is(err, rxdelivery.ErrUnknownOutcome):
//		// the order may exist: look it up before creating it again
//	case err != nil:
//		return err
//	}
//	fmt.Println(order.ID, order.Status)
//
//	err = client.Orders.Cancel(ctx, order.ID)
//	if errors.Is(err, rxdelivery.ErrUnableToCancel) {
//		// the courier already picked it up
//	}
//
// The life cycle of an order at each service level, with its final and
// cancellable statuses ([rxtypes.OrderStatus.Final] and
// [rxtypes.OrderStatus.Cancellable]), is drawn in [docs/lifecycles.md].
//
// [rxdelivery.Client]: https://pkg.go.dev/github.com/rxdelivery/rxdelivery-go#Client
// [docs/lifecycles.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/lifecycles.md
package orders
