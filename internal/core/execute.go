package core

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"

	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
	"github.com/rxdelivery/rxdelivery-go/internal/validate"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Request is one call of a service method: the endpoint, the values of
// its route's placeholders, what goes out and where the response goes.
type Request struct {
	// Endpoint is the operation called.
	Endpoint *Endpoint
	// PathValues fill the route's placeholders, in order. Each must name
	// one resource: an empty, blank, "." or ".." value is refused before
	// anything is sent, whatever the validation setting.
	PathValues []string
	// Check, when set, runs before anything is sent. It decides itself
	// what it skips when the client does not validate (Checks.Validate):
	// a refusal that protects the wire (an id list that would address
	// another endpoint, test_meta outside the sandbox) runs always.
	Check func(Checks) error
	// Query, when not nil, is a struct with `url` tags encoded as the
	// query string.
	Query any
	// Body, when not nil, is encoded as the JSON request body.
	Body any
	// Out, when not nil, receives the decoded 2xx response. When it is a
	// ResponseChecker, its check runs after decoding.
	Out any
	// Status, when not nil, receives the status of a 2xx response.
	Status *int
	// Opts are the call's own options, applied on the client's defaults.
	Opts []option.CallOption
}

// Checks is what a Request's Check may depend on.
type Checks struct {
	// Validate is false when the client was built without validation.
	Validate bool
	// Options tune the validation rules.
	Options validate.Options
	// Sandbox is true for a client in sandbox mode.
	Sandbox bool
}

// ResponseChecker is a decoded response that can tell whether it holds
// what the documents promise (an envelope's member, an id). Execute runs
// the check after decoding, before the call's hooks and metadata see the
// call end; a refusal becomes a *rxtypes.DecodeError naming the status and
// the endpoint, and a write's outcome is then unknown (the platform
// accepted it, but its response does not say what it did).
type ResponseChecker interface {
	CheckResponse() error
}

// Execute performs one call, top to bottom: the call's settings, the
// checks before sending, the body and query; then the call hooks around
// the exchange (go-retryablehttp's loop of attempts, each through the
// attempt transport); then the response read whole, its status turned
// into a typed error or its body decoded and checked; last the metadata
// and the log line of the end. Every failure is a *rxtypes.APIError,
// *rxtypes.TransportError, *rxtypes.DecodeError, *rxtypes.ConfigError or
// *rxtypes.ValidationError, and WithMetadata is filled at every end.
func (b *Backend) Execute(ctx context.Context, r Request) error {
	c := &call{b: b, ep: r.Endpoint, out: r.Out, outStatus: r.Status, start: time.Now()}
	// A descriptor's mistake (a count of values its route does not have)
	// leaves the route as both paths; prepare refuses the call with it.
	c.path, c.shown, _ = r.Endpoint.Paths(r.PathValues...)
	err := c.prepare(ctx, &r)
	if err == nil {
		err = c.hooked(ctx)
	}
	c.end(ctx, err)
	return err
}

// prepare resolves the call's settings (its options applied on the
// client's defaults) and refuses, before anything is sent, what cannot be
// sent: a nil context, an option's refusal, an interface without base URL
// or credentials, a path value that names no resource, params that fail
// their check; then it encodes the query and the body.
func (c *call) prepare(ctx context.Context, r *Request) error {
	b := c.b
	c.set = &b.s.cfg.Defaults
	if len(r.Opts) > 0 {
		// A refused call still fills what its options ask for (end).
		set, err := option.Resolve(c.set, r.Opts)
		c.set = &set
		if err != nil {
			return err
		}
	}
	// The client's WithRetryMax and a call's are one setting: NewShared
	// puts the client's (or DefaultRetryMax) in the defaults every call
	// clones, and no option sets it to nil.
	c.retryMax = *c.set.RetryMax
	if c.set.AttemptTimeout != nil {
		c.attemptTimeout = *c.set.AttemptTimeout
	}
	if c.set.WriteGrace != nil && c.ep.Write {
		c.grace = *c.set.WriteGrace
	}
	if ctx == nil {
		// As net/http's NewRequestWithContext does: an error, not a panic.
		return &rxtypes.ConfigError{Message: c.ep.Method + " " + c.shown + ": nil Context (pass context.Background() or a request's context)"}
	}
	if err := checkPathValues(c.ep, r.PathValues); err != nil {
		return err
	}
	if r.Check != nil {
		if err := r.Check(Checks{Validate: b.s.cfg.Validate, Options: b.s.cfg.ValidateOptions, Sandbox: b.s.cfg.Sandbox}); err != nil {
			return err
		}
	}
	if b.base == "" {
		return &rxtypes.ConfigError{
			Message: "no base URL for the " + b.iface.String() + " interface: set " + b.iface.URLOption() + " or " + b.iface.URLEnv(),
			Err:     rxtypes.ErrNoBaseURL,
		}
	}
	if b.authHeader == nil {
		return &rxtypes.ConfigError{Message: "no credentials for the " + b.iface.String() +
			" interface: pass a key and secret to NewClient, or use WithCredentials"}
	}
	if r.Query != nil {
		q, err := Query(r.Query)
		if err != nil {
			return &rxtypes.ConfigError{Message: c.ep.Method + " " + c.shown + ": encoding the query failed", Err: err}
		}
		c.query = q
	}
	if r.Body != nil {
		body, err := jsonx.Marshal(r.Body)
		if err != nil {
			return &rxtypes.ConfigError{Message: c.ep.Method + " " + c.shown + ": encoding the request body: " + err.Error(), Err: err}
		}
		c.body = body
	}
	return nil
}

