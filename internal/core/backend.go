package core

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"

	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
	"github.com/rxdelivery/rxdelivery-go/internal/validate"
)

// Version is the SDK's version, sent in the User-Agent.
const Version = "0.1.0"

// DefaultUserAgent is sent when the caller sets none.
const DefaultUserAgent = "rxdelivery-go/" + Version

// Defaults of the retry policy.
const (
	DefaultRetryMax     = 3
	DefaultRetryWaitMin = 500 * time.Millisecond
	DefaultRetryWaitMax = 30 * time.Second
)

// Config is what the root client hands to NewShared.
type Config struct {
	// HTTPClient, when set, supplies the transport, timeout, redirect
	// policy and cookie jar; it is wrapped, never modified.
	HTTPClient *http.Client
	// RetryMax is how many retries follow the first attempt.
	RetryMax int
	// RetryWaitMin is the first backoff wait; RetryWaitMax caps any one
	// wait, a server's Retry-After included.
	RetryWaitMin, RetryWaitMax time.Duration
	// Logger receives one debug line per attempt; nil logs nothing.
	Logger *slog.Logger
	// UserAgent is the User-Agent header value.
	UserAgent string
	// Validate runs params validation before every call.
	Validate bool
	// ValidateOptions tunes the validation rules.
	ValidateOptions validate.Options
	// Sandbox marks a sandbox environment, where test_meta may be sent.
	Sandbox bool
	// MaxResponseBytes bounds a successful answer's body; zero means
	// DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// Now is the clock, for tests; nil means time.Now.
	Now func() time.Time
	// Defaults are the settings of every call that sets none of its own
	// (the client-level forms of the per-call options).
	Defaults CallSettings
	// RateLimits are the client-side rate limits, per interface; nil
	// means none.
	RateLimits [numInterfaces]*Limiter
}

// DefaultMaxResponseBytes bounds a successful answer's body, so a
// misbehaving server cannot make a long-running process allocate without
// limit. The largest documented answers (a page of 100 pharmacies, many
// orders at once) are far below it.
const DefaultMaxResponseBytes = 32 << 20

// Shared is the transport every interface's Backend uses: one pooled
// connection set, one retry policy, one logger.
type Shared struct {
	safe, write *retryablehttp.Client
	transport   http.RoundTripper
	loopback    *loopbackTransport // transport, with the loopback rule
	logger      *slog.Logger
	uaHeader    []string // the User-Agent header value, built once
	validate    bool
	vopts       validate.Options
	sandbox     bool
	maxBody     int64
	now         func() time.Time
	// mk builds a retrying client (for a call with its own retry count).
	mk func(write bool, retryMax int) *retryablehttp.Client
	// defaults are the client-level call settings; defaultsEmpty is true
	// when they change nothing.
	defaults      CallSettings
	defaultsEmpty bool
	limiters      [numInterfaces]*Limiter
}

// DefaultMaxConnsPerHost bounds the connections the default pool opens to
// one host. Calls beyond it wait (within their context) for a connection
// to come free instead of dialing more.
const DefaultMaxConnsPerHost = 64

