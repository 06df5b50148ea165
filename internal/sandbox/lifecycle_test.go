package sandbox

import (
	"runtime"
	"strings"
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
