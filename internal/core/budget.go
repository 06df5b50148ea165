package core

import (
	"sync"
	"sync/atomic"
	"time"
)

// Budget is a client's retry budget: every retry made spends from it
// (a retry the call does not make, for want of attempts left or of time
// before its deadline, spends nothing), calls that succeed refill it, and
// so does time, one retry every RetryBudgetRefill up to its size, so that
// a client that calls rarely is not left without retries; when it is empty
// a call that fails is not retried but returns at once with its error. First attempts never wait for it, so
// a platform that recovers is called at once, and one that is down sees
// about one attempt per call instead of one plus every retry.
//
// The budget is counted in tenths of a retry: a retry spends RetryCost, a
// retry after a timeout (which held a connection for its whole duration)
// TimeoutRetryCost; a call that succeeds on its first attempt gives back
// SuccessRefill, and one that succeeds after retries gives back what its
// retries spent.
type Budget struct {
	tokens atomic.Int64
	max    int64

	// now is the budget's clock; mu guards last, when time last refilled
	// it (counted only when a retry asks, off the path of a success).
	now  func() time.Time
	mu   sync.Mutex
	last time.Time
}

// RetryBudgetRefill is how long time takes to give one retry back to a
// budget that is not full.
const RetryBudgetRefill = time.Second

// Costs of the budget, in tenths of a retry.
const (
	RetryCost        = 10
	TimeoutRetryCost = 20
	SuccessRefill    = 1
)

// NewBudget returns a full budget of retries retries; nil when retries is
// zero or less (no budget: every retry the policy allows is made).
func NewBudget(retries int) *Budget {
	if retries <= 0 {
		return nil
	}
	return newBudget(retries, time.Now)
}

func newBudget(retries int, now func() time.Time) *Budget {
	b := &Budget{max: int64(retries) * RetryCost, now: now, last: now()}
	b.tokens.Store(b.max)
	return b
}

// refillByTime gives back what time has earned since it last did: one
// retry every RetryBudgetRefill. The part of a retry not yet earned is
// kept for the next count; time while the budget is full earns nothing.
func (b *Budget) refillByTime() {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	elapsed := now.Sub(b.last)
	if elapsed <= 0 {
		return
	}
	if b.tokens.Load() >= b.max {
		b.last = now
		return
	}
	const tenth = RetryBudgetRefill / RetryCost
	earned := int64(elapsed / tenth)
	if earned == 0 {
		return
	}
	b.last = b.last.Add(time.Duration(earned) * tenth)
	b.give(earned)
}

// take spends cost from the budget and reports whether it could; a nil
// budget always can.
func (b *Budget) take(cost int64) bool {
	if b == nil {
		return true
	}
	b.refillByTime()
	for {
		t := b.tokens.Load()
		if t < cost {
			return false
		}
		if b.tokens.CompareAndSwap(t, t-cost) {
			return true
		}
	}
}

// give puts n back, up to the budget's size.
func (b *Budget) give(n int64) {
	if b == nil || n <= 0 {
		return
	}
	for {
		t := b.tokens.Load()
		next := min(t+n, b.max)
		if next == t || b.tokens.CompareAndSwap(t, next) {
			return
		}
	}
}

// Available returns what is left, in retries.
func (b *Budget) Available() float64 {
	if b == nil {
		return 0
	}
	b.refillByTime()
	return float64(b.tokens.Load()) / RetryCost
}