// hooked runs the exchange inside the call hooks, outermost first. A hook
// that does not call next stops the call before anything is sent; one
// that calls it twice sends once.
func (c *call) hooked(ctx context.Context) error {
	if len(c.set.CallMiddleware) == 0 {
		return c.withCallInfo(c.exchange(ctx))
	}
	var err error
	called := false
	f := option.CallFunc(func(ctx context.Context, _ *option.Operation) option.CallResult {
		if called {
			return option.CallResult{Metadata: c.metadata(err), Err: errCalledTwice}
		}
		called = true
		err = c.withCallInfo(c.exchange(ctx))
		return option.CallResult{Metadata: c.metadata(err), Err: err}
	})
	for i := len(c.set.CallMiddleware) - 1; i >= 0; i-- {
		f = c.set.CallMiddleware[i](f)
	}
	op := c.operation()
	res := f(ctx, &op)
	if !called {
		return c.notSent(orHookRefused(res.Err))
	}
	return c.hookResult(err, res.Err)
}

// hookResult is the call's error once the call hooks returned hookErr
// over the exchange's err. A read's hooks decide it: their error, nil
// or not, replaces err (a hook may fail a read, or annotate its error; it
// cannot make a failed read succeed: with no error of its own, err
// stands). A write's result is the platform's: its hooks' error is the
// call's only when it wraps err (errors.Is), so that what the caller acts
// on (ErrUnknownOutcome, the APIError) still matches; a hook cannot fail
// a write the platform applied, or hide why one failed, since a caller
// would then send it again.
func (c *call) hookResult(err, hookErr error) error {
	if hookErr == nil || hookErr == err {
		return err
	}
	if !c.ep.Write || (err != nil && errors.Is(hookErr, err)) {
		return hookErr
	}
	if l := c.b.s.cfg.Logger; l != nil && l.Enabled(context.Background(), slog.LevelWarn) {
		l.LogAttrs(context.Background(), slog.LevelWarn, "rxdelivery: a call hook's error is not the result of a write",
			c.logAttrs(slog.String("hook_error", option.ErrorKind(hookErr)))...)
	}
	return err
}

// exchange sends the request through go-retryablehttp's loop and reads
// the response: a status outside 2xx becomes an *APIError, a 2xx body is
// decoded into the request's Out and checked.
func (c *call) exchange(ctx context.Context) error {
	if ctx.Err() != nil {
		return c.notSent(ended(ctx, ctx.Err(), c.scrubber()))
	}
	if c.ep.Write {
		c.trace = new(sendTrace)
		if c.grace > 0 {
			var release func()
			ctx, release = c.withGrace(ctx)
			defer release()
		}
		// The trace tells whether the last attempt got a connection (unsent.go).
		c.trace.trace.GetConn = func(string) { c.trace.state.Store(waitingConn) }
		c.trace.trace.GotConn = func(httptrace.GotConnInfo) { c.trace.state.Store(gotConn) }
		ctx = httptrace.WithClientTrace(ctx, &c.trace.trace)
	}
	ctx = context.WithValue(ctx, callKey{}, c)
	req, err := c.newRequest(ctx)
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return c.notSent(ended(ctx, ctx.Err(), c.scrubber()))
	}
	// A 2xx body is read whole inside the attempt (readBody), so that a
	// body cut short is seen while go-retryablehttp can still send a safe
	// call again: a 2xx that reaches readResponse has been read.
	rb := c.rbody
	if c.out != nil {
		rb = bodyPool.Get().(*body)
		rb.max = c.b.s.cfg.MaxResponseBytes
		c.rbody = rb
		defer putBody(rb)
	}
	c.loop = retryablehttp.Client{
		HTTPClient: c.b.s.hc,
		// The loop's bound never binds before the policy's (retry.go):
		// the call's retries, each after up to MaxReplays replays.
		RetryMax:     c.retryMax + (c.retryMax+1)*MaxReplays,
		CheckRetry:   c.checkRetry,
		Backoff:      c.backoff,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
		PrepareRetry: c.prepareRetry,
	}
	resp, err := c.loop.Do(req)
	if c.pol.retrying {
		// A retry decided whose wait the context ended was never made:
		// its cost goes back to the budget.
		c.b.s.cfg.RetryBudget.give(int64(c.pol.retryCost))
		c.pol.retrying = false
	}
	if err != nil {
		return c.failed(ctx, resp, err)
	}
	defer func() {
		if rb != nil && rb.whole {
			// Read to its end: nothing is left to drain.
			resp.Body.Close()
			return
		}
		closeBody(resp.Body)
	}()
	return c.readResponse(resp, rb)
}

