package core

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// CallSettings are the settings that exist for one call and, as defaults,
// for a whole client: retries, the per-attempt timeout, extra headers and
// hooks. A client holds its defaults in one CallSettings; a call copies
// them and applies its own options on top.
type CallSettings struct {
	// RetryMax is how many retries may follow the first attempt; it is
	// used when RetrySet is true, otherwise the client's value applies.
	RetryMax int
	RetrySet bool
	// AttemptTimeout bounds each attempt (zero: no bound of its own).
	AttemptTimeout time.Duration
	// Header holds extra headers sent on every attempt. Headers the SDK
	// sets itself (see OwnedHeader) are never replaced.
	Header http.Header
	// Metadata, when set, receives the answer's metadata after the call.
	Metadata func(Meta)
	// CallHooks wrap the whole call, outermost first.
	CallHooks []CallHook
	// AttemptHooks wrap every attempt, outermost first.
	AttemptHooks []AttemptHook
	// CallOnly names an option that only a call accepts (when given to a
	// client, NewClient refuses it).
	CallOnly string
	// Err is an option's refusal of its argument (a header that cannot be
	// sent); the call, or NewClient, fails with it before sending.
	Err error
}

// AnswerChecker is a decoded answer that can tell whether it holds what
// the documents promise (an envelope's member, an id). Do runs the check
// when out implements it, before the call's hooks and metadata see the
// call end, so that they see the call's real error and verdict.
type AnswerChecker interface {
	CheckAnswer(c Call, resp *Response) error
}

// checkAnswer runs out's check after a successful exchange.
func checkAnswer(c Call, out any, resp *Response, err error) (*Response, error) {
	if err != nil {
		return resp, err
	}
	if ac, ok := out.(AnswerChecker); ok {
		if err := ac.CheckAnswer(c, resp); err != nil {
			return nil, err
		}
	}
	return resp, nil
}

// OptionFunc returns the function an option.CallOption applies. The
// option package, which imports core, sets it in its init: core cannot
// import it, and the option's function stays out of its public API.
var OptionFunc func(o any) func(*CallSettings)

// CallOptions converts a service method's trailing options into the
// functions Do applies. It returns nil, without allocating, when there are
// none.
func CallOptions[O any](opts []O) []func(*CallSettings) {
	if len(opts) == 0 || OptionFunc == nil {
		return nil
	}
	fs := make([]func(*CallSettings), 0, len(opts))
	for _, o := range opts {
		if f := OptionFunc(o); f != nil {
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return nil
	}
	return fs
}

// Clone returns a copy of s whose slices and header the caller may extend
// without changing s.
func (s *CallSettings) Clone() CallSettings {
	c := *s
	c.Header = s.Header.Clone()
	c.CallHooks = append([]CallHook(nil), s.CallHooks...)
	c.AttemptHooks = append([]AttemptHook(nil), s.AttemptHooks...)
	return c
}

// ValidHeader reports whether key and value can be sent as a header:
// the name a token, the value without control characters other than tab.
// These are the rules net/http applies before sending a request
// (httpguts.ValidHeaderFieldName and ValidHeaderFieldValue); checking
// them where a header is given turns a request net/http would refuse
// into a refusal that names the option.
func ValidHeader(key, value string) bool {
	return ValidHeaderName(key) && ValidHeaderValue(value)
}

// ValidHeaderName reports whether key is a token (RFC 9110), the only
// form a header's name may take.
func ValidHeaderName(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"(),/:;<=>?@[\\]{}", c) >= 0 {
			return false
		}
	}
	return true
}

