package core

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// pause is the pause a Retry-After sets on an interface: no attempt of
// any call goes to it before the pause ends. A Retry-After longer than max
// (the client's WithMaxPause) pauses the interface for max: a header can
// be wrong, and a year is not a pause but an outage of the client's own
// making. The application reads the pause (Limiter.PausedUntil) and may
// end it early (Limiter.EndPause).
//
// An attempt that finds a pause running waits for its end on the
// client's clock; when the end is later than its deadline, or further
// off than the client's longest retry wait (Limiter.Wait), it is refused
// at once with a *PauseError, which carries the pause's end.
type pause struct {
	// until is when the running pause ends, in Unix nanoseconds on clock;
	// zero when none was ever set or the application ended it.
	until atomic.Int64
	// clock is the client's clock (WithClock); nil for real time.
	clock option.Clock
	// max is the longest pause a Retry-After sets; with zero, none is set.
	max time.Duration

	// mu guards ended, closed when the application ends the pause, to
	// wake the attempts waiting for it; nil until one waits.
	mu    sync.Mutex
	ended chan struct{}
}

// now is the time on the pause's clock.
func (p *pause) now() time.Time {
	if p.clock != nil {
		return p.clock.Now()
	}
	return time.Now()
}

// set pauses the interface for d, capped at max, unless a pause that ends
// later runs.
func (p *pause) set(d time.Duration) {
	d = min(d, p.max)
	if d <= 0 {
		return
	}
	n := p.now().Add(d).UnixNano()
	for {
		cur := p.until.Load()
		if cur >= n || p.until.CompareAndSwap(cur, n) {
			return
		}
	}
}

// end ends the running pause, and wakes the attempts waiting for it.
func (p *pause) end() {
	p.until.Store(0)
	p.mu.Lock()
	if p.ended != nil {
		close(p.ended)
		p.ended = nil
	}
	p.mu.Unlock()
}

// endedChan returns the channel end closes.
func (p *pause) endedChan() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended == nil {
		p.ended = make(chan struct{})
	}
	return p.ended
}

// runningUntil returns when the running pause ends, or the zero time when
// none runs.
func (p *pause) runningUntil() time.Time {
	n := p.until.Load()
	if n == 0 {
		return time.Time{}
	}
	until := time.Unix(0, n)
	if !until.After(p.now()) {
		return time.Time{}
	}
	return until
}

// wait waits for the end of the running pause, and of any that a response
// sets meanwhile. It refuses at once a pause that ends after the caller's
// deadline or further off than maxWait, with a *PauseError; it returns
// ctx's error when ctx ends first, and nil as soon as the application ends
// the pause.
func (p *pause) wait(ctx context.Context, maxWait time.Duration) error {
	for {
		// Taken before the pause is read: an end that comes after the
		// read closes it.
		ended := p.endedChan()
		until := p.runningUntil()
		if until.IsZero() {
			return nil
		}
		rest := until.Sub(p.now())
		if rest > maxWait {
			return &PauseError{Until: until, Rest: rest}
		}
		// A context's deadline is wall-clock time; the pause may run on
		// another clock: what is compared is what is left of each.
		if dl, ok := callDeadline(ctx); ok && time.Until(dl) < rest {
			return &PauseError{Until: until, Rest: rest, PastDeadline: true}
		}
		if err := p.sleep(ctx, rest, ended); err != nil {
			return err
		}
	}
}

// sleep sleeps d on the pause's clock, until ctx ends (its error) or the
// application ends the pause, closing ended (nil).
func (p *pause) sleep(ctx context.Context, d time.Duration, ended <-chan struct{}) error {
	clk := p.clock
	if clk == nil {
		clk = RealClock{}
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-ended:
			cancel()
		case <-sctx.Done():
		}
	}()
	if err := clk.Sleep(sctx, d); err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

// PausedUntil returns when the running pause ends, or the zero time when
// no pause runs.
func (l *Limiter) PausedUntil() time.Time { return l.pause.runningUntil() }

// EndPause ends the running pause of the interface: the attempts waiting
// for it go at once, and calls made afterwards are sent.
func (l *Limiter) EndPause() { l.pause.end() }

// PauseError is an attempt the Limiter refused because the interface is
// paused by a Retry-After for longer than the attempt may wait: past the
// caller's deadline, or past the client's longest retry wait. It matches
// rxtypes.ErrRateLimited: the platform asked for the pause.
type PauseError struct {
	// Until is when the pause ends, on the client's clock.
	Until time.Time
	// Rest is what was left of the pause.
	Rest time.Duration
	// PastDeadline is set when the caller's deadline came before the end
	// of the pause.
	PastDeadline bool
}

func (e *PauseError) Error() string {
	if e.PastDeadline {
		return "the platform's Retry-After pauses the interface past the context's deadline (retry after " + e.Rest.String() + ")"
	}
	return "the platform's Retry-After pauses the interface for longer than the longest retry wait (retry after " + e.Rest.String() + ")"
}

// Is matches rxtypes.ErrRateLimited.
func (e *PauseError) Is(target error) bool { return target == rxtypes.ErrRateLimited }

// LimiterState is what a Limiter holds at one moment.
type LimiterState struct {
	PausedUntil time.Time
	Limited     bool
	Rate        float64
	Burst       int
	Tokens      float64
	Waiting     int
}

// State returns what the Limiter holds now.
func (l *Limiter) State() LimiterState {
	st := LimiterState{PausedUntil: l.PausedUntil(), Limited: !l.unlimited}
	if l.unlimited {
		return st
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.update(l.clock.Now())
	st.Rate, st.Burst, st.Tokens, st.Waiting = l.rate, int(l.burst), l.tokens, len(l.queue)
	return st
}
