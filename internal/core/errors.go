package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/rxdelivery/rxdelivery-go/types"
)

// maxErrorBody bounds how much of an error response is read; maxKeptBody
// bounds the copy an APIError keeps.
const (
	maxErrorBody = 64 << 10
	maxKeptBody  = 4 << 10
)

// setRedirect records in e the scheme and host of a 3xx response's
// Location, resolved against the request's URL, and keeps no more of it in
// Header.
func setRedirect(e *types.APIError, resp *http.Response, sc *scrubber) {
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

// scrubAPIError removes the call's values and the credentials from the
// platform's words e keeps as strings; Body keeps them raw.
func scrubAPIError(e *types.APIError, sc *scrubber) {
	e.ID, e.Type, e.Code, e.Message = sc.scrub(e.ID), sc.scrub(e.Type), sc.scrub(e.Code), sc.scrub(e.Message)
}

// newAPIError builds an APIError from a bounded read of an error response.
// It never fails: a body it cannot read leaves the fields empty.
func newAPIError(iface types.Interface, method, path string, status int, h http.Header, body []byte, now time.Time) *types.APIError {
	e := &types.APIError{StatusCode: status, Method: method, Path: path, Interface: iface, Header: h}
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

// redactedCause is the cause of a TransportError or a DecodeError: its
// text has every value the call sent, and every credential, removed (a
// broken server's status line may echo them, and net/http quotes it).
// Unwrap gives the cause itself, so errors.Is and errors.As see through.
type redactedCause struct {
	err error
	sc  *scrubber
}

func (e *redactedCause) Error() string { return e.sc.scrub(e.err.Error()) }
func (e *redactedCause) Unwrap() error { return e.err }

// redact returns err as a redactedCause of sc; nil stays nil.
func redact(err error, sc *scrubber) error {
	if err == nil || sc == nil {
		return err
	}
	return &redactedCause{err: err, sc: sc}
}

// apiError builds the *APIError of a response with a status outside 2xx
// from the start of its body, with the platform's words redacted.
func (c *call) apiError(resp *http.Response, data []byte) error {
	e := newAPIError(c.b.iface, c.method(), c.shown, resp.StatusCode, resp.Header, data, c.b.s.now())
	scrubAPIError(e, c.sc)
	// A body that names a definite refusal settles the outcome whatever
	// the status.
	e.UnknownOutcome = c.ep.Write && unknownStatus(resp.StatusCode) && !e.Is(types.ErrUnableToCancel)
	if resp.StatusCode >= 300 && resp.StatusCode <= 399 {
		setRedirect(e, resp, c.sc)
		// The platform documents no redirect: whether it acted on a write
		// before sending one is not known.
		e.UnknownOutcome = c.ep.Write
	}
	return e
}

// transportError is the *TransportError of a call that got no usable
// response. A write's outcome is unknown unless its request provably never
// left: the context ended during a wait between attempts, the last attempt
// never got a connection, or the failure is one that proves nothing was
// sent (neverSent).
func (c *call) transportError(err error) error {
	unknown := c.ep.Write && !isWaitCancel(err) && c.trace.mayHaveSent()
	err = stripURL(err)
	if neverSent(err) {
		unknown = false
	}
	return &types.TransportError{Method: c.method(), Path: c.shown, Err: redact(err, c.sc), UnknownOutcome: unknown}
}

// decodeError is the *DecodeError of a 2xx response whose body could not
// be used; cut marks a body that ended early. For a write the outcome is
// unknown: the platform accepted it, but its response is lost.
func (c *call) decodeError(status int, err error, cut bool) error {
	return &types.DecodeError{StatusCode: status, Method: c.method(), Path: c.shown,
		Err: redact(stripURL(err), c.sc), Incomplete: cut, UnknownOutcome: c.ep.Write}
}

// Missing is the refusal a ResponseChecker returns for a response without
// the member the document promises; what names it, such as `"order"
// object`.
func Missing(what string) error {
	return errors.New("the response has no " + what)
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
