// Package poll follows resources to a final status by reading them again
// and again: the engine behind Watch, Wait and WatchMany of the orders and
// requests services.
//
// A watch only reads (each read is one ordinary call of the service, so
// the client's rate limiter, retry policy and budget, hooks, metadata,
// logs and spans apply to each), and waits between reads on a Clock: the
// wait starts at the interval, grows by option.PollGrowth while nothing
// changes, up to the cap, comes back to the interval after a change, is
// spread by option.PollJitter, and is never shorter than a Retry-After
// the platform sent. A read that fails for a passing reason (429, 5xx, a
// failed connection or attempt timeout) is tried again after the next
// wait; any other failure, a status the documents do not list, a resource
// that is gone, or the end of the context ends the watch with an error.
package poll

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Resource is what the engine needs to know of one kind of resource.
type Resource[T any] struct {
	// Op names the watch in errors: "orders.Watch".
	Op string
	// ID returns the id of a resource read.
	ID func(T) string
	// State returns what a change is judged on: two reads with the same
	// state are no change.
	State func(T) string
	// Unknown reports whether the resource's status is one the documents
	// do not list, and returns it.
	Unknown func(T) (status string, unknown bool)
	// Final reports whether the resource reached a final status.
	Final func(T) bool
	// Until is the caller's own end condition; nil for none.
	Until func(T) bool
}

// done reports whether v ends its watch.
func (r *Resource[T]) done(v T) bool {
	return r.Final(v) || (r.Until != nil && r.Until(v))
}

// Watch is the configuration of one watch.
type Watch struct {
	// Clock is waited on between reads; nil means real time.
	Clock option.Clock
	// Interval, MaxInterval and BatchSize are as in option.WatchSettings,
	// defaults applied (see Resolve).
	Interval, MaxInterval time.Duration
	BatchSize             int
	// Rand returns a number in [0, 1) for the jitter; nil means
	// math/rand/v2.
	Rand func() float64
	// Progress, when set, is told what each round did
	// (option.WithWatchProgress).
	Progress func(option.WatchRound)
	// RequestID, when set, returns the request id of the last read, for
	// the WatchError a read ends in.
	RequestID func() string
	// Attempts, when set, returns the attempts of the last read, for the
	// WatchError a read ends in.
	Attempts func() int
}

// watchError is the WatchError of the resource id of watch op, with the
// request id of the read that showed it.
func (w *Watch) watchError(op, id, status string, gone bool) *rxtypes.WatchError {
	e := &rxtypes.WatchError{Op: op, ID: id, Status: status, Gone: gone}
	if w.RequestID != nil {
		e.RequestID = w.RequestID()
	}
	if w.Attempts != nil {
		e.Attempts = w.Attempts()
	}
	return e
}

// report tells the watch's Progress func what a round did.
func (w *Watch) report(r option.WatchRound) {
	if w.Progress != nil {
		w.Progress(r)
	}
}

// Resolve applies opts to a zero option.WatchSettings, fills in the
// defaults and returns the watch's settings and its call options.
func Resolve(clock option.Clock, opts []option.WatchOption) (Watch, option.WatchSettings) {
	var s option.WatchSettings
	for _, o := range opts {
		if o != nil {
			o.ApplyWatch(&s)
		}
	}
	w := Watch{Clock: clock, Interval: s.Interval, MaxInterval: s.MaxInterval, BatchSize: s.BatchSize, Progress: s.Progress}
	if w.Interval <= 0 {
		w.Interval = option.DefaultPollInterval
	}
	if w.MaxInterval <= 0 {
		w.MaxInterval = option.DefaultMaxPollInterval
	}
	w.MaxInterval = max(w.MaxInterval, w.Interval)
	if w.BatchSize <= 0 {
		w.BatchSize = option.DefaultPollBatchSize
	}
	return w, s
}

