package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Sentinel errors. Every error the SDK returns for an HTTP answer or a
// failed exchange matches the sentinels that describe it through errors.Is.
var (
	// ErrBadRequest matches answers 400 and 422: the platform refused the
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
	// answer came back. Such a call is never retried automatically: find out
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
)

// maxErrorBody bounds how much of an error answer is read; maxKeptBody
// bounds the copy an APIError keeps.
const (
	maxErrorBody = 64 << 10
	maxKeptBody  = 4 << 10
)

// APIError is an answer from the platform with a status outside 2xx. It
// carries every error body shape the interfaces use: omni
// {error:{id,type,message}}, delivery and pricing {error:{message}}, and
// tracking {error:{code,message}}.
//
// Its Error string holds the method, the path (never the query string), the
// status and the platform's code, type and message; never a credential or a
// request body. Platforms echo what they were sent, so every value the call
// sent (each string and number of its body, each query value, a path
// segment errors show as a placeholder) and every credential is replaced by
// "[redacted]" in ID, Type, Code, Message and Location, and hence in the
// Error string. Values shorter than three characters are left, and those
// of three only as whole words. Body alone keeps the platform's raw words:
// it may hold patient data, so never log it.
type APIError struct {
	// StatusCode is the HTTP status of the answer.
	StatusCode int
	// Method and Path name the endpoint called; Path is below the base URL
	// and has no query string.
	Method, Path string
	// Interface is the platform interface that answered.
	Interface Interface
	// ID is the omni error id (for unable_to_cancel, the request id).
	ID string
	// Type is the omni error type, such as "unable_to_cancel".
	Type string
	// Code is the tracking error code, such as "not_found" or
	// "rate_limit_exceeded".
	Code string
	// Message is the platform's human-readable message.
	Message string
	// RetryAfter is the wait the platform asked for in a Retry-After header
	// (seconds or HTTP date); zero when absent.
	RetryAfter time.Duration
	// Body is a copy of the start of the raw answer (at most 4 KiB), for
	// diagnosis. It is not part of the Error string and is not scrubbed:
	// it is the one field that holds the platform's raw words, which may
	// repeat patient data the call sent. Never log it.
	Body []byte
	// Header holds the answer's headers.
	Header http.Header
	// Location is, for a redirect (3xx), the scheme and host of the
	// Location header ("https://other.example.com"), never its path or
	// query; empty otherwise. The SDK follows no redirect unless the
	// caller's own http.Client asks for it (see WithHTTPClient).
	Location string
	// UnknownOutcome is true when the call was a side-effecting write and
	// the status (500, 502, 504, or a redirect) does not tell whether it
	// took effect.
	UnknownOutcome bool
}

