package sandbox

import (
	"net/http"
	"testing"
	"time"
)

// httptest: a notification of a step caught up on arrival is delivered over TLS to a real listener, and the test watches it arrive there.

// TestCaughtUpNotificationsAreDelivered: the tracking notifications of the
// steps a call applied on arrival are delivered then, not when the
// background goroutine would have woken for the next step.
func TestCaughtUpNotificationsAreDelivered(t *testing.T) {
	t.Parallel()
	l := newListener(t)
	clock := &jumpClock{now: DefaultManualStart}
	h := newHarness(t, Config{Clock: clock, NotifyClient: l.srv.Client(), OrderCadence: time.Hour})
	id := h.createOrder(orderBody("shipping"))
	tn, _ := h.srv.OrderTrackingNumber(id)
	r := h.do("POST", "/tracking/tracking/v1/subscriptions", map[string]any{"tracking_number": tn, "listener_url": l.srv.URL})
	if r.status != http.StatusCreated {
		t.Fatalf("subscribe: %d %s", r.status, r.body)
	}
	clock.jump(time.Hour)
	if got := at(h.do("GET", "/delivery/api/v1/orders/"+id, nil).obj(t), "order.status"); got != orderPickedUp {
		t.Fatalf("an hour after its creation the shipment reads %v, want %q", got, orderPickedUp)
	}
	// The goroutine's timer was set for an hour of real time; the
	// notification must not wait for it.
	for end := time.Now().Add(10 * time.Second); len(l.got()) == 0 && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
	if got := l.got(); len(got) != 1 || got[0]["status"] != "Accepted" {
		t.Errorf("the listener got %v, want the Accepted notification", got)
	}
}