// UntilOf returns the end condition of settings s for resources of type
// T: nil when there is none, an error when it is for another type.
func UntilOf[T any](op string, s option.WatchSettings) (func(T) bool, error) {
	if s.Until == nil {
		return nil, nil
	}
	f, ok := s.Until.(func(T) bool)
	if !ok {
		var zero T
		return nil, &rxtypes.ConfigError{Message: fmt.Sprintf("%s: the Until condition takes %T; this watch reads %T", op, s.Until, zero)}
	}
	return f, nil
}

// One reads one resource with read, yields it at its first read and at
// every change, and ends after a final status (or the caller's
// condition), with the first failure that is not passing, or when ctx
// ends. A resource with a status the documents do not list is yielded
// with a *rxtypes.WatchError, and ends the watch.
func One[T any](ctx context.Context, w Watch, r Resource[T], read func(context.Context) (T, error), yield func(T, error) bool) {
	var zero T
	wait := w.Interval
	last, seen := "", false
	for n := 1; ; n++ {
		round := option.WatchRound{Round: n, Batches: 1}
		v, err := read(ctx)
		if err == nil {
			round.Read = 1
			if st, unknown := r.Unknown(v); unknown {
				w.report(round)
				yield(v, w.watchError(r.Op, r.ID(v), st, false))
				return
			}
			if state := r.State(v); !seen || state != last {
				seen, last, wait = true, state, w.Interval
				round.Changed = 1
				if !yield(v, nil) {
					return
				}
			} else {
				wait = w.grow(wait)
			}
			if r.done(v) {
				w.report(round)
				return
			}
		} else {
			if ctx.Err() != nil || !Passing(err) {
				w.report(round)
				yield(zero, err)
				return
			}
			round.Failed = 1
			if throttled(err) {
				round.Throttled = 1
			}
			wait = w.grow(wait)
		}
		d := w.jitter(wait, err)
		round.Open, round.Wait = 1, d
		w.report(round)
		if err := w.sleep(ctx, d); err != nil {
			yield(zero, err)
			return
		}
	}
}

// Many reads the resources ids in batches of w.BatchSize with readMany,
// yields each at its first read and at every change, and drops each from
// the batches once it reached a final status (or the caller's condition);
// it ends when none is left, when a batch fails for a reason that is not
// passing (yielded once), or when ctx ends. A resource with a status the
// documents do not list, or one the response leaves out, is yielded with a
// *rxtypes.WatchError and dropped; the others go on. Ids are read in the
// order given, each once a round. A batch that fails for a passing reason
// is read again next round; when the failure asks to slow down (a 429, a
// Retry-After) the round stops there, and the next one, after the wait
// (never shorter than the Retry-After), starts with the batches not read.
func Many[T any](ctx context.Context, w Watch, r Resource[T], ids []string, readMany func(context.Context, []string) ([]T, error), yield func(T, error) bool) {
	var zero T
	open := make([]string, 0, len(ids))
	last := make(map[string]string, len(ids))
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if _, dup := last[id]; !dup {
			last[id] = ""
			open = append(open, id)
		}
	}
	wait := w.Interval
	for n := 1; len(open) > 0; n++ {
		round := option.WatchRound{Round: n}
		changed := false
		var failed error
		closed := map[string]bool{}
		carry := -1
		for start := 0; start < len(open); start += w.BatchSize {
			batch := open[start:min(start+w.BatchSize, len(open))]
			round.Batches++
			list, err := readMany(ctx, batch)
			if err != nil {
				if ctx.Err() != nil || !Passing(err) {
					w.report(round)
					yield(zero, err)
					return
				}
				failed = err
				round.Failed++
				if throttled(err) {
					// The platform asked to slow down: the rest of the
					// round waits for the next one, which starts with it.
					round.Throttled++
					round.Carried = len(open) - start
					carry = start
					break
				}
				continue
			}
			round.Read += len(batch)
			got := make(map[string]bool, len(list))
			for _, v := range list {
				id := r.ID(v)
				if _, asked := last[id]; !asked || closed[id] || got[id] || !inBatch(batch, id) {
					continue // not asked for in this batch, or listed twice
				}
				got[id] = true
				if st, unknown := r.Unknown(v); unknown {
					closed[id] = true
					if !yield(v, w.watchError(r.Op, id, st, false)) {
						return
					}
					continue
				}
				if state := r.State(v); !seen[id] || state != last[id] {
					seen[id], last[id], changed = true, state, true
					round.Changed++
					if !yield(v, nil) {
						return
					}
				}
				if r.done(v) {
					closed[id] = true
				}
			}
			for _, id := range batch {
				if !got[id] && !closed[id] {
					closed[id] = true
					if !yield(zero, w.watchError(r.Op, id, "", true)) {
						return
					}
				}
			}
		}
		if carry > 0 {
			// Those not read this round are read first in the next; the
			// ids read keep their order after them.
			open = append(append(make([]string, 0, len(open)), open[carry:]...), open[:carry]...)
		}
		if len(closed) > 0 {
			keep := open[:0]
			for _, id := range open {
				if !closed[id] {
					keep = append(keep, id)
				}
			}
			open = keep
		}
		if len(open) == 0 {
			w.report(round)
			return
		}
		if changed {
			wait = w.Interval
		} else {
			wait = w.grow(wait)
		}
		d := w.jitter(wait, failed)
		round.Open, round.Wait = len(open), d
		w.report(round)
		if err := w.sleep(ctx, d); err != nil {
			yield(zero, err)
			return
		}
	}
}

