package rxtypes

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Sentinel errors. Every error the SDK returns for an HTTP response or a
// failed exchange matches the sentinels that describe it through
// [errors.Is].
var (
	// ErrBadRequest matches responses 400 and 422: the platform refused the
	// params.
	ErrBadRequest = errors.New("rxdelivery: bad request")
	// ErrUnauthorized matches 401: the key or secret is wrong, missing or
	// disabled.
	ErrUnauthorized = errors.New("rxdelivery: unauthorized")
	// ErrForbidden matches 403: the credentials are not enabled for the
	// interface or the operation.
	ErrForbidden = errors.New("rxdelivery: forbidden")
	// ErrNotFound matches 404: the resource does not exist.
	ErrNotFound = errors.New("rxdelivery: not found")
	// ErrRateLimited matches 429: the request limit was hit and the retry
	// budget (or the wait cap, or the context deadline) did not allow another
	// attempt. The error's RetryAfter says when to try again.
	ErrRateLimited = errors.New("rxdelivery: rate limited")
	// ErrUnavailable matches 502, 503 and 504: the platform or its upstream
	// provider is unavailable.
	ErrUnavailable = errors.New("rxdelivery: service unavailable")
	// ErrUnableToCancel matches a refused cancellation: the omni error type
	// unable_to_cancel (whatever the status) and the delivery interface's 400
	// "not in a cancellable status".
	ErrUnableToCancel = errors.New("rxdelivery: unable to cancel")
	// ErrUnknownOutcome matches a failed side-effecting write (create,
	// cancel, add or remove a prescription) that may nevertheless have taken
	// effect: the request may have reached the platform and no reliable
	// response came back. Such a call is never retried automatically: find out
	// whether it took effect before trying again.
	ErrUnknownOutcome = errors.New("rxdelivery: outcome of the write is unknown")
	// ErrMalformedResponse matches a response whose body could not be read
	// or decoded.
	ErrMalformedResponse = errors.New("rxdelivery: malformed response")
	// ErrNoBaseURL matches a call on an interface whose base URL is not set.
	ErrNoBaseURL = errors.New("rxdelivery: base URL not configured")
	// ErrSandboxOnly matches a call that carries sandbox-only data (test_meta)
	// on a client that is not in sandbox mode.
	ErrSandboxOnly = errors.New("rxdelivery: test_meta is accepted only in sandbox mode")
	// ErrAttemptTimeout matches a call whose last attempt ran out of its own
	// time (the attempt timeout, or the Timeout or ResponseHeaderTimeout of a
	// caller's [http.Client] or Transport) while the caller's context was
	// still live. It does not match [context.DeadlineExceeded], which is
	// kept for the caller's own deadline. A safe call is retried after such
	// a timeout; a write is not, and its outcome is unknown.
	ErrAttemptTimeout = errors.New("rxdelivery: attempt timed out")
)

