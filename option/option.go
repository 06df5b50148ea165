package option

import (
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/header"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Option configures a Client: rxdelivery.NewClient and
// rxdelivery.NewClientFromEnv take them, and rxdelivery.Option is this
// type. The rxdelivery package's With… functions make them. Every
// [CallOption] is also an Option: given to a client, it sets the default of
// every call.
type Option interface {
	isOption()
}

// CallOption configures calls. Given to a service method as its trailing
// argument it applies to that call only, on top of the client's defaults;
// given to rxdelivery.NewClient it sets the default of every call. Make
// one with the With… functions of this package or of rxdelivery. The zero
// CallOption changes nothing.
type CallOption struct {
	apply func(*Settings)
}

func (CallOption) isOption() {}

// Apply applies o to s. The SDK applies a client's options and then a
// call's to the [Settings] of each call; a test of code that builds options
// can apply them to a Settings of its own and read the result.
func (o CallOption) Apply(s *Settings) {
	if o.apply != nil {
		o.apply(s)
	}
}

// Settings are what call options set: the settings of one call, or, in a
// client, the defaults of every call. A nil pointer field leaves the
// client's setting in force.
type Settings struct {
	// RetryMax, when set, is how many retries may follow the first
	// attempt.
	RetryMax *int
	// AttemptTimeout, when set, bounds each attempt; zero means no bound
	// of the call's own.
	AttemptTimeout *time.Duration
	// WriteGrace, when set, is how long a write already sent goes on
	// after the caller's context ends, waiting for its response.
	WriteGrace *time.Duration
	// Transcript, when set, receives a transcript of every attempt
	// ([WithTranscript]).
	Transcript io.Writer
	// Header holds extra headers sent on every attempt, in canonical form.
	// Headers the SDK sets itself are never among them.
	Header http.Header
	// Metadata, when set, is filled when the call ends.
	Metadata *Metadata
	// Response, when set, receives the call's last response as received
	// ([WithResponseInto]).
	Response *RawResponse
	// Middleware wraps every attempt, the first outermost.
	Middleware []Middleware
	// CallMiddleware wraps the whole call, the first outermost.
	CallMiddleware []CallMiddleware

	// callOnly names the first option applied that exists for calls
	// only; ClientDefaults refuses it.
	callOnly string
	// err is the first refusal of an option's argument (a header that
	// cannot be sent); Resolve and ClientDefaults return it.
	err error
}

// Clone returns a copy of s whose header and hook lists can be extended
// without changing s.
func (s *Settings) Clone() Settings {
	c := *s
	c.Header = s.Header.Clone()
	c.Middleware = append([]Middleware(nil), s.Middleware...)
	c.CallMiddleware = append([]CallMiddleware(nil), s.CallMiddleware...)
	return c
}

// Resolve returns the settings of one call: defaults (a client's, left
// unchanged) cloned once, with opts applied in order. It fails with the
// first refusal of an option's argument (a negative count, a header that
// cannot be sent), a *rxdelivery.ConfigError naming the option: the call
// then sends nothing. Without opts it returns a copy of defaults.
func Resolve(defaults *Settings, opts []CallOption) (Settings, error) {
	if len(opts) == 0 {
		return *defaults, nil
	}
	s := defaults.Clone()
	for _, o := range opts {
		o.Apply(&s)
	}
	return s, s.err
}

// ClientDefaults returns the defaults of every call of a client that
// opts, given to rxdelivery.NewClient, make. It fails as [Resolve] does,
// and with a *rxdelivery.ConfigError for an option that exists for one
// call only ([WithMetadata], [WithResponseInto]).
func ClientDefaults(opts []CallOption) (Settings, error) {
	var s Settings
	for _, o := range opts {
		o.Apply(&s)
	}
	if s.err != nil {
		return s, s.err
	}
	if s.callOnly != "" {
		return s, &rxtypes.ConfigError{Message: s.callOnly + " applies to one call: pass it to a service method, not to NewClient"}
	}
	return s, nil
}

// WithRetryMax sets how many retries may follow the first attempt
// (default 3); zero turns retries off. The
// retry policy still decides which failures are retried: a write is sent
// again only where the platform provably did not act.
//
// A negative n is refused: the call (or NewClient) fails before sending
// with a *rxdelivery.ConfigError naming the option.
func WithRetryMax(n int) CallOption {
	return CallOption{func(s *Settings) {
		if n < 0 {
			s.refuse("WithRetryMax: the number of retries must be 0 or more")
			return
		}
		s.RetryMax = &n
	}}
}

// WithAttemptTimeout bounds each attempt, from sending the request to
// reading the whole response, by d; zero removes the bound. The call's
// context still bounds the whole call, waits included. An attempt that
// times out is a failure like any other: a read is retried, a write that
// may have been sent has an unknown outcome.
//
// A negative d is refused as [WithRetryMax] refuses a negative count.
func WithAttemptTimeout(d time.Duration) CallOption {
	return CallOption{func(s *Settings) {
		if d < 0 {
			s.refuse("WithAttemptTimeout: the bound must be 0 (none) or more")
			return
		}
		s.AttemptTimeout = &d
	}}
}

// WithWriteGrace lets a write (create, cancel, prescription change) that
// has already been sent outlive the end of its caller's context by up to d,
// waiting for the platform's response, so that a service stopping for a
// deploy does not abandon creates in flight and leave their outcome
// unknown. A write whose context ends before it was sent (waiting for a
// connection, the rate limiter or a retry) stops at once, and no retry
// starts after the context ended. The context's deadline still judges the
// waits (a Retry-After or a rate limiter's turn past it is refused at
// once), and the error says which end of the context ended the call:
// [context.DeadlineExceeded] or [context.Canceled]. When the grace runs out
// the write ends as before, its outcome unknown. Metadata.GraceUsed says when a call went
// on after its context ended. Zero (the default) turns it off; reads never
// use it.
//
// A negative d is refused as [WithRetryMax] refuses a negative count.
func WithWriteGrace(d time.Duration) CallOption {
	return CallOption{func(s *Settings) {
		if d < 0 {
			s.refuse("WithWriteGrace: the grace must be 0 (none) or more")
			return
		}
		s.WriteGrace = &d
	}}
}

// refuse records the first refusal of the options applied to s: the call
// (or NewClient) fails with it before sending.
func (s *Settings) refuse(msg string) {
	if s.err == nil {
		s.err = &rxtypes.ConfigError{Message: msg}
	}
}

// WithTranscript writes to w a transcript of every attempt of the call (or,
// given to NewClient, of every call), for the platform's support: the
// operation, method, route and path (identifiers such as an order id
// kept; a prescription number shown as its placeholder), the query with
// every value replaced, the request's headers (credentials as
// [credentials], a header added with [WithHeader] as a placeholder), the
// request body with every string and number replaced by a placeholder
// that keeps its JSON type and the class of its length ("<string 5-16>",
// 99.99 for 12.50) while every field name stays (a boolean is shown
// only in a flag field, else "<bool>"); then the status, the
// platform's request id, the response's headers and body. The response
// body keeps its shape; a value is shown only when the SDK's table of the
// platform's fields gives its field a safe kind (identifiers, statuses
// and other enums, carrier and service names, timestamps, money, counts,
// flags) and the value has that kind's form (an enum only in the words
// the platform's documents list, a timestamp with a time of day, a number
// of at most 7 digits, an identifier of one token) and is not a value the
// call sent; every other value, names, addresses, references, tracking
// numbers, URLs and free text, is a placeholder of its JSON type. An
// error's message is shown through the redaction error strings get. Of
// the response's headers only those of known meaning (Content-Type,
// Content-Length, Date, Retry-After, the request id...) show their value;
// a body that is not JSON is shown as its length. No credential appears
// in it. Each part is one call of w.Write; a w shared by concurrent calls
// must be safe for concurrent use. The transcript reads the response body
// (at most 64 KiB of it is shown) before the call does.
func WithTranscript(w io.Writer) CallOption {
	return CallOption{func(s *Settings) { s.Transcript = w }}
}

// WithHeader sends an extra header on every attempt, replacing a value an
// earlier WithHeader (of the client or the call) set for key. The headers
// the SDK sets itself (Authorization, Accept, Content-Type, User-Agent,
// and the transport's own such as Host, Content-Length, Connection and
// Upgrade) are never replaced: WithHeader ignores them. A name that is not
// a token, or a value with a line break, a NUL or another control
// character other than tab, cannot be sent: the call (or NewClient) fails
// before sending with a *rxdelivery.ConfigError that names the header
// (never quoting its value) and sends nothing, a write's outcome known.
func WithHeader(key, value string) CallOption {
	key = http.CanonicalHeaderKey(strings.TrimSpace(key))
	err := header.Error("WithHeader", key, value)
	return CallOption{func(s *Settings) {
		if err != nil {
			if s.err == nil {
				s.err = err
			}
			return
		}
		if header.Owned(key) {
			return
		}
		if s.Header == nil {
			s.Header = http.Header{}
		}
		s.Header[key] = []string{value}
	}}
}

// WithMetadata fills *m, when the call ends (in success or failure), with
// what the SDK saw of the response: status, headers, the platform's request
// id, attempts (each in AttemptLog) and duration, and whether the outcome
// is known. Every end fills it, a call refused before anything was sent
// included (invalid or nil params, an empty id, a call option that cannot
// be sent, a nil or ended context): status 0, no header, 0 attempts, the
// outcome known. Given to a watch, it sums the watch's reads (see
// [WatchOption]). It exists for calls only: rxdelivery.NewClient refuses
// it.
func WithMetadata(m *Metadata) CallOption {
	return CallOption{func(s *Settings) {
		if s.callOnly == "" {
			s.callOnly = "WithMetadata"
		}
		if m == nil {
			return
		}
		s.Metadata = m
	}}
}

// WithMiddleware adds attempt hooks: each wraps every attempt of the call
// (or, on a client, of every call). Hooks given first run outermost; the
// client's run outside a call's own.
func WithMiddleware(mw ...Middleware) CallOption {
	return CallOption{func(s *Settings) {
		for _, m := range mw {
			if m != nil {
				s.Middleware = append(s.Middleware, m)
			}
		}
	}}
}

// WithCallMiddleware adds call hooks: each wraps the whole call, every
// attempt and wait included. Hooks given first run outermost; the
// client's run outside a call's own.
func WithCallMiddleware(mw ...CallMiddleware) CallOption {
	return CallOption{func(s *Settings) {
		for _, m := range mw {
			if m != nil {
				s.CallMiddleware = append(s.CallMiddleware, m)
			}
		}
	}}
}

// Join returns one [CallOption] that applies opts in order, such as an
// integration's call and attempt hooks together.
func Join(opts ...CallOption) CallOption {
	opts = append([]CallOption(nil), opts...)
	return CallOption{func(s *Settings) {
		for _, o := range opts {
			o.Apply(s)
		}
	}}
}

// Metadata is what the SDK saw of a call's response, filled by
// [WithMetadata].
type Metadata struct {
	// StatusCode is the status of the last response; 0 when none came (the
	// call was refused before sending, or every attempt failed without an
	// response).
	StatusCode int
	// Header holds the last response's headers; nil when none came.
	Header http.Header
	// RequestID is the platform's identifier of the request, when the
	// response carries one (X-Request-Id, Request-Id or X-Correlation-Id;
	// the documents name none) in the form of a generated identifier: at
	// most 128 characters, an optional prefix such as "req-", then letters,
	// digits and . _ : - whose runs of letters are hexadecimal or at most
	// two long, with a digit, and no value the call sent. Any other value
	// (a word, a name) is left out here, and so out of spans and logs;
	// Header keeps it raw. Quote it to the platform's support.
	RequestID string
	// Attempts is how many attempts were made: 1 plus the retries; 0 for a
	// call that ended before its first attempt. An attempt a hook or the
	// rate limiter stopped before sending counts: hooks saw it.
	Attempts int
	// AttemptLog lists the call's attempts in order, one [AttemptRecord]
	// each: its status, request id, Retry-After, the wait before it and
	// how it ended (a response, a failure and its kind, refused before
	// sending, its own timeout). It has Attempts entries; nil for a call
	// that made none. Each call fills a new slice.
	AttemptLog []AttemptRecord
	// Duration is the time the call took, waits between attempts
	// included.
	Duration time.Duration
	// OutcomeKnown is false only for a side-effecting write that failed
	// in a way that does not tell whether it took effect (the error
	// matches rxdelivery.ErrUnknownOutcome); a call that sent nothing has
	// it true.
	OutcomeKnown bool
	// RetryBudgetExhausted is true when the retry policy would have sent
	// the call again but the client's retry budget was empty, so the call
	// returned its error at once (see rxdelivery.WithRetryBudget).
	RetryBudgetExhausted bool
	// GraceUsed is true when the caller's context ended while the write
	// was in flight and the call went on, within [WithWriteGrace], waiting
	// for its response.
	GraceUsed bool
}
