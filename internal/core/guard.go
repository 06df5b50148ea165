package core

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// This file holds the layer every attempt passes through last, just above
// the connection pool (the caller's transport or the SDK's own), and the
// redirect policy of the SDK's http.Client.
//
// Below the retry policy, net/http may send a request again by itself: the
// HTTP/2 transport replays a request after a stream reset with
// PROTOCOL_ERROR or REFUSED_STREAM, a graceful GOAWAY whose last stream id
// is below the request's stream, or a connection found unusable, whenever
// it can rewind the body (Request.GetBody) or the request has none; the
// HTTP/1 transport does the same for requests it takes as idempotent (GET,
// or any method with an Idempotency-Key header). A PROTOCOL_ERROR reset, or
// an HTTP/1 connection lost after the request was written, does not prove
// the server did nothing, and a write must reach the platform at most once
// per attempt the retry policy allows: so the guard hands each attempt of a
// write to the pool with a body that cannot be rewound, and sends it again
// itself only where HTTP proves the server did not process it (fateOf,
// unsent.go), as net/http would have.

// callKey carries a call's callInfo in the request context, from Do to the
// redirect policy and the guard.
type callKey struct{}

// callInfo is what the lower layers need to know of a call.
type callInfo struct {
	// write marks a side-effecting call.
	write bool
	// timeout bounds each attempt of a call on the plain path; zero means
	// no bound here (a call with a callState has its attempt transport
	// apply its own).
	timeout time.Duration
}

// withCall returns ctx carrying ci.
func withCall(ctx context.Context, ci *callInfo) context.Context {
	return context.WithValue(ctx, callKey{}, ci)
}

// callOf returns the callInfo of a request's context, or nil.
func callOf(ctx context.Context) *callInfo {
	ci, _ := ctx.Value(callKey{}).(*callInfo)
	return ci
}

// isWrite reports whether ctx belongs to a side-effecting call.
func isWrite(ctx context.Context) bool {
	ci := callOf(ctx)
	return ci != nil && ci.write
}

// checkRedirect returns the CheckRedirect of the SDK's http.Client. A
// redirect is followed only when the caller's own client asks for it with a
// CheckRedirect function of its own, and never for a write: otherwise the
// 3xx answer is returned as it is and becomes an *APIError.
func checkRedirect(caller func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if caller == nil || isWrite(req.Context()) {
			return http.ErrUseLastResponse
		}
		return caller(req, via)
	}
}

// Errors of the guard. They reach the caller as the cause of a
// *TransportError.
var (
	errWriteRedirect = errors.New("a write is never sent to a redirect's target")
	errPlainRedirect = errors.New("refused to follow a redirect to plain http on a host that is not loopback")
)

// guardTransport is the innermost wrapper of the SDK's http.Client: it sees
// every attempt, and every redirect hop a caller's client follows.
type guardTransport struct {
	next http.RoundTripper
}

func (t *guardTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ci := callOf(req.Context())
	write := ci != nil && ci.write
	if req.Response != nil {
		// A redirect hop, followed by the caller's CheckRedirect.
		r, err := redirectHop(req, write)
		if err != nil {
			closeRequestBody(req)
			return nil, err
		}
		req = r
	}
	if ci != nil && ci.timeout > 0 {
		// One copy of the request carries both the attempt's context and,
		// for a write, the body that cannot be rewound.
		return withAttemptTimeout(t.next, req, ci.timeout, write)
	}
	if write {
		r := *req
		return sendWrite(t.next, &r)
	}
	return t.next.RoundTrip(req)
}

// MaxReplays bounds how many times the guard sends one attempt of a write
// again after failures HTTP proves the server did not process (see
// sendWrite). The first replay goes out at once, as net/http's own replay
// does: a connection being recycled by a proxy, the common case, is left
// for a fresh one. Later replays wait a little (replayWait), so that writes
// refused together do not crowd onto the next connection together. Past
// the bound the failure goes to the retry policy, which sends the write
// again, after its backoff wait, as an attempt of its own within the retry
// count; it is never an unknown outcome.
const MaxReplays = 32