// APIError is a response from the platform with a status outside 2xx. It
// carries every error body shape the interfaces use: omni
// {error:{id,type,message}}, delivery and pricing {error:{message}}, and
// tracking {error:{code,message}}.
//
// Its [APIError.Error] string holds the method, the path (never the query
// string), the status and the platform's code, type and message; never a
// credential or a request body. Platforms echo what they were sent, in any
// form (a surname inside a sentence, a truncated note, a date in another
// layout, an escaped name), so Message is the safe rendering of the
// platform's message: each word judged by what it is (escapes decoded
// first). Words of the language, field names and enum names stay unless
// they are a person's or a place's name used as one; numbers stay where
// their form is safe (money, clock times, durations, measures, counts,
// dates near the present) and go where they could be a date of birth, a
// phone number, a ZIP code or a record's number; every word the filter does
// not know becomes "[redacted]". As a second line, the values the call sent
// in patient fields, a path segment errors show as a placeholder and the
// credentials are removed even where they are ordinary words. Type and Code
// are the platform's value when every word of it passes, and "" otherwise;
// ID is the id the call's path names, or "". Location keeps the redirect's
// scheme and host, less any value the call sent.
//
// Platform returns what the platform said as it said it, for the person
// entitled to the patient data it may hold; Body keeps the raw response.
// Both may hold patient data: never log them. No rendering of an APIError
// ([APIError.Error], %v, %+v, %#v, %q, %x) prints them.
type APIError struct {
	// StatusCode is the HTTP status of the response.
	StatusCode int
	// Method and Path name the endpoint called; Path is below the base URL
	// and has no query string.
	Method, Path string
	// Interface is the platform interface that responded.
	Interface Interface
	// ID is the omni error id (for unable_to_cancel, the request id) when
	// the call's path names it; "" otherwise ([APIError.Platform] has it).
	ID string
	// Type is the omni error type, such as "unable_to_cancel", when every
	// word of it passes the filter; "" otherwise ([APIError.Platform] has
	// it).
	Type string
	// Code is the tracking error code, such as "not_found" or
	// "rate_limit_exceeded", when every word of it passes; "" otherwise.
	Code string
	// Message is the safe rendering of the platform's message (see
	// above); Platform().Message is the message as the platform said it.
	Message string
	// RetryAfter is the wait the platform asked for in a Retry-After header
	// (seconds or HTTP date); zero when absent.
	RetryAfter time.Duration
	// Body is a copy of the start of the raw response (at most 4 KiB), for
	// diagnosis. It is the one raw field: not part of the [APIError.Error]
	// string or of any fmt rendering, and not filtered, it holds the
	// platform's raw words, which may repeat patient data. Never log it.
	Body []byte
	// Header holds the response's headers.
	Header http.Header
	// Location is, for a redirect (3xx), the scheme and host of the
	// Location header ("https://other.example.com"), never its path or
	// query; empty otherwise. The SDK follows no redirect unless the
	// caller's own [http.Client] asks for it (see WithHTTPClient).
	Location string
	// UnknownOutcome is true when the call was a side-effecting write and
	// the status (500, 502, 504, or a redirect) does not tell whether it
	// took effect.
	UnknownOutcome bool
	// RequestID is the platform's identifier of the request, from the
	// response's X-Request-Id header, in a safe form (see the package
	// documentation, "Request ids"); "" when it had none. Error shows it,
	// so the error's text is enough for a support ticket. It is not ID,
	// the omni error body's id.
	RequestID string
	// Attempts is how many attempts the call made: 1 plus its retries,
	// an attempt stopped before sending (by the rate limiter, a pause, a
	// hook) included. A call the limiter refused before its first request
	// has 1 attempt and no RequestID.
	Attempts int
}

// Error returns "rxdelivery: METHOD PATH: STATUS: code: message".
func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString("rxdelivery: ")
	b.WriteString(e.Method)
	b.WriteByte(' ')
	b.WriteString(e.Path)
	b.WriteString(": ")
	b.WriteString(strconv.Itoa(e.StatusCode))
	if t := http.StatusText(e.StatusCode); t != "" {
		b.WriteByte(' ')
		b.WriteString(t)
	}
	for _, s := range [...]string{e.Type, e.Code, e.Message} {
		if s != "" {
			b.WriteString(": ")
			b.WriteString(s)
		}
	}
	if e.Location != "" {
		b.WriteString(": redirect to ")
		b.WriteString(e.Location)
		b.WriteString(" not followed")
	}
	if e.RetryAfter > 0 {
		b.WriteString(" (retry after ")
		b.WriteString(e.RetryAfter.String())
		b.WriteByte(')')
	}
	if e.UnknownOutcome {
		b.WriteString(" (outcome unknown: reconcile before retrying)")
	}
	b.WriteString(requestIDSuffix(e.RequestID))
	return b.String()
}

// requestIDSuffix is " (request id ID)" for a request id shown, and ""
// for none.
func requestIDSuffix(id string) string {
	if id = shownRequestID(id); id == "" {
		return ""
	}
	return " (request id " + id + ")"
}

// shownRequestID is id when it may be shown, else "". The SDK sets only
// ids of a safe form (see the package documentation); one set by other
// code is shown only when it is one token of letters, digits and . _ : -,
// of at most 128 characters.
func shownRequestID(id string) string {
	if len(id) > 128 {
		return ""
	}
	for i := 0; i < len(id); i++ {
		switch ch := id[i]; {
		case ch >= '0' && ch <= '9', ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z',
			ch == '.', ch == '_', ch == ':', ch == '-':
		default:
			return ""
		}
	}
	return id
}

