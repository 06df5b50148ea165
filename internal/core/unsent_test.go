package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestFateOf holds fateOf to the words of net/http from Go 1.23 to 1.27,
// through the wrappers an error passes on its way up (*url.Error, %w,
// errors.Join), and to the failures that prove nothing, among them words
// a server chooses.
func TestFateOf(t *testing.T) {
	t.Parallel()
	const cannotRetry = "http2: Transport: cannot retry err [%s] after Request.Body was written; define Request.GetBody to avoid this error"
	cases := []struct {
		err  string
		want sendFate
	}{
		// The HTTP/2 transport's replayable failures, as it returns them
		// for a body it cannot rewind, and bare.
		{fmt.Sprintf(cannotRetry, "http2: Transport received Server's graceful shutdown GOAWAY"), notProcessedReplay},
		{fmt.Sprintf(cannotRetry, "stream error: stream ID 3; REFUSED_STREAM; received from peer"), notProcessedReplay},
		{fmt.Sprintf(cannotRetry, "stream error: stream ID 1; REFUSED_STREAM"), notProcessedReplay},
		{"http2: Transport received Server's graceful shutdown GOAWAY", notProcessedReplay},
		{"stream error: stream ID 5; REFUSED_STREAM; received from peer", notProcessedReplay},
		{"http2: client conn not usable", notProcessedReplay},
		{"net/http: cannot rewind body after connection loss", notProcessedReplay},
		// Not processed, not replayed at once.
		{"http2: client conn could not be established", notProcessed},
		{"http2: Transport received GOAWAY from server ErrCode:ENHANCE_YOUR_CALM", notProcessed},
		// Refused before writing: HTTP/1 and the HTTP/2 transport of each
		// version.
		{`net/http: invalid header field value for "User-Agent"`, notSentInvalid},
		{`net/http: invalid header field name "X Y"`, notSentInvalid},
		{`net/http: invalid method "GET POST"`, notSentInvalid},
		{`unsupported protocol scheme "ftp"`, notSentInvalid},
		{`unsupported protocol scheme ""`, notSentInvalid},
		{"http: no Host in request URL", notSentInvalid},
		{"http: nil Request.URL", notSentInvalid},
		{"http: nil Request.Header", notSentInvalid},
		{"http: Request.Write on Request with no Host or URL set", notSentInvalid},
		{"http: invalid Host header", notSentInvalid},
		{"net/http: can't write control character in Request.URL", notSentInvalid},
		{`http2: invalid Connection request header: ["upgrade"]`, notSentInvalid},
		{`http2: invalid Upgrade request header: ["websocket"]`, notSentInvalid},
		{`http2: invalid Transfer-Encoding request header: ["gzip"]`, notSentInvalid},
		{`http2: invalid HTTP header field value for "X"`, notSentInvalid},
		{`invalid HTTP header field name "X Y"`, notSentInvalid},
		{"http2: invalid Host header", notSentInvalid},
		{`invalid request :path "x"`, notSentInvalid},
		{"http2: invalid :protocol header in non-CONNECT request", notSentInvalid},
		{"http2: request header list larger than peer's advertised limit", notSentInvalid},
		{"http2: Request.URI is nil", notSentInvalid},
		{"http2: Request.URL is nil", notSentInvalid},
		// Nothing proven: the request may have been processed.
		{fmt.Sprintf(cannotRetry, "stream error: stream ID 3; PROTOCOL_ERROR; received from peer"), mayHaveActed},
		{"stream error: stream ID 3; PROTOCOL_ERROR; received from peer", mayHaveActed},
		{"stream error: stream ID 3; INTERNAL_ERROR; received from peer", mayHaveActed},
		{`http2: server sent GOAWAY and closed the connection; LastStreamID=1, ErrCode=NO_ERROR, debug=""`, mayHaveActed},
		{"http2: client connection lost", mayHaveActed},
		{"http2: client conn is closed", mayHaveActed},
		{"net/http: HTTP/1.x transport connection broken: unexpected EOF", mayHaveActed},
		{"http: server closed idle connection", mayHaveActed},
		{"unexpected EOF", mayHaveActed},
		{"net/http: timeout awaiting response headers", mayHaveActed},
		{`http2: Transport: cannot retry err [] after Request.Body was written; define Request.GetBody to avoid this error`, mayHaveActed},
		{"stream error: stream ID ; REFUSED_STREAM", mayHaveActed},
		{"stream error: stream ID 3; REFUSED_STREAMING", mayHaveActed},
		// Words a server chooses never prove anything: a GOAWAY's debug
		// data, a malformed status line, a response header it sent.
		{`http2: server sent GOAWAY and closed the connection; LastStreamID=1, ErrCode=NO_ERROR, debug="http2: Transport received Server's graceful shutdown GOAWAY"`, mayHaveActed},
		{`http2: server sent GOAWAY and closed the connection; LastStreamID=1, ErrCode=NO_ERROR, debug="stream error: stream ID 3; REFUSED_STREAM"`, mayHaveActed},
		{`net/http: HTTP/1.x transport connection broken: malformed HTTP response "net/http: invalid header field value"`, mayHaveActed},
		{`malformed HTTP response "http2: client conn not usable"`, mayHaveActed},
		{`invalid header field value for "X"`, mayHaveActed}, // a response header (HPACK)
		{`http2: invalid header field name "X Y"`, mayHaveActed},
	}
	for _, tc := range cases {
		err := errors.New(tc.err)
		assert.Equal(t, tc.want, fateOf(err), "%s", tc.err)
		wrapped := []error{
			&url.Error{Op: "Post", URL: "https://example.test/x", Err: err},
			fmt.Errorf("attempt: %w", err),
			errors.Join(io.EOF, err),
			&url.Error{Op: "Post", URL: "https://example.test/x", Err: fmt.Errorf("x: %w", err)},
		}
		for _, w := range wrapped {
			assert.Equal(t, tc.want, fateOf(w), "%s in %T", tc.err, w)
		}
	}
	assert.Equal(t, mayHaveActed, fateOf(nil))
	assert.Equal(t, mayHaveActed, fateOf(context.DeadlineExceeded))
}