// NewPooledTransport returns a keep-alive transport sized for concurrent
// use: every connection to a host may stay idle for reuse (net/http keeps
// two), so a busy service does not open and close a connection per call,
// and at most DefaultMaxConnsPerHost connections are open to one host.
//
// The bound matters most when many calls start at once on a cold pool:
// net/http hands a connection that comes free to a call still waiting for
// its own dial, and that dial, when it completes, adds a spare connection;
// without a bound a burst of N calls can open well over N connections.
func NewPooledTransport() *http.Transport {
	return &http.Transport{
		Proxy: http.ProxyFromEnvironment,
		DialContext: (&net.Dialer{
			Timeout:   30 * time.Second,
			KeepAlive: 30 * time.Second,
		}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          4 * DefaultMaxConnsPerHost,
		MaxIdleConnsPerHost:   DefaultMaxConnsPerHost,
		MaxConnsPerHost:       DefaultMaxConnsPerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// NewShared builds the shared transport from cfg.
func NewShared(cfg Config) *Shared {
	s := &Shared{
		logger:   cfg.Logger,
		validate: cfg.Validate,
		vopts:    cfg.ValidateOptions,
		sandbox:  cfg.Sandbox,
		now:      cfg.Now,
		maxBody:  cfg.MaxResponseBytes,
		defaults: cfg.Defaults,
		limiters: cfg.RateLimits,
	}
	d := &s.defaults
	// The attempt timeout alone keeps a call on the plain path: the guard
	// applies it there.
	s.defaultsEmpty = len(d.Header) == 0 && len(d.CallHooks) == 0 && len(d.AttemptHooks) == 0
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxResponseBytes
	}
	if s.now == nil {
		s.now = time.Now
	}
	ua := cfg.UserAgent
	if ua == "" {
		ua = DefaultUserAgent
	}
	s.uaHeader = []string{ua}
	var inner http.RoundTripper
	hc := &http.Client{}
	var callerRedirect func(*http.Request, []*http.Request) error
	if cfg.HTTPClient != nil {
		// A caller's client without a Transport means http.DefaultTransport,
		// as it does in net/http: a process-wide proxy, CA or tracing
		// transport installed there is not bypassed.
		inner = cfg.HTTPClient.Transport
		if inner == nil {
			inner = http.DefaultTransport
		}
		hc.Timeout = cfg.HTTPClient.Timeout
		hc.Jar = cfg.HTTPClient.Jar
		callerRedirect = cfg.HTTPClient.CheckRedirect
	} else {
		inner = NewPooledTransport()
	}
	s.transport = inner
	// Below the guard, the loopback rule (loopback.go): plain http only to
	// a loopback address, never through a proxy.
	s.loopback = newLoopbackTransport(inner)
	hc.CheckRedirect = checkRedirect(callerRedirect)
	// The log wrapper logs each attempt without query or body. It also
	// hides the pool's CloseIdleConnections from go-retryablehttp, which
	// calls it whenever one call gives up: in a long-running service that
	// would drop every other call's warm connections. The guard keeps
	// net/http from sending a write again by itself (see guard.go). The
	// attempt transport, outermost, runs per-call settings and hooks
	// (call.go).
	hc.Transport = &attemptTransport{next: &logTransport{next: &guardTransport{next: s.loopback}, logger: cfg.Logger}}
	s.mk = func(write bool, retryMax int) *retryablehttp.Client {
		p := &retryPolicy{write: write, waitMax: cfg.RetryWaitMax, now: s.now}
		return &retryablehttp.Client{
			HTTPClient:   hc,
			Logger:       nil,
			RetryWaitMin: cfg.RetryWaitMin,
			RetryWaitMax: cfg.RetryWaitMax,
			RetryMax:     retryMax,
			CheckRetry:   p.check,
			Backoff:      p.backoff,
			ErrorHandler: retryablehttp.PassthroughErrorHandler,
			PrepareRetry: s.prepareRetry,
		}
	}
	s.safe, s.write = s.mk(false, cfg.RetryMax), s.mk(true, cfg.RetryMax)
	return s
}

// CloseIdleConnections closes the pool's idle connections.
func (s *Shared) CloseIdleConnections() {
	if c, ok := s.transport.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
	s.loopback.CloseIdleConnections()
}

// Sandbox reports whether the client is in sandbox mode.
func (s *Shared) Sandbox() bool { return s.sandbox }

// Backend is one interface's view of the shared transport: its base URL
// and its Authorization header, both fixed at construction.
type Backend struct {
	s     *Shared
	iface Interface
	base  string // scheme://host[/prefix] without a trailing slash; "" when unset
	// basePath is the path of base ("/omni"), for log lines.
	basePath string
	// secrets are the credentials in every form the SDK sends them: key,
	// secret, the Authorization value and its base64 part; errors and log
	// lines scrub them from the platform's words.
	secrets []string
	// authHeader is the Authorization header value ("Basic ..."), built
	// once; nil when there are no credentials. Header value slices are
	// shared by every request of the backend: net/http and go-retryablehttp
	// only read them.
	authHeader []string
}

// Credentials are an API key and secret.
type Credentials struct {
	Key, Secret string
}

// NewBackend returns the Backend of iface at base (which may be empty: calls
// then fail with a ConfigError naming the option). It refuses a base URL
// that is not absolute, and credentials over plain http to a host that is
// not loopback.
func (s *Shared) NewBackend(iface Interface, base string, creds Credentials, enc *base64.Encoding) (*Backend, error) {
	b := &Backend{s: s, iface: iface}
	if enc == nil {
		enc = iface.DefaultAuthEncoding()
	}
	if creds.Key != "" || creds.Secret != "" {
		token := enc.EncodeToString([]byte(creds.Key + ":" + creds.Secret))
		b.authHeader = []string{"Basic " + token}
		b.secrets = []string{creds.Key, creds.Secret, token}
	}
	if base == "" {
		return b, nil
	}
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, &ConfigError{Message: "the " + iface.String() + " base URL must be an absolute http(s) URL (" + iface.URLOption() + ", " + iface.URLEnv() + ")"}
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, &ConfigError{Message: "the " + iface.String() + " base URL must not carry a query, a fragment or user info (" + iface.URLOption() + ")"}
	}
	if !validPort(u.Port()) {
		return nil, &ConfigError{Message: "the " + iface.String() + " base URL has a port outside 1-65535 (" + iface.URLOption() + ")"}
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return nil, &ConfigError{Message: "the " + iface.String() + " base URL uses plain http to a host that is not loopback; credentials are sent only over https (" + iface.URLOption() + ")"}
	}
	b.base = strings.TrimRight(u.Scheme+"://"+u.Host+u.EscapedPath(), "/")
	b.basePath = strings.TrimRight(u.EscapedPath(), "/")
	return b, nil
}

// validPort reports whether port, a URL's port (digits, as url.Parse
// leaves it), is empty or one a connection can use.
func validPort(port string) bool {
	if port == "" {
		return true
	}
	n, err := strconv.Atoi(port)
	return err == nil && n >= 1 && n <= 65535
}

// Interface returns the backend's interface.
func (b *Backend) Interface() Interface { return b.iface }

// BaseURL returns the base URL without a trailing slash, or "".
func (b *Backend) BaseURL() string { return b.base }

// Sandbox reports whether the client is in sandbox mode.
func (b *Backend) Sandbox() bool { return b.s.sandbox }

// Validation returns the validation options and whether the client
// validates params before sending.
func (b *Backend) Validation() (validate.Options, bool) { return b.s.vopts, b.s.validate }

// Call describes one HTTP exchange.
type Call struct {
	// Method is the HTTP method.
	Method string
	// Path is the escaped path below the base URL, starting with "/".
	Path string
	// Query is the encoded query string without "?", or "".
	Query string
	// Body is encoded as the JSON request body when not nil.
	Body any
	// Write marks a side-effecting call: it is retried only where the
	// platform provably did not act, and other failures are marked as an
	// unknown outcome.
	Write bool
	// ShownPath, when set, stands for Path in errors and log lines: Path
	// with a segment that must not be shown (a prescription number)
	// replaced by a placeholder.
	ShownPath string
	// Op names the operation for hooks and telemetry, such as
	// "orders.Create"; Route is its templated path, such as
	// "/api/v1/orders/{id}". Neither ever holds a value of the call.
	Op, Route string
	// Opts are the call's own options (CallOptions).
	Opts []func(*CallSettings)
}

// shown returns the path errors and logs show.
func (c *Call) shown() string {
	if c.ShownPath != "" {
		return c.ShownPath
	}
	return c.Path
}

// Response is what Do reports of a successful exchange.
type Response struct {
	// StatusCode is the HTTP status (2xx).
	StatusCode int
	// Header holds the answer's headers.
	Header http.Header
}

// Do performs c, retrying as the policy allows, and decodes a 2xx JSON body
// into out (when out is not nil). A *json.RawMessage out receives the body
// as is. Every failure is an *APIError, *TransportError, *DecodeError or
// *ConfigError. A call with options, or on a client with hooks, a logger
// or a rate limit, runs through doObserved (call.go).
func (b *Backend) Do(ctx context.Context, c Call, out any) (*Response, error) {
	if ctx == nil {
		// As net/http's NewRequestWithContext does: an error, not a panic.
		err := &ConfigError{Message: c.Method + " " + c.shown() + ": nil Context (pass context.Background() or a request's context)"}
		refusedMeta(c.Opts)
		return nil, err
	}
	if len(c.Opts) == 0 && b.s.plain(b.iface) {
		r, err := b.do(ctx, c, out, nil)
		return checkAnswer(c, out, r, err)
	}
	return b.doObserved(ctx, c, out)
}

// do is Do; st is nil on the plain path.
func (b *Backend) do(ctx context.Context, c Call, out any, st *callState) (*Response, error) {
	if b.base == "" {
		return nil, &ConfigError{
			Message: "no base URL for the " + b.iface.String() + " interface: set " + b.iface.URLOption() + " or " + b.iface.URLEnv(),
			Err:     ErrNoBaseURL,
		}
	}
	if b.authHeader == nil {
		return nil, &ConfigError{Message: "no credentials for the " + b.iface.String() +
			" interface: pass a key and secret to NewClient, or use WithCredentials"}
	}
	var body []byte
	if c.Body != nil {
		var err error
		if body, err = jsonx.Marshal(c.Body); err != nil {
			return nil, &ConfigError{Message: c.Method + " " + c.shown() + ": encoding the request body: " + err.Error(), Err: err}
		}
	}
	u := b.base + c.Path
	if c.Query != "" {
		u += "?" + c.Query
	}
	var raw any
	if body != nil {
		raw = body
	}
	var sent *sendTrace
	if c.Write {
		sent = &sendTrace{}
		ctx = sent.attach(ctx)
	}
	sc := b.newScrubber(&c, body)
	ci := &callInfo{write: c.Write}
	if st == nil {
		// The plain path has no attempt transport: the guard applies the
		// client's attempt timeout.
		ci.timeout = b.s.defaults.AttemptTimeout
	}
	ctx = withCall(ctx, ci)
	req, err := retryablehttp.NewRequestWithContext(ctx, c.Method, u, raw)
	if err != nil {
		return nil, &ConfigError{Message: c.Method + " " + c.shown() + ": building the request failed", Err: stripURL(err)}
	}
	h := req.Header
	h["Authorization"] = b.authHeader
	h["Accept"] = acceptJSON
	h["User-Agent"] = b.s.uaHeader
	if body != nil {
		h["Content-Type"] = acceptJSON
	}
	if st != nil {
		st.addHeaders(h)
	}
	if ctx.Err() != nil {
		return nil, &TransportError{Method: c.Method, Path: c.shown(), Err: ctx.Err()}
	}
	client := b.s.retryClient(c.Write, st)
	// A successful answer is read whole inside the attempt, so that a body
	// cut short is seen while go-retryablehttp can still send a safe call
	// again (see answer.read). go-retryablehttp runs the handler on every
	// answer it does not retry, so a 2xx that reaches the code below has
	// been read.
	var ans *answer
	if out != nil {
		ans = getAnswer(b.s.maxBody)
		defer putAnswer(ans)
		req.SetResponseHandler(ans.read)
	}
	resp, err := client.Do(req)
	if err != nil {
		if resp != nil {
			closeBody(resp.Body)
		}
		var cut *bodyCutError
		if errors.As(err, &cut) && resp != nil {
			return nil, b.incompleteError(c, sc, resp.StatusCode, asAttemptTimeout(ctx, cut.err))
		}
		return nil, b.transportError(c, sc, asAttemptTimeout(ctx, err), sent)
	}
	defer closeBody(resp.Body)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		e := newAPIError(b.iface, c.Method, c.shown(), resp.StatusCode, resp.Header, data, b.s.now())
		e.scrub(sc)
		// A body that names a definite refusal settles the outcome whatever
		// the status.
		e.UnknownOutcome = c.Write && unknownStatus(resp.StatusCode) && !e.Is(ErrUnableToCancel)
		if resp.StatusCode >= 300 && resp.StatusCode <= 399 {
			e.setRedirect(resp, sc)
			// The platform documents no redirect: whether it acted on a
			// write before answering one is not known.
			e.UnknownOutcome = c.Write
		}
		return nil, e
	}
	r := &Response{StatusCode: resp.StatusCode, Header: resp.Header}
	if out == nil || resp.StatusCode == http.StatusNoContent {
		return r, nil
	}
	if ans.err != nil {
		return nil, b.decodeError(c, sc, resp.StatusCode, ans.err)
	}
	data := ans.buf.Bytes()
	if err := checkShape(data, out); err != nil {
		return nil, b.decodeError(c, sc, resp.StatusCode, err)
	}
	if rm, ok := out.(*json.RawMessage); ok {
		if !json.Valid(data) {
			return nil, b.decodeError(c, sc, resp.StatusCode, errors.New("not valid JSON"))
		}
		*rm = append(json.RawMessage(nil), data...)
		return r, nil
	}
	if err := jsonx.Unmarshal(data, out); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) && syn.Offset >= int64(len(data)) {
			// A value that stops short (or an empty body), as a
			// json.Decoder reports it.
			err = io.ErrUnexpectedEOF
		}
		return nil, b.decodeError(c, sc, resp.StatusCode, err)
	}
	return r, nil
}