// Is matches the sentinel errors that describe e.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrBadRequest:
		return e.StatusCode == http.StatusBadRequest || e.StatusCode == http.StatusUnprocessableEntity
	case ErrUnauthorized:
		return e.StatusCode == http.StatusUnauthorized
	case ErrForbidden:
		return e.StatusCode == http.StatusForbidden
	case ErrNotFound:
		return e.StatusCode == http.StatusNotFound
	case ErrRateLimited:
		return e.StatusCode == http.StatusTooManyRequests
	case ErrUnavailable:
		return e.StatusCode == http.StatusBadGateway || e.StatusCode == http.StatusServiceUnavailable ||
			e.StatusCode == http.StatusGatewayTimeout
	case ErrUnableToCancel:
		return e.Type == "unable_to_cancel" || (e.StatusCode >= 400 && e.StatusCode < 500 && notCancellable(e.Message))
	case ErrUnknownOutcome:
		return e.UnknownOutcome
	}
	return false
}

// notCancellable reports whether a message says the resource is not in a
// cancellable status, in either spelling.
func notCancellable(msg string) bool {
	msg = strings.ToLower(msg)
	return strings.Contains(msg, "not in a cancellable status") || strings.Contains(msg, "not in a cancelable status")
}

// TransportError is a call that got no usable HTTP response: the connection
// failed, was cut, timed out, or the context ended. Err is the cause with
// any URL removed (URLs may carry query strings with patient data).
type TransportError struct {
	// Method and Path name the endpoint called (no query string).
	Method, Path string
	// Err is the underlying cause; [errors.Is] sees through it, so
	// errors.Is(err, context.DeadlineExceeded) works.
	Err error
	// UnknownOutcome is true when the call was a side-effecting write whose
	// request may have reached the platform.
	UnknownOutcome bool
	// RequestID is the platform's identifier of the last response the
	// call got, when an earlier attempt got one (a 503 before the
	// connection failed), in a safe form (see the package documentation,
	// "Request ids"); "" when none came. Error shows it.
	RequestID string
	// Attempts is how many attempts the call made: 1 plus its retries,
	// an attempt stopped before sending included; 0 when the call ended
	// before its first attempt (its context had ended).
	Attempts int
}

// Error returns "rxdelivery: METHOD PATH: cause". The SDK sets Err to a
// cause whose text passes through the same filter as APIError.Message
// (a broken server's status line may echo patient data); the SDK's own
// refusals keep their words.
func (e *TransportError) Error() string {
	s := "rxdelivery: " + e.Method + " " + e.Path + ": " + e.Err.Error()
	if e.UnknownOutcome {
		s += " (outcome unknown: reconcile before retrying)"
	}
	return s + requestIDSuffix(e.RequestID)
}

// Unwrap returns the cause.
func (e *TransportError) Unwrap() error { return e.Err }

// Is matches [ErrUnknownOutcome] when the write's outcome is unknown.
func (e *TransportError) Is(target error) bool {
	return target == ErrUnknownOutcome && e.UnknownOutcome
}

// DecodeError is a 2xx response whose body could not be read or decoded: it
// was cut, truncated, slower than the context allowed, or not the JSON the
// endpoint documents.
type DecodeError struct {
	// StatusCode is the HTTP status of the response.
	StatusCode int
	// Method and Path name the endpoint called (no query string).
	Method, Path string
	// Err is the read or decode failure.
	Err error
	// Incomplete is true when the body ended early (the connection was cut
	// or reset after the status line) rather than arriving malformed. A
	// safe call has already been sent again up to the retry limit.
	Incomplete bool
	// UnknownOutcome is true when the call was a side-effecting write: the
	// platform accepted it, but its response (with the new identifier) was lost.
	UnknownOutcome bool
	// RequestID is the platform's identifier of the request, from the
	// response's X-Request-Id header, in a safe form (see the package
	// documentation, "Request ids"); "" when it had none. Error shows it.
	RequestID string
	// Attempts is how many attempts the call made: 1 plus its retries.
	Attempts int
}

