package core

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// What a failed attempt proves about its request. net/http reports some
// failures that prove the platform never acted on a request: it refused
// the request before writing any of it, or the server said, in HTTP/2's
// own terms, that it did not process the stream. fateOf finds those; any
// other failure of a write leaves its outcome unknown.
//
// net/http exports no type or sentinel for any of them (the HTTP/2 errors
// are unexported, and the transport wraps them with %v, which breaks the
// chain), so they are recognised by their exact words. Each link of an
// error's chain is compared whole, or by a fixed prefix that net/http
// writes itself: a server's words (a GOAWAY's debug data, a malformed
// status line) are never at the start of a link, so they cannot make a
// write look unsent. The words are those of Go 1.23 to 1.27, whose HTTP/2
// transport is the one bundled in net/http (moved to an internal package
// in 1.27 with the same words) or golang.org/x/net/http2.
// TestNetHTTPWordsCanary provokes each refusal before writing under the Go
// that runs it, and internal/reliability's HTTP/2 server the graceful
// GOAWAY, the GOAWAY with an error code before a connection's first stream
// (TestHTTP2ErrorGoAwayBeforeTheFirstStreamIsKnown) and REFUSED_STREAM:
// they fail the day a release rewords one. A stream error that reaches the
// SDK unwrapped is read by its type (h2StreamError). The words of a
// connection found unusable, or closed, between the choice of it and the
// request ("client conn not usable", "could not be established", "cannot
// rewind body", "cannot retry err") come only from races no test provokes
// on demand: TestNetHTTPSourceWordsCanary finds each of them, and every
// other word fateOf matches, among the string literals of the net/http
// that compiles it, so a rewording fails a test there too. A rewording
// fails safe besides: the write is no longer proven unsent, so its outcome
// is reported unknown and it is never sent again.

// sendFate is what a transport error proves about the request.
type sendFate uint8

const (
	// mayHaveActed: nothing is proven. The request may have reached the
	// platform; a write's outcome is unknown.
	mayHaveActed sendFate = iota
	// notProcessedReplay: HTTP proves the server did not process the
	// request, and net/http itself sends such a request again at once on
	// another connection when it can rewind the body: a stream above the
	// last stream id of the server's graceful GOAWAY (a proxy recycling
	// its connection), a stream reset with REFUSED_STREAM, a connection
	// found unusable before the request was written to it.
	notProcessedReplay
	// notProcessed: the server did not process the request, but sending it
	// again at once is not likely to pass: the first stream of a new
	// connection above an error GOAWAY's last stream id, or a connection
	// that closed before its first request. The retry policy may send it
	// again after a wait.
	notProcessed
	// notSentInvalid: net/http refused the request before writing any of
	// it (an invalid header name or value, method, URL, Host or scheme).
	// Sending it again fails the same way.
	notSentInvalid
)

// Failures of net/http's transports, in their words (HTTP/2: setGoAway,
// canRetryError, shouldRetryRequest, in h2_bundle.go, from Go 1.27 in
// internal/http2/transport.go; both protocols: rewindBody in
// transport.go).
const (
	// errClientConnGotGoAway: the stream is above a graceful GOAWAY's last
	// stream id.
	h2GracefulGoAway = "http2: Transport received Server's graceful shutdown GOAWAY"
	// errClientConnUnusable: the connection was closed or going away
	// before the stream was opened.
	h2ConnUnusable = "http2: client conn not usable"
	// errClientConnNotEstablished: the connection closed before its first
	// stream was opened.
	h2ConnNotEstablished = "http2: client conn could not be established"
	// The first stream of a connection above an error GOAWAY's last
	// stream id, followed by the error code.
	h2ErrorGoAwayPrefix = "http2: Transport received GOAWAY from server ErrCode:"
	// errCannotRewind: the transport found its connection unusable
	// (errClientConnUnusable, after which it had closed the body) and
	// could not rewind the body for another. Under the guard (a body is
	// never rewindable, and never replayable in HTTP/1's sense) net/http
	// retries only after errClientConnUnusable or when no cached HTTP/2
	// connection can take the stream, neither of which writes anything.
	cannotRewind = "net/http: cannot rewind body after connection loss"
	// The HTTP/2 transport's wrapping of a failure it would have retried,
	// had it been able to rewind the body; the cause sits between them.
	h2CannotRetryPrefix = "http2: Transport: cannot retry err ["
	h2CannotRetrySuffix = "] after Request.Body was written; define Request.GetBody to avoid this error"
	// A stream error's words: "stream error: stream ID 3; REFUSED_STREAM",
	// with "; " and a cause after it when there is one.
	h2StreamErrorPrefix = "stream error: stream ID "
)

