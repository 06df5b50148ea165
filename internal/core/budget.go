package core

import (
	"sync/atomic"
)

// Budget is a client's retry budget: every retry spends from it, calls that
// succeed refill it, and when it is empty a call that fails is not retried
// but returns at once with its error. First attempts never wait for it, so
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
}

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
	b := &Budget{max: int64(retries) * RetryCost}
	b.tokens.Store(b.max)
	return b
}

// take spends cost from the budget and reports whether it could; a nil
// budget always can.
func (b *Budget) take(cost int64) bool {
	if b == nil {
		return true
	}
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
	return float64(b.tokens.Load()) / RetryCost
}