// throttled reports whether a read's failure asks the caller to slow
// down: a 429, or a response with a Retry-After (a 503 with one), or a
// call the client did not send because a Retry-After pauses the interface.
func throttled(err error) bool {
	var ae *rxtypes.APIError
	if errors.As(err, &ae) {
		return ae.StatusCode == 429 || ae.RetryAfter > 0
	}
	var ns *rxtypes.NotSentError
	return errors.As(err, &ns) && !ns.PausedUntil.IsZero()
}

func inBatch(batch []string, id string) bool {
	for _, b := range batch {
		if b == id {
			return true
		}
	}
	return false
}

// Passing reports whether a read's failure may pass by itself, so that the
// watch reads again after its next wait: a 429, a 5xx, a failed connection
// or an attempt that timed out. Anything else (a 4xx such as 404, a
// malformed response, a configuration or validation error) will not, and
// ends the watch.
func Passing(err error) bool {
	var ae *rxtypes.APIError
	if errors.As(err, &ae) {
		return ae.StatusCode == 429 || ae.StatusCode >= 500
	}
	var te *rxtypes.TransportError
	return errors.As(err, &te) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// grow returns the wait after one without a change.
func (w *Watch) grow(d time.Duration) time.Duration {
	return min(time.Duration(float64(d)*option.PollGrowth), w.MaxInterval)
}

// jitter spreads d by option.PollJitter either way, and makes it no
// shorter than the Retry-After of err, when it has one.
func (w *Watch) jitter(d time.Duration, err error) time.Duration {
	f := rand.Float64
	if w.Rand != nil {
		f = w.Rand
	}
	d = time.Duration(float64(d) * (1 + option.PollJitter*(2*f()-1)))
	var ae *rxtypes.APIError
	var ns *rxtypes.NotSentError
	switch {
	case errors.As(err, &ae) && ae.RetryAfter > d:
		d = ae.RetryAfter
	case errors.As(err, &ns) && !ns.PausedUntil.IsZero():
		// Refused by a pause: its end is on the client's clock, the
		// watch's.
		now := time.Now()
		if w.Clock != nil {
			now = w.Clock.Now()
		}
		d = max(d, ns.PausedUntil.Sub(now))
	}
	return d
}

// sleep waits d on the watch's clock, or until ctx ends.
func (w *Watch) sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if w.Clock != nil {
		return w.Clock.Sleep(ctx, d)
	}
	return RealClock{}.Sleep(ctx, d)
}

// RealClock is real time, the clock of a client without WithClock: the
// engine's, so that a watch and a pause wait on one clock.
type RealClock = core.RealClock
