package core

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"
)

// A call runs on one of two paths. The plain path (no per-call option, no
// client-wide hook, extra header, attempt timeout, rate limit or logger)
// is Do as it has always been. Anything else makes Do put a callState in
// the request's context: the attempt transport finds it there and counts
// attempts, waits for the rate limiter, bounds the attempt and runs the
// attempt hooks; Do runs the call hooks, fills the metadata and logs the
// outcome.

// callStateKey carries a call's *callState in the request's context.
type callStateKey struct{}

// callState is what one call's attempts share. Attempts run one after
// another on the caller's goroutine (go-retryablehttp's loop), so the
// fields need no lock.
type callState struct {
	op       Op
	set      CallSettings
	route    string // the templated path logs show, with the base path
	limiter  *Limiter
	logger   *slog.Logger
	start    time.Time
	attempts int
	// status and header are those of the last answer; lastEnd is when the
	// last attempt returned.
	status  int
	header  http.Header
	lastEnd time.Time
	lastErr error
}

func stateOf(ctx context.Context) *callState {
	st, _ := ctx.Value(callStateKey{}).(*callState)
	return st
}

// plain reports whether a call with no options of its own may take the
// plain path.
func (s *Shared) plain(iface Interface) bool {
	return s.logger == nil && s.limiters[iface] == nil && s.defaultsEmpty
}

// doObserved runs c with its settings, hooks and metadata.
func (b *Backend) doObserved(ctx context.Context, c Call, out any) (*Response, error) {
	st := &callState{
		op:      Op{Name: c.Op, Method: c.Method, Route: c.Route, Interface: b.iface, Write: c.Write},
		set:     b.s.defaults,
		limiter: b.s.limiters[b.iface],
		logger:  b.s.logger,
		start:   time.Now(),
	}
	if st.op.Route == "" {
		st.op.Route = c.shown()
	}
	st.route = b.basePath + st.op.Route
	if len(c.Opts) > 0 {
		st.set = b.s.defaults.Clone()
		for _, f := range c.Opts {
			f(&st.set)
		}
		if st.set.Err != nil {
			if st.set.Metadata != nil {
				st.set.Metadata(st.meta(nil, nil))
			}
			return nil, st.set.Err
		}
	}
	var resp *Response
	var res CallResult
	called := false
	inner := func(ctx context.Context, _ *Op) CallResult {
		if called {
			return CallResult{Meta: res.Meta, Err: errCalledTwice}
		}
		called = true
		r, err := b.do(ctx, c, out, st)
		meta := st.meta(r, err)
		if r, err = checkAnswer(c, out, r, err); err != nil {
			meta.OutcomeKnown = !IsUnknownOutcome(err)
		}
		resp, res = r, CallResult{Meta: meta, Err: err}
		return res
	}
	f := CallFunc(inner)
	for i := len(st.set.CallHooks) - 1; i >= 0; i-- {
		f = st.set.CallHooks[i](f)
	}
	hr := f(context.WithValue(ctx, callStateKey{}, st), &st.op)
	if !called {
		// A call hook that did not call next: the call was not made.
		res = CallResult{Meta: st.meta(nil, nil), Err: &TransportError{Method: c.Method, Path: c.shown(), Err: &NotSentError{Err: orHookRefused(hr.Err)}}}
	}
	if st.set.Metadata != nil {
		st.set.Metadata(res.Meta)
	}
	st.logEnd(ctx, res.Err)
	if res.Err != nil {
		return nil, res.Err
	}
	return resp, nil
}

// Refused ends a call that a service method refused before calling Do
// (invalid or nil params, an empty id, a query it could not encode), and
// returns err. Like every other end of a call, it fills the metadata a
// WithMetadata option asks for: no status, no attempt, outcome known.
func Refused[O any](opts []O, err error) error {
	if len(opts) > 0 {
		refusedMeta(CallOptions(opts))
	}
	return err
}

// refusedMeta applies a call's options and hands the metadata of a call
// that sent nothing to the one that asks for it.
func refusedMeta(opts []func(*CallSettings)) {
	if len(opts) == 0 {
		return
	}
	var set CallSettings
	for _, f := range opts {
		f(&set)
	}
	if set.Metadata != nil {
		set.Metadata(Meta{OutcomeKnown: true})
	}
}

// errCalledTwice is what a hook gets when it calls next a second time:
// nothing is sent again.
var errCalledTwice = errors.New("next was already called: a hook may send once")

func orHookRefused(err error) error {
	if err == nil {
		return ErrHookRefused
	}
	return err
}

