package core

import (
	"context"
	"sync"
	"time"
)

// The write grace (WithWriteGrace): a write already sent outlives the end
// of its caller's context, for a bound, waiting for its response.

// withGrace returns the context a write with a grace runs on: it keeps the
// caller's values but not its end. When the caller's context ends, the
// write stops at once unless an attempt is with the transport and may have
// been sent; then it goes on for the grace, and stops when that runs out.
// The returned func releases the context; call it when the exchange ends.
//
// The caller's deadline still holds where the call decides something
// against it (callDeadline and call.decide: a Retry-After or a backoff
// wait, the rate limiter's turn), and once the caller's context has ended the context's
// Err is the caller's: a call the caller's deadline ended reports
// context.DeadlineExceeded, one its cancellation ended context.Canceled.
// An attempt in flight ends, at the latest, when the grace after the
// caller's end runs out.
func (c *call) withGrace(caller context.Context) (context.Context, func()) {
	c.caller = caller
	inner, cancel := context.WithCancelCause(context.WithoutCancel(caller))
	ctx := &graceContext{Context: inner, caller: caller}
	var mu sync.Mutex
	var timer *time.Timer
	stop := context.AfterFunc(caller, func() {
		if c.sending.Load() == 0 || !c.trace.mayHaveSent() {
			cancel(context.Cause(caller))
			return
		}
		c.graceUsed.Store(true)
		mu.Lock()
		timer = time.AfterFunc(c.grace, func() { cancel(context.Cause(caller)) })
		mu.Unlock()
	})
	return ctx, func() {
		stop()
		mu.Lock()
		if timer != nil {
			timer.Stop()
		}
		mu.Unlock()
		cancel(nil)
	}
}

// graceContext is the context of a write with a grace: it ends when
// withGrace cancels it, and then its Err is the caller's (so that the end
// of a wait says which end of the caller's it was). Contexts derived from
// it end with it; net/http reports their cause, which is the caller's.
type graceContext struct {
	context.Context
	caller context.Context
}

func (g *graceContext) Err() error {
	err := g.Context.Err()
	if err == nil {
		return nil
	}
	if cerr := g.caller.Err(); cerr != nil {
		return cerr
	}
	return err
}
