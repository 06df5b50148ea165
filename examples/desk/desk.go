// Package desk is a small piece of "user code" built on the SDK, kept as
// an example of how to test such code with the public test kit,
// rxdeliverytest: see desk_test.go, which imports only public packages and
// could be copied into a project of your own.
//
// A Desk dispatches deliveries for a pharmacy's own records, keyed by the
// pharmacy's reference. It never creates a delivery twice: when a create
// fails with an unknown outcome (the platform may have created the order
// and the response was lost), the delivery waits for reconciliation instead
// of being created again. It follows courier orders by polling and
// shipping orders through tracking notifications.
package desk

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// ErrNeedsReconciliation is returned by Dispatch when the platform may or
// may not have created the order: someone must find out (Resolve) before
// anything is sent again for that reference.
var ErrNeedsReconciliation = errors.New("desk: outcome unknown, reconcile before dispatching again")

// Delivery is the desk's record of one delivery.
type Delivery struct {
	// Reference is the pharmacy's reference, sent as the order's
	// external_reference_number.
	Reference string
	// OrderID is the platform's order identifier ("" while unknown).
	OrderID string
	// Status is the order's last known status.
	Status rxtypes.OrderStatus
	// TrackingNumber is a shipping order's tracking number.
	TrackingNumber string
	// TrackingStatus is the last tracking status notified.
	TrackingStatus tracking.TrackingStatus
	// NeedsReconciliation is true after a create with an unknown outcome.
	NeedsReconciliation bool
}

// Desk dispatches and follows deliveries. It is safe for concurrent use.
type Desk struct {
	// ListenerURL is the https URL where NotificationHandler is served;
	// shipping orders' tracking numbers are subscribed with it. Empty
	// subscribes nothing. Set it before the first Dispatch.
	ListenerURL string

	client *rxdelivery.Client

	mu    sync.Mutex
	byRef map[string]*Delivery
}

// New returns a Desk that calls the platform with client.
func New(client *rxdelivery.Client) *Desk {
	return &Desk{client: client, byRef: map[string]*Delivery{}}
}

// Dispatch creates the order for p under reference ref, once. A reference
// already dispatched is returned as it is, without calling the platform;
// one waiting for reconciliation returns ErrNeedsReconciliation.
func (d *Desk) Dispatch(ctx context.Context, ref string, p *orders.CreateParams) (Delivery, error) {
	d.mu.Lock()
	if del, ok := d.byRef[ref]; ok {
		defer d.mu.Unlock()
		if del.NeedsReconciliation {
			return *del, ErrNeedsReconciliation
		}
		return *del, nil
	}
	del := &Delivery{Reference: ref}
	d.byRef[ref] = del // claimed: a concurrent Dispatch of ref sees it
	d.mu.Unlock()

	p.ExternalReferenceNumber = ref
	order, err := d.client.Orders.Create(ctx, p)
	switch {
	case errors.Is(err, rxdelivery.ErrUnknownOutcome):
		d.mu.Lock()
		del.NeedsReconciliation = true
		out := *del
		d.mu.Unlock()
		return out, ErrNeedsReconciliation
	case err != nil:
		d.mu.Lock()
		delete(d.byRef, ref) // known not created: may be dispatched again
		d.mu.Unlock()
		return Delivery{}, err
	}
	return d.adopt(ctx, del, order.ID)
}

// Resolve ends the reconciliation of ref with the order an operator found
// for it (on the platform's dashboard, for instance): it reads the order,
// checks that it carries ref, and follows it from then on.
func (d *Desk) Resolve(ctx context.Context, ref, orderID string) (Delivery, error) {
	d.mu.Lock()
	del, ok := d.byRef[ref]
	d.mu.Unlock()
	if !ok || !del.NeedsReconciliation {
		return Delivery{}, fmt.Errorf("desk: %s is not waiting for reconciliation", ref)
	}
	return d.adopt(ctx, del, orderID)
}

// adopt reads order id, checks its reference, records it and subscribes
// its tracking number.
func (d *Desk) adopt(ctx context.Context, del *Delivery, id string) (Delivery, error) {
	order, err := d.client.Orders.Get(ctx, id)
	if err != nil {
		return Delivery{}, err
	}
	if order.ExternalReferenceNumber != del.Reference {
		return Delivery{}, fmt.Errorf("desk: order %s belongs to another reference", id)
	}
	d.mu.Lock()
	del.OrderID, del.Status, del.NeedsReconciliation = order.ID, order.Status, false
	if order.Shipping != nil {
		del.TrackingNumber = order.Shipping.TrackingNumber
	}
	out := *del
	d.mu.Unlock()
	if out.TrackingNumber != "" && d.ListenerURL != "" {
		_, err := d.client.Tracking.Subscribe(ctx, &tracking.SubscribeParams{
			TrackingNumber: out.TrackingNumber, ListenerURL: d.ListenerURL, ReferenceID: out.Reference,
		})
		if err != nil {
			return out, fmt.Errorf("desk: subscribing %s: %w", out.Reference, err)
		}
	}
	return out, nil
}

// Refresh reads the order of ref again and records its status.
func (d *Desk) Refresh(ctx context.Context, ref string) (Delivery, error) {
	d.mu.Lock()
	del, ok := d.byRef[ref]
	var id string
	if ok {
		id = del.OrderID
	}
	d.mu.Unlock()
	if id == "" {
		return Delivery{}, fmt.Errorf("desk: no known order for %s", ref)
	}
	order, err := d.client.Orders.Get(ctx, id)
	if err != nil {
		return Delivery{}, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	del.Status = order.Status
	return *del, nil
}

// Get returns the desk's record of ref.
func (d *Desk) Get(ref string) (Delivery, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	del, ok := d.byRef[ref]
	if !ok {
		return Delivery{}, false
	}
	return *del, true
}

// NotificationHandler returns the http.Handler to serve at the listener
// URL: it records the tracking status of each notification on the
// delivery it belongs to.
func (d *Desk) NotificationHandler() http.Handler {
	return tracking.NewHandler(func(_ context.Context, n *tracking.Notification) error {
		d.mu.Lock()
		defer d.mu.Unlock()
		for _, del := range d.byRef {
			if del.TrackingNumber == n.TrackingNumber {
				del.TrackingStatus = n.Status
				return nil
			}
		}
		return fmt.Errorf("desk: no delivery for a notified tracking number")
	})
}
