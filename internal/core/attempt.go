package core

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// attemptTransport is the SDK's one RoundTripper, beneath
// go-retryablehttp's loop and just above the connection pool (the
// caller's transport or the SDK's own). Everything that happens once per
// attempt happens here, in this order: the client-side rate limiter's
// wait, the attempt timeout, the write guard (below), the attempt hooks
// around the exchange, the attempt's log line. It also checks every
// redirect hop a caller's http.Client follows (redirect.go).
//
// The write guard: below the retry policy, net/http may send a request
// again by itself. The HTTP/2 transport replays a request after a stream
// reset with PROTOCOL_ERROR, a GOAWAY that names an earlier stream, or a
// connection found unusable, whenever it can rewind the body
// (Request.GetBody) or the request has none; the HTTP/1 transport does the
// same for requests it takes as idempotent (GET, or any method with an
// Idempotency-Key header). A write must reach the platform at most once
// per attempt the retry policy allows, so each attempt of a write goes to
// the pool with a body that cannot be rewound.
//
// Below it, a request goes to the pool when it is https, and through the
// loopback rule (loopback.go) when it is plain http.
type attemptTransport struct {
	pool, plain http.RoundTripper
}

func (t *attemptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	next := t.pool
	if req.URL.Scheme != "https" {
		next = t.plain
	}
	c, _ := req.Context().Value(callKey{}).(*call)
	if c == nil {
		return next.RoundTrip(req)
	}
	if req.Response != nil {
		// A redirect hop, followed by the caller's CheckRedirect: not an
		// attempt of its own.
		r, err := redirectHop(req, c.ep.Write)
		if err != nil {
			closeRequestBody(req)
			return nil, err
		}
		return c.readBody(c.send(next, r, req.Context()))
	}
	return c.readBody(c.attempt(next, req))
}

// attempt runs one attempt of the call.
func (c *call) attempt(next http.RoundTripper, req *http.Request) (*http.Response, error) {
	c.attempts++
	if c.ext == nil && (c.set.Metadata != nil || len(c.set.CallMiddleware) > 0) {
		// Something reads the call's attempt log: its Metadata, asked for
		// by the caller or handed to call hooks.
		c.extras()
	}
	parent := req.Context()
	if lim := c.b.s.cfg.RateLimits[c.b.iface]; lim != nil {
		// A pause is waited for within the longest retry wait.
		if err := lim.Wait(parent, c.b.s.cfg.RetryWaitMax); err != nil {
			ns := &rxtypes.NotSentError{Err: err}
			if p, ok := err.(*PauseError); ok {
				ns.PausedUntil = p.Until
			}
			c.attemptEnded(parent, nil, ns)
			c.lastErr = err
			return nil, ns
		}
	}
	if len(c.set.Middleware) > 0 {
		return c.hookedAttempt(next, req)
	}
	resp, err := c.send(next, req, parent)
	c.attemptEnded(parent, resp, err)
	return resp, err
}

// hookedAttempt runs one attempt inside the attempt hooks, outermost
// first. A hook that does not call next stops the attempt before anything
// is sent; one that calls it twice sends once.
func (c *call) hookedAttempt(next http.RoundTripper, req *http.Request) (resp *http.Response, err error) {
	parent := req.Context()
	a := option.NewAttempt(c.operation(), c.attempts, req.Header)
	called := false
	inner := option.AttemptFunc(func(ctx context.Context, _ *option.Attempt) option.AttemptResult {
		if called {
			return option.AttemptResult{Err: errCalledTwice}
		}
		called = true
		resp, err = c.send(next, req, ctx)
		return attemptResult(resp, err)
	})
	f := inner
	for i := len(c.set.Middleware) - 1; i >= 0; i-- {
		f = c.set.Middleware[i](f)
	}
	// A hook that panics, or ends its goroutine, after next returned must
	// not keep what the attempt holds: the response, with its connection
	// and its attempt timeout, is closed on the way out. Nothing is
	// recovered, so the panic goes on with its own stack.
	returned := false
	defer func() {
		if !returned && resp != nil {
			closeBody(resp.Body)
		}
	}()
	res := f(parent, a)
	returned = true
	if !called {
		err = &rxtypes.NotSentError{Err: orHookRefused(res.Err)}
		c.attemptEnded(parent, nil, err)
		return nil, err
	}
	c.attemptEnded(parent, resp, err)
	if err == nil && res.Err != nil {
		// The hook failed an attempt that got a response (a check of its
		// own): the response is dropped and the attempt fails as one that
		// was sent, so a read is retried and a write is never sent again
		// (its outcome is unknown: resolve it by reading).
		closeBody(resp.Body)
		return nil, &hookFailedError{err: res.Err}
	}
	return resp, err
}

// hookFailedError is an attempt an attempt hook failed after its response
// came. It is a failure after sending: never proof that a write was not
// sent.
type hookFailedError struct{ err error }

func (e *hookFailedError) Error() string {
	return "an attempt hook failed the response: " + e.err.Error()
}
func (e *hookFailedError) Unwrap() error { return e.err }

