package sandbox

import (
	"sync"
	"time"
)

// Clock is the sandbox's source of time. Every timestamp the sandbox writes
// and every scheduled transition (scenario steps, order progression, tracking
// events) is measured on it.
//
// A *ManualClock drives the sandbox synchronously: ManualClock.Advance
// applies every transition that became due before it returns. Any other
// Clock is assumed to move with real time; the sandbox then runs one
// background goroutine that wakes when the next transition is due, and
// Sandbox.Close stops it. A call received on such a clock first applies
// the transitions due at its arrival that the goroutine has not applied
// yet, so it never shows a state older than its arrival.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
}

// RealClock is the wall clock. It is the default Clock of a Sandbox.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// DefaultManualStart is the time a ManualClock starts at when NewManualClock
// is given the zero time.
var DefaultManualStart = time.Date(2025, time.January, 6, 14, 0, 0, 0, time.UTC)

// ManualClock is a Clock that moves only when told to, so tests advance time
// instead of sleeping. It is safe for concurrent use and may be shared by
// several sandboxes.
type ManualClock struct {
	advanceHooks
	now time.Time
}

// NewManualClock returns a ManualClock reading start, or DefaultManualStart
// when start is the zero time.
func NewManualClock(start time.Time) *ManualClock {
	if start.IsZero() {
		start = DefaultManualStart
	}
	return &ManualClock{now: start}
}

// Now returns the clock's current time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d (a negative d does not move it) and
// then, before returning, lets every sandbox using the clock apply the
// transitions that are now due, in time order, and deliver the tracking
// notifications they cause.
func (c *ManualClock) Advance(d time.Duration) {
	c.advance(func() {
		if d > 0 {
			c.now = c.now.Add(d)
		}
	})
}

// ShiftClock is real time plus an offset that Advance increases: time
// flows by itself, as with RealClock, and a test or an operator can also
// jump ahead without waiting. A standalone server uses it so that clients
// in any language can move scenarios on through its control API. It is
// safe for concurrent use.
type ShiftClock struct {
	advanceHooks
	offset time.Duration
}

// NewShiftClock returns a ShiftClock reading real time.
func NewShiftClock() *ShiftClock { return &ShiftClock{} }

// Now returns real time plus the offset.
func (c *ShiftClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

// Advance moves the clock forward by d (a negative d does not move it) and
// then, before returning, lets every sandbox using the clock apply the
// transitions that are now due and deliver their notifications.
func (c *ShiftClock) Advance(d time.Duration) {
	c.advance(func() {
		if d > 0 {
			c.offset += d
		}
	})
}

// advanceHooks is what ManualClock and ShiftClock share: the functions
// sandboxes register to run after every Advance, and the mutex that also
// guards the embedding clock's reading, so that moving the clock and
// taking the list of hooks happen together. Its zero value is ready.
type advanceHooks struct {
	mu     sync.Mutex
	nextID int
	hooks  map[int]func()
}

// register adds a function called after every Advance and returns the
// function that removes it.
func (a *advanceHooks) register(f func()) (unregister func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.hooks == nil {
		a.hooks = map[int]func(){}
	}
	id := a.nextID
	a.nextID++
	a.hooks[id] = f
	return func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		delete(a.hooks, id)
	}
}

// advance calls move with mu held, takes the registered hooks, and then,
// with mu released, calls each of them.
func (a *advanceHooks) advance(move func()) {
	a.mu.Lock()
	move()
	hooks := make([]func(), 0, len(a.hooks))
	for _, h := range a.hooks {
		hooks = append(hooks, h)
	}
	a.mu.Unlock()
	for _, h := range hooks {
		h()
	}
}