// meta builds the call's metadata.
func (st *callState) meta(resp *Response, err error) Meta {
	m := Meta{
		StatusCode:   st.status,
		Header:       st.header,
		Attempts:     st.attempts,
		Duration:     time.Since(st.start),
		OutcomeKnown: !IsUnknownOutcome(err),
	}
	if resp != nil {
		m.StatusCode, m.Header = resp.StatusCode, resp.Header
	}
	if m.Header != nil {
		m.RequestID = requestID(m.Header)
	}
	return m
}

// IsUnknownOutcome reports whether err is a write's failure whose outcome
// is unknown.
func IsUnknownOutcome(err error) bool {
	return err != nil && errors.Is(err, ErrUnknownOutcome)
}

// retryClient returns the retrying client of a call: the shared one, or,
// when the call sets its own retry count, one made for it.
func (s *Shared) retryClient(write bool, st *callState) *retryablehttp.Client {
	if st != nil && st.set.RetrySet {
		return s.mk(write, st.set.RetryMax)
	}
	if write {
		return s.write
	}
	return s.safe
}

// addHeaders sets the call's extra headers on h, skipping those the SDK
// sets itself.
func (st *callState) addHeaders(h http.Header) {
	for k, vs := range st.set.Header {
		if !OwnedHeader(k) {
			h[k] = vs
		}
	}
}

// attemptTransport runs every attempt of a call that has a callState:
// it waits for the interface's rate limiter, bounds the attempt by the
// attempt timeout and runs the attempt hooks. Calls on the plain path pass
// through.
type attemptTransport struct {
	next http.RoundTripper
}