// TestNeverSentAndRetry: the retry policy retries a write HTTP proves was
// not processed, never one net/http refused to write, and reports both as
// never sent.
func TestNeverSentAndRetry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	write, safe := testCall(true), testCall(false)
	goAway := &url.Error{Op: "Post", URL: "https://x/y", Err: errors.New("http2: Transport: cannot retry err [http2: Transport received Server's graceful shutdown GOAWAY] after Request.Body was written; define Request.GetBody to avoid this error")}
	invalid := &url.Error{Op: "Post", URL: "https://x/y", Err: errors.New(`net/http: invalid header field value for "X"`)}
	protocol := &url.Error{Op: "Post", URL: "https://x/y", Err: errors.New("http2: Transport: cannot retry err [stream error: stream ID 3; PROTOCOL_ERROR; received from peer] after Request.Body was written; define Request.GetBody to avoid this error")}
	for _, tc := range []struct {
		err                error
		never, write, safe bool
	}{
		{goAway, true, true, true},
		{invalid, true, false, false},
		{protocol, false, false, true},
	} {
		assert.Equal(t, tc.never, neverSent(tc.err), "%v", tc.err)
		got, _ := write.checkRetry(ctx, nil, tc.err)
		assert.Equal(t, tc.write, got, "write: %v", tc.err)
		got, _ = safe.checkRetry(ctx, nil, tc.err)
		assert.Equal(t, tc.safe, got, "safe: %v", tc.err)
	}
}

// TestReplayWaitKeepsRoomForTheSend: a replay goes only while the
// caller's deadline leaves room for its wait and for a send as slow as
// the refused one was, so that a slow refusal ends the replays with its
// proof of non-processing rather than with the deadline in the middle of
// a send. The first replay goes at once, later ones after a short random
// wait.
func TestReplayWaitKeepsRoomForTheSend(t *testing.T) {
	t.Parallel()
	now := time.Now()
	refused := errors.New(h2GracefulGoAway)
	_, ok := replayWait(retryInput{Write: false, Err: refused, Now: now})
	assert.False(t, ok, "a read is not replayed: the policy retries it")
	_, ok = replayWait(retryInput{Write: true, Err: errors.New("connection reset by peer"), Now: now})
	assert.False(t, ok, "a failure that proves nothing is not replayed")
	room := func(deadline time.Duration, replays int, took time.Duration) bool {
		in := retryInput{Write: true, Err: refused, Now: now, Replays: replays, Took: took, Jitter: 0.5}
		if deadline > 0 {
			in.Deadline = now.Add(deadline)
		}
		_, ok := replayWait(in)
		return ok
	}
	assert.True(t, room(time.Hour, 0, time.Minute), "an hour leaves room for a send of a minute")
	assert.True(t, room(500*time.Millisecond, 0, time.Millisecond), "a fast refusal: room")
	assert.False(t, room(500*time.Millisecond, 0, 300*time.Millisecond), "a refusal that took 300 ms: no room for another in 500 ms")
	assert.True(t, room(0, 3, time.Hour), "no deadline: always room")

	first, _ := replayWait(retryInput{Write: true, Err: refused, Now: now, Jitter: 0.9})
	assert.Zero(t, first, "the first replay goes at once")
	for n := 1; n < 40; n++ {
		w, ok := replayWait(retryInput{Write: true, Err: refused, Now: now, Replays: n, Jitter: 0.999})
		assert.Equal(t, n < MaxReplays, ok, "replay %d", n)
		if !ok {
			continue
		}
		assert.LessOrEqual(t, w, time.Millisecond<<min(n, 7)+1, "replay %d", n)
		assert.Positive(t, w, "replay %d", n)
	}
}