// answer holds the body of a successful answer, read whole by read
// during the attempt. Answers are pooled: the SDK's decoders copy what
// they keep, so a buffer is reused once the call has decoded it.
type answer struct {
	buf bytes.Buffer
	max int64 // the size limit of a body
	err error // a body over the limit; never retried
}

// maxPooledAnswer is the largest buffer kept for reuse; a larger one
// (a rare, very large answer) is left to the garbage collector.
const maxPooledAnswer = 256 << 10

var answerPool = sync.Pool{New: func() any { return new(answer) }}

func getAnswer(limit int64) *answer {
	a := answerPool.Get().(*answer)
	a.max = limit
	return a
}

func putAnswer(a *answer) {
	if a.buf.Cap() > maxPooledAnswer {
		return
	}
	a.buf.Reset()
	a.err = nil
	answerPool.Put(a)
}

// bodyCutError is what read gives go-retryablehttp when a successful
// answer's body ended early (the connection was cut or reset after the
// status line). The retry policy sends a safe call again; a write is not
// sent again, and its outcome stays unknown.
type bodyCutError struct{ err error }

func (e *bodyCutError) Error() string { return "reading the answer: " + e.err.Error() }
func (e *bodyCutError) Unwrap() error { return e.err }

// errBodyTooLarge is the cause of a DecodeError for an answer over the
// size limit.
var errBodyTooLarge = errors.New("body exceeds the size limit")