// Error returns "rxdelivery: METHOD PATH: STATUS: malformed response body:
// cause", or "response body incomplete" in place of "malformed response
// body" when the body ended early.
func (e *DecodeError) Error() string {
	what := ": malformed response body: "
	if e.Incomplete {
		what = ": response body incomplete: "
	}
	s := "rxdelivery: " + e.Method + " " + e.Path + ": " + strconv.Itoa(e.StatusCode) + " " +
		http.StatusText(e.StatusCode) + what + e.Err.Error()
	if e.UnknownOutcome {
		s += " (outcome unknown: reconcile before retrying)"
	}
	return s + requestIDSuffix(e.RequestID)
}

// Unwrap returns the cause.
func (e *DecodeError) Unwrap() error { return e.Err }

// Is matches [ErrMalformedResponse], and [ErrUnknownOutcome] for writes.
func (e *DecodeError) Is(target error) bool {
	return target == ErrMalformedResponse || (target == ErrUnknownOutcome && e.UnknownOutcome)
}

// ConfigError reports a client that cannot make a call as configured. It
// names the option or environment variable that fixes it. It is returned
// before anything is sent: there is no request id and no attempt.
type ConfigError struct {
	// Message says what is missing or wrong.
	Message string
	// Err is the sentinel or cause, if any.
	Err error
}

// Error returns the message.
func (e *ConfigError) Error() string { return "rxdelivery: " + e.Message }

// Unwrap returns the cause.
func (e *ConfigError) Unwrap() error { return e.Err }

// ErrInvalidParams is matched by every *[ValidationError] through
// [errors.Is].
var ErrInvalidParams = errors.New("rxdelivery: invalid params")

// Problem is one rule that a params value breaks.
type Problem struct {
	// Path is the JSON path of the field, such as "dropoff.address.zipcode"
	// or "prescriptions[0].payers[1].bin". It is empty for a rule that
	// concerns the whole value.
	Path string
	// Message says what the rule wants, without quoting the value.
	Message string
}

// String returns "path: message".
func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// ValidationError lists every problem found in one params value. It is
// returned before anything is sent, so an invalid value never reaches the
// network: there is no request id and no attempt.
type ValidationError struct {
	// Problems holds every problem found, in the order of the fields.
	Problems []Problem
}

// Error lists every problem as "path: message", separated by semicolons.
func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("rxdelivery: invalid params: ")
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// Is reports whether target is [ErrInvalidParams].
func (e *ValidationError) Is(target error) bool { return target == ErrInvalidParams }

// Has reports whether a problem is recorded at path.
func (e *ValidationError) Has(path string) bool {
	for _, p := range e.Problems {
		if p.Path == path {
			return true
		}
	}
	return false
}

// NotSentError is the cause of a call whose last attempt was stopped
// before its request left the process: by a pause a Retry-After set on
// the interface, by the client-side rate limiter's wait, by the
// context's deadline or by a hook that did not call next. It is the one
// shape of "nothing was sent", whatever refused the call: a
// *[TransportError] whose cause is a *NotSentError, matched by
// [ErrNotSent]. A write that fails this way has a known outcome: not
// applied. The *TransportError it is the cause of counts the stopped
// attempt in Attempts; its RequestID is that of an earlier attempt's
// response, if one came.
type NotSentError struct {
	// Err is what stopped the request: the pause, the end of the rate
	// limiter's wait, the context's deadline, the error an attempt hook
	// returned, or the refusal of a plain-http connection whose peer is not
	// a loopback address.
	Err error
	// PausedUntil is, when a pause refused the attempt, when the pause
	// ends, on the client's clock (WithClock; real time by default); zero
	// otherwise.
	PausedUntil time.Time
}

// Error returns "not sent: " and the cause's text.
func (e *NotSentError) Error() string { return "not sent: " + causeText(e.Err) }

// Unwrap returns Err, so [errors.Is] and [errors.As] see the cause.
func (e *NotSentError) Unwrap() error { return e.Err }

