package core

import (
	"context"
	"errors"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// ended is the error of a call its context ended: ctx.Err(), and with it
// the cause the caller gave (context.WithCancelCause, WithTimeoutCause)
// when that is another error. net/http ends an attempt in flight with the
// cause; a wait between attempts, or before the first, ends with ctx.Err():
// ended gives every one both, so errors.Is finds either wherever the call
// stood. A cause of the caller's own is shown through sc, as every
// cause is.
func ended(ctx context.Context, err error, sc *scrubber) error {
	done := ctx.Err()
	if done == nil || err == nil {
		return err
	}
	cause := context.Cause(ctx)
	switch {
	case errors.Is(err, done) && errors.Is(err, cause):
		return err
	case errors.Is(err, done):
		return &endedError{err: err, also: redact(cause, sc)}
	case errors.Is(err, cause):
		return &endedError{err: err, also: done}
	}
	return err
}

// endedError is an error of a call its context ended, matching both the
// context's error and its cause.
type endedError struct {
	err, also error
}

func (e *endedError) Error() string   { return e.err.Error() + " (" + e.also.Error() + ")" }
func (e *endedError) Unwrap() []error { return []error{e.err, e.also} }

// notSent is the error of a call refused before anything was sent, for
// cause: a call hook that did not let it go, or a context that had ended.
func (c *call) notSent(cause error) *rxtypes.TransportError {
	return &rxtypes.TransportError{Method: c.ep.Method, Path: c.shown, Err: &rxtypes.NotSentError{Err: cause}}
}