func (t *attemptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	st := stateOf(req.Context())
	if st == nil {
		return t.next.RoundTrip(req)
	}
	return st.attempt(req, t.next)
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

// NotSentError is the error of an attempt that was stopped before its
// request left the process: by the rate limiter's wait or by an attempt
// hook that did not call next. A write that fails this way has a known
// outcome: not applied.
type NotSentError struct{ Err error }

func (e *NotSentError) Error() string { return "not sent: " + e.Err.Error() }
func (e *NotSentError) Unwrap() error { return e.Err }

// ErrHookRefused is the cause of an attempt an attempt hook ended without
// calling next and without an error of its own.
var ErrHookRefused = errors.New("an attempt hook did not send the request")

func (st *callState) attempt(req *http.Request, next http.RoundTripper) (*http.Response, error) {
	st.attempts++
	info := &AttemptInfo{Op: &st.op, Number: st.attempts, header: req.Header}
	parent := req.Context()
	if st.limiter != nil {
		if err := st.limiter.Wait(parent); err != nil {
			st.lastEnd, st.lastErr = time.Now(), err
			return nil, &NotSentError{Err: err}
		}
	}
	ctx, cancel := parent, context.CancelFunc(nil)
	if d := st.set.AttemptTimeout; d > 0 {
		ctx, cancel = context.WithTimeoutCause(parent, d, errAttemptTimeout)
	}
	var resp *http.Response
	var rerr error
	called := false
	inner := func(ctx context.Context, _ *AttemptInfo) AttemptResult {
		if called {
			return AttemptResult{Err: errCalledTwice}
		}
		called = true
		r := req
		if ctx != parent {
			r = req.WithContext(ctx)
		}
		resp, rerr = next.RoundTrip(r)
		if rerr != nil && parent.Err() == nil && context.Cause(ctx) == errAttemptTimeout {
			rerr = errAttemptTimeout
		}
		return attemptResult(resp, rerr)
	}
	f := AttemptFunc(inner)
	for i := len(st.set.AttemptHooks) - 1; i >= 0; i-- {
		f = st.set.AttemptHooks[i](f)
	}
	res := f(ctx, info)
	st.lastEnd = time.Now()
	if !called {
		if cancel != nil {
			cancel()
		}
		err := orHookRefused(res.Err)
		st.lastErr = err
		return nil, &NotSentError{Err: err}
	}
	st.lastErr = rerr
	if resp != nil {
		st.status, st.header = resp.StatusCode, resp.Header
		if st.limiter != nil {
			st.limiter.observe(resp.StatusCode)
		}
	}
	if cancel != nil {
		if resp != nil {
			resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
		} else {
			cancel()
		}
	}
	return resp, rerr
}

func attemptResult(resp *http.Response, err error) AttemptResult {
	if err != nil {
		return AttemptResult{Err: stripURL(err)}
	}
	return AttemptResult{StatusCode: resp.StatusCode, Header: resp.Header}
}

// cancelBody ends an attempt's context when its body is closed, so that
// the attempt timeout covers reading the answer.
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

// prepareRetry is go-retryablehttp's PrepareRetry: it runs after the wait,
// before a retry, and logs the retry.
func (s *Shared) prepareRetry(req *http.Request) error {
	st := stateOf(req.Context())
	if st == nil || st.logger == nil {
		return nil
	}
	ctx := req.Context()
	if !st.logger.Enabled(ctx, slog.LevelInfo) {
		return nil
	}
	attrs := []slog.Attr{
		slog.String("operation", st.op.Name),
		slog.String("method", st.op.Method),
		slog.String("path", st.route),
		slog.Int("attempt", st.attempts+1),
		slog.Duration("waited", time.Since(st.lastEnd)),
	}
	if st.lastErr != nil {
		attrs = append(attrs, slog.String("after", errorKind(st.lastErr)))
	} else {
		attrs = append(attrs, slog.Int("after_status", st.status))
	}
	st.logger.LogAttrs(ctx, slog.LevelInfo, "rxdelivery: retrying", attrs...)
	return nil
}

// logEnd logs a call that ended in a way an operator wants to see: a write
// whose outcome is unknown (Error) and a call the SDK gave up on after
// retrying, or could not retry, on an answer it retries (Warn). Other
// failures are the caller's to report.
func (st *callState) logEnd(ctx context.Context, err error) {
	if err == nil || st.logger == nil {
		return
	}
	level := slog.LevelWarn
	msg := "rxdelivery: giving up"
	switch {
	case IsUnknownOutcome(err):
		level, msg = slog.LevelError, "rxdelivery: outcome of the write is unknown"
	case !retriedKind(err):
		return
	}
	if !st.logger.Enabled(ctx, level) {
		return
	}
	attrs := []slog.Attr{
		slog.String("operation", st.op.Name),
		slog.String("method", st.op.Method),
		slog.String("path", st.route),
		slog.Int("attempts", st.attempts),
		slog.String("error", errorKind(err)),
	}
	if st.status != 0 {
		attrs = append(attrs, slog.Int("status", st.status))
	}
	st.logger.LogAttrs(ctx, level, msg, attrs...)
}

// retriedKind reports whether err is of a kind the retry policy retries:
// a 429 or 5xx answer, a failed exchange that the caller's context did not
// end, or an answer cut short.
func retriedKind(err error) bool {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.StatusCode == http.StatusTooManyRequests || ae.StatusCode >= 500
	}
	var te *TransportError
	if errors.As(err, &te) {
		return !errors.Is(te.Err, context.Canceled) && !errors.Is(te.Err, context.DeadlineExceeded)
	}
	var de *DecodeError
	return errors.As(err, &de) && de.Incomplete
}

// errorKind names an error for logs and telemetry without its message:
// the sentinel it matches, or its type.
func errorKind(err error) string {
	for _, s := range kindSentinels {
		if errors.Is(err, s.err) {
			return s.name
		}
	}
	var te *TransportError
	var ns *NotSentError
	var ae *APIError
	var ce *ConfigError
	switch {
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline_exceeded"
	case errors.Is(err, errAttemptTimeout):
		return "attempt_timeout"
	case errors.As(err, &ns):
		return "not_sent"
	case errors.As(err, &te):
		return "transport"
	case errors.As(err, &ae):
		return "api_error"
	case errors.As(err, &ce):
		return "config"
	}
	return "error"
}

// ErrorKind is errorKind for hooks: the sentinel an error matches (such
// as "unknown_outcome" or "rate_limited"), or its kind ("transport",
// "canceled"). It never holds the error's message.
func ErrorKind(err error) string {
	if err == nil {
		return ""
	}
	return errorKind(err)
}

var kindSentinels = [...]struct {
	err  error
	name string
}{
	{ErrUnknownOutcome, "unknown_outcome"},
	{ErrUnableToCancel, "unable_to_cancel"},
	{ErrRateLimited, "rate_limited"},
	{ErrUnavailable, "unavailable"},
	{ErrBadRequest, "bad_request"},
	{ErrUnauthorized, "unauthorized"},
	{ErrForbidden, "forbidden"},
	{ErrNotFound, "not_found"},
	{ErrMalformedResponse, "malformed_response"},
	{ErrNoBaseURL, "no_base_url"},
	{ErrSandboxOnly, "sandbox_only"},
}
