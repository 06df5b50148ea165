package orders_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// Creating a same-day order (the service level left out, the fee and the
// amount due given). An unknown outcome is never a reason to create again
// blindly: look the order up first.
func ExampleService_Create() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	// A same-day order: service_level left out, fee and copay required.
	params := rxdeliverytest.SamedayOrderParams()
	order, err := client.Orders.Create(ctx, params)
	if errors.Is(err, rxdelivery.ErrUnknownOutcome) {
		// Never create again blindly: look for the order first.
		log.Fatal("reconcile by external reference number before retrying")
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(order.ID, order.Status, order.ETA != nil)
	// Output:
	// ord_000001 new true
}

// Creating a shipping order with the postal carrier: carrier, service,
// signature, weight and package, then the tracking number and the label the
// platform adds.
func ExampleService_Create_shipping() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	params := rxdeliverytest.SamedayOrderParams()
	params.ServiceLevel = orders.ServiceLevelShipping
	params.DeliveryFee, params.RxAmountDue = nil, nil // same-day only
	params.Patient.MobilePhoneNumber = "6145550100"   // shipping needs a patient phone
	params.Shipping = &orders.ShippingParams{
		Carrier:        orders.CarrierPostal,
		CarrierService: orders.CarrierServicePostalPriorityMail,
		Signature:      orders.SignatureRequired,
		Weight:         orders.Weight{Unit: orders.WeightUnitOunce, Value: rxdelivery.MustDecimal("12")},
		PackageCode:    orders.PackagePostalSmallFlatRateBox,
	}
	created, err := client.Orders.Create(ctx, params)
	if err != nil {
		log.Fatal(err)
	}
	order, err := client.Orders.Get(ctx, created.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(order.Shipping.Carrier, order.Shipping.TrackingNumber != "", order.Shipping.LabelPDF != "")
	// Output:
	// POSTAL true true
}

// Cancelling an order while it is cancellable, and the platform's refusal
// once the courier has picked it up (ErrUnableToCancel).
func ExampleService_Cancel() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}

	if err := client.Orders.Cancel(ctx, order.ID); err != nil {
		log.Fatal(err)
	}
	got, err := client.Orders.Get(ctx, order.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.Status, got.Cancellation.Reason)

	// Once the courier has it, the platform refuses.
	again, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}
	srv.Advance(2 * 30 * time.Second) // submitted to courier, then picked up
	err = client.Orders.Cancel(ctx, again.ID)
	fmt.Println(errors.Is(err, rxdelivery.ErrUnableToCancel))
	// Output:
	// cancelled Order Canceled
	// true
}

// Adding a prescription to an existing order, then removing it; removing it
// twice finds nothing.
func ExampleService_AddPrescription() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}

	rx := rxdeliverytest.SamedayOrderParams().Prescriptions[0]
	rx.Number = "RX100002"
	rx.Refrigeration = orders.RefrigerationFridge
	updated, err := client.Orders.AddPrescription(ctx, order.ID, &rx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(updated.ID, updated.Status)
	if err := client.Orders.RemovePrescription(ctx, order.ID, "RX100002"); err != nil {
		log.Fatal(err)
	}
	err = client.Orders.RemovePrescription(ctx, order.ID, "RX100002")
	fmt.Println(errors.Is(err, rxdelivery.ErrNotFound))
	// Output:
	// ord_000001 new
	// true
}

// Reading several orders in one call.
func ExampleService_GetMany() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	var ids []string
	for i := 0; i < 2; i++ {
		order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
		if err != nil {
			log.Fatal(err)
		}
		ids = append(ids, order.ID)
	}
	srv.Advance(30 * time.Second)

	list, err := client.Orders.GetMany(ctx, ids)
	if err != nil {
		log.Fatal(err)
	}
	for _, o := range list {
		fmt.Println(o.ID, o.Status)
	}
	// Output:
	// ord_000001 submitted_to_courier
	// ord_000002 submitted_to_courier
}
