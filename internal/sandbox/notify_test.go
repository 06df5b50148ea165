package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// httptest: the simulator delivers tracking notifications over TLS to real listeners: one that answers, one closed, one whose certificate is not trusted, one stuck mid-delivery until Close.

// listener is an httptest TLS server recording the notifications it gets.
type listener struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies []map[string]any
	ctypes []string
	status int
}

func newListener(t *testing.T) *listener {
	l := &listener{status: http.StatusNoContent}
	l.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		l.mu.Lock()
		l.bodies = append(l.bodies, m)
		l.ctypes = append(l.ctypes, r.Header.Get("Content-Type"))
		status := l.status
		l.mu.Unlock()
		w.WriteHeader(status)
	}))
	l.srv.Config.ErrorLog = log.New(io.Discard, "", 0) // quiet the refused handshakes
	l.srv.StartTLS()
	t.Cleanup(l.srv.Close)
	return l
}

func (l *listener) got() []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]map[string]any(nil), l.bodies...)
}

func TestShippingOrderNotifiesSubscription(t *testing.T) {
	t.Parallel()
	l := newListener(t)
	h := newHarness(t, Config{NotifyClient: l.srv.Client(), OrderCadence: cadence})
	id := h.createOrder(orderBody("shipping"))
	tn, _ := h.srv.OrderTrackingNumber(id)
	r := h.do("POST", "/tracking/tracking/v1/subscriptions", map[string]any{"tracking_number": tn, "listener_url": l.srv.URL + "/hook", "reference_id": "ref-9"})
	require.Equal(t, http.StatusCreated, r.status)

	h.clock.Advance(cadence)
	got := l.got()
	require.Len(t, got, 1, "Advance delivers due notifications before returning")
	n := got[0]
	assert.Equal(t, "ref-9", n["reference_id"])
	assert.Equal(t, tn, n["tracking_number"])
	assert.Equal(t, "POSTAL", n["carrier"])
	assert.Equal(t, "Accepted", n["status"])
	assert.NotEmpty(t, n["status_text"])
	assert.Equal(t, "2025-01-06T14:00:30.000Z", n["status_occurred_at"])
	assert.Equal(t, "2025-01-06T14:00:30.000Z", n["timestamp"])
	assert.Len(t, n["tracking_events"], 1)
	assert.Equal(t, "application/json", l.ctypes[0])

	h.clock.Advance(3 * cadence)
	got = l.got()
	require.Len(t, got, 4)
	var statuses []string
	for _, g := range got {
		statuses = append(statuses, g["status"].(string))
	}
	assert.Equal(t, []string{"Accepted", "Moving Through Network", "Out for Delivery", "Delivered"}, statuses)
	events := got[3]["tracking_events"].([]any)
	require.Len(t, events, 4)
	assert.Equal(t, "Accepted", at(events[0], "status"))
	assert.Equal(t, "2025-01-06T14:02:00.000Z", at(events[3], "status_occurred_at"))

	st := h.srv.Stats()
	require.Len(t, st.Notifications, 4)
	assert.Equal(t, http.StatusNoContent, st.Notifications[0].StatusCode)
	assert.Empty(t, st.Notifications[0].Err)
	status, reason, ok := h.srv.SubscriptionStatus(tn)
	assert.True(t, ok)
	assert.Equal(t, "ENABLED", status)
	assert.Empty(t, reason)
}

