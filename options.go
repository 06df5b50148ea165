package rxdelivery

import (
	"encoding/base64"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Option is [option.Option]: it configures a [Client]. Options are applied
// in order, after the environment when the client comes from
// [NewClientFromEnv], so an option overrides a variable.
//
// Every [CallOption] is also an Option: [WithRetryMax],
// [WithAttemptTimeout], [WithHeader], [WithMiddleware] and
// [WithCallMiddleware] given to [NewClient] set the default of every call,
// and given to a service method they apply to that call only. The other
// options exist for a whole client only.
type Option = option.Option

// CallOption is [option.CallOption]: it configures calls, as the trailing
// argument of every service method, and, given to [NewClient], the default
// of every call. See package [option] for the hooks' types.
type CallOption = option.CallOption

// clientOption is an Option that exists for a whole client only.
type clientOption struct {
	// Option is never set: embedding it gives clientOption the method set
	// of an option.Option, which package option seals.
	option.Option
	apply func(*settings)
}

// clientOpt makes a clientOption of f.
func clientOpt(f func(*settings)) Option { return clientOption{apply: f} }

// applyOptions applies opts to s in order.
func applyOptions(s *settings, opts []Option) {
	for _, o := range opts {
		switch o := o.(type) {
		case clientOption:
			if o.apply != nil {
				o.apply(s)
			}
		case option.CallOption:
			s.calls = append(s.calls, o)
		}
	}
}

// settings are what a client's options write: the engine's
// configuration itself (cfg, the one value NewShared completes), and what
// the client builds it from (credentials per interface, the rate limits,
// the size of the retry budget, the call options).
type settings struct {
	cfg   core.Config
	urls  [len(rxtypes.Interfaces)]string
	creds [len(rxtypes.Interfaces)]*core.Credentials
	enc   [len(rxtypes.Interfaces)]*base64.Encoding
	// userAgent is the caller's product token (WithUserAgent), checked
	// and put before the SDK's own in cfg.UserAgent.
	userAgent string
	programID string
	// calls are the client-level forms of the call options, in order:
	// option.ClientDefaults makes the defaults of every call of them.
	calls []option.CallOption
	// retryBudget is the size of the retry budget, in retries.
	retryBudget int
	// limits are the client-side rate limits per interface.
	limits [len(rxtypes.Interfaces)]*rateLimit
}

// rateLimit is a WithRateLimit setting.
type rateLimit struct {
	perSecond float64
	burst     int
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
// a loopback host (for tests and the sandbox simulator): a loopback IP, or
// "localhost" or a name under ".localhost" in ASCII, dialled as 127.0.0.1
// then ::1 without a DNS lookup and never through a proxy. A path prefix
// such as "http://127.0.0.1:8787/omni" is kept.
func WithBaseURL(iface Interface, u string) Option {
	return clientOpt(func(s *settings) {
		if validInterface(iface) {
			s.urls[iface] = u
		}
	})
}

// WithCredentials sets the key and secret used for iface only. The platform
// enables credentials per interface, so a deployment may hold one key for
// tracking and another for everything else. An interface with a base URL
// needs usable credentials, its own or the client's: [NewClient] refuses
// empty or blank ones, a key with a colon and a control character in
// either.
func WithCredentials(iface Interface, key, secret string) Option {
	return clientOpt(func(s *settings) {
		if validInterface(iface) {
			s.creds[iface] = &core.Credentials{Key: key, Secret: secret}
		}
	})
}

// WithAuthEncoding sets the base64 alphabet of iface's Basic auth header.
// By default it is the one each document's example uses:
// [base64.URLEncoding] for omni, delivery and pricing, [base64.StdEncoding]
// for tracking.
func WithAuthEncoding(iface Interface, enc *base64.Encoding) Option {
	return clientOpt(func(s *settings) {
		if validInterface(iface) {
			s.enc[iface] = enc
		}
	})
}

// WithSandbox marks the environment as a sandbox. Only a sandbox client
// sends test_meta (the scripted scenarios of omni requests); a production
// client refuses it before sending.
func WithSandbox(enabled bool) Option {
	return clientOpt(func(s *settings) { s.cfg.Sandbox = enabled })
}

// WithHTTPClient supplies the HTTP client whose transport, timeout,
// redirect policy and cookie jar the SDK uses. The client is wrapped, never
// modified. As in net/http, a client whose Transport is nil uses
// [http.DefaultTransport]. Without this option the SDK uses a keep-alive
// pool sized for concurrent use: every connection may stay idle for reuse,
// and at most 64 are open to one host, so a burst of calls waits for a free
// connection (within its context) rather than opening more. Pass a client
// with your own transport to change those bounds.
//
// Redirects: the SDK follows none, and a 3xx response is an *[APIError]
// (its Location field holds the target's scheme and host only). A redirect
// is followed only when hc has a CheckRedirect function of its own (a nil
// CheckRedirect, net/http's default, does not count as asking), and then
// only for reads: a write is never sent to a redirect's target. A followed
// redirect never carries the credentials to another origin (scheme, host
// and port) than the base URL's, and one to plain http on a host that is
// not loopback is refused.
//
// Plain http (to a loopback host) never goes through a proxy, and is
// written only on a connection to a loopback address. When hc's Transport
// is an *[http.Transport], plain http uses a copy of it without a proxy,
// whose dialer is asked for 127.0.0.1 or ::1 only. Another RoundTripper
// gets plain-http requests as they are, and one that connects them through
// a proxy or off loopback (as net/http's client trace reports) has the
// connection closed before anything is written: the call fails before
// sending.
func WithHTTPClient(hc *http.Client) Option {
	return clientOpt(func(s *settings) { s.cfg.HTTPClient = hc })
}

// WithProgramID sets the program identifier the platform issued to the
// caller for omni requests. Requests.Create sends it when
// CreateParams.Identifier is empty; an identifier set in the params wins.
// [NewClientFromEnv] reads it from RXDELIVERY_PROGRAM_ID.
func WithProgramID(id string) Option {
	return clientOpt(func(s *settings) { s.programID = strings.TrimSpace(id) })
}

// WithRetryMax sets how many retries may follow the first attempt
// (default 3); zero turns retries off. Given to [NewClient] it is the
// client's default; given to a call, that call's own. The retry policy
// still decides which failures are retried.
func WithRetryMax(n int) CallOption { return option.WithRetryMax(n) }

// DefaultAttemptTimeout bounds each attempt of a call unless
// [WithAttemptTimeout] sets another bound.
const DefaultAttemptTimeout = 30 * time.Second

// WithAttemptTimeout bounds each attempt, from sending the request to
// reading the whole response (default 30s, [DefaultAttemptTimeout]); zero
// removes the bound. Given to [NewClient] it is the client's default; given
// to a call, that call's own. The call's context bounds the whole call, so
// a stalled server cannot hold a call made with context.Background()
// forever. A timed-out read is retried; a write that may have been sent
// has an unknown outcome. An attempt that runs out of its time (this
// bound, or the Timeout of a client given to [WithHTTPClient], or its
// transport's ResponseHeaderTimeout) matches [ErrAttemptTimeout] and never
// [context.DeadlineExceeded], which is left to the caller's own deadline.
func WithAttemptTimeout(d time.Duration) CallOption { return option.WithAttemptTimeout(d) }

// WithTranscript writes a transcript of every attempt to w, for the
// platform's support when a call misbehaves: the shape of each request and
// response with no credential, and every value that is not of a field
// known safe (an id, a status, a timestamp, an amount) replaced by a
// placeholder of its JSON type. See [option.WithTranscript].
func WithTranscript(w io.Writer) CallOption { return option.WithTranscript(w) }

// WithWriteGrace lets a write already sent outlive the end of its
// caller's context by up to d, waiting for its response (see
// docs/operations.md, "Stopping without leaving unknown outcomes"): a service stopped for a
// deploy then finishes the creates it has in flight instead of leaving
// each with an unknown outcome. A write not yet sent stops at once. The
// caller's deadline still bounds everything but the write in flight: a
// Retry-After or a rate limiter's turn past it is refused at once, as
// without a grace, and a call that the caller's deadline ended (its grace
// run out) matches [context.DeadlineExceeded], one its cancellation ended
// [context.Canceled]. Zero, the default, turns it off.
func WithWriteGrace(d time.Duration) CallOption { return option.WithWriteGrace(d) }

// WithHeader sends an extra header on every attempt: of every call when
// given to [NewClient], of one call when given to it. Headers the SDK sets
// itself (Authorization, Accept, Content-Type, User-Agent) and the
// transport's connection headers are never replaced. A name that is not a
// token, or a value with a line break or another control character, is
// refused with a *[ConfigError] (by NewClient, or by the call before it
// sends anything) that never quotes the value.
func WithHeader(key, value string) CallOption { return option.WithHeader(key, value) }

// Metadata is [option.Metadata]: what the SDK saw of a call's response: status, headers, the
// platform's request id, attempts, duration and whether the outcome is
// known. [WithMetadata] fills one.
type Metadata = option.Metadata

// WithMetadata fills *m with the call's [Metadata] when the call ends, in
// success or failure, including a call refused before anything was sent
// (status 0, no attempt, outcome known). It is a call's option only:
// [NewClient] refuses it.
func WithMetadata(m *Metadata) CallOption { return option.WithMetadata(m) }

// AttemptRecord is [option.AttemptRecord]: one attempt of a call as
// Metadata.AttemptLog lists it (its status, request id, Retry-After, the
// wait before it, how it ended).
type AttemptRecord = option.AttemptRecord

// RawResponse is [option.RawResponse]: a call's last response as it came
// from the platform (status, headers, body), which [WithResponseInto]
// fills. It holds the platform's raw words, which may carry patient data:
// never log it. The SDK never does.
type RawResponse = option.RawResponse

// WithResponseInto fills *r with the call's last response as received:
// status, headers and body (a 2xx body whole, another one's first 64 KiB),
// for what the SDK does not model, such as a field a model does not know.
// A call that got no response leaves *r zero. It is a call's option only:
// [NewClient] refuses it. See [option.WithResponseInto].
func WithResponseInto(r *RawResponse) CallOption { return option.WithResponseInto(r) }

// Middleware is [option.Middleware]: it wraps every attempt of a call; see
// package [option] for what it sees and may log.
type Middleware = option.Middleware

// CallMiddleware is [option.CallMiddleware]: it wraps a whole call; see
// package [option].
type CallMiddleware = option.CallMiddleware

// WithMiddleware adds attempt hooks: of every call when given to
// [NewClient], of one call when given to it. A hook sees the operation
// name, the templated path, the attempt number and the call's class;
// never the query, the body or a credential.
func WithMiddleware(mw ...Middleware) CallOption { return option.WithMiddleware(mw...) }

// WithCallMiddleware adds call hooks, which wrap a whole call with every
// attempt and wait: of every call when given to [NewClient], of one call
// when given to it.
func WithCallMiddleware(mw ...CallMiddleware) CallOption { return option.WithCallMiddleware(mw...) }

// WithRateLimit limits the attempts the client makes on iface to
// perSecond a second, with bursts of burst, for every call of the client
// together (it is off by default). Attempts wait for their turn in the
// order they came, each within its context: when its turn would come after
// the context's deadline the call fails at once with an error matching
// [context.DeadlineExceeded], and a write stopped so was not sent; an
// attempt whose context ends while it waits takes no turn. The limit slows
// down when the platform responds with 429 (each 429 halves it, down to a
// sixteenth) and comes back by a twentieth with each response that is not
// a 429 or a 5xx; a change applies at once to the attempts already
// waiting. A perSecond of zero or less removes the limit.
//
// With or without a limit, a 429 or a 503 with a Retry-After pauses the
// interface: no attempt of any call of the client goes to it before the
// Retry-After ends, for at most [WithMaxPause] (default 5 minutes). An
// attempt waits for the end of the pause within its context; when the end
// comes after the context's deadline, or further off than
// [WithRetryWaitMax], the call fails at once, with nothing sent, with a
// *[TransportError] matching [ErrNotSent] (and [ErrRateLimited]) whose
// *[NotSentError] holds the pause's end in PausedUntil.
// [Client.LimiterState] shows the pause and the limit, and
// [Client.EndPause] ends the pause.
func WithRateLimit(iface Interface, perSecond float64, burst int) Option {
	return clientOpt(func(s *settings) {
		if !validInterface(iface) {
			return
		}
		if perSecond <= 0 {
			s.limits[iface] = nil
			return
		}
		s.limits[iface] = &rateLimit{perSecond: perSecond, burst: burst}
	})
}

// DefaultMaxPause is the longest pause a Retry-After sets on an interface
// unless [WithMaxPause] sets another.
const DefaultMaxPause = 5 * time.Minute

// WithMaxPause sets the longest pause a Retry-After sets on an interface
// (default 5 minutes, [DefaultMaxPause]). A 429 or a 503 whose Retry-After
// asks for longer pauses the interface for d: a header can be wrong, and
// a Retry-After of a year would otherwise close the interface for a year.
// The call that received it still returns the platform's *[APIError] with
// the RetryAfter it asked for. [Client.LimiterState] shows the pause
// (PausedUntil) and [Client.EndPause] ends it early. Zero turns the pause
// off: a Retry-After then holds only the call that received it. A
// negative d is ignored.
func WithMaxPause(d time.Duration) Option {
	return clientOpt(func(s *settings) {
		if d >= 0 {
			s.cfg.MaxPause = d
		}
	})
}

// DefaultRetryBudget is the size of a client's retry budget unless
// [WithRetryBudget] sets another: 100 retries.
const DefaultRetryBudget = 100

// WithRetryBudget sizes the client's retry budget: how many retries the
// client may make beyond what its calls give back. Every retry made
// spends one (a retry after an attempt timeout two); a retry not made (the
// call has no retries left, a Retry-After would outlast the deadline, the
// context ended during the wait) spends nothing. A call that succeeds on
// its first attempt gives back a tenth, one that succeeds after retries
// gives back what they spent, and time gives back one retry a second, up
// to the size, so that a client that calls seldom is never left without
// retries. When the budget is empty a failing call is
// not retried: it returns its error at once, and its [Metadata] says
// RetryBudgetExhausted. First attempts never wait for the budget, so when
// the platform is down a busy service sends about one attempt per call
// instead of multiplying its load by the retry count, and when it
// recovers calls succeed at once. The budget is shared by every call of
// the client, on every interface. Zero or less turns it off: every retry
// the policy allows is made.
func WithRetryBudget(retries int) Option {
	return clientOpt(func(s *settings) { s.retryBudget = retries })
}

// WithRetryWaitMin sets the first backoff wait when the platform gives no
// Retry-After (default 500ms); later waits double up to the cap.
func WithRetryWaitMin(d time.Duration) Option {
	return clientOpt(func(s *settings) {
		if d >= 0 {
			s.cfg.RetryWaitMin = d
		}
	})
}

// WithRetryWaitMax caps any one wait between attempts (default 30s). When
// the platform asks, through Retry-After, for a longer wait than the cap, or
// one past the context's deadline, the call is not retried: it returns at
// once with an *[APIError] whose RetryAfter holds the platform's value. The
// same bound holds for the pause a Retry-After sets on the interface (see
// [WithRateLimit]): a call that would wait longer for its end returns at
// once, with nothing sent, with an error matching [ErrNotSent] that holds
// the pause's end.
func WithRetryWaitMax(d time.Duration) Option {
	return clientOpt(func(s *settings) {
		if d >= 0 {
			s.cfg.RetryWaitMax = d
		}
	})
}

// WithLogger logs what an operator of a service wants to know, at levels
// that say how much it matters:
//
//   - Error: a write whose outcome is unknown ("rxdelivery: outcome of
//     the write is unknown"), to reconcile before sending it again;
//   - Warn: a call given up on a response the SDK retries (429, 5xx, a
//     transport failure) after its retries, or without one when the
//     platform's Retry-After is past the cap or the deadline;
//   - Info: each retry, with the attempt number and the wait it took;
//   - Debug: each HTTP attempt (host, duration, and the status with the
//     wait a Retry-After asks for, or the failure's kind).
//
// Every line carries the operation ("orders.Get"), the method and the
// templated path after the base URL's path ("/delivery/api/v1/orders/{id}"),
// never an identifier of the path, and an error's kind, never its message.
// Query strings, headers and bodies are never logged: they carry
// credentials and patient data.
func WithLogger(l *slog.Logger) Option {
	return clientOpt(func(s *settings) { s.cfg.Logger = l })
}

// WithUserAgent puts the caller's product token before the SDK's own in the
// User-Agent header, such as "acme-pharmacy/2.1 rxdelivery-go/0.1.0".
// Surrounding spaces are trimmed; a token with a line break, a NUL or
// another control character other than tab cannot be sent, and [NewClient]
// refuses it with a *[ConfigError].
func WithUserAgent(ua string) Option {
	return clientOpt(func(s *settings) { s.userAgent = ua })
}

// WithoutValidation turns off the validation that runs before every call.
// The platform still validates; use this only when the SDK's rules lag
// behind the platform's.
func WithoutValidation() Option {
	return clientOpt(func(s *settings) { s.cfg.Validate = false })
}

// WithNPICheckDigit makes validation check the Luhn check digit of every
// NPI the client sends (pharmacy and prescriber), not only its length. It
// is off by default because placeholder NPIs common in test data (such as
// 1234567890) fail the check.
func WithNPICheckDigit() Option {
	return clientOpt(func(s *settings) { s.cfg.ValidateOptions.NPICheckDigit = true })
}

// WithMaxResponseBytes bounds the body of a successful response (default
// 32 MiB); a longer one fails the call with an error matching
// [ErrMalformedResponse] instead of growing the process's memory. Error
// responses are always read to at most 64 KiB.
func WithMaxResponseBytes(n int64) Option {
	return clientOpt(func(s *settings) { s.cfg.MaxResponseBytes = n })
}

// withWallClock replaces the wall clock a Retry-After date is read
// against, for tests of those dates. Every wait runs on WithClock's clock.
func withWallClock(now func() time.Time) Option {
	return clientOpt(func(s *settings) { s.cfg.WallNow = now })
}

func validInterface(i Interface) bool { return i >= Omni && i <= Pricing }
