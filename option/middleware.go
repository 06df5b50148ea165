package option

import (
	"context"
	"errors"
	"net/http"

	"github.com/rxdelivery/rxdelivery-go/internal/header"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Class is a call's class, which decides what the retry policy may send
// again.
type Class int

const (
	// Safe calls (reads, pricing quotes, tracking subscribe, which is a
	// create-or-update) are retried on 429, 5xx, transport errors and
	// responses cut short.
	Safe Class = iota
	// Write calls (creates, cancels, prescription changes) are retried
	// only where the platform provably did not act: 429, 503 and a failed
	// connection.
	Write
)

// String returns "safe" or "write".
func (c Class) String() string {
	if c == Write {
		return "write"
	}
	return "safe"
}

// Operation is what hooks see of a call. It holds no value of the call:
// identifiers in the path are template placeholders.
type Operation struct {
	// Name is the operation: the service package and method, such as
	// "orders.Create" or "pharmacies.DeliveryInfo".
	Name string
	// Method is the HTTP method.
	Method string
	// Path is the templated path below the base URL, such as
	// "/api/v1/orders/{id}/prescriptions/{rx_number}".
	Path string
	// Interface is the platform interface: "omni", "delivery", "tracking"
	// or "pricing".
	Interface string
	// Class is [Safe] or [Write].
	Class Class
}

// Attempt is what an attempt hook sees of one attempt.
type Attempt struct {
	Operation
	// Number is the attempt's number: 1 for the first, 2 for the first
	// retry.
	Number int

	header http.Header // the attempt's request headers
}

// NewAttempt returns the [Attempt] of op numbered n whose
// [Attempt.SetHeader] writes to header. The SDK makes one per attempt; a
// test of a [Middleware] can make its own and read header afterwards.
func NewAttempt(op Operation, n int, header http.Header) *Attempt {
	return &Attempt{Operation: op, Number: n, header: header}
}

// SetHeader sets a header on the attempt's request, such as a trace
// context, and reports whether it set it. It returns false, and sends the
// attempt without the header, for a header the SDK sets itself (see
// [WithHeader]), which it does not replace, and for one that cannot be
// sent: a name that is not a token (empty, with a space or a colon) or a
// value with a line break, a NUL or another control character other than
// tab.
func (a *Attempt) SetHeader(key, value string) bool {
	key = http.CanonicalHeaderKey(key)
	if a.header == nil || !header.Valid(key, value) || header.Owned(key) {
		return false
	}
	a.header.Set(key, value)
	return true
}

// AttemptResult is how an attempt ended.
type AttemptResult struct {
	// StatusCode is the response's status; 0 when no response came.
	StatusCode int
	// Header holds the response's headers; nil when no response came. Treat it
	// as read-only.
	Header http.Header
	// Err is why no response came: a transport failure, the attempt's
	// timeout, the end of the context. It never holds a URL.
	Err error
}

// AttemptFunc performs one attempt.
type AttemptFunc func(ctx context.Context, a *Attempt) AttemptResult

// Middleware wraps every attempt of a call. It calls next once to send
// the request, with ctx or a context derived from it, and what it returns
// is the attempt's result:
//   - next's result as it came: the attempt goes on with the response (a
//     middleware that observes, sets headers or times does this);
//   - an Err of its own over a response next returned (a check of the
//     response): the response is dropped and the attempt fails as one that
//     was sent, so a read is retried by the retry policy and a write is
//     never sent again (its outcome is unknown: ErrUnknownOutcome); the
//     error stays in the call's error chain ([errors.Is]);
//   - without calling next: the attempt stops before anything is sent and
//     the call fails with the [AttemptResult]'s Err (a write's outcome is
//     then known, not applied) and is not retried.
//
// StatusCode and Header of the result are read from the response, never
// from what a middleware writes there: a middleware cannot make a
// response up. See the package documentation for what it may log.
type Middleware func(next AttemptFunc) AttemptFunc

// CallResult is how a call ended.
type CallResult struct {
	// Metadata is what the SDK saw of the response.
	Metadata Metadata
	// Err is the call's error, nil on success. Its message may repeat the
	// platform's words; record ErrorKind(Err) rather than Err.Error().
	Err error
}

// CallFunc performs a whole call: every attempt and the waits between
// them.
type CallFunc func(ctx context.Context, op *Operation) CallResult

// CallMiddleware wraps a whole call. It calls next once, with ctx or a
// context derived from it (attempt hooks run within it), and the Err it
// returns decides the call's error as follows. For a read, a non-nil Err
// is the call's error (a middleware may fail a read, or annotate its
// error with %w); a nil Err leaves next's error as it was (a failed read
// cannot be made to succeed: there is nothing to decode). For a write the
// platform's answer stands: the middleware's Err is the call's only when
// it wraps next's error ([errors.Is]), so ErrUnknownOutcome and the
// *APIError still match; an Err that would fail a write the platform
// applied, or hide why one failed, is not used and a warning is logged
// (its kind, never its text), since a caller would send the write again.
// A middleware that returns without calling next stops the call before
// anything is sent.
type CallMiddleware func(next CallFunc) CallFunc

// ErrorKind names err for logs and telemetry without its message: the
// SDK's sentinel it matches ("unknown_outcome", "rate_limited",
// "unavailable", "not_found", ...) or its kind ("transport", "canceled",
// "deadline_exceeded", "attempt_timeout", "not_sent", "api_error").
// It returns "" for nil.
func ErrorKind(err error) string {
	if err == nil {
		return ""
	}
	var ns *rxtypes.NotSentError
	if errors.As(err, &ns) && !ns.PausedUntil.IsZero() {
		// Refused by a Retry-After's pause: it also matches
		// ErrRateLimited, but nothing was sent.
		return "not_sent"
	}
	for _, s := range kindSentinels {
		if errors.Is(err, s.err) {
			return s.name
		}
	}
	var te *rxtypes.TransportError
	var ae *rxtypes.APIError
	var ce *rxtypes.ConfigError
	switch {
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline_exceeded"
	case errors.Is(err, rxtypes.ErrAttemptTimeout):
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

// kindSentinels are the sentinels ErrorKind names, the most telling first.
var kindSentinels = [...]struct {
	err  error
	name string
}{
	{rxtypes.ErrUnknownOutcome, "unknown_outcome"},
	{rxtypes.ErrUnableToCancel, "unable_to_cancel"},
	{rxtypes.ErrRateLimited, "rate_limited"},
	{rxtypes.ErrUnavailable, "unavailable"},
	{rxtypes.ErrBadRequest, "bad_request"},
	{rxtypes.ErrUnauthorized, "unauthorized"},
	{rxtypes.ErrForbidden, "forbidden"},
	{rxtypes.ErrNotFound, "not_found"},
	{rxtypes.ErrMalformedResponse, "malformed_response"},
	{rxtypes.ErrNoBaseURL, "no_base_url"},
	{rxtypes.ErrSandboxOnly, "sandbox_only"},
}