func TestEmitTrackingAndSuspension(t *testing.T) {
	t.Parallel()
	l := newListener(t)
	h := newHarness(t, Config{NotifyClient: l.srv.Client()})

	// A listener answering 500 keeps the subscription enabled.
	l.mu.Lock()
	l.status = http.StatusInternalServerError
	l.mu.Unlock()
	h.do("POST", "/tracking/tracking/v1/subscriptions", map[string]any{"tracking_number": "1ZAAA", "listener_url": l.srv.URL})
	h.srv.EmitTracking("1ZAAA", "Accepted")
	assert.Len(t, l.got(), 1)
	assert.Equal(t, "PARCELA", l.got()[0]["carrier"])
	assert.False(t, has(l.got()[0], "reference_id"))
	status, _, _ := h.srv.SubscriptionStatus("1ZAAA")
	assert.Equal(t, "ENABLED", status)
	assert.Equal(t, http.StatusInternalServerError, h.srv.Stats().Notifications[0].StatusCode)

	// An unreachable listener suspends it, and notifications stop.
	closed := httptest.NewTLSServer(http.NotFoundHandler())
	dead := closed.URL
	closed.Close()
	h.do("POST", "/tracking/tracking/v1/subscriptions", map[string]any{"tracking_number": "9400", "listener_url": dead})
	h.srv.EmitTracking("9400", "Accepted")
	status, reason, ok := h.srv.SubscriptionStatus("9400")
	require.True(t, ok)
	assert.Equal(t, "SUSPENDED", status)
	assert.Equal(t, "Listener URL could not be reached", reason)
	r := h.do("GET", "/tracking/tracking/v1/subscriptions?tracking_number=9400", nil).obj(t)
	assert.Equal(t, "SUSPENDED", r["subscription_status"])
	assert.Equal(t, "Listener URL could not be reached", r["subscription_status_reason"])
	n := len(h.srv.Stats().Notifications)
	h.srv.EmitTracking("9400", "Delivered")
	assert.Len(t, h.srv.Stats().Notifications, n, "no notification while suspended")

	// A listener whose certificate is not trusted cannot be reached either.
	h2 := newHarness(t, Config{})
	h2.do("POST", "/tracking/tracking/v1/subscriptions", map[string]any{"tracking_number": "9401", "listener_url": l.srv.URL})
	h2.srv.EmitTracking("9401", "Accepted")
	status, _, _ = h2.srv.SubscriptionStatus("9401")
	assert.Equal(t, "SUSPENDED", status)

	// Subscribing again re-enables.
	h.do("POST", "/tracking/tracking/v1/subscriptions", map[string]any{"tracking_number": "9400", "listener_url": l.srv.URL})
	status, _, _ = h.srv.SubscriptionStatus("9400")
	assert.Equal(t, "ENABLED", status)
	h.srv.EmitTracking("9400", "Delivered")
	last := l.got()[len(l.got())-1]
	assert.Len(t, last["tracking_events"], 3, "history includes the events while suspended")

	// Numbers nobody subscribed to are recorded silently.
	h.srv.EmitTracking("unknown", "Accepted")
	_, _, ok = h.srv.SubscriptionStatus("unknown")
	assert.False(t, ok)
}

func TestCloseInterruptsNotificationInFlight(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 10)
	l := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer l.Close()
	defer close(release)

	srv := NewServer(Config{Key: testKey, Secret: testSecret, OrderCadence: 300 * time.Millisecond, NotifyClient: l.Client()})
	h := &harness{t: t, srv: srv}
	id := h.createOrder(orderBody("shipping"))
	tn, _ := srv.OrderTrackingNumber(id)
	// Subscribe before the first tracking event, then wait until the driver
	// goroutine is stuck delivering it.
	h.do("POST", "/tracking/tracking/v1/subscriptions", map[string]any{"tracking_number": tn, "listener_url": l.URL})
	<-entered
	assert.Equal(t, 1, sandboxGoroutines())

	start := time.Now()
	srv.Close()
	assert.Less(t, time.Since(start), 5*time.Second)
	requireNoSandboxGoroutine(t)
	status, _, _ := srv.SubscriptionStatus(tn)
	assert.Equal(t, "ENABLED", status, "a delivery cut by Close does not suspend")
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	l := newListener(t)
	// The loop advances the clock by 120 s at most: with a 10-minute cadence
	// every order is subscribed before its first tracking event.
	h := newHarness(t, Config{NotifyClient: l.srv.Client(), OrderCadence: 10 * time.Minute})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var requests []string
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 15; i++ {
				req := with(omniBody(), "external_reference_number", fmt.Sprintf("w%d-%d", w, i),
					"test_meta", map[string]any{"scenario": "successful_delivery", "duration_between": 1})
				rid := h.createRequest(req)
				mu.Lock()
				requests = append(requests, rid)
				mu.Unlock()
				oid := h.createOrder(with(orderBody("shipping"), "external_reference_number", fmt.Sprintf("w%d-%d", w, i)))
				tn, _ := h.srv.OrderTrackingNumber(oid)
				h.do("POST", "/tracking/tracking/v1/subscriptions", map[string]any{"tracking_number": tn, "listener_url": l.srv.URL})
				h.do("GET", "/omni/api/v1/requests/?ids[]="+rid, nil)
				h.do("GET", "/delivery/api/v1/orders/"+oid, nil)
				h.do("GET", "/omni/api/v1/pharmacies/?place_id=p"+fmt.Sprint(i%3), nil)
				h.do("POST", "/pricing/pricing/v1/quotes", quoteBody())
				if i%5 == 0 {
					h.srv.InjectFault(Fault{Kind: FaultUnavailable, PathPrefix: "/nothing"})
					h.srv.EmitTracking(tn, "Moving Through Network")
				}
				h.clock.Advance(time.Second)
				_ = h.srv.Stats()
			}
		}(w)
	}
	wg.Wait()
	h.clock.Advance(time.Hour)
	st := h.srv.Stats()
	assert.Equal(t, 120, st.RequestsCreated)
	assert.Equal(t, 120, st.OrdersCreated)
	assert.Equal(t, 0, st.DuplicateCreates)
	for _, n := range st.Notifications {
		assert.Empty(t, n.Err)
	}
	assert.Len(t, l.got(), 120*4+8*3, "four events per order and the emitted ones")
	for _, id := range requests {
		st, _ := h.srv.RequestOrderStatus(id)
		assert.Equal(t, "delivered", st)
	}
}
