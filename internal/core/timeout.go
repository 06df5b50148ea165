package core

import (
	"context"
	"errors"
	"net"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// errAttemptTimeout is the cause of an attempt that outlived the attempt
// timeout while the call's context was still live. Unlike a context
// error it is retried like any other timeout: a read is sent again, a
// write's outcome is unknown.
var errAttemptTimeout = &attemptTimeoutError{}

type attemptTimeoutError struct{}

func (*attemptTimeoutError) Error() string   { return "the attempt timed out" }
func (*attemptTimeoutError) Timeout() bool   { return true }
func (*attemptTimeoutError) Temporary() bool { return true }

// Is matches rxtypes.ErrAttemptTimeout.
func (*attemptTimeoutError) Is(target error) bool { return target == rxtypes.ErrAttemptTimeout }

// layerTimeoutError is an attempt ended by a deadline of another layer
// (a caller's http.Client.Timeout, a Transport's ResponseHeaderTimeout)
// while the caller's context was live. It keeps that layer's words.
type layerTimeoutError struct{ cause string }

func (e *layerTimeoutError) Error() string { return "the attempt timed out: " + e.cause }

// Is matches rxtypes.ErrAttemptTimeout (and the SDK's own attempt timeout).
func (e *layerTimeoutError) Is(target error) bool {
	return target == rxtypes.ErrAttemptTimeout || target == errAttemptTimeout
}

// Timeout reports true, as a net.Error's does.
func (e *layerTimeoutError) Timeout() bool { return true }

// asAttemptTimeout returns err as an attempt timeout when it is one: a
// timeout while the caller's context ctx is still live. A bare
// context.DeadlineExceeded there can only be the attempt's own deadline
// (read from a body the attempt timeout cut); another timeout is a
// caller's http.Client or Transport deadline. A dial that timed out, and
// an attempt stopped before it was sent (a rate limiter's wait), are left
// as they are: the request never left. Other errors are returned as they
// are.
func asAttemptTimeout(ctx context.Context, err error) error {
	if err == nil || ctx.Err() != nil || errors.Is(err, rxtypes.ErrAttemptTimeout) {
		return err
	}
	var op *net.OpError
	var notSent *rxtypes.NotSentError
	if (errors.As(err, &op) && op.Op == "dial") || errors.As(err, &notSent) {
		return err
	}
	var ne net.Error
	if !errors.Is(err, context.DeadlineExceeded) && !(errors.As(err, &ne) && ne.Timeout()) {
		return err
	}
	if cause := stripURL(err); cause == context.DeadlineExceeded {
		return errAttemptTimeout
	} else {
		return &layerTimeoutError{cause: cause.Error()}
	}
}
