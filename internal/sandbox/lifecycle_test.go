package sandbox

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sandboxGoroutines counts the goroutines running a method of a Sandbox.
func sandboxGoroutines() int {
	buf := make([]byte, 1<<22)
	n := runtime.Stack(buf, true)
	count := 0
	for _, g := range strings.Split(string(buf[:n]), "\n\n") {
		if strings.Contains(g, "internal/sandbox.(*Sandbox).") {
			count++
		}
	}
	return count
}

// requireNoSandboxGoroutine fails unless every goroutine of a Sandbox has
// ended. A goroutine that Close waited for may still be returning from its
// last frame for a moment, so the check retries for a while, as leak checkers do.
func requireNoSandboxGoroutine(t *testing.T) {
	t.Helper()
	require.Eventually(t, func() bool { return sandboxGoroutines() == 0 }, 10*time.Second, time.Millisecond)
}

func TestRealClockDrivesOrdersAndCloseStopsIt(t *testing.T) {
	requireNoSandboxGoroutine(t)
	srv := NewServer(Config{Key: testKey, Secret: testSecret, OrderCadence: 20 * time.Millisecond})
	h := &harness{t: t, srv: srv}
	assert.Equal(t, 0, sandboxGoroutines(), "nothing runs before something is scheduled")
	id := h.createOrder(orderBody(""))
	require.Eventually(t, func() bool {
		st, _ := srv.OrderStatus(id)
		return st == "delivered"
	}, 5*time.Second, 5*time.Millisecond)
	assert.Equal(t, 1, sandboxGoroutines(), "one driver goroutine")
	// An order created later is picked up by the same goroutine.
	id2 := h.createOrder(orderBody("ondemand"))
	require.Eventually(t, func() bool {
		st, _ := srv.OrderStatus(id2)
		return st == "delivered"
	}, 5*time.Second, 5*time.Millisecond)
	assert.Equal(t, 1, sandboxGoroutines())
	srv.Close()
	requireNoSandboxGoroutine(t)
	srv.Close() // idempotent
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

func TestManualClockStartsNoGoroutine(t *testing.T) {
	h := newHarness(t, Config{})
	h.createOrder(orderBody(""))
	h.createRequest(with(omniBody(), "test_meta", map[string]any{"scenario": "successful_delivery"}))
	assert.Equal(t, 0, sandboxGoroutines())
	h.clock.Advance(time.Hour)
	assert.Equal(t, 0, sandboxGoroutines())
}

func TestManualClock(t *testing.T) {
	t.Parallel()
	c := NewManualClock(time.Time{})
	assert.Equal(t, DefaultManualStart, c.Now())
	c.Advance(-time.Hour)
	assert.Equal(t, DefaultManualStart, c.Now(), "never goes back")
	calls := 0
	unregister := c.register(func() { calls++ })
	c.Advance(time.Minute)
	assert.Equal(t, 1, calls)
	unregister()
	c.Advance(time.Minute)
	assert.Equal(t, 1, calls)
	assert.Equal(t, DefaultManualStart.Add(2*time.Minute), c.Now())

	var zero ManualClock // the zero value works too
	zero.register(func() {})
	zero.Advance(time.Second)
	assert.Equal(t, time.Time{}.Add(time.Second), zero.Now())

	assert.WithinDuration(t, time.Now(), RealClock{}.Now(), time.Second)
}

func TestSharedManualClockDrivesEverySandbox(t *testing.T) {
	t.Parallel()
	clock := NewManualClock(time.Time{})
	a := newHarness(t, Config{Clock: clock})
	b := newHarness(t, Config{Clock: clock})
	ida := a.createOrder(orderBody(""))
	idb := b.createOrder(orderBody(""))
	clock.Advance(time.Hour)
	sa, _ := a.srv.OrderStatus(ida)
	sb, _ := b.srv.OrderStatus(idb)
	assert.Equal(t, "delivered", sa)
	assert.Equal(t, "delivered", sb)

	a.srv.Close()
	idb2 := b.createOrder(orderBody(""))
	clock.Advance(time.Hour) // a closed sandbox is no longer called
	sb, _ = b.srv.OrderStatus(idb2)
	assert.Equal(t, "delivered", sb)
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