// ValidHeaderValue reports whether value may be sent as a header's value:
// no control character (a line break, NUL) other than tab.
func ValidHeaderValue(value string) bool {
	for i := 0; i < len(value); i++ {
		if c := value[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// HeaderError returns the refusal of a header that cannot be sent, given
// by what (an option's name), or nil when key and value are valid. The
// message never quotes the value, which may be a credential, and quotes
// the name only when it is a valid name (a name that is not may hold a
// value pasted into it, such as "Authorization: Bearer ...").
func HeaderError(what, key, value string) error {
	switch {
	case !ValidHeaderName(key):
		return &ConfigError{Message: what + ": a header name must be a token (letters, digits and !#$%&'*+-.^_`|~, not empty, no space or colon)"}
	case !ValidHeaderValue(value):
		return &ConfigError{Message: what + ": the value of the header " + strconv.Quote(key) + " has a line break or another control character"}
	}
	return nil
}

// OwnedHeader reports whether the SDK or the transport sets the header
// key itself, so that an extra header may not replace it: the
// credentials, the content negotiation, the body's type and length, and
// the connection-level headers that HTTP/2 forbids (Connection,
// Keep-Alive, Proxy-Connection, Transfer-Encoding, Upgrade, TE, Trailer).
// key is in canonical form.
func OwnedHeader(key string) bool {
	switch key {
	case "Authorization", "Accept", "Content-Type", "Content-Length", "Host", "User-Agent",
		"Proxy-Authorization", "Cookie", "Transfer-Encoding", "Connection",
		"Keep-Alive", "Proxy-Connection", "Upgrade", "Te", "Trailer":
		return true
	}
	return false
}

// Meta is what the SDK saw of a call's answer.
type Meta struct {
	// StatusCode is the status of the last answer; 0 when none came.
	StatusCode int
	// Header holds the last answer's headers; nil when none came.
	Header http.Header
	// RequestID is the platform's request identifier, when it sent one.
	RequestID string
	// Attempts is how many attempts were made (0 when the call ended
	// before its first attempt).
	Attempts int
	// Duration is the time from the call's start to its end.
	Duration time.Duration
	// OutcomeKnown is false only for a write that may or may not have
	// taken effect.
	OutcomeKnown bool
}

// RequestIDHeaders are the answer headers read as the platform's request
// identifier, in order. The documents name none; these are the names
// HTTP APIs commonly use.
var RequestIDHeaders = [...]string{"X-Request-Id", "Request-Id", "X-Correlation-Id"}

func requestID(h http.Header) string {
	for _, k := range RequestIDHeaders {
		if v := h.Get(k); v != "" {
			return v
		}
	}
	return ""
}

// Op describes an endpoint to hooks: what they may see of a call.
type Op struct {
	// Name is the operation, such as "orders.Create".
	Name string
	// Method is the HTTP method.
	Method string
	// Route is the templated path, such as "/api/v1/orders/{id}".
	Route string
	// Interface is the platform interface.
	Interface Interface
	// Write marks a side-effecting write.
	Write bool
}

// CallResult is what a call hook learns of a call's end.
type CallResult struct {
	Meta Meta
	Err  error
}

// CallFunc performs a call.
type CallFunc func(ctx context.Context, op *Op) CallResult

// CallHook wraps a call.
type CallHook func(next CallFunc) CallFunc

// AttemptInfo describes one attempt to hooks.
type AttemptInfo struct {
	Op *Op
	// Number is the attempt's number, 1 for the first.
	Number int
	// header is the outgoing request's header, which hooks may add to
	// through SetHeader.
	header http.Header
}

// SetHeader sets an outgoing header of the attempt, unless the SDK owns
// it (OwnedHeader) or it cannot be sent (ValidHeader: a name that is not
// a token, a value with a line break or another control character). It
// reports whether the header was set; a header it refuses is not sent,
// and the attempt goes on without it.
func (a *AttemptInfo) SetHeader(key, value string) bool {
	if a.header == nil || !ValidHeader(key, value) {
		return false
	}
	key = http.CanonicalHeaderKey(key)
	if OwnedHeader(key) {
		return false
	}
	a.header.Set(key, value)
	return true
}

// AttemptResult is what an attempt hook learns of an attempt's end.
type AttemptResult struct {
	// StatusCode is the answer's status; 0 when no answer came.
	StatusCode int
	// Header holds the answer's headers; nil when no answer came.
	Header http.Header
	// Err is why no answer came; it never holds a URL.
	Err error
}

// AttemptFunc performs an attempt.
type AttemptFunc func(ctx context.Context, a *AttemptInfo) AttemptResult

// AttemptHook wraps an attempt.
type AttemptHook func(next AttemptFunc) AttemptFunc
