package core

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"

	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// call is the state of one call, made by Execute and shared by its
// attempts. go-retryablehttp runs the attempts one after another on the
// caller's goroutine, and its CheckRetry, Backoff and PrepareRetry are
// methods of the call, so the fields need no lock. The attempt transport
// finds the call in the request's context under callKey, the one context
// key of the SDK.
type call struct {
	b  *Backend
	ep *Endpoint
	// out and outStatus are the request's Out and Status: where the
	// response goes.
	out       any
	outStatus *int
	// set holds the call's settings: the client's defaults (shared, read
	// only), or a copy with the call's own options applied.
	set            *option.Settings
	retryMax       int
	attemptTimeout time.Duration
	grace          time.Duration
	// caller is the caller's context; the exchange runs on a context of
	// its own when the call has a write grace.
	caller context.Context
	// sending is 1 while an attempt is with the transport; graceUsed is
	// set when the caller's context ended while one was.
	sending   atomic.Int32
	graceUsed atomic.Bool
	// path is the escaped path below the base URL; shown is the path
	// errors show, with the route's hidden values as placeholders.
	path, shown string
	query       string
	body        []byte
	sc          *scrubber
	start       time.Time
	// attempts counts the attempts made; status and header are those of
	// the last response; lastEnd is when the last attempt returned and
	// lastErr why it failed.
	attempts int
	status   int
	header   http.Header
	lastEnd  time.Time
	lastErr  error
	// trace tells whether a write's last attempt may have been sent; nil
	// for a read.
	trace *sendTrace
	// spent is what the call's retries took from the retry budget;
	// budgetRefused is set when the budget refused a retry.
	spent         int64
	budgetRefused bool
	// loop is go-retryablehttp's client for this call, with the call's
	// methods as its policy.
	loop retryablehttp.Client
}

// callKey carries a request's *call in its context.
type callKey struct{}

// callOf returns the call of a request's context, or nil.
func callOf(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	return c
}

// newCall starts the call of r on b. The call keeps of r only where the
// response goes; prepare reads the rest.
func newCall(b *Backend, r *Request) *call {
	ep := r.Endpoint
	c := &call{b: b, ep: ep, out: r.Out, outStatus: r.Status, start: time.Now()}
	c.path, c.shown = ep.pathsOrRoute(r.PathValues)
	return c
}

// resolveSettings applies the call's options, opts, on the client's
// defaults.
func (c *call) resolveSettings(opts []option.CallOption) error {
	s := c.b.s
	c.set = &s.defaults
	if len(opts) > 0 {
		set := s.defaults.Clone()
		for _, o := range opts {
			o.Apply(&set)
		}
		c.set = &set
		if c.set.Err != nil {
			return c.set.Err
		}
	}
	c.retryMax = s.retryMax
	if c.set.RetryMax != nil {
		c.retryMax = *c.set.RetryMax
	}
	if c.set.AttemptTimeout != nil {
		c.attemptTimeout = *c.set.AttemptTimeout
	}
	if c.set.WriteGrace != nil && c.ep.Write {
		c.grace = *c.set.WriteGrace
	}
	return nil
}

func (c *call) method() string { return c.ep.Method }

// operation is what hooks see of the call.
func (c *call) operation() option.Operation {
	op := option.Operation{Name: c.ep.Name, Method: c.ep.Method, Path: c.ep.Route, Interface: c.ep.Interface.String()}
	if c.ep.Write {
		op.Class = option.Write
	}
	return op
}

// limiter is the rate limiter of the call's interface, or nil.
func (c *call) limiter() *Limiter { return c.b.s.limiters[c.b.iface] }

// metadata is what the call's Metadata holds when it ends with err.
func (c *call) metadata(err error) option.Metadata {
	m := option.Metadata{
		StatusCode:           c.status,
		Header:               c.header,
		Attempts:             c.attempts,
		OutcomeKnown:         !IsUnknownOutcome(err),
		RetryBudgetExhausted: c.budgetRefused,
		GraceUsed:            c.graceUsed.Load(),
	}
	if c.attempts > 0 {
		// A call that ended before its first attempt took no time of
		// the platform's.
		m.Duration = time.Since(c.start)
	}
	if m.Header != nil {
		m.RequestID = requestID(m.Header)
	}
	return m
}

