package core

import (
	"context"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/rxdelivery/rxdelivery-go/option"
)

// Limiter is the client-side rate limit of one interface, which every
// attempt on it waits on within its context. It is a token bucket of
// burst turns, refilled at the rate in force, with a queue in front:
// an attempt that finds the bucket empty, or others already waiting,
// joins the end of the queue, and the head of the queue goes as soon as
// the bucket holds a turn.
//
// The rate adapts to the platform's responses: each 429 halves it, down to
// a sixteenth of the configured rate, and each response that is not a 429
// or a 5xx gives back a twentieth of the configured rate, up to it. A
// change of rate applies at once to every attempt still in the queue:
// their turns are counted again under the new rate.
//
// A waiter whose context ends leaves the queue, and those behind it move
// up: it takes no turn. A wait that would pass the context's deadline,
// counted on the queue and the rate in force, is refused at once; a
// waiter whose turn moves past its deadline when the rate drops is
// refused then.
//
// A Retry-After on a 429 or a 503 pauses the interface, for at most the
// client's longest pause (pause.go): no attempt, of any call, goes before
// it ends or the application ends it (EndPause). Every client has a
// Limiter on each interface for this, unlimited when no rate is set.
type Limiter struct {
	clock clock
	// unlimited is set for a rate that is not a finite number: every
	// attempt goes at once.
	unlimited bool
	max       float64 // the configured rate, in turns a second
	floor     float64 // the lowest rate 429s bring it to

	mu     sync.Mutex
	rate   float64   // the rate in force
	burst  float64   // the bucket's size
	tokens float64   // the turns in the bucket at last (fewer than one while waiters queue)
	last   time.Time // when tokens was counted
	queue  []*waiter // the waiters, first come first
	timer  stopper   // wakes the limiter at the head's turn; nil until needed

	pause pause
}

// UseClock puts the Limiter on the client's one clock, clk (its
// WithClock; nil for real time): its rate's turns and its pauses are
// counted and waited on clk alike. maxPause is the longest pause a
// Retry-After sets (with zero, none). Call it before the Limiter is used.
func (l *Limiter) UseClock(clk option.Clock, maxPause time.Duration) {
	l.pause.clock, l.pause.max = clk, maxPause
	if clk != nil {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.clock = sleepTimers{clk}
		// The bucket was counted from real time when it was built; it
		// counts from clk now. Left on real time, a clock that reads
		// earlier (a manual clock on a fixed day) would gain no turn
		// until it passed that moment, and one started a little before
		// it would fall short of a whole turn.
		l.last = l.clock.Now()
	}
}

// waiter is one attempt in a Limiter's queue.
type waiter struct {
	// ready is closed when the waiter leaves the queue with err: nil when
	// its turn came, errRateWait when its turn moved past its deadline.
	ready    chan struct{}
	err      error
	deadline time.Time // on the Limiter's clock; zero: the context has none
}

// tokenSlack absorbs the rounding of float arithmetic when the bucket is
// compared with a whole turn: a timer set for the moment the bucket holds
// one turn must find it there.
const tokenSlack = 1e-9

// NewLimiter returns a Limiter of perSecond attempts a second with bursts
// of burst (at least 1). A perSecond that is not a finite number (+Inf,
// NaN) lets every attempt go at once.
func NewLimiter(perSecond float64, burst int) *Limiter {
	return newLimiter(perSecond, burst, systemClock{})
}

func newLimiter(perSecond float64, burst int, clk clock) *Limiter {
	if burst < 1 {
		burst = 1
	}
	l := &Limiter{
		clock:     clk,
		unlimited: !(perSecond < math.Inf(1)),
		max:       perSecond,
		floor:     perSecond / 16,
		rate:      perSecond,
		burst:     float64(burst),
		tokens:    float64(burst),
		last:      clk.Now(),
	}
	return l
}

// Limit returns the rate in force, in attempts a second.
func (l *Limiter) Limit() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rate
}

