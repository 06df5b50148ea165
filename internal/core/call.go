package core

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
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
	// sc is made on first use (scrubber).
	sc    *scrubber
	start time.Time
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
	// pol is the retry policy's state of the call (retry.go).
	pol policy
	// rbody receives the 2xx body of each attempt (readBody) when the call
	// decodes one; nil otherwise.
	rbody *body
	// loop is go-retryablehttp's client for this call, with the call's
	// methods as its policy.
	loop retryablehttp.Client
	// ext holds what the call keeps for its Metadata's attempt log and
	// for WithResponseInto (attemptlog.go); nil when it is asked for
	// neither, so that a call that is not costs nothing more.
	ext *callExtras
}

// callKey carries a request's *call in its context.
type callKey struct{}

// scrubber returns the call's scrubber (scrub.go), made the first time
// something shows text of the call: an error, a transcript, a request id.
func (c *call) scrubber() *scrubber {
	if c.sc == nil {
		c.sc = c.b.newScrubber(c.path, c.shown, c.query, c.body)
	}
	return c.sc
}

// withCallInfo gives err, the error of the call's exchange, the call's
// request id and attempt count. Only the error types the exchange builds
// are given them, never an error they wrap.
func (c *call) withCallInfo(err error) error {
	switch e := err.(type) {
	case *rxtypes.APIError:
		e.RequestID, e.Attempts = c.requestID(), c.attempts
	case *rxtypes.TransportError:
		e.RequestID, e.Attempts = c.requestID(), c.attempts
	case *rxtypes.DecodeError:
		e.RequestID, e.Attempts = c.requestID(), c.attempts
	}
	return err
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

// metadata is what the call's Metadata holds when it ends with err.
func (c *call) metadata(err error) option.Metadata {
	m := option.Metadata{
		StatusCode:           c.status,
		Header:               c.header,
		Attempts:             c.attempts,
		OutcomeKnown:         !IsUnknownOutcome(err),
		RetryBudgetExhausted: c.pol.budgetRefused,
		GraceUsed:            c.graceUsed.Load(),
		AttemptLog:           c.attemptLog(),
	}
	if c.attempts > 0 {
		// A call that ended before its first attempt took no time of
		// the platform's.
		m.Duration = time.Since(c.start)
	}
	if m.Header != nil {
		m.RequestID = c.safeRequestID(m.Header)
	}
	return m
}

// go-retryablehttp's callbacks, one line each: its loop carries the
// attempts and sleeps the waits; the call decides (CONTRIBUTING.md, "The
// map of a call", says why the loop's own rules are not used). CheckRetry
// returns no error: go-retryablehttp would return it bare, and a bare
// context error is how Execute tells an end during a wait (nothing in
// flight) from an end during an attempt (wrapped in *url.Error).

func (c *call) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	return c.decide(ctx, resp, err), nil
}

func (c *call) backoff(_, _ time.Duration, _ int, _ *http.Response) time.Duration { return c.pol.wait }

func (c *call) prepareRetry(req *http.Request) error { return c.retryStarts(req.Context()) }

// decide reads the attempt that ended into decideRetry (retry.go), the
// one place the retry decision is made, and spends the retry budget when,
// and only when, the decision is a retry. The call counts its retries
// itself, apart from its replays (the loop's own count cannot tell them
// apart). The loop asks once per attempt: the call sets no response
// handler, around which it would ask twice (a 2xx body is read by the
// attempt transport, readBody).
func (c *call) decide(ctx context.Context, resp *http.Response, err error) bool {
	if err != nil {
		c.noteCut(err)
	}
	s := c.b.s
	in := retryInput{
		Write: c.ep.Write,
		// The policy's own retries: replays are not among them.
		Attempt: c.pol.retries + 1,
		Left:    c.retryMax - c.pol.retries,
		Replays: c.pol.replays,
		Took:    c.pol.lastTook,
		Resp:    resp,
		// A timeout of the attempt's own (not the caller's context, which
		// is live when it is read) may pass on a second try.
		Err:   err,
		Ended: ctx.Err() != nil || (c.caller != nil && c.caller.Err() != nil),
		// The Retry-After of resp, read when it came (send).
		RetryAfter:    c.pol.lastRetryAfter,
		HasRetryAfter: resp != nil && c.pol.hasRetryAfter,
		Now:           s.cfg.WallNow(),
		WaitMin:       s.cfg.RetryWaitMin,
		WaitMax:       s.cfg.RetryWaitMax,
		Jitter:        rand.Float64(),
	}
	if err != nil {
		in.Err = asAttemptTimeout(ctx, err)
	}
	// The caller's deadline: for a write with a grace, whose exchange runs
	// on a context without the caller's end, that of the caller's context.
	in.Deadline, _ = ctx.Deadline()
	if c.caller != nil {
		in.Deadline, _ = c.caller.Deadline()
	}
	d := decideRetry(in)
	if d.Retry && !c.spend(d.Cost) {
		d = retryDecision{Why: retryBudgetRefused, Wait: d.Wait}
	}
	c.pol.retrying, c.pol.wait = d.Retry, d.Wait
	c.pol.replaying = d.Why == retryReplay
	return d.Retry
}

// callDeadline is the caller's deadline of the call whose exchange runs on
// ctx: for a write with a grace, whose exchange runs on a context without
// the caller's end, that of the caller's context; otherwise ctx's own.
func callDeadline(ctx context.Context) (time.Time, bool) {
	if c, _ := ctx.Value(callKey{}).(*call); c != nil && c.caller != nil {
		return c.caller.Deadline()
	}
	return ctx.Deadline()
}

// spend takes a retry's cost from the client's retry budget, and reports
// whether the retry may go. The cost is pending until the retry starts
// (prepareRetry): a wait the context ends gives it back (exchange).
func (c *call) spend(cost int64) bool {
	if !c.b.s.cfg.RetryBudget.take(cost) {
		c.pol.budgetRefused = true
		return false
	}
	c.pol.retryCost = uint8(cost)
	return true
}

func minDuration(a, b time.Duration) time.Duration {
	if a < b {
		return a
	}
	return b
}

// retryStarts runs after the wait, before a retry (go-retryablehttp's
// PrepareRetry): the retry is made, its cost spent for good, and logged.
// A replay is counted as one, and not logged as a retry.
func (c *call) retryStarts(ctx context.Context) error {
	c.pol.retrying = false
	if c.pol.replaying {
		c.pol.replays++
		return nil
	}
	c.pol.retries++
	c.pol.replays = 0
	c.pol.spent += int64(c.pol.retryCost)
	l := c.b.s.cfg.Logger
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
	l := c.b.s.cfg.Logger
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
	if id := c.requestID(); id != "" {
		attrs = append(attrs, slog.String("request_id", id))
	}
	l.LogAttrs(ctx, level, msg, attrs...)
}