// requestIDHeaders are the response headers read as the platform's
// request identifier, in order. The documents name none; these are the
// names HTTP APIs commonly use.
var requestIDHeaders = [...]string{"X-Request-Id", "Request-Id", "X-Correlation-Id"}

func requestID(h http.Header) string {
	for _, k := range requestIDHeaders {
		if v := h.Get(k); v != "" {
			return v
		}
	}
	return ""
}

// checkRetry is go-retryablehttp's CheckRetry: the retry policy (retry.go)
// for this call's class. It is given the request's context, so it can
// refuse a Retry-After wait that would outlive the deadline; a wait
// longer than the cap is refused too, and the caller gets the final
// response with its Retry-After.
func (c *call) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil || (c.caller != nil && c.caller.Err() != nil) {
		// Not ctx.Err(): go-retryablehttp would return that bare, and a bare
		// context error is how Execute tells an end during a wait (nothing
		// in flight) from an end during an attempt (wrapped in *url.Error).
		return false, nil
	}
	if err != nil {
		if !retryAfterError(ctx, c.ep.Write, err) {
			return false, nil
		}
		cost := int64(RetryCost)
		if errors.Is(asAttemptTimeout(ctx, err), rxtypes.ErrAttemptTimeout) {
			cost = TimeoutRetryCost
		}
		return c.spend(cost), nil
	}
	if !retryStatus(resp.StatusCode, c.ep.Write) {
		return false, nil
	}
	if wait, ok := parseRetryAfter(resp.Header.Get("Retry-After"), c.b.s.now()); ok {
		if wait > c.b.s.waitMax {
			return false, nil
		}
		if dl, has := ctx.Deadline(); has && c.b.s.now().Add(wait).After(dl) {
			return false, nil
		}
	}
	return c.spend(RetryCost), nil
}

// spend takes a retry's cost from the client's retry budget, and reports
// whether the retry may go.
func (c *call) spend(cost int64) bool {
	if !c.b.s.budget.take(cost) {
		c.budgetRefused = true
		return false
	}
	c.spent += cost
	return true
}

// refill gives the retry budget back what a call that succeeded is worth:
// its retries' cost, or a little for a success at the first attempt.
func (c *call) refill() {
	if c.spent > 0 {
		c.b.s.budget.give(c.spent)
		return
	}
	c.b.s.budget.give(SuccessRefill)
}

// backoff is go-retryablehttp's Backoff: the server's Retry-After when it
// gave one (checkRetry has already refused one above the cap), otherwise
// an exponential wait from min, doubled per attempt, capped at max, with
// the upper half jittered so that clients do not retry in step.
func (c *call) backoff(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if wait, ok := parseRetryAfter(resp.Header.Get("Retry-After"), c.b.s.now()); ok {
			return minDuration(wait, max)
		}
	}
	wait := min
	for i := 0; i < attempt && wait < max; i++ {
		wait *= 2
	}
	wait = minDuration(wait, max)
	if wait <= 0 {
		return 0
	}
	half := wait / 2
	return half + rand.N(wait-half+1)
}

func minDuration(a, b time.Duration) time.Duration {
	if a < b {
		return a
	}
	return b
}

// prepareRetry is go-retryablehttp's PrepareRetry: it runs after the wait,
// before a retry, and logs the retry.
func (c *call) prepareRetry(req *http.Request) error {
	l := c.b.s.logger
	ctx := req.Context()
	if l == nil || !l.Enabled(ctx, slog.LevelInfo) {
		return nil
	}
	attrs := c.logAttrs(
		slog.Int("attempt", c.attempts+1),
		slog.Duration("waited", time.Since(c.lastEnd)),
	)
	if c.lastErr != nil {
		attrs = append(attrs, slog.String("after", option.ErrorKind(c.lastErr)))
	} else {
		attrs = append(attrs, slog.Int("after_status", c.status))
	}
	l.LogAttrs(ctx, slog.LevelInfo, "rxdelivery: retrying", attrs...)
	return nil
}

