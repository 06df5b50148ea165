package core

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// What a call tells of itself: the record of each attempt (Metadata's
// AttemptLog), the request id and attempt count its error carries, and
// the raw response WithResponseInto asks for. Records are kept cheaply
// (the first in the call value itself); what they show is worked out only
// when the caller asks for Metadata.

// callExtras is what a call keeps for its attempt log and raw response.
type callExtras struct {
	// recs records the call's attempts, the first in rec0; sentAt is when
	// the current attempt's request went out.
	recs   []attemptRec
	rec0   [1]attemptRec
	sentAt time.Time
	// raw is the final response WithResponseInto asks for.
	raw option.RawResponse
}

// extras returns the call's extras, made on first use.
func (c *call) extras() *callExtras {
	if c.ext == nil {
		c.ext = new(callExtras)
		c.ext.recs = c.ext.rec0[:0]
	}
	return c.ext
}

// attemptRec is one attempt as the call keeps it.
type attemptRec struct {
	number int
	// wait is the time from the end of the attempt before (the call's
	// start for the first) to the request going out; took is how long
	// the exchange took.
	wait, took time.Duration
	end        option.AttemptEnd
	status     int
	header     http.Header
	// err is the attempt's failure, read as an attempt timeout where it
	// is one.
	err error
	// retryAfter is the response's Retry-After, when it had one.
	retryAfter    time.Duration
	hasRetryAfter bool
}

// record notes how the current attempt ended, at now: with resp, or with
// err (ctx is the attempt's parent context, which tells a timeout of the
// attempt's own from the caller's end). An attempt stopped before sending
// has no sentAt (send sets it): its wait runs to its end.
func (c *call) record(ctx context.Context, now time.Time, resp *http.Response, err error) {
	x := c.ext
	if x == nil {
		return
	}
	prev := c.lastEnd
	if prev.IsZero() {
		prev = c.start
	}
	r := attemptRec{number: c.attempts}
	if x.sentAt.IsZero() || x.sentAt.Before(prev) {
		r.wait = now.Sub(prev)
	} else {
		r.wait, r.took = x.sentAt.Sub(prev), now.Sub(x.sentAt)
	}
	x.sentAt = time.Time{}
	switch {
	case resp != nil:
		r.end, r.status, r.header = option.AttemptResponded, resp.StatusCode, resp.Header
		r.retryAfter, r.hasRetryAfter = c.pol.lastRetryAfter, c.pol.hasRetryAfter
	case isNotSent(err):
		r.end, r.err, r.took = option.AttemptNotSent, err, 0
	default:
		r.err = asAttemptTimeout(ctx, err)
		r.end = option.AttemptFailed
		if errors.Is(r.err, rxtypes.ErrAttemptTimeout) {
			r.end = option.AttemptTimedOut
		}
	}
	x.recs = append(x.recs, r)
}

// isNotSent reports whether err says the request never left the process.
func isNotSent(err error) bool {
	var ns *rxtypes.NotSentError
	return errors.As(err, &ns)
}

// noteCut marks the last attempt's 2xx response as one whose body ended
// early, when err (readBody's) says so.
func (c *call) noteCut(err error) {
	if c.ext == nil {
		return
	}
	recs := c.ext.recs
	var cut *bodyCutError
	if n := len(recs); n > 0 && recs[n-1].end == option.AttemptResponded && errors.As(err, &cut) {
		recs[n-1].end, recs[n-1].err = option.AttemptBodyCut, err
	}
}

// attemptLog is the call's attempts as Metadata lists them.
func (c *call) attemptLog() []option.AttemptRecord {
	if c.ext == nil || len(c.ext.recs) == 0 {
		return nil
	}
	out := make([]option.AttemptRecord, len(c.ext.recs))
	for i, r := range c.ext.recs {
		a := option.AttemptRecord{Number: r.number, Wait: r.wait, Duration: r.took, End: r.end, StatusCode: r.status}
		if r.header != nil {
			a.RequestID = c.safeRequestID(r.header)
			if r.hasRetryAfter {
				a.RetryAfter = r.retryAfter
			}
		}
		if r.err != nil {
			a.ErrorKind = attemptKind(r.err)
		}
		out[i] = a
	}
	return out
}

// attemptKind names an attempt's failure: ErrorKind's name for it, or
// "transport" for a failure that matches no sentinel.
func attemptKind(err error) string {
	var cut *bodyCutError
	if errors.As(err, &cut) {
		return "body_cut"
	}
	if k := option.ErrorKind(err); k != "error" {
		return k
	}
	return "transport"
}

// requestID is the safe request id of the call's last response; "" when
// none came.
func (c *call) requestID() string {
	if c.header == nil {
		return ""
	}
	return c.safeRequestID(c.header)
}

