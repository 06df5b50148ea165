package core

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"time"

	"github.com/rxdelivery/rxdelivery-go/types"
)

// maxErrorBody bounds how much of an error answer is read; maxKeptBody
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

// newAPIError builds an APIError from a bounded read of an error answer.
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