// newRequest builds the call's request on ctx: its URL, body and headers.
func (c *call) newRequest(ctx context.Context) (*retryablehttp.Request, error) {
	b := c.b
	u := b.base + c.path
	if c.query != "" {
		u += "?" + c.query
	}
	var raw any
	if c.body != nil {
		raw = c.body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, c.ep.Method, u, raw)
	if err != nil {
		return nil, &rxtypes.ConfigError{Message: c.ep.Method + " " + c.shown + ": building the request failed", Err: stripURL(err)}
	}
	h := req.Header
	h["Authorization"] = b.authHeader
	h["Accept"] = acceptJSON
	h["User-Agent"] = b.s.uaHeader
	if c.body != nil {
		h["Content-Type"] = acceptJSON
	}
	for k, vs := range c.set.Header {
		h[k] = vs
	}
	return req, nil
}

// readResponse reads the response the loop ended with: a status outside
// 2xx becomes an *APIError, a 2xx body (read by readBody) is decoded
// into the request's Out and checked.
func (c *call) readResponse(resp *http.Response, body *body) error {
	c.status, c.header = resp.StatusCode, resp.Header
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		if c.set.Response != nil {
			// One byte more than an error keeps, to tell a body cut
			// short from one that fits.
			data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody+1))
			c.keepRaw(resp, nil, data, option.MaxRawErrorBody)
			return c.apiError(resp, data[:min(len(data), maxErrorBody)])
		}
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return c.apiError(resp, data)
	}
	if c.set.Response != nil {
		c.keepRaw(resp, body, nil, 0)
	}
	if c.outStatus != nil {
		*c.outStatus = resp.StatusCode
	}
	if c.out == nil {
		return nil
	}
	if resp.StatusCode != http.StatusNoContent {
		if body.err != nil {
			return c.decodeError(resp.StatusCode, body.err, false)
		}
		if err := decode(body.buf.Bytes(), c.out); err != nil {
			return c.decodeError(resp.StatusCode, err, false)
		}
	}
	if rc, ok := c.out.(ResponseChecker); ok {
		if err := rc.CheckResponse(); err != nil {
			return c.decodeError(resp.StatusCode, err, false)
		}
	}
	return nil
}

// end refills the retry budget after a success with what the call is
// worth (its retries' cost, or a little for a success at the first
// attempt), fills the caller's Metadata and logs an end an operator wants
// to see.
func (c *call) end(ctx context.Context, err error) {
	if err == nil && c.attempts > 0 {
		if c.pol.spent > 0 {
			c.b.s.cfg.RetryBudget.give(c.pol.spent)
		} else {
			c.b.s.cfg.RetryBudget.give(SuccessRefill)
		}
	}
	if m := c.set.Metadata; m != nil {
		*m = c.metadata(err)
	}
	if r := c.set.Response; r != nil {
		*r = option.RawResponse{}
		if c.ext != nil {
			*r = c.ext.raw
		}
	}
	if ctx != nil {
		if err != nil && c.b.s.cfg.Logger != nil {
			c.logEnd(ctx, err)
		}
	}
}

var acceptJSON = []string{"application/json"}

// errCalledTwice is what a hook gets when it calls next a second time:
// nothing is sent again.
var errCalledTwice = errors.New("next was already called: a hook may send once")

// ErrHookRefused is the cause of an attempt an attempt hook ended without
// calling next and without an error of its own.
var ErrHookRefused = errors.New("an attempt hook did not send the request")

func orHookRefused(err error) error {
	if err == nil {
		return ErrHookRefused
	}
	return err
}
