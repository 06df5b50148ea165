package core

import (
	"context"
	"net/http"
	"sync"

	"golang.org/x/time/rate"
)

// Limiter is the client-side rate limit of one interface: a token bucket
// (golang.org/x/time/rate) that every attempt waits on, within its
// context. It slows down when the platform responds with 429: each 429 halves
// the rate, down to a sixteenth of the configured one, and each response
// that is not a 429 or a 5xx gives back a twentieth of the configured
// rate, up to it.
type Limiter struct {
	mu    sync.Mutex
	lim   *rate.Limiter
	max   rate.Limit
	floor rate.Limit
}

// NewLimiter returns a Limiter of perSecond attempts a second with bursts
// of burst (at least 1).
func NewLimiter(perSecond float64, burst int) *Limiter {
	if burst < 1 {
		burst = 1
	}
	max := rate.Limit(perSecond)
	return &Limiter{lim: rate.NewLimiter(max, burst), max: max, floor: max / 16}
}

// Limit returns the rate in force, in attempts a second.
func (l *Limiter) Limit() float64 { return float64(l.lim.Limit()) }

// Wait blocks until an attempt may start or ctx ends. It returns at once,
// with an error matching context.DeadlineExceeded, when the wait would
// pass ctx's deadline.
func (l *Limiter) Wait(ctx context.Context) error {
	err := l.lim.Wait(ctx)
	if err == nil || ctx.Err() != nil {
		if err != nil {
			return ctx.Err()
		}
		return nil
	}
	return errRateWait
}

// errRateWait is the error of a wait that would pass the deadline.
var errRateWait = &rateWaitError{}

type rateWaitError struct{}

func (*rateWaitError) Error() string {
	return "the client-side rate limit's wait would pass the context's deadline"
}
func (*rateWaitError) Is(target error) bool { return target == context.DeadlineExceeded }

// observe adapts the rate to a response's status.
func (l *Limiter) observe(status int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	cur := l.lim.Limit()
	switch {
	case status == http.StatusTooManyRequests:
		next := cur / 2
		if next < l.floor {
			next = l.floor
		}
		l.lim.SetLimit(next)
	case status < 500 && cur < l.max:
		next := cur + l.max/20
		if next > l.max {
			next = l.max
		}
		l.lim.SetLimit(next)
	}
}