// invalidRequestPrefixes start the errors net/http returns before it
// writes any byte of a request: the checks at the top of
// Transport.roundTrip and of Request.write (HTTP/1), and those of the
// HTTP/2 transport before it writes the HEADERS frame, which it words
// with or without an "http2: " prefix (stripped before the comparison).
// Trailers are left out: the SDK sends none, and HTTP/1 checks their
// names once the request line is already buffered.
var invalidRequestPrefixes = [...]string{
	// Transport.roundTrip.
	"net/http: invalid header ", // field name %q, field value for %q
	"net/http: invalid method ",
	"unsupported protocol scheme ",
	"http: no Host in request URL",
	"http: nil Request.URL",
	"http: nil Request.Header",
	// Request.write, before the request line.
	"http: Request.Write on Request with no Host or URL set",
	"http: invalid Host header",
	"net/http: can't write control character in Request.URL",
	// The HTTP/2 transport, before the HEADERS frame.
	"invalid Host header",
	"invalid :protocol header in non-CONNECT request",
	"invalid request :path ",
	"invalid HTTP header ",
	"invalid Upgrade request header: ",
	"invalid Transfer-Encoding request header: ",
	"invalid Connection request header: ",
	"request header list larger than peer's advertised limit",
	"Request.URL is nil",
	"Request.URI is nil",
}

// h2StreamError has the shape of net/http's HTTP/2 stream error, whose As
// method fills any struct of that shape: a stream error that reaches the
// SDK unwrapped is read by its code, not its words. (One the HTTP/2
// transport wraps in its "cannot retry" text, with %v, is read by words.)
type h2StreamError struct {
	StreamID uint32
	Code     uint32
	Cause    error
}

func (e h2StreamError) Error() string { return "http2 stream error" }

// h2RefusedStream is REFUSED_STREAM's error code (RFC 9113, section 7).
const h2RefusedStream = 0x7

// fateOf returns what err, an attempt's failure, proves about the request:
// a stream refused with REFUSED_STREAM, by its type, else the first link
// of its chain whose words prove something.
func fateOf(err error) sendFate {
	var se h2StreamError
	if err != nil && errors.As(err, &se) && se.Code == h2RefusedStream {
		return notProcessedReplay
	}
	for _, link := range chain(err, nil) {
		if f := linkFate(link.Error()); f != mayHaveActed {
			return f
		}
	}
	return mayHaveActed
}

// chain appends err and every error it wraps, depth first, to links.
func chain(err error, links []error) []error {
	for err != nil && len(links) < 32 {
		links = append(links, err)
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				links = chain(e, links)
			}
			return links
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		default:
			return links
		}
	}
	return links
}

// linkFate judges the words of one link of an error's chain.
func linkFate(s string) sendFate {
	switch {
	case s == h2GracefulGoAway, s == h2ConnUnusable, s == cannotRewind, refusedStream(s):
		return notProcessedReplay
	case s == h2ConnNotEstablished, strings.HasPrefix(s, h2ErrorGoAwayPrefix):
		return notProcessed
	case strings.HasPrefix(s, h2CannotRetryPrefix) && strings.HasSuffix(s, h2CannotRetrySuffix):
		// The HTTP/2 transport wraps only the failures it retries: a
		// graceful GOAWAY, REFUSED_STREAM, and a PROTOCOL_ERROR reset,
		// which does not prove the server did nothing.
		cause := s[len(h2CannotRetryPrefix) : len(s)-len(h2CannotRetrySuffix)]
		if cause == h2GracefulGoAway || refusedStream(cause) {
			return notProcessedReplay
		}
		return mayHaveActed
	}
	s = strings.TrimPrefix(s, "http2: ")
	for _, p := range invalidRequestPrefixes {
		if strings.HasPrefix(s, p) {
			return notSentInvalid
		}
	}
	return mayHaveActed
}

// refusedStream reports whether s is the words of a stream reset with
// REFUSED_STREAM, which the HTTP/2 client only receives from the server
// (RFC 9113, section 8.7: no application processing took place).
func refusedStream(s string) bool {
	rest, ok := strings.CutPrefix(s, h2StreamErrorPrefix)
	if !ok {
		return false
	}
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	if digits == 0 {
		return false
	}
	rest, ok = strings.CutPrefix(rest[digits:], "; REFUSED_STREAM")
	return ok && (rest == "" || strings.HasPrefix(rest, "; "))
}

