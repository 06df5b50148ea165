package core

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// DefaultAttemptTimeout bounds one attempt of a call (sending the request
// and reading the whole answer) unless the client or the call sets another
// bound. The caller's context stays the bound of the whole call, retries
// and waits included.
const DefaultAttemptTimeout = 30 * time.Second

// ErrAttemptTimeout matches a call whose last attempt ran out of its own
// time (the attempt timeout, or the Timeout or ResponseHeaderTimeout of a
// caller's http.Client or Transport) while the caller's context was still
// live. It does not match context.DeadlineExceeded, which is kept for the
// caller's own deadline. A safe call is retried after such a timeout; a
// write is not, and its outcome is unknown.
var ErrAttemptTimeout = errors.New("rxdelivery: attempt timed out")

// Is matches ErrAttemptTimeout.
func (*attemptTimeoutError) Is(target error) bool { return target == ErrAttemptTimeout }

// layerTimeoutError is an attempt ended by a deadline of another layer
// (a caller's http.Client.Timeout, a Transport's ResponseHeaderTimeout)
// while the caller's context was live. It keeps that layer's words.
type layerTimeoutError struct{ cause string }

func (e *layerTimeoutError) Error() string { return "the attempt timed out: " + e.cause }

// Is matches ErrAttemptTimeout (and the SDK's own attempt timeout).
func (e *layerTimeoutError) Is(target error) bool {
	return target == ErrAttemptTimeout || target == errAttemptTimeout
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
	if err == nil || ctx.Err() != nil || errors.Is(err, ErrAttemptTimeout) {
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
// same copy of the request, and sent by sendWrite.
func withAttemptTimeout(next http.RoundTripper, req *http.Request, d time.Duration, write bool) (*http.Response, error) {
	parent := req.Context()
	ctx, cancel := context.WithTimeoutCause(parent, d, errAttemptTimeout)
	r := req.WithContext(ctx)
	var resp *http.Response
	var err error
	if write {
		resp, err = sendWrite(next, r)
	} else {
		resp, err = next.RoundTrip(r)
	}
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