// logAttrs are the attributes every log line of the call carries:
// operation, method and the templated path with the base URL's path
// (never an identifier or a query string), then extra.
func (c *call) logAttrs(extra ...slog.Attr) []slog.Attr {
	attrs := make([]slog.Attr, 0, 3+len(extra)+3)
	attrs = append(attrs,
		slog.String("operation", c.ep.Name),
		slog.String("method", c.ep.Method),
		slog.String("path", c.b.basePath+c.ep.Route),
	)
	return append(attrs, extra...)
}

// logEnd logs a call that ended in a way an operator wants to see: a
// write whose outcome is unknown (Error) and a call the SDK gave up on
// after retrying, or could not retry, on a response it retries (Warn).
// Other failures are the caller's to report.
func (c *call) logEnd(ctx context.Context, err error) {
	l := c.b.s.logger
	if err == nil || l == nil {
		return
	}
	level, msg := slog.LevelWarn, "rxdelivery: giving up"
	switch {
	case IsUnknownOutcome(err):
		level, msg = slog.LevelError, "rxdelivery: outcome of the write is unknown"
	case !retriedKind(err):
		return
	}
	if !l.Enabled(ctx, level) {
		return
	}
	attrs := c.logAttrs(
		slog.Int("attempts", c.attempts),
		slog.String("error", option.ErrorKind(err)),
	)
	if c.status != 0 {
		attrs = append(attrs, slog.Int("status", c.status))
	}
	l.LogAttrs(ctx, level, msg, attrs...)
}

// pathsOrRoute is Paths, for a route whose placeholders PathValues fill;
// checkPathValues has refused a count that does not match.
func (e *Endpoint) pathsOrRoute(values []string) (path, shown string) {
	if strings.Count(e.Route, "{") != len(values) {
		return e.Route, e.Route
	}
	return e.Paths(values...)
}

// sendTrace tells whether the last attempt of a write got a connection. A
// write whose last attempt failed before it had one never left the
// process (for example when its context ended while it waited for a
// connection of a full pool): its outcome is known, not applied. Earlier
// attempts of a write are only ever retried after a refusal (429, 503) or
// a failed dial, so the last attempt decides.
//
// The hooks fire only in transports that support net/http's client trace
// (http.Transport does). With any other transport nothing is traced and
// a failed write keeps its unknown outcome.
type sendTrace struct {
	state atomic.Int32 // untraced, waitingConn or gotConn
	trace httptrace.ClientTrace
}

// States of a sendTrace.
const (
	untraced    = iota // no hook fired: the transport does not trace
	waitingConn        // the attempt asked for a connection, has none yet
	gotConn            // the attempt got a connection and may have sent
)

// attach returns ctx with the trace's hooks.
func (s *sendTrace) attach(ctx context.Context) context.Context {
	s.trace.GetConn = func(string) { s.state.Store(waitingConn) }
	s.trace.GotConn = func(httptrace.GotConnInfo) { s.state.Store(gotConn) }
	return httptrace.WithClientTrace(ctx, &s.trace)
}

// mayHaveSent reports whether the last attempt may have sent the request:
// false only when it is known to have had no connection.
func (s *sendTrace) mayHaveSent() bool { return s == nil || s.state.Load() != waitingConn }

// withGrace returns the context a write with a grace runs on: it keeps the
// caller's values but not its end. When the caller's context ends, the
// write stops at once unless an attempt is with the transport and may have
// been sent; then it goes on for the grace, and stops when that runs out.
// The returned func releases the context; call it when the exchange ends.
func (c *call) withGrace(caller context.Context) (context.Context, func()) {
	c.caller = caller
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(caller))
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
