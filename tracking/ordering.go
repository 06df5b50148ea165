package tracking

import (
	"context"
	"sync"
	"time"
)

// Marks keep, for each tracking number, the latest status_occurred_at a
// handler has processed, so that a notification at or before it is known to
// be stale: a late or repeated delivery of an older state. A Marks shared
// by every replica of a listener (a store of the journal module) orders
// notifications across them; [NewMemoryMarks] orders those of one process.
//
// Implementations must be safe for concurrent use and make each method one
// atomic conditional write, holding no lock in the process between Advance
// and the callback. (A store may keep a lease with the mark, as the journal
// module's Journal.TrackingHandler does, so that replicas run a tracking
// number's callbacks one at a time; that lease lives in the store and ends
// by itself when its holder dies.)
type Marks interface {
	// Advance moves the mark of trackingNumber to at when at is after it
	// (or there is none), and reports whether it moved and the mark it
	// replaced (the zero time for none).
	Advance(ctx context.Context, trackingNumber string, at time.Time) (moved bool, prev time.Time, err error)
	// Retreat moves the mark of trackingNumber back to prev when it is
	// still at: the callback of the notification at failed, and its
	// redelivery must not be taken for stale.
	Retreat(ctx context.Context, trackingNumber string, at, prev time.Time) error
}

// NewMemoryMarks returns [Marks] kept in this process's memory: they order
// the notifications one process receives. Replicas behind a load balancer
// need shared marks (the journal module's stores).
func NewMemoryMarks() Marks { return &memoryMarks{m: map[string]time.Time{}} }

type memoryMarks struct {
	mu    sync.Mutex
	m     map[string]time.Time
	order [64]sync.Mutex // by stripeOf: one notification of a number at a time
}

// lockNumber serialises the notifications of a tracking number for every
// handler sharing m.
func (m *memoryMarks) lockNumber(n string) func() {
	l := &m.order[stripeOf(n)]
	l.Lock()
	return l.Unlock
}

func (m *memoryMarks) Advance(_ context.Context, n string, at time.Time) (bool, time.Time, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	prev, ok := m.m[n]
	if ok && !at.After(prev) {
		return false, prev, nil
	}
	m.m[n] = at
	return true, prev, nil
}

func (m *memoryMarks) Retreat(_ context.Context, n string, at, prev time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if cur, ok := m.m[n]; ok && cur.Equal(at) {
		if prev.IsZero() {
			delete(m.m, n)
		} else {
			m.m[n] = prev
		}
	}
	return nil
}

// WithOrdering makes the handler process the notifications of each
// tracking number in increasing status_occurred_at, on marks: a
// notification at or before the latest one processed is stale. A stale
// notification is acknowledged (204, so the platform stops sending it)
// without calling the callback, counted ([Handler.Stale]) and logged at
// info level without its tracking number or any other of its values; with
// [WithStaleDelivery] it reaches the callback with Notification.Stale set.
// The mark moves before the callback runs and moves back when the callback
// fails, so a notification whose callback failed is processed when the
// platform delivers it again, and a notification newer than every one
// before it is never lost. In one process the notifications of a tracking
// number are handled one at a time, so the callbacks that succeed for it
// do so in increasing status_occurred_at. A failed callback processed
// nothing: an older notification that arrives before the platform
// delivers the failed one again is not stale, and reaches the callback
// (calls at 10:00, 10:30 failing, 10:20, then 10:30 again succeed at
// 10:00, 10:20, 10:30), so a callback should keep no change of a call it
// fails. Across replicas sharing marks, the mark's atomic move decides
// which notification is stale. A notification whose status_occurred_at
// does not parse is not ordered: it reaches the callback as without this
// option.
func WithOrdering(marks Marks) HandlerOption {
	return func(h *Handler) { h.marks = marks }
}

// WithStaleDelivery makes an ordering handler ([WithOrdering]) hand stale
// notifications to the callback too, with Notification.Stale set, instead
// of acknowledging them without it.
func WithStaleDelivery() HandlerOption {
	return func(h *Handler) { h.deliverStale = true }
}

// Stale returns how many stale notifications the handler has acknowledged
// without calling the callback ([WithOrdering]).
func (h *Handler) Stale() int64 { return h.stale.Load() }