// attemptEnded records how an attempt ended (ctx is its parent context).
func (c *call) attemptEnded(ctx context.Context, resp *http.Response, err error) {
	now := time.Now()
	if c.ext != nil {
		c.record(ctx, now, resp, err)
	}
	c.lastEnd, c.lastErr = now, err
	if resp != nil {
		c.status, c.header = resp.StatusCode, resp.Header
		if lim := c.b.s.cfg.RateLimits[c.b.iface]; lim != nil {
			lim.observe(resp.StatusCode, c.pol.lastRetryAfter)
		}
	}
}

// send hands req to the pool under the attempt timeout, with ctx (the
// parent's, or one an attempt hook derived from it), a write's body made
// unrewindable, and logs the attempt. The timeout covers reading the
// response: it ends when the body is closed.
//
// send runs caller code while the attempt holds a response or a timeout:
// the caller's transport, the transcript writer and the logger's handler.
// When one of them panics or ends its goroutine, send releases what the
// attempt holds on the way out (the response, so its connection goes back
// to the pool or is closed, and the timeout's context), without recovering
// the panic.
func (c *call) send(next http.RoundTripper, req *http.Request, ctx context.Context) (resp *http.Response, err error) {
	tw := c.set.Transcript
	if tw != nil {
		// Before the attempt holds anything. The request's headers are
		// those the attempt sends.
		c.transcribeRequest(tw, req, c.attempts)
	}
	parent := ctx
	var cancel context.CancelFunc
	if d := c.attemptTimeout; d > 0 {
		// A deadline of ctx's before the attempt's leaves the timeout
		// nothing to end (context.WithDeadlineCause would only make a
		// cancellation of ctx): the attempt then runs on ctx itself.
		deadline := time.Now().Add(d)
		if cur, ok := ctx.Deadline(); !ok || !cur.Before(deadline) {
			ctx, cancel = context.WithDeadlineCause(ctx, deadline, errAttemptTimeout)
		}
	}
	returned := false
	defer func() {
		if returned {
			return
		}
		c.sending.Store(0)
		if resp != nil {
			closeBody(resp.Body)
		}
		if cancel != nil {
			cancel()
		}
	}()
	r := req
	if ctx != req.Context() || c.ep.Write {
		r = req.WithContext(ctx)
	}
	start := time.Now()
	if x := c.ext; x != nil && x.sentAt.IsZero() {
		// The attempt's request goes out (a redirect hop's does not
		// start an attempt).
		x.sentAt = start
	}
	c.sending.Store(1)
	if c.ep.Write {
		// The write guard: r goes with a body that cannot be rewound; the
		// retry policy alone sends it again, where HTTP proves the server
		// did not process it (unsent.go).
		makeUnrewindable(r)
	}
	resp, err = next.RoundTrip(r)
	if c.ep.Write {
		// What a replay's room is judged on (replayWait).
		c.pol.lastTook = time.Since(start)
	}
	c.sending.Store(0)
	c.pol.lastRetryAfter, c.pol.hasRetryAfter = 0, false
	if resp != nil {
		c.pol.lastRetryAfter, c.pol.hasRetryAfter = c.retryAfter(resp.Header)
	}
	if tw != nil {
		c.transcribeResponse(tw, r, resp, err)
	}
	if err != nil && cancel != nil && parent.Err() == nil && context.Cause(ctx) == errAttemptTimeout {
		err = errAttemptTimeout
	}
	if c.b.s.cfg.Logger != nil {
		c.logAttempt(r, start, resp, err)
	}
	returned = true
	if cancel != nil {
		if resp != nil {
			resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
		} else {
			cancel()
		}
	}
	return resp, err
}

func attemptResult(resp *http.Response, err error) option.AttemptResult {
	if err != nil {
		return option.AttemptResult{Err: stripURL(err)}
	}
	return option.AttemptResult{StatusCode: resp.StatusCode, Header: resp.Header}
}

// cancelBody ends an attempt's context when its body is closed, so that
// the attempt timeout covers reading the response.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
	once   sync.Once
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.cancel)
	return err
}

// makeUnrewindable makes r, a copy of a write's request, one net/http cannot
// send a second time: its body has no GetBody, and a request without a
// body (a cancel) gets an empty one, since net/http replays a request
// without a body as freely as one whose body it can rewind. Reading an
// empty body sends nothing: over HTTP/1 the request goes out without a
// body, over HTTP/2 the stream ends with an empty frame.
//
// go-retryablehttp builds each of its own attempts from the call's encoded
// body, so the retry policy can still send a write again where it allows.
func makeUnrewindable(r *http.Request) {
	r.GetBody = nil
	if r.Body == nil || r.Body == http.NoBody {
		r.Body = emptyBody{}
		r.ContentLength = 0
	}
}

// emptyBody is a body with nothing in it that is not http.NoBody.
type emptyBody struct{}

func (emptyBody) Read([]byte) (int, error) { return 0, io.EOF }
func (emptyBody) Close() error             { return nil }

// closeRequestBody closes a request body the transport does not send, as
// a RoundTripper must.
func closeRequestBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

// closeBody drains a little of what is left, so the connection can be
// reused, and closes the body. A body with much more left is not read:
// closing the connection is cheaper than reading megabytes.
func closeBody(rc io.ReadCloser) {
	_, _ = io.CopyN(io.Discard, rc, 64<<10)
	rc.Close()
}

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