// Wait blocks until an attempt may start or ctx ends. It returns at once,
// with an error matching context.DeadlineExceeded, when the attempt's turn
// would come after ctx's deadline; later, with the same error, when a drop
// of the rate moves its turn past the deadline; and with ctx's error when
// ctx ends first. An attempt that does not go takes no turn.
//
// A pause set by a Retry-After is waited for first, when it ends within
// maxWait, the client's longest retry wait (WithRetryWaitMax: with zero,
// none is waited for, as the retry policy then waits for no Retry-After);
// one that ends later is refused at once (see PauseError).
func (l *Limiter) Wait(ctx context.Context, maxWait time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if l.pause.until.Load() != 0 {
		if err := l.pause.wait(ctx, maxWait); err != nil {
			return err
		}
	}
	if l.unlimited {
		return nil
	}
	l.mu.Lock()
	now := l.clock.Now()
	l.update(now)
	if len(l.queue) == 0 && l.tokens >= 1-tokenSlack {
		l.tokens = math.Max(l.tokens-1, 0)
		l.mu.Unlock()
		return nil
	}
	w := &waiter{ready: make(chan struct{})}
	if dl, ok := callDeadline(ctx); ok {
		// The deadline is wall-clock time; on the client's clock
		// (WithClock) it is kept as the same distance from now.
		w.deadline = dl
		if _, onClientClock := l.clock.(sleepTimers); onClientClock {
			w.deadline = now.Add(time.Until(dl))
		}
		if l.turn(now, len(l.queue)).After(w.deadline) {
			l.mu.Unlock()
			return errRateWait
		}
	}
	l.queue = append(l.queue, w)
	if len(l.queue) == 1 {
		l.schedule(now)
	}
	l.mu.Unlock()

	select {
	case <-w.ready:
		return w.err
	case <-ctx.Done():
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now = l.clock.Now()
	l.update(now)
	select {
	case <-w.ready:
		// Its turn came (or it was refused) as ctx ended: a turn it
		// took goes back to the bucket, for the next in the queue.
		if w.err == nil {
			l.tokens = math.Min(l.tokens+1, l.burst)
			l.update(now)
		}
	default:
		l.remove(w)
	}
	l.schedule(now)
	return ctx.Err()
}

// update counts the turns the bucket gained since it was last counted, at
// the rate in force, and lets go the waiters at the head of the queue that
// they pay for. Callers hold l.mu.
func (l *Limiter) update(now time.Time) {
	if elapsed := now.Sub(l.last); elapsed > 0 {
		l.tokens = math.Min(l.tokens+elapsed.Seconds()*l.rate, l.burst)
		l.last = now
	}
	for len(l.queue) > 0 && l.tokens >= 1-tokenSlack {
		l.tokens = math.Max(l.tokens-1, 0)
		l.pop(nil)
	}
}

// pop takes the head off the queue and wakes it with err.
func (l *Limiter) pop(err error) {
	w := l.queue[0]
	l.queue[0] = nil
	l.queue = l.queue[1:]
	w.err = err
	close(w.ready)
}

// remove takes w, whose context ended, out of the queue.
func (l *Limiter) remove(w *waiter) {
	for i, q := range l.queue {
		if q == w {
			copy(l.queue[i:], l.queue[i+1:])
			l.queue[len(l.queue)-1] = nil
			l.queue = l.queue[:len(l.queue)-1]
			return
		}
	}
}

// turn returns when the waiter at position i of the queue (0 for the
// head) goes, under the rate in force, once update has run at now.
func (l *Limiter) turn(now time.Time, i int) time.Time {
	need := float64(i+1) - l.tokens
	if need <= 0 {
		return now
	}
	return now.Add(secondsToDuration(need / l.rate))
}

// schedule sets the timer for the head's turn, or stops it when nobody
// waits. Callers hold l.mu and have run update at now.
func (l *Limiter) schedule(now time.Time) {
	if len(l.queue) == 0 {
		if l.timer != nil {
			l.timer.Stop()
		}
		return
	}
	d := l.turn(now, 0).Sub(now)
	if l.timer == nil {
		l.timer = l.clock.AfterFunc(d, l.wake)
		return
	}
	l.timer.Reset(d)
}

// wake runs when the head's turn comes. A timer that fired late or was
// reset as it fired finds the queue as it is, so an extra wake is
// harmless.
func (l *Limiter) wake() {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	l.update(now)
	l.schedule(now)
}

// setRate puts a new rate in force: the turns gained so far count at the
// old rate, the waiters' turns are counted again at the new one, and a
// waiter whose turn would now pass its deadline is refused and leaves the
// queue. Callers hold l.mu.
func (l *Limiter) setRate(rate float64) {
	now := l.clock.Now()
	l.update(now)
	l.rate = rate
	kept := l.queue[:0]
	for _, w := range l.queue {
		if !w.deadline.IsZero() && l.turn(now, len(kept)).After(w.deadline) {
			w.err = errRateWait
			close(w.ready)
			continue
		}
		kept = append(kept, w)
	}
	clear(l.queue[len(kept):])
	l.queue = kept
	l.schedule(now)
}

// errRateWait is the error of a wait that would pass the deadline.
var errRateWait = &rateWaitError{}

type rateWaitError struct{}

func (*rateWaitError) Error() string {
	return "the client-side rate limit's wait would pass the context's deadline"
}
func (*rateWaitError) Is(target error) bool { return target == context.DeadlineExceeded }

// observe adapts the rate to a response's status, and pauses the
// interface for a 429's or a 503's Retry-After, retryAfter (read once, by
// the call: call.retryAfter).
func (l *Limiter) observe(status int, retryAfter time.Duration) {
	if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
		l.pause.set(retryAfter)
	}
	if l.unlimited {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	cur := l.rate
	switch {
	case status == http.StatusTooManyRequests:
		if next := math.Max(cur/2, l.floor); next != cur {
			l.setRate(next)
		}
	case status < 500 && cur < l.max:
		l.setRate(math.Min(cur+l.max/20, l.max))
	}
}

// secondsToDuration converts s seconds to a Duration, rounded up to the
// nanosecond so that a timer never fires before the turn it waits for,
// and capped at the longest Duration.
func secondsToDuration(s float64) time.Duration {
	ns := math.Ceil(s * 1e9)
	if ns >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(ns)
}