// keepRaw copies what WithResponseInto asks for of the call's final
// response: its status and headers, and its body, read whole for a 2xx
// (buf, when the call read it; read here otherwise, within the size
// limit) or data for any other status (the start of it an error is built
// from, whole when shorter than limit).
func (c *call) keepRaw(resp *http.Response, buf *body, data []byte, limit int) {
	r := &c.extras().raw
	r.StatusCode, r.Header = resp.StatusCode, resp.Header
	switch {
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		if len(data) > limit {
			data, r.Truncated = data[:limit], true
		}
		r.Body = bytes.Clone(data)
	case buf != nil && buf.err != nil:
		r.Truncated = true
	case buf != nil:
		if buf.buf.Len() > 0 {
			r.Body = bytes.Clone(buf.buf.Bytes())
		}
	default:
		all, err := io.ReadAll(io.LimitReader(resp.Body, c.b.s.cfg.MaxResponseBytes+1))
		if int64(len(all)) > c.b.s.cfg.MaxResponseBytes {
			all, r.Truncated = all[:c.b.s.cfg.MaxResponseBytes], true
		}
		if err != nil {
			r.Truncated = true
		}
		if len(all) > 0 {
			r.Body = all
		}
	}
}

// safeRequestID returns the platform's request id from h when it has the
// form of a generated identifier, and "" otherwise. A request id reaches
// spans, log lines and support tickets, and a platform may put anything in
// a header, a patient's name it knows from its own records included, so
// it is kept only when it is at most 128 characters of an optional prefix
// from requestIDPrefixes followed by "_" or "-", then letters, digits and
// . _ : - in which every run of letters is either hexadecimal or at most
// two letters long (a UUID, a hex or base-62 token, not a word), with at
// least one digit, echoing no value the call sent, no hidden path segment
// and no credential. Metadata.Header keeps the header as sent.
func (c *call) safeRequestID(h http.Header) string {
	v := requestID(h)
	if v == "" || len(v) > 128 || c.scrubber().sent(v) != v {
		return ""
	}
	body := v
	if i := strings.IndexAny(v, "_-"); i > 0 && requestIDPrefixes[v[:i]] {
		body = v[i+1:]
	}
	digit, run, hexRun := false, 0, true
	for i := 0; i < len(body); i++ {
		switch ch := body[i]; {
		case ch >= '0' && ch <= '9':
			digit, run, hexRun = true, 0, true
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z':
			run++
			hexRun = hexRun && (ch|0x20) >= 'a' && (ch|0x20) <= 'f'
			if run > 2 && !hexRun {
				return ""
			}
		case ch == '.' || ch == '_' || ch == ':' || ch == '-':
			run, hexRun = 0, true
		default:
			return ""
		}
	}
	if !digit {
		return ""
	}
	return v
}

// requestIDPrefixes are the words a request id may start with.
var requestIDPrefixes = map[string]bool{"req": true, "request": true, "rid": true, "rq": true, "id": true,
	"trace": true, "corr": true, "cid": true}

// requestIDHeaders are the response headers read as the platform's
// request identifier, in order. The documents name none; these are the
// names HTTP APIs commonly use.
var requestIDHeaders = [...]string{"X-Request-Id", "Request-Id", "X-Correlation-Id"}

func requestID(h http.Header) string {
	for _, k := range requestIDHeaders {
		if v := h.Get(k); v != "" {
			return v
		}
	}
	return ""
}

// logAttempt writes the attempt's debug line: operation, method,
// templated path, host, duration, and the status (with the wait a
// Retry-After asks for) or the failure's kind. It never logs an identifier
// of the path, a query string, a header value, a body or an error's
// message.
func (c *call) logAttempt(req *http.Request, start time.Time, resp *http.Response, err error) {
	l := c.b.s.cfg.Logger
	if l == nil || !l.Enabled(req.Context(), slog.LevelDebug) {
		return
	}
	attrs := c.logAttrs(
		slog.String("host", req.URL.Host),
		slog.Duration("duration", time.Since(start)),
	)
	if err != nil {
		attrs = append(attrs, slog.String("error", attemptErrorKind(req, err)))
		l.LogAttrs(req.Context(), slog.LevelDebug, "rxdelivery: attempt failed", attrs...)
		return
	}
	attrs = append(attrs, slog.Int("status", resp.StatusCode))
	// The wait Retry-After asks for, not its raw text: the header is the
	// server's words.
	if c.pol.hasRetryAfter {
		attrs = append(attrs, slog.Duration("retry_after", c.pol.lastRetryAfter))
	}
	if id := c.safeRequestID(resp.Header); id != "" {
		attrs = append(attrs, slog.String("request_id", id))
	}
	l.LogAttrs(req.Context(), slog.LevelDebug, "rxdelivery: attempt", attrs...)
}

// attemptErrorKind names an attempt's failure for its log line: the
// attempt timeout, the end of the call's context, or a transport failure.
func attemptErrorKind(req *http.Request, err error) string {
	if context.Cause(req.Context()) == errAttemptTimeout {
		return "attempt_timeout"
	}
	if k := option.ErrorKind(err); k != "error" {
		return k
	}
	return "transport"
}
