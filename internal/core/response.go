package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Reading a response and what it becomes: a 2xx body read whole at a
// bounded cost and checked for shape, or a typed error (an *APIError for a
// status outside 2xx, a *TransportError for no usable response, a
// *DecodeError for a body that cannot be used), with every value the call
// sent removed from the platform's words.

// maxErrorBody bounds how much of an error response is read; maxKeptBody
// bounds the copy an APIError keeps.
const (
	maxErrorBody = 64 << 10
	maxKeptBody  = 4 << 10
)

// setRedirect records in e the scheme and host of a 3xx response's
// Location, resolved against the request's URL, and keeps no more of it in
// Header.
func setRedirect(e *rxtypes.APIError, resp *http.Response, sc *scrubber) {
	loc := resp.Header.Get("Location")
	if loc == "" {
		return
	}
	if u, err := url.Parse(loc); err == nil {
		if resp.Request != nil && resp.Request.URL != nil {
			u = resp.Request.URL.ResolveReference(u)
		}
		if u.Scheme != "" && u.Host != "" {
			e.Location = sc.sent(u.Scheme + "://" + u.Host)
		}
	}
	e.Header = e.Header.Clone()
	if e.Location != "" {
		e.Header.Set("Location", e.Location)
	} else {
		e.Header.Del("Location")
	}
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

// scrubAPIError keeps of the platform's words e holds as strings only
// those known safe: ID only when the call's path names it, Type and Code
// only when every word of them is safe (else ""), Message its safe text.
// Body keeps them raw, and APIError.Platform reads them from there.
func scrubAPIError(e *rxtypes.APIError, sc *scrubber) {
	e.ID, e.Type, e.Code, e.Message = sc.id(e.ID), sc.value(e.Type), sc.value(e.Code), sc.scrub(e.Message)
}

// newAPIError builds an APIError from a bounded read of an error response.
// It never fails: a body it cannot read leaves the fields empty. Its
// RetryAfter is the caller's to set, from the one reading of the header
// (call.retryAfter).
func newAPIError(iface rxtypes.Interface, method, path string, status int, h http.Header, body []byte) *rxtypes.APIError {
	e := &rxtypes.APIError{StatusCode: status, Method: method, Path: path, Interface: iface, Header: h}
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

// redactedCause is the cause of a TransportError or a DecodeError: its
// text is the safe text of the cause's (a broken server's status line may
// echo what the call sent, and net/http quotes it; a JSON decoder may
// quote the body). Unwrap gives the cause itself, so errors.Is and
// errors.As see through; its own renderings (%v, %+v, %#v) are Error's.
type redactedCause struct {
	err error
	sc  *scrubber
}

func (e *redactedCause) Error() string { return e.sc.scrub(e.err.Error()) }
func (e *redactedCause) Unwrap() error { return e.err }

// Format renders the safe text for every verb, so that %#v does not show
// the cause's fields.
func (e *redactedCause) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprint(f, strconv.Quote(e.Error()))
		return
	}
	_, _ = io.WriteString(f, e.Error())
}

// redact returns err as a redactedCause of sc; nil stays nil, and so does
// a cause whose words are all the SDK's own (a refusal of the loopback
// rule, of a redirect, of the rate limiter's wait, the attempt timeout):
// they hold nothing of the platform's or of the call's values.
func redact(err error, sc *scrubber) error {
	if err == nil || ownWords(err) {
		return err
	}
	return &redactedCause{err: err, sc: sc}
}

// ownWords reports whether err's text is all the SDK's: one of its fixed
// refusals, bare or as the cause of a NotSentError.
func ownWords(err error) bool {
	if ns, ok := err.(*rxtypes.NotSentError); ok {
		err = ns.Err
	}
	if _, ok := err.(*PauseError); ok {
		return true
	}
	switch err {
	case errNotLoopback, errWriteRedirect, errPlainRedirect, errBodyTooLarge, errCalledTwice, ErrHookRefused,
		error(errAttemptTimeout), error(errRateWait):
		return true
	}
	return false
}

// apiError builds the *APIError of a response with a status outside 2xx
// from the start of its body, with the platform's words redacted.
func (c *call) apiError(resp *http.Response, data []byte) error {
	e := newAPIError(c.b.iface, c.method(), c.shown, resp.StatusCode, resp.Header, data)
	if c.pol.hasRetryAfter {
		// The header as send read it, once, on the client's clock.
		e.RetryAfter = c.pol.lastRetryAfter
	}
	scrubAPIError(e, c.scrubber())
	e.UnknownOutcome = c.outcomeUnknown(resp.StatusCode, e.Is(rxtypes.ErrUnableToCancel), nil)
	if resp.StatusCode >= 300 && resp.StatusCode <= 399 {
		setRedirect(e, resp, c.scrubber())
	}
	return e
}

// transportError is the *TransportError of a call that got no usable
// response. A write's outcome is unknown unless its request provably never
// left: the context ended during a wait between attempts, the last attempt
// never got a connection, or the failure is one that proves nothing was
// sent (neverSent).
func (c *call) transportError(err error) *rxtypes.TransportError {
	unknown := c.outcomeUnknown(0, false, err)
	return &rxtypes.TransportError{Method: c.method(), Path: c.shown, Err: redact(stripURL(err), c.scrubber()), UnknownOutcome: unknown}
}

// decodeError is the *DecodeError of a 2xx response whose body could not
// be used; cut marks a body that ended early. For a write the outcome is
// unknown: the platform accepted it, but its response is lost.
func (c *call) decodeError(status int, err error, cut bool) *rxtypes.DecodeError {
	return &rxtypes.DecodeError{StatusCode: status, Method: c.method(), Path: c.shown,
		Err: redact(stripURL(err), c.scrubber()), Incomplete: cut, UnknownOutcome: c.outcomeUnknown(status, false, err)}
}

// failed is the error of a call whose loop ended with err (and resp, a
// response whose 2xx body was cut short, or nil).
func (c *call) failed(ctx context.Context, resp *http.Response, err error) error {
	if resp != nil {
		closeBody(resp.Body)
	}
	var cut *bodyCutError
	if errors.As(err, &cut) {
		// The 2xx whose body readBody found cut: its status and headers
		// are the call's last.
		if c.set.Response != nil {
			c.extras().raw = option.RawResponse{StatusCode: c.status, Header: c.header, Truncated: true}
		}
		de := c.decodeError(c.status, asAttemptTimeout(ctx, cut.err), true)
		de.Err = ended(ctx, de.Err, c.scrubber())
		return de
	}
	te := c.transportError(asAttemptTimeout(ctx, err))
	te.Err = ended(ctx, te.Err, c.scrubber())
	return te
}

// IsUnknownOutcome reports whether err is a write's failure whose outcome
// is unknown.
func IsUnknownOutcome(err error) bool {
	return err != nil && errors.Is(err, rxtypes.ErrUnknownOutcome)
}

// Missing is the refusal a ResponseChecker returns for a response without
// the member the document promises; what names it, such as `"order"
// object`.
func Missing(what string) error {
	return errors.New("the response has no " + what)
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