// MaxReplays bounds how many times in a row the retry policy sends a write
// again at once after failures HTTP proves the server did not process,
// of the kinds net/http would have sent again itself had it been able to
// rewind the body (notProcessedReplay: a graceful GOAWAY below the stream,
// REFUSED_STREAM, a connection found unusable before the request was
// written to it). Each replay is an attempt of its own, which hooks, log
// lines and Metadata see, and none counts against the call's retries. The
// first replay goes out at once, as net/http's own replay does: a
// connection being recycled by a proxy, the common case, is left for a
// fresh one. Later replays wait a little (replayWait), so that writes
// refused together do not crowd onto the next connection together. Past
// the bound the failure is retried as a failed connection is, after the
// policy's backoff wait and within the retry count; it is never an unknown
// outcome.
const MaxReplays = 32

// replayMargin is the least time a replay must have left before the
// caller's deadline, besides its wait and twice the time the refused send
// took, to be sent.
const replayMargin = 20 * time.Millisecond

// replayWait reports whether the write whose attempt failed with in.Err
// is replayed (MaxReplays): only when HTTP proves the server did not
// process it, of the kinds net/http itself replays (notProcessedReplay),
// and fewer than MaxReplays replays ran in a row. It returns the wait
// before replay in.Replays+1: none before the first, then a random wait (in.Jitter) of up to 2ms, 4ms, ...
// and at most 128ms. It reports false when the caller's deadline leaves
// no room for the wait and the send: replayMargin plus twice in.Took, the
// time the refused send took (so that a slow network or a loaded machine,
// where a refusal takes long to come back, keeps its room). The call then
// goes on as after a failed connection, rather than end with its deadline
// in the middle of a send, which would leave the outcome unknown.
func replayWait(in retryInput) (time.Duration, bool) {
	if !in.Write || in.Err == nil || in.Replays >= MaxReplays || fateOf(in.Err) != notProcessedReplay {
		return 0, false
	}
	var wait time.Duration
	if in.Replays > 0 {
		wait = time.Duration(in.Jitter*float64(time.Millisecond<<min(in.Replays, 7))) + 1
	}
	if !in.Deadline.IsZero() && in.Deadline.Sub(in.Now) < wait+replayMargin+2*in.Took {
		return 0, false
	}
	return wait, true
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

// mayHaveSent reports whether the last attempt may have sent the request:
// false only when it is known to have had no connection.
func (s *sendTrace) mayHaveSent() bool { return s == nil || s.state.Load() != waitingConn }

// Whether a write may be sent again, and whether a failed one's outcome is
// unknown: each decided in one function below, from what the attempt or
// the call ended with.

// writeMaySendAgain reports whether a write whose attempt ended with
// status (err nil) or err may be sent again: only where the platform
// provably did not act on it. A 429 or a 503 refused it; a failure that
// proves the request never left, or that HTTP proves the server did not
// process (neverSent). Every other answer may have been acted on (a 500,
// a 502, a 504), and a 2xx whose body was cut was applied.
func writeMaySendAgain(status int, err error) bool {
	if err == nil {
		return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
	}
	var cut *bodyCutError
	if errors.As(err, &cut) {
		return false
	}
	return neverSent(err)
}

// outcomeUnknown reports whether the call, when it is a write, ended in a
// way that does not tell whether the platform acted on it: an answer with
// status outside 2xx (err nil; refused is set when its body names a
// definite refusal, which settles the outcome whatever the status), a 2xx
// whose body could not be used (status and err), or err with no usable
// answer (status 0).
func (c *call) outcomeUnknown(status int, refused bool, err error) bool {
	switch {
	case !c.ep.Write:
		return false
	case err == nil && status >= 300 && status <= 399:
		// The platform documents no redirect: whether it acted before
		// sending one is not known.
		return true
	case err == nil:
		return !refused && status >= 500 && status != http.StatusServiceUnavailable && status != http.StatusNotImplemented
	case status != 0:
		// Accepted, but its response (with the new identifier) is lost.
		return true
	}
	// No answer: unknown unless the request provably never left (the
	// context ended during a wait between attempts, the last attempt never
	// got a connection, or the failure proves it).
	return !isWaitCancel(err) && c.trace.mayHaveSent() && !neverSent(stripURL(err))
}

// neverSent reports whether err proves that the platform did not act on the
// request: it did not leave the process (the connection could not be made:
// refused, unreachable, DNS; net/http refused to write it), or HTTP proves
// the server did not process it (fateOf).
func neverSent(err error) bool {
	var ns *rxtypes.NotSentError
	if errors.As(err, &ns) || fateOf(err) != mayHaveActed {
		return true
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}

// isWaitCancel reports whether err is a bare context error, as
// go-retryablehttp returns when the context ends during a wait between
// attempts (as opposed to one wrapped in *url.Error, which ended an
// attempt in flight). A write waits only after a refusal (429, 503) or a
// failed dial, so its outcome is known: not applied.
func isWaitCancel(err error) bool {
	return err == context.Canceled || err == context.DeadlineExceeded
}
