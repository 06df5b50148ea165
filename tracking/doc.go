// Package tracking subscribes shipment tracking numbers to status
// notifications and receives those notifications.
//
// The platform's tracking interface has two endpoints: [Service.Subscribe] creates or
// updates the subscription of a POSTAL or PARCELA tracking number, naming
// the https listener URL that the platform POSTs a [Notification] to whenever
// the tracking status changes; [Service.GetSubscription] reads a subscription back by
// tracking number. A [Service] comes from [rxdelivery.Client]:
//
//	sub, err := client.Tracking.Subscribe(ctx, &tracking.SubscribeParams{
//		TrackingNumber: "9400100000000000000000",
//		ListenerURL:    "https://pharmacy.example.com/hooks/tracking/" + secretToken,
//		ReferenceID:    "ord_01HXYZ",
//	})
//	if err != nil {
//		return err
//	}
//	log.Printf("subscription %s (created: %t)", sub.Status, sub.Created)
//
//	_, err = client.Tracking.GetSubscription(ctx, "9400100000000000000000")
//	if errors.Is(err, rxdelivery.ErrNotFound) {
//		// not subscribed
//	}
//
// On the receiving side, [NewHandler] serves the listener URL and
// [ParseNotification] reads one notification in a handler of your own. The
// platform shows no signature scheme for notifications, so authenticate
// them yourself; [NewHandler]'s documentation shows one way.
//
// Errors of the interface carry a code ([CodeNotFound], [CodeForbidden], ...)
// in the Code field of the [*rxtypes.APIError].
//
// The life cycle of a subscription (ENABLED, SUSPENDED, DISABLED) is drawn
// in [docs/lifecycles.md].
//
// [rxdelivery.Client]: https://pkg.go.dev/github.com/rxdelivery/rxdelivery-go#Client
// [docs/lifecycles.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/lifecycles.md
package tracking
