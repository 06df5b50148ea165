package rxdelivery

import (
	"encoding/base64"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
)

// Option configures a Client. Options are applied in order, after the
// environment when the client comes from NewClientFromEnv, so an option
// overrides a variable.
type Option func(*settings)

type settings struct {
	urls       [len(core.Interfaces)]string
	creds      [len(core.Interfaces)]*core.Credentials
	enc        [len(core.Interfaces)]*base64.Encoding
	httpClient *http.Client
	retryMax   int
	waitMin    time.Duration
	waitMax    time.Duration
	logger     *slog.Logger
	userAgent  string
	noValidate bool
	npiCheck   bool
	sandbox    bool
	maxBody    int64
	programID  string
	now        func() time.Time
}

// WithOmniURL sets the base URL of the omni request and pharmacy lookup
// interface, such as "https://omni.example.com". A path prefix is kept.
func WithOmniURL(u string) Option { return WithBaseURL(Omni, u) }

// WithDeliveryURL sets the base URL of the delivery order interface.
func WithDeliveryURL(u string) Option { return WithBaseURL(Delivery, u) }

// WithTrackingURL sets the base URL of the tracking subscription interface.
func WithTrackingURL(u string) Option { return WithBaseURL(Tracking, u) }

// WithPricingURL sets the base URL of the pricing quote interface.
func WithPricingURL(u string) Option { return WithBaseURL(Pricing, u) }

// WithBaseURL sets the base URL of iface. The URL must be https, or http to
// a loopback host (for tests and the sandbox simulator); a path prefix such
// as "http://127.0.0.1:8787/omni" is kept.
func WithBaseURL(iface Interface, u string) Option {
	return func(s *settings) {
		if validInterface(iface) {
			s.urls[iface] = u
		}
	}
}

// WithCredentials sets the key and secret used for iface only. The platform
// enables credentials per interface, so a deployment may hold one key for
// tracking and another for everything else.
func WithCredentials(iface Interface, key, secret string) Option {
	return func(s *settings) {
		if validInterface(iface) {
			s.creds[iface] = &core.Credentials{Key: key, Secret: secret}
		}
	}
}

// WithAuthEncoding sets the base64 alphabet of iface's Basic auth header.
// By default it is the one each document's example uses:
// base64.URLEncoding for omni, delivery and pricing, base64.StdEncoding for
// tracking.
func WithAuthEncoding(iface Interface, enc *base64.Encoding) Option {
	return func(s *settings) {
		if validInterface(iface) {
			s.enc[iface] = enc
		}
	}
}

// WithSandbox marks the environment as a sandbox. Only a sandbox client
// sends test_meta (the scripted scenarios of omni requests); a production
// client refuses it before sending.
func WithSandbox(enabled bool) Option {
	return func(s *settings) { s.sandbox = enabled }
}

// WithHTTPClient supplies the HTTP client whose transport, timeout,
// redirect policy and cookie jar the SDK uses. The client is wrapped, never
// modified. As in net/http, a client whose Transport is nil uses
// http.DefaultTransport. Without this option the SDK uses a keep-alive pool
// sized for concurrent use: every connection may stay idle for reuse, and
// at most 64 are open to one host, so a burst of calls waits for a free
// connection (within its context) rather than opening more. Pass a client
// with your own transport to change those bounds.
//
// Redirects: the SDK follows none, and a 3xx answer is an *APIError (its
// Location field holds the target's scheme and host only). A redirect is
// followed only when hc has a CheckRedirect function of its own (a nil
// CheckRedirect, net/http's default, does not count as asking), and then
// only for reads: a write is never sent to a redirect's target. A followed
// redirect never carries the credentials to another origin (scheme, host
// and port) than the base URL's, and one to plain http on a host that is
// not loopback is refused.
func WithHTTPClient(hc *http.Client) Option {
	return func(s *settings) { s.httpClient = hc }
}

// WithProgramID sets the program identifier the platform issued to the
// caller for omni requests. Requests.Create sends it when
// CreateParams.Identifier is empty; an identifier set in the params wins.
// NewClientFromEnv reads it from RXDELIVERY_PROGRAM_ID.
func WithProgramID(id string) Option {
	return func(s *settings) { s.programID = strings.TrimSpace(id) }
}

// WithRetryMax sets how many retries may follow the first attempt
// (default 3). Zero turns retries off.
func WithRetryMax(n int) Option {
	return func(s *settings) {
		if n >= 0 {
			s.retryMax = n
		}
	}
}

// WithRetryWaitMin sets the first backoff wait when the platform gives no
// Retry-After (default 500ms); later waits double up to the cap.
func WithRetryWaitMin(d time.Duration) Option {
	return func(s *settings) {
		if d >= 0 {
			s.waitMin = d
		}
	}
}

// WithRetryWaitMax caps any one wait between attempts (default 30s). When
// the platform asks, through Retry-After, for a longer wait than the cap, or
// one past the context's deadline, the call is not retried: it returns at
// once with an *APIError whose RetryAfter holds the platform's value.
func WithRetryWaitMax(d time.Duration) Option {
	return func(s *settings) {
		if d >= 0 {
			s.waitMax = d
		}
	}
}

// WithLogger logs one debug line per HTTP attempt (method, host, path,
// status, duration, Retry-After). Query strings, headers and bodies are
// never logged: they carry credentials and patient data.
func WithLogger(l *slog.Logger) Option {
	return func(s *settings) { s.logger = l }
}

// WithUserAgent puts the caller's product token before the SDK's own in the
// User-Agent header, such as "acme-pharmacy/2.1 rxdelivery-go/0.1.0".
func WithUserAgent(ua string) Option {
	return func(s *settings) { s.userAgent = ua }
}

// WithoutValidation turns off the validation that runs before every call.
// The platform still validates; use this only when the SDK's rules lag
// behind the platform's.
func WithoutValidation() Option {
	return func(s *settings) { s.noValidate = true }
}

// WithNPICheckDigit makes validation check the Luhn check digit of every
// NPI the client sends (pharmacy and prescriber), not only its length. It
// is off by default because placeholder NPIs common in test data (such as
// 1234567890) fail the check.
func WithNPICheckDigit() Option {
	return func(s *settings) { s.npiCheck = true }
}

// WithMaxResponseBytes bounds the body of a successful answer (default
// 32 MiB); a longer one fails the call with an error matching
// ErrMalformedResponse instead of growing the process's memory. Error
// answers are always read to at most 64 KiB.
func WithMaxResponseBytes(n int64) Option {
	return func(s *settings) { s.maxBody = n }
}

// withClock replaces the clock, for tests of Retry-After dates.
func withClock(now func() time.Time) Option {
	return func(s *settings) { s.now = now }
}

func validInterface(i Interface) bool { return i >= Omni && i <= Pricing }