// limitedReader reads at most n bytes and fails, rather than ending
// quietly, when the body is longer.
type limitedReader struct {
	r io.Reader
	n int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		var one [1]byte
		if k, _ := l.r.Read(one[:]); k > 0 {
			return 0, errBodyTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	k, err := l.r.Read(p)
	l.n -= int64(k)
	return k, err
}

var acceptJSON = []string{"application/json"}

// unknownStatus reports whether a write answered with status may have
// taken effect.
func unknownStatus(status int) bool {
	return status >= 500 && status != http.StatusServiceUnavailable && status != http.StatusNotImplemented
}

func (b *Backend) transportError(c Call, sc *scrubber, err error, sent *sendTrace) error {
	unknown := c.Write && !isWaitCancel(err) && sent.mayHaveSent()
	err = stripURL(err)
	if neverSent(err) {
		unknown = false
	}
	return &TransportError{Method: c.Method, Path: c.shown(), Err: err, UnknownOutcome: unknown, scrub: sc}
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

func (b *Backend) decodeError(c Call, sc *scrubber, status int, err error) *DecodeError {
	return &DecodeError{StatusCode: status, Method: c.Method, Path: c.shown(), Err: stripURL(err), UnknownOutcome: c.Write, scrub: sc}
}

// incompleteError is the DecodeError of a body that ended early.
func (b *Backend) incompleteError(c Call, sc *scrubber, status int, err error) error {
	e := b.decodeError(c, sc, status, err)
	e.Incomplete = true
	return e
}

// isWaitCancel reports whether err is a bare context error, as
// go-retryablehttp returns when the context ends during a wait between
// attempts (as opposed to one wrapped in *url.Error, which ended an
// attempt in flight). A write waits only after a refusal (429, 503) or a
// failed dial, so its outcome is known: not applied.
func isWaitCancel(err error) bool {
	return err == context.Canceled || err == context.DeadlineExceeded
}

// stripURL removes the URL (which may hold a query string with patient
// data) from a *url.Error, keeping the cause.
func stripURL(err error) error {
	var ue *url.Error
	for errors.As(err, &ue) {
		err = ue.Err
	}
	return err
}

// closeBody drains a little of what is left, so the connection can be
// reused, and closes the body. A body with much more left is not read:
// closing the connection is cheaper than reading megabytes.
func closeBody(rc io.ReadCloser) {
	_, _ = io.CopyN(io.Discard, rc, 64<<10)
	rc.Close()
}

// logTransport logs one line per attempt at the Debug level, with what
// every line of the SDK carries (the operation, the method and the
// templated path, with the base URL's path) and the host, the duration,
// and the status (with the wait a Retry-After asks for) or the failure's
// kind. It never logs an identifier of the path, a query string, a header
// value, a body or an error's message.
type logTransport struct {
	next   http.RoundTripper
	logger *slog.Logger
}

func (t *logTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.logger == nil || !t.logger.Enabled(req.Context(), slog.LevelDebug) {
		return t.next.RoundTrip(req)
	}
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	attrs := make([]slog.Attr, 0, 7)
	if st := stateOf(req.Context()); st != nil {
		attrs = append(attrs,
			slog.String("operation", st.op.Name),
			slog.String("method", st.op.Method),
			slog.String("path", st.route))
	} else {
		// Every call of a client with a logger has a callState; a request
		// without one shows no path rather than one with identifiers.
		attrs = append(attrs, slog.String("operation", ""), slog.String("method", req.Method), slog.String("path", ""))
	}
	attrs = append(attrs,
		slog.String("host", req.URL.Host),
		slog.Duration("duration", time.Since(start)))
	if err != nil {
		attrs = append(attrs, slog.String("error", attemptErrorKind(req, err)))
		t.logger.LogAttrs(req.Context(), slog.LevelDebug, "rxdelivery: attempt failed", attrs...)
		return resp, err
	}
	attrs = append(attrs, slog.Int("status", resp.StatusCode))
	// The wait Retry-After asks for, not its raw text: the header is the
	// server's words.
	if ra, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
		attrs = append(attrs, slog.Duration("retry_after", ra))
	}
	t.logger.LogAttrs(req.Context(), slog.LevelDebug, "rxdelivery: attempt", attrs...)
	return resp, err
}

// attemptErrorKind names an attempt's failure for its log line: the
// attempt timeout, the end of the call's context, or a transport failure.
func attemptErrorKind(req *http.Request, err error) string {
	if context.Cause(req.Context()) == errAttemptTimeout {
		return "attempt_timeout"
	}
	if k := errorKind(err); k != "error" {
		return k
	}
	return "transport"
}