// setRedirect records the scheme and host of a 3xx answer's Location,
// resolved against the request's URL, and keeps no more of it in Header.
func (e *APIError) setRedirect(resp *http.Response, sc *scrubber) {
	loc := resp.Header.Get("Location")
	if loc == "" {
		return
	}
	if u, err := url.Parse(loc); err == nil {
		if resp.Request != nil && resp.Request.URL != nil {
			u = resp.Request.URL.ResolveReference(u)
		}
		if u.Scheme != "" && u.Host != "" {
			e.Location = sc.scrub(u.Scheme + "://" + u.Host)
		}
	}
	e.Header = e.Header.Clone()
	if e.Location != "" {
		e.Header.Set("Location", e.Location)
	} else {
		e.Header.Del("Location")
	}
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
	return b.String()
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

// errorBody is the union of the interfaces' error body shapes.
type errorBody struct {
	Error json.RawMessage `json:"error"`
	// Message is read when a body carries the message at the top level.
	Message string `json:"message"`
}

type errorDetail struct {
	ID      json.RawMessage `json:"id"`
	Type    string          `json:"type"`
	Code    string          `json:"code"`
	Message string          `json:"message"`
}

// scrub removes the call's values and the credentials from the
// platform's words the error keeps as strings; Body keeps them raw.
func (e *APIError) scrub(sc *scrubber) {
	e.ID, e.Type, e.Code, e.Message = sc.scrub(e.ID), sc.scrub(e.Type), sc.scrub(e.Code), sc.scrub(e.Message)
}

// newAPIError builds an APIError from a bounded read of an error answer.
// It never fails: a body it cannot read leaves the fields empty.
func newAPIError(iface Interface, method, path string, status int, h http.Header, body []byte, now time.Time) *APIError {
	e := &APIError{StatusCode: status, Method: method, Path: path, Interface: iface, Header: h}
	if ra, ok := parseRetryAfter(h.Get("Retry-After"), now); ok {
		e.RetryAfter = ra
	}
	kept := body
	if len(kept) > maxKeptBody {
		kept = kept[:maxKeptBody]
	}
	e.Body = bytes.Clone(kept)
	var eb errorBody
	if json.Unmarshal(body, &eb) != nil {
		return e
	}
	e.Message = eb.Message
	raw := bytes.TrimSpace(eb.Error)
	switch {
	case len(raw) == 0:
	case raw[0] == '{':
		var d errorDetail
		if json.Unmarshal(raw, &d) == nil {
			e.ID = scalarText(d.ID)
			e.Type, e.Code = d.Type, d.Code
			if d.Message != "" {
				e.Message = d.Message
			}
		}
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			e.Message = s
		}
	}
	return e
}

// scalarText returns a JSON string's text, or a number's literal.
func scalarText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// TransportError is a call that got no usable HTTP answer: the connection
// failed, was cut, timed out, or the context ended. Err is the cause with
// any URL removed (URLs may carry query strings with patient data).
type TransportError struct {
	// Method and Path name the endpoint called (no query string).
	Method, Path string
	// Err is the underlying cause; errors.Is sees through it, so
	// errors.Is(err, context.DeadlineExceeded) works.
	Err error
	// UnknownOutcome is true when the call was a side-effecting write whose
	// request may have reached the platform.
	UnknownOutcome bool

	scrub *scrubber // the call's values, removed from Error
}

// Error returns "rxdelivery: METHOD PATH: cause". Every value the call
// sent, and every credential, is removed from the cause's words (a broken
// server's status line may echo them).
func (e *TransportError) Error() string {
	s := "rxdelivery: " + e.Method + " " + e.Path + ": " + e.scrub.scrub(e.Err.Error())
	if e.UnknownOutcome {
		s += " (outcome unknown: reconcile before retrying)"
	}
	return s
}

// Unwrap returns the cause.
func (e *TransportError) Unwrap() error { return e.Err }

// Is matches ErrUnknownOutcome when the write's outcome is unknown.
func (e *TransportError) Is(target error) bool {
	return target == ErrUnknownOutcome && e.UnknownOutcome
}

// DecodeError is a 2xx answer whose body could not be read or decoded: it
// was cut, truncated, slower than the context allowed, or not the JSON the
// endpoint documents.
type DecodeError struct {
	// StatusCode is the HTTP status of the answer.
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
	// platform accepted it, but its answer (with the new identifier) was lost.
	UnknownOutcome bool

	scrub *scrubber // the call's values, removed from Error
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
		http.StatusText(e.StatusCode) + what + e.scrub.scrub(e.Err.Error())
	if e.UnknownOutcome {
		s += " (outcome unknown: reconcile before retrying)"
	}
	return s
}

// Unwrap returns the cause.
func (e *DecodeError) Unwrap() error { return e.Err }

// Is matches ErrMalformedResponse, and ErrUnknownOutcome for writes.
func (e *DecodeError) Is(target error) bool {
	return target == ErrMalformedResponse || (target == ErrUnknownOutcome && e.UnknownOutcome)
}

// ConfigError reports a client that cannot make a call as configured. It
// names the option or environment variable that fixes it.
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
