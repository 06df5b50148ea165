package core

import (
	"context"
	"sync"
	"time"

	"github.com/rxdelivery/rxdelivery-go/option"
)

// clock is the time a Limiter runs on: the system's, or the client's
// option.Clock as timers (sleepTimers), or a test's.
type clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) stopper
}

// stopper is a timer a clock started.
type stopper interface {
	Reset(d time.Duration) bool
	Stop() bool
}

type systemClock struct{}

func (systemClock) Now() time.Time                              { return time.Now() }
func (systemClock) AfterFunc(d time.Duration, f func()) stopper { return time.AfterFunc(d, f) }

// sleepTimers runs a Limiter's timers on a client's option.Clock: each
// timer is a goroutine asleep on it, so that a client given WithClock
// counts its rate and its pauses in one time, the one its watches wait on.
type sleepTimers struct{ clk option.Clock }

func (c sleepTimers) Now() time.Time { return c.clk.Now() }

func (c sleepTimers) AfterFunc(d time.Duration, f func()) stopper {
	t := &sleepTimer{clk: c.clk, f: f}
	t.Reset(d)
	return t
}

// sleepTimer is one timer of sleepTimers. Each Reset starts a new sleep
// and ends the one before; a sleep that ends after it was replaced fires
// nothing.
type sleepTimer struct {
	clk option.Clock
	f   func()

	mu     sync.Mutex
	cancel context.CancelFunc // of the running sleep; nil when none runs
	gen    uint64             // the running sleep's number
}

func (t *sleepTimer) Reset(d time.Duration) bool {
	ctx, cancel := context.WithCancel(context.Background())
	t.mu.Lock()
	was := t.stopLocked()
	t.cancel = cancel
	t.gen++
	gen := t.gen
	t.mu.Unlock()
	go func() {
		if t.clk.Sleep(ctx, d) != nil {
			return
		}
		t.mu.Lock()
		fire := t.gen == gen && t.cancel != nil
		if fire {
			t.cancel = nil
		}
		t.mu.Unlock()
		cancel()
		if fire {
			t.f()
		}
	}()
	return was
}

func (t *sleepTimer) Stop() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stopLocked()
}

func (t *sleepTimer) stopLocked() bool {
	if t.cancel == nil {
		return false
	}
	t.cancel()
	t.cancel = nil
	return true
}

// RealClock is real time: the clock of a pause, and of a watch, on a
// client without WithClock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// Sleep waits d or until ctx ends.
func (RealClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
