package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Reading a response and what it becomes: a 2xx body read whole at a
// bounded cost and checked for shape, or a typed error (an *APIError for a
// status outside 2xx, a *TransportError for no usable response, a
// *DecodeError for a body that cannot be used), with every value the call
// sent removed from the platform's words.

// body holds the body of a successful response, read whole by read
// during the attempt. Responses are pooled: the SDK's decoders copy what
// they keep, so a buffer is reused once the call has decoded it.
type body struct {
	buf bytes.Buffer
	max int64 // the size limit of a body
	err error // a body over the limit; never retried
	// whole is set when read reached the end of the body: closing it
	// then leaves nothing to drain.
	whole bool
	// lr is the bounded reader read fills the buffer from.
	lr limitedReader
}

// maxPooledBody is the largest buffer kept for reuse; a larger one
// (a rare, very large response) is left to the garbage collector.
const maxPooledBody = 256 << 10

var bodyPool = sync.Pool{New: func() any { return new(body) }}

func getBody(limit int64) *body {
	a := bodyPool.Get().(*body)
	a.max = limit
	return a
}

func putBody(a *body) {
	if a.buf.Cap() > maxPooledBody {
		return
	}
	a.buf.Reset()
	a.err = nil
	a.whole = false
	a.lr = limitedReader{}
	bodyPool.Put(a)
}

// bodyCutError is what read gives go-retryablehttp when a successful
// response's body ended early (the connection was cut or reset after the
// status line). The retry policy sends a safe call again; a write is not
// sent again, and its outcome stays unknown.
type bodyCutError struct{ err error }

func (e *bodyCutError) Error() string { return "reading the response: " + e.err.Error() }
func (e *bodyCutError) Unwrap() error { return e.err }

// errBodyTooLarge is the cause of a DecodeError for a response over the
// size limit.
var errBodyTooLarge = errors.New("body exceeds the size limit")

// limitedReader reads at most n bytes and fails, rather than ending
// quietly, when the body is longer.
type limitedReader struct {
	r io.Reader
	n int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		var one [1]byte
		if k, _ := l.r.Read(one[:]); k > 0 {
			return 0, errBodyTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	k, err := l.r.Read(p)
	l.n -= int64(k)
	return k, err
}

// Reading a 2xx response whole, at a bounded cost. A body over the size
// limit costs no more than the limit and a small constant: one announced
// by Content-Length is refused before anything is read; one of unknown
// length (chunked, or decompressed by the transport) is read into a buffer
// of at most bodySpill bytes and then into fixed-size chunks, joined
// once when the body has ended within the limit, so that no buffer ever
// doubles past the limit on the way to refusing it.

// bodySpill is how much of a body of unknown length is read into the
// (pooled) buffer before the rest goes to chunks; bodyChunk is the size
// of those chunks.
const (
	bodySpill = maxPooledBody
	bodyChunk = 256 << 10
)

// read is the response handler of go-retryablehttp: it reads a 2xx body
// whole, bounded by the size limit. Other responses are left to Do.
func (a *body) read(resp *http.Response) error {
	a.whole = false
	if resp.StatusCode < 200 || resp.StatusCode > 299 || resp.StatusCode == http.StatusNoContent {
		return nil
	}
	a.buf.Reset()
	a.err = nil
	if resp.ContentLength > a.max {
		a.err = errBodyTooLarge
		return nil
	}
	a.lr = limitedReader{r: resp.Body, n: a.max}
	err := a.fill(&a.lr, resp.ContentLength)
	switch {
	case err == nil:
		a.whole = true
		return nil
	case errors.Is(err, errBodyTooLarge):
		a.err = err
		a.buf.Reset()
		return nil
	}
	return &bodyCutError{err: err}
}

// fill reads r (bounded by the size limit) into a.buf. length is the
// announced Content-Length, or -1.
func (a *body) fill(r io.Reader, length int64) error {
	if length >= 0 {
		// Room for the whole body and for the read that sees its end, so
		// that ReadFrom never grows the buffer.
		a.buf.Grow(int(length) + bytes.MinRead)
		_, err := a.buf.ReadFrom(r)
		return err
	}
	_, err := a.buf.ReadFrom(io.LimitReader(r, bodySpill))
	if err != nil || a.buf.Len() < bodySpill {
		return err
	}
	var chunks [][]byte
	total := a.buf.Len()
	for {
		c := make([]byte, bodyChunk)
		n, err := readChunk(r, c)
		chunks = append(chunks, c[:n])
		total += n
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	joined := make([]byte, 0, total)
	joined = append(joined, a.buf.Bytes()...)
	for _, c := range chunks {
		joined = append(joined, c...)
	}
	a.buf = *bytes.NewBuffer(joined)
	return nil
}

// readChunk fills c from r, and reports io.EOF when r ended (c may then
// be partly filled), or another error of r.
func readChunk(r io.Reader, c []byte) (int, error) {
	n := 0
	for n < len(c) {
		k, err := r.Read(c[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Checks of a 2xx response's shape, beyond being valid JSON: every endpoint
// documents an object, and a response that is not one (JSON null, an array,
// a bare string or number) would otherwise decode to a zero value without
// an error.

// checkShape refuses a body that is valid JSON but not an object. A body
// that is not valid JSON is left to the decoder, which names the fault.
// A *json.RawMessage out (a response the SDK keeps whole) only refuses null.
func checkShape(data []byte, out any) error {
	i := 0
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	if i == len(data) || data[i] == '{' || !json.Valid(data) {
		return nil
	}
	kind := "a JSON " + map[byte]string{'n': "null", '[': "array", '"': "string", 't': "boolean", 'f': "boolean"}[data[i]]
	if kind == "a JSON " {
		kind = "a JSON number"
	}
	if _, raw := out.(*json.RawMessage); raw && data[i] != 'n' {
		return nil
	}
	return errors.New("the body is " + kind + ", not an object")
}

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
// only their enum-like words of the vocabulary, Message its words of the
// allowlist. Body keeps them raw.
func scrubAPIError(e *rxtypes.APIError, sc *scrubber) {
	e.ID, e.Type, e.Code, e.Message = sc.id(e.ID), sc.code(e.Type), sc.code(e.Code), sc.scrub(e.Message)
}

// newAPIError builds an APIError from a bounded read of an error response.
// It never fails: a body it cannot read leaves the fields empty.
func newAPIError(iface rxtypes.Interface, method, path string, status int, h http.Header, body []byte, now time.Time) *rxtypes.APIError {
	e := &rxtypes.APIError{StatusCode: status, Method: method, Path: path, Interface: iface, Header: h}
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
	e := newAPIError(c.b.iface, c.method(), c.shown, resp.StatusCode, resp.Header, data, c.b.s.cfg.WallNow())
	scrubAPIError(e, c.sc)
	// A body that names a definite refusal settles the outcome whatever
	// the status.
	e.UnknownOutcome = c.ep.Write && unknownStatus(resp.StatusCode) && !e.Is(rxtypes.ErrUnableToCancel)
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
	return &rxtypes.TransportError{Method: c.method(), Path: c.shown, Err: redact(err, c.sc), UnknownOutcome: unknown}
}

// decodeError is the *DecodeError of a 2xx response whose body could not
// be used; cut marks a body that ended early. For a write the outcome is
// unknown: the platform accepted it, but its response is lost.
func (c *call) decodeError(status int, err error, cut bool) error {
	return &rxtypes.DecodeError{StatusCode: status, Method: c.method(), Path: c.shown,
		Err: redact(stripURL(err), c.sc), Incomplete: cut, UnknownOutcome: c.ep.Write}
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
