package core

import (
	"encoding/base64"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/validate"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Defaults of the retry policy.
const (
	DefaultRetryMax     = 3
	DefaultRetryWaitMin = 500 * time.Millisecond
	DefaultRetryWaitMax = 30 * time.Second
)

// DefaultMaxResponseBytes bounds a successful response's body, so a
// misbehaving server cannot make a long-running process allocate without
// limit. The largest documented responses (a page of 100 pharmacies, many
// orders at once) are far below it.
const DefaultMaxResponseBytes = 32 << 20

// DefaultMaxConnsPerHost bounds the connections the default pool opens to
// one host. Calls beyond it wait (within their context) for a connection
// to come free instead of dialing more.
const DefaultMaxConnsPerHost = 64

// Config is what the root client hands to NewShared.
type Config struct {
	// HTTPClient, when set, supplies the transport, timeout, redirect
	// policy and cookie jar; it is wrapped, never modified.
	HTTPClient *http.Client
	// RetryWaitMin is the first backoff wait; RetryWaitMax caps any one
	// wait, a server's Retry-After included.
	RetryWaitMin, RetryWaitMax time.Duration
	// Logger receives one debug line per attempt; nil logs nothing.
	Logger *slog.Logger
	// UserAgent is the User-Agent header value (the root package builds it
	// from its Version).
	UserAgent string
	// Validate runs params validation before every call.
	Validate bool
	// ValidateOptions tunes the validation rules.
	ValidateOptions validate.Options
	// Sandbox marks a sandbox environment, where test_meta may be sent.
	Sandbox bool
	// MaxResponseBytes bounds a successful response's body; zero means
	// DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// WallNow is the wall clock that HTTP dates (a Retry-After date, the
	// time an APIError records) are read against; nil means time.Now.
	// Only tests of those dates set it. Every wait runs on Clock.
	WallNow func() time.Time
	// Defaults are the settings of every call (the client-level forms of
	// the call options).
	Defaults option.Settings
	// RateLimits are the client-side rate limits, per interface; nil
	// means none.
	RateLimits [len(rxtypes.Interfaces)]*Limiter
	// RetryBudget is the client's retry budget; nil means none.
	RetryBudget *Budget
	// Clock is what watches wait on between reads; nil means real time.
	Clock option.Clock
	// MaxPause is the longest pause a Retry-After sets on an interface
	// (the root's WithMaxPause, whose default it is given); zero sets
	// none.
	MaxPause time.Duration
}

// Shared is what every interface's Backend shares: one connection pool,
// one retry policy, one logger, the defaults of every call.
type Shared struct {
	// cfg is the client's configuration, completed by NewShared (its
	// defaults filled in); a call reads its own settings from a clone of
	// cfg.Defaults and nothing else from here but what cannot vary by call.
	cfg       Config
	hc        *http.Client // the SDK's client: the attempt transport over the pool
	transport http.RoundTripper
	loopback  *loopbackTransport // transport, with the loopback rule
	uaHeader  []string           // the User-Agent header value, built once
}

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

// NewShared builds the shared state from cfg.
func NewShared(cfg Config) *Shared {
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.WallNow == nil {
		cfg.WallNow = time.Now
	}
	if cfg.Defaults.RetryMax == nil {
		n := DefaultRetryMax
		cfg.Defaults.RetryMax = &n
	}
	s := &Shared{cfg: cfg, uaHeader: []string{cfg.UserAgent}}
	// Every interface has a Limiter, unlimited where no rate is set: it
	// is where a Retry-After pauses the interface for every call.
	for i, l := range s.cfg.RateLimits {
		if l == nil {
			l = NewLimiter(math.Inf(1), 1)
			s.cfg.RateLimits[i] = l
		}
		l.UseClock(cfg.Clock, cfg.MaxPause)
	}
	hc := &http.Client{}
	var callerRedirect func(*http.Request, []*http.Request) error
	if cfg.HTTPClient != nil {
		// A caller's client without a Transport means http.DefaultTransport,
		// as it does in net/http: a process-wide proxy, CA or tracing
		// transport installed there is not bypassed.
		s.transport = cfg.HTTPClient.Transport
		if s.transport == nil {
			s.transport = http.DefaultTransport
		}
		hc.Timeout = cfg.HTTPClient.Timeout
		hc.Jar = cfg.HTTPClient.Jar
		callerRedirect = cfg.HTTPClient.CheckRedirect
	} else {
		s.transport = NewPooledTransport()
	}
	// Below the attempt transport, the loopback rule (loopback.go): plain
	// http only to a loopback address, never through a proxy.
	s.loopback = newLoopbackTransport(s.transport)
	hc.CheckRedirect = checkRedirect(callerRedirect)
	// The attempt transport does everything an attempt needs (attempt.go).
	// It also hides the pool's CloseIdleConnections from go-retryablehttp,
	// which calls it whenever one call gives up: in a long-running service
	// that would drop every other call's warm connections.
	hc.Transport = &attemptTransport{pool: s.transport, plain: s.loopback}
	s.hc = hc
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
func (s *Shared) Sandbox() bool { return s.cfg.Sandbox }

// LimiterState returns what the limiter of iface holds now.
func (s *Shared) LimiterState(iface rxtypes.Interface) LimiterState {
	return s.cfg.RateLimits[iface].State()
}

// EndPause ends the pause a Retry-After set on iface.
func (s *Shared) EndPause(iface rxtypes.Interface) { s.cfg.RateLimits[iface].EndPause() }

// Backend is one interface's view of the shared state: its base URL and
// its Authorization header, both fixed at construction.
type Backend struct {
	s     *Shared
	iface rxtypes.Interface
	base  string // scheme://host[/prefix] without a trailing slash; "" when unset
	// basePath is the path of base ("/omni"), for log lines.
	basePath string
	// secrets are the credentials in every form the SDK sends them: key,
	// secret and the Basic token; errors and log lines scrub them from the
	// platform's words.
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
func (s *Shared) NewBackend(iface rxtypes.Interface, base string, creds Credentials, enc *base64.Encoding) (*Backend, error) {
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
		return nil, &rxtypes.ConfigError{Message: "the " + iface.String() + " base URL must be an absolute http(s) URL (" + iface.URLOption() + ", " + iface.URLEnv() + ")"}
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, &rxtypes.ConfigError{Message: "the " + iface.String() + " base URL must not carry a query, a fragment or user info (" + iface.URLOption() + ")"}
	}
	if !validPort(u.Port()) {
		return nil, &rxtypes.ConfigError{Message: "the " + iface.String() + " base URL has a port outside 1-65535 (" + iface.URLOption() + ")"}
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return nil, &rxtypes.ConfigError{Message: "the " + iface.String() + " base URL uses plain http to a host that is not loopback; credentials are sent only over https (" + iface.URLOption() + ")"}
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
func (b *Backend) Interface() rxtypes.Interface { return b.iface }

// BaseURL returns the base URL without a trailing slash, or "".
func (b *Backend) BaseURL() string { return b.base }

// Sandbox reports whether the client is in sandbox mode.
func (b *Backend) Sandbox() bool { return b.s.cfg.Sandbox }

// Clock returns the clock the client's watches wait on; nil for real
// time.
func (b *Backend) Clock() option.Clock { return b.s.cfg.Clock }
