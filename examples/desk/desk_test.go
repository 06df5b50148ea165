package desk_test

// Tests of "user code" (package desk) through the public test kit. The
// imports are public packages only: this file can be copied into a
// project that depends on the SDK.

import (
	"context"
	"errors"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/examples/desk"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

func TestDispatchFollowsACourierOrderToDelivery(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	d := desk.New(srv.Client())
	ctx := context.Background()

	del, err := d.Dispatch(ctx, "pharm-0001", rxdeliverytest.SamedayOrderParams())
	if err != nil {
		t.Fatal(err)
	}
	if del.Status != rxtypes.OrderStatusNew {
		t.Fatalf("status after create = %q, want new", del.Status)
	}

	// Three courier steps: submitted, picked up, delivered. No sleeping.
	srv.Advance(3 * rxdeliverytest.DefaultOrderCadence)
	del, err = d.Refresh(ctx, "pharm-0001")
	if err != nil {
		t.Fatal(err)
	}
	if del.Status != rxtypes.OrderStatusDelivered {
		t.Fatalf("status = %q, want delivered", del.Status)
	}

	// What went over the wire: one create, carrying our reference and the
	// fee as an exact amount.
	creates := srv.CallsTo(rxdeliverytest.OrdersCreate)
	if len(creates) != 1 {
		t.Fatalf("%d creates, want 1", len(creates))
	}
	if got := creates[0].Body["external_reference_number"]; got != "pharm-0001" {
		t.Errorf("external_reference_number = %v", got)
	}
	if got := creates[0].Body["delivery_fee"]; got == nil || got.(interface{ String() string }).String() != "5.00" {
		t.Errorf("delivery_fee = %v, want 5.00", got)
	}

	// A second dispatch of the same reference does not call the platform.
	if _, err := d.Dispatch(ctx, "pharm-0001", rxdeliverytest.SamedayOrderParams()); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.CallsTo(rxdeliverytest.OrdersCreate)); n != 1 {
		t.Errorf("%d creates after a repeated dispatch, want 1", n)
	}
}

func TestLostCreateAnswerIsReconciledNotRepeated(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	d := desk.New(srv.Client())
	ctx := context.Background()

	// The platform creates the order, and its answer is lost.
	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.CommittedThenFailed())
	_, err := d.Dispatch(ctx, "pharm-0002", rxdeliverytest.SamedayOrderParams())
	if !errors.Is(err, desk.ErrNeedsReconciliation) {
		t.Fatalf("err = %v, want ErrNeedsReconciliation", err)
	}
	if del, _ := d.Get("pharm-0002"); !del.NeedsReconciliation {
		t.Fatal("the delivery is not marked for reconciliation")
	}

	// Dispatching again must not create a second order.
	if _, err := d.Dispatch(ctx, "pharm-0002", rxdeliverytest.SamedayOrderParams()); !errors.Is(err, desk.ErrNeedsReconciliation) {
		t.Fatalf("second dispatch: err = %v", err)
	}
	created := srv.Orders()
	if len(created) != 1 || len(srv.CallsTo(rxdeliverytest.OrdersCreate)) != 1 {
		t.Fatalf("orders %v after the lost answer, want exactly one, created once", created)
	}

	// The operator finds the order (here: in the simulator) and resolves.
	if _, err := d.Resolve(ctx, "pharm-0002", "ord_999999"); err == nil {
		t.Error("resolving with an unknown order succeeded")
	}
	del, err := d.Resolve(ctx, "pharm-0002", created[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if del.NeedsReconciliation || del.OrderID != created[0].ID {
		t.Fatalf("after resolve: %+v", del)
	}
}

func TestCreateRefusedByThePlatformMayBeDispatchedAgain(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	d := desk.New(srv.Client())
	ctx := context.Background()

	// Rate limited beyond the client's wait cap: the platform provably did
	// nothing, so the reference is free again.
	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.RateLimited(rxdeliverytest.DefaultOrderCadence))
	_, err := d.Dispatch(ctx, "pharm-0003", rxdeliverytest.SamedayOrderParams())
	var apiErr *rxdelivery.APIError
	if !errors.As(err, &apiErr) || apiErr.RetryAfter != rxdeliverytest.DefaultOrderCadence {
		t.Fatalf("err = %v, want a 429 carrying Retry-After", err)
	}
	// The Retry-After pauses the delivery interface for every caller: a
	// dispatch before it ends sends nothing and says so.
	if _, err := d.Dispatch(ctx, "pharm-0003", rxdeliverytest.SamedayOrderParams()); !errors.Is(err, rxdelivery.ErrNotSent) {
		t.Fatalf("dispatch inside the pause: err = %v, want it not sent", err)
	}
	if n := len(srv.CallsTo(rxdeliverytest.OrdersCreate)); n != 1 {
		t.Fatalf("%d creates reached the platform inside the pause, want 1", n)
	}
	srv.Advance(rxdeliverytest.DefaultOrderCadence)
	if _, err := d.Dispatch(ctx, "pharm-0003", rxdeliverytest.SamedayOrderParams()); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Orders()); n != 1 {
		t.Fatalf("%d orders, want 1", n)
	}
}

func TestShippingNotificationsReachTheDesk(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	d := desk.New(srv.Client())
	// The listener URL leads to the desk's handler, in-process: no TLS,
	// port or network.
	listener := srv.Listener(d.NotificationHandler())
	d.ListenerURL = listener
	ctx := context.Background()

	p := rxdeliverytest.SamedayOrderParams()
	p.ServiceLevel = orders.ServiceLevelShipping
	p.DeliveryFee, p.RxAmountDue = nil, nil
	p.Patient.MobilePhoneNumber = "6145550100"
	p.Shipping = &orders.ShippingParams{
		Carrier: orders.CarrierPostal, CarrierService: orders.CarrierServicePostalPriorityMail, Signature: orders.SignatureNone,
		Weight:      orders.Weight{Unit: orders.WeightUnitOunce, Value: rxdelivery.MustDecimal("8")},
		PackageCode: orders.PackagePostalSmallFlatRateBox,
	}
	del, err := d.Dispatch(ctx, "pharm-0004", p)
	if err != nil {
		t.Fatal(err)
	}
	if del.TrackingNumber == "" {
		t.Fatal("no tracking number")
	}
	if subs := srv.CallsTo(rxdeliverytest.TrackingSubscribe); len(subs) != 1 || subs[0].Body["listener_url"] != listener {
		t.Fatalf("subscribe calls: %+v", subs)
	}

	srv.Advance(rxdeliverytest.DefaultOrderCadence) // the carrier accepts the parcel
	if got, _ := d.Get("pharm-0004"); got.TrackingStatus != tracking.TrackingAccepted {
		t.Fatalf("tracking status = %q, want Accepted", got.TrackingStatus)
	}
	srv.Track(del.TrackingNumber, "Delivered") // or jump to any status
	if got, _ := d.Get("pharm-0004"); got.TrackingStatus != "Delivered" {
		t.Fatalf("tracking status = %q, want Delivered", got.TrackingStatus)
	}
	for _, n := range srv.Notifications() {
		if n.StatusCode != 204 {
			t.Errorf("the desk answered %d to %s", n.StatusCode, n.Status)
		}
	}
}