// Renderings of the error types. Every verb and flag renders an error's
// Error text (%v, %+v, %s; %q quoted; %x and %X its hex), so that no
// format reaches a field Error leaves out: %#v names the type and the
// fields Error is made of, and never APIError.Body or Header, nor the
// inner fields of a cause.

// formatText writes text for verb with f's flags and width (%v and %+v
// as %s).
func formatText(f fmt.State, verb rune, text string) {
	if verb == 'v' {
		verb = 's'
	}
	switch verb {
	case 's', 'q', 'x', 'X':
		fmt.Fprintf(f, fmt.FormatString(f, verb), text)
	default:
		fmt.Fprintf(f, "%%!%c(%s)", verb, text)
	}
}

// goSyntax writes %#v of an error: its type and Error text.
// formatError writes an error's text for verb: %#v as the type named name
// and that text, every other verb as formatText does.
func formatError(f fmt.State, verb rune, name, text string) {
	if verb == 'v' && f.Flag('#') {
		goSyntax(f, name, text)
		return
	}
	formatText(f, verb, text)
}

func goSyntax(f fmt.State, typ, text string) {
	fmt.Fprintf(f, "&rxtypes.%s{%s}", typ, strconv.Quote(text))
}

// causeText is the Error text of a cause, or "<nil>".
func causeText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// Format renders e for every verb and flag without Body or Header: %v,
// %+v and %s give [APIError.Error], %q quotes it, %x and %X give its hex,
// and %#v names the fields Error is made of (Body and Header by their size
// only).
func (e *APIError) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		if e == nil {
			fmt.Fprint(f, "(*rxtypes.APIError)(nil)")
			return
		}
		fmt.Fprintf(f, "&rxtypes.APIError{StatusCode:%d, Method:%q, Path:%q, Interface:%q, ID:%q, Type:%q, Code:%q, Message:%q, RetryAfter:%d, Body:<%d bytes not shown>, Header:<%d keys not shown>, Location:%q, UnknownOutcome:%t, RequestID:%q, Attempts:%d}",
			e.StatusCode, e.Method, e.Path, e.Interface.String(), e.ID, e.Type, e.Code, e.Message, int64(e.RetryAfter),
			len(e.Body), len(e.Header), e.Location, e.UnknownOutcome, shownRequestID(e.RequestID), e.Attempts)
		return
	}
	formatText(f, verb, e.Error())
}

// Format renders e's [TransportError.Error] text for every verb and flag
// (%#v as the type and that text), never the fields of its cause.
func (e *TransportError) Format(f fmt.State, verb rune) {
	formatError(f, verb, "TransportError", e.Error())
}

// Format renders e's [DecodeError.Error] text for every verb and flag (%#v
// as the type and that text), never the fields of its cause.
func (e *DecodeError) Format(f fmt.State, verb rune) { formatError(f, verb, "DecodeError", e.Error()) }

// Format renders e's [ConfigError.Error] text for every verb and flag (%#v
// as the type and that text), never the fields of its cause.
func (e *ConfigError) Format(f fmt.State, verb rune) { formatError(f, verb, "ConfigError", e.Error()) }

// Format renders e's [ValidationError.Error] text for every verb and flag
// (%#v as the type and that text).
func (e *ValidationError) Format(f fmt.State, verb rune) {
	formatError(f, verb, "ValidationError", e.Error())
}

// Format renders e's [NotSentError.Error] text for every verb and flag (%#v
// as the type and that text), never the fields of its cause.
func (e *NotSentError) Format(f fmt.State, verb rune) {
	formatError(f, verb, "NotSentError", "not sent: "+causeText(e.Err))
}

// ErrNotSent matches every error of a call whose request never left the
// process because something refused it before sending: a pause a
// Retry-After set on the interface, the client-side rate limiter, the
// context's deadline, a hook. Such an error is a *[TransportError] whose
// cause is a *[NotSentError]; a write that fails so was not applied. A 429
// the platform sent is an *[APIError] and does not match it.
var ErrNotSent = errors.New("rxdelivery: not sent")

// Is matches [ErrNotSent].
func (e *NotSentError) Is(target error) bool { return target == ErrNotSent }
