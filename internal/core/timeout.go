package core

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/rxdelivery/rxdelivery-go/types"
)

// Is matches types.ErrAttemptTimeout.
func (*attemptTimeoutError) Is(target error) bool { return target == types.ErrAttemptTimeout }

// layerTimeoutError is an attempt ended by a deadline of another layer
// (a caller's http.Client.Timeout, a Transport's ResponseHeaderTimeout)
// while the caller's context was live. It keeps that layer's words.
type layerTimeoutError struct{ cause string }

func (e *layerTimeoutError) Error() string { return "the attempt timed out: " + e.cause }

// Is matches types.ErrAttemptTimeout (and the SDK's own attempt timeout).
func (e *layerTimeoutError) Is(target error) bool {
	return target == types.ErrAttemptTimeout || target == errAttemptTimeout
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
	if err == nil || ctx.Err() != nil || errors.Is(err, types.ErrAttemptTimeout) {
		return err
	}
	var op *net.OpError
	var notSent *NotSentError
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

// withAttemptTimeout runs one attempt of a call on the plain path (which
// has no attempt transport) under the attempt timeout d, below the
// caller's context. The deadline covers reading the answer: it ends when
// the body is closed. A write's attempt is also made unrewindable, on the
// same copy of the request.
func withAttemptTimeout(next http.RoundTripper, req *http.Request, d time.Duration, write bool) (*http.Response, error) {
	parent := req.Context()
	ctx, cancel := context.WithTimeoutCause(parent, d, errAttemptTimeout)
	r := req.WithContext(ctx)
	if write {
		makeUnrewindable(r)
	}
	resp, err := next.RoundTrip(r)
	if err != nil {
		if parent.Err() == nil && context.Cause(ctx) == errAttemptTimeout {
			err = errAttemptTimeout
		}
		cancel()
		return nil, err
	}
	resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}