// sendWrite sends r, the guard's own copy of a write's attempt, with a
// body that cannot be rewound. When net/http reports a failure that HTTP
// proves the server did not process, of the kinds net/http would have
// sent again itself had it been able to rewind the body
// (notProcessedReplay: a graceful GOAWAY below the stream, REFUSED_STREAM,
// a connection found unusable before the request was written to it),
// sendWrite sends the write again on a fresh copy with a fresh body, at
// most MaxReplays times and while the attempt's context is live. The
// replays are part of the attempt: hooks, log lines and metadata count
// one.
func sendWrite(next http.RoundTripper, r *http.Request) (*http.Response, error) {
	getBody := r.GetBody
	bodyless := r.Body == nil || r.Body == http.NoBody
	canReplay := bodyless || getBody != nil
	makeUnrewindable(r)
	for replays := 0; ; replays++ {
		resp, err := next.RoundTrip(r)
		if err == nil || !canReplay || replays == MaxReplays || fateOf(err) != notProcessedReplay ||
			!replayWait(r.Context(), replays) {
			return resp, err
		}
		again := *r
		again.Body = nil
		if !bodyless {
			body, gerr := getBody()
			if gerr != nil {
				return nil, err
			}
			again.Body = body
		}
		makeUnrewindable(&again)
		r = &again
	}
}

// replayMargin is the time a replay must have left before the attempt's
// deadline, besides its wait, to be sent.
const replayMargin = 20 * time.Millisecond

// replayWait waits before replay n+1 of an attempt: not at all before the
// first, then a random wait of up to 2ms, 4ms, ... and at most 128ms. It
// returns false, without waiting, when ctx has ended or its deadline leaves
// no room for the wait and the send (replayMargin): the attempt then ends
// with the failure that proved the write unprocessed, rather than with its
// deadline, which would leave the outcome unknown. It returns false too
// when ctx ends during the wait.
func replayWait(ctx context.Context, n int) bool {
	if ctx.Err() != nil {
		return false
	}
	var wait time.Duration
	if n > 0 {
		wait = rand.N(time.Millisecond<<min(n, 7)) + 1
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait+replayMargin {
		return false
	}
	if wait == 0 {
		return true
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// redirectHop checks one redirect hop: a write is refused, so is plain http
// to a host that is not loopback, and the credentials and the Referer are
// removed when the hop leaves the origin (scheme, host and port) of the
// call's first request.
func redirectHop(req *http.Request, write bool) (*http.Request, error) {
	if write {
		return nil, errWriteRedirect
	}
	if req.URL.Scheme != "https" && !isLoopback(req.URL.Hostname()) {
		return nil, errPlainRedirect
	}
	first := req
	for first.Response != nil && first.Response.Request != nil {
		first = first.Response.Request
	}
	if sameOrigin(req.URL, first.URL) {
		return req, nil
	}
	// Leaving the origin: no credentials, and no Referer, which net/http
	// sets to the previous URL, query string (patient data) included.
	r := *req
	r.Header = req.Header.Clone()
	r.Header.Del("Authorization")
	r.Header.Del("Referer")
	return &r, nil
}

// sameOrigin reports whether a and b have the same scheme, host and port
// (the default port of the scheme when none is written).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) &&
		portOf(a) == portOf(b)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}

// makeUnrewindable makes r, a copy of a write's request, one net/http cannot
// send a second time: its body has no GetBody, and a request without a
// body (a cancel) gets an empty one, since net/http replays a request
// without a body as freely as one whose body it can rewind. Reading an
// empty body sends nothing: over HTTP/1 the request goes out without a
// body, over HTTP/2 the stream ends with an empty frame.
//
// go-retryablehttp builds each of its own attempts from the call's encoded
// body, so the retry policy can still send a write again where it allows.
func makeUnrewindable(r *http.Request) {
	r.GetBody = nil
	if r.Body == nil || r.Body == http.NoBody {
		r.Body = emptyBody{}
		r.ContentLength = 0
	}
}

// emptyBody is a body with nothing in it that is not http.NoBody.
type emptyBody struct{}

func (emptyBody) Read([]byte) (int, error) { return 0, io.EOF }
func (emptyBody) Close() error             { return nil }

// closeRequestBody closes a request body the guard does not send, as a
// RoundTripper must.
func closeRequestBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}
