package sandbox

import (
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestRealClockShowsAStatusFromItsOccurredAtOn: on a clock that moves with
// real time, a read received at or after a status's occurred_at shows that
// status. The platform writes occurred_at to the second; a step that fell
// at a fraction of a second used to show an occurred_at up to a second
// before the reads showed the step, and a read that arrived just as a
// step fell waited for the background goroutine to wake.
func TestRealClockShowsAStatusFromItsOccurredAtOn(t *testing.T) {
	t.Parallel()
	clock := NewShiftClock()
	h := newHarness(t, Config{Clock: clock, OrderCadence: time.Second})
	// Create the order half-way through a second, where the lag was
	// widest.
	now := clock.Now()
	clock.Advance(1500*time.Millisecond - now.Sub(now.Truncate(time.Second)))
	id := h.createOrder(orderBody(""))

	type read struct {
		pickup, delivery bool
	}
	var reads []read
	var pickedUp, delivered string
	for deadline := time.Now().Add(10 * time.Second); delivered == "" && time.Now().Before(deadline); {
		r := h.do("GET", "/delivery/api/v1/orders/"+id, nil)
		if r.status != http.StatusOK {
			t.Fatalf("read answered %d: %s", r.status, r.body)
		}
		o := r.obj(t)
		p, _ := at(o, "order.pickup.occurred_at").(string)
		d, _ := at(o, "order.delivery.occurred_at").(string)
		reads = append(reads, read{pickup: p != "", delivery: d != ""})
		pickedUp, delivered = p, d
		time.Sleep(2 * time.Millisecond)
	}
	if delivered == "" {
		t.Fatal("the order was not delivered within 10 s on a cadence of 1 s")
	}
	p, err := time.Parse(time.RFC3339, pickedUp)
	if err != nil {
		t.Fatal(err)
	}
	d, err := time.Parse(time.RFC3339, delivered)
	if err != nil {
		t.Fatal(err)
	}
	var received []time.Time
	for _, c := range h.srv.Stats().Calls {
		if c.Operation == OpOrdersGet {
			received = append(received, c.SimulatedAt)
		}
	}
	if len(received) != len(reads) {
		t.Fatalf("%d reads recorded, %d made", len(received), len(reads))
	}
	late := 0
	for i, r := range reads {
		if (!received[i].Before(p) && !r.pickup) || (!received[i].Before(d) && !r.delivery) {
			late++
			if late <= 3 {
				t.Errorf("a read received at %s did not show the pickup at %s or the delivery at %s",
					received[i].Format(time.RFC3339Nano), pickedUp, delivered)
			}
		}
	}
	if late > 0 {
		t.Errorf("%d of %d reads missed a status whose occurred_at had passed", late, len(reads))
	}
}

// jumpClock is a real-time Clock (neither a ManualClock nor a ShiftClock)
// that a test moves without telling the sandbox, as wall time moves past
// a due step while the background goroutine has not woken yet.
type jumpClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *jumpClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *jumpClock) jump(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestReadsCatchUpWithDueSteps: a read shows every step due when it
// arrives, even while the background goroutine that applies steps on a
// real-time clock is still asleep (here, for the minute of the cadence
// its timer measured before the clock moved).
func TestReadsCatchUpWithDueSteps(t *testing.T) {
	t.Parallel()
	clock := &jumpClock{now: DefaultManualStart}
	h := newHarness(t, Config{Clock: clock, OrderCadence: time.Minute})
	id := h.createOrder(orderBody(""))
	clock.jump(2 * time.Minute)
	o := h.do("GET", "/delivery/api/v1/orders/"+id, nil).obj(t)
	if got := at(o, "order.status"); got != orderPickedUp {
		t.Errorf("two cadences after its creation the order reads %v, want %q", got, orderPickedUp)
	}
	if got := at(o, "order.pickup.occurred_at"); got != tsSeconds(DefaultManualStart.Add(2*time.Minute)) {
		t.Errorf("pickup occurred_at %v, want two cadences after the creation", got)
	}
}

// TestStateReadsCatchUpWithDueSteps: the sandbox's own state reads (the
// test kit's OrderStatus, Orders and the like) show the steps due when
// they are called, as a call does.
func TestStateReadsCatchUpWithDueSteps(t *testing.T) {
	t.Parallel()
	clock := &jumpClock{now: DefaultManualStart}
	h := newHarness(t, Config{Clock: clock, OrderCadence: time.Minute})
	id := h.createOrder(orderBody(""))
	clock.jump(2 * time.Minute)
	if got, _ := h.srv.OrderStatus(id); got != orderPickedUp {
		t.Errorf("OrderStatus two cadences after the creation = %q, want %q", got, orderPickedUp)
	}
	clock.jump(time.Minute)
	if got := h.srv.Orders()[0].Status; got != orderDelivered {
		t.Errorf("Orders three cadences after the creation shows %q, want %q", got, orderDelivered)
	}
}

// TestStepsFallOnWholeSeconds: a request or an order created between two
// seconds takes its first step on the last whole second before its
// creation plus the cadence, and the next ones at the cadence, so each
// step becomes visible exactly at the occurred_at it shows (written to
// the second). A step due at a fraction of a second showed an occurred_at
// up to a second before any read could see it.
func TestStepsFallOnWholeSeconds(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	start := h.clock.Now()
	h.clock.Advance(500 * time.Millisecond)
	id := h.createOrder(orderBody(""))
	req := h.createRequest(with(omniBody(), "test_meta", map[string]any{"scenario": "successful_delivery", "duration_between": 30}))

	// Two cadences after the creation, less 400 ms: past the order's second
	// step's whole second.
	h.clock.Advance(2*cadence - 400*time.Millisecond)
	o := h.do("GET", "/delivery/api/v1/orders/"+id, nil).obj(t)
	if got, want := at(o, "order.pickup.occurred_at"), tsSeconds(start.Add(2*cadence)); got != want {
		t.Errorf("the order's pickup at %s: occurred_at %v, want %s", h.clock.Now().Format(time.RFC3339Nano), got, want)
	}
	// The request picks up on its third step.
	h.clock.Advance(cadence)
	r := h.do("GET", "/omni/api/v1/requests/"+req, nil).obj(t)
	if got, want := at(r, "request.order.pickup.occurred_at"), tsOffset(start.Add(3*cadence)); got != want {
		t.Errorf("the request's pickup at %s: occurred_at %v, want %s", h.clock.Now().Format(time.RFC3339Nano), got, want)
	}
}
