package reliability_test

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/fullsuite"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// httptest: REFUSED_STREAM and GOAWAY are HTTP/2 frames on a real connection.

// Writes HTTP proves were never processed: a stream the server refused
// (REFUSED_STREAM), a stream above a graceful GOAWAY's last stream id, a
// request net/http refused to write. Their outcome is known (not applied):
// the first two are sent again, the last is not sent at all.

// h2Writes are the writes of the HTTP/2 suites, on client c.
func h2Writes(t *testing.T, c *rxdelivery.Client) []struct {
	name string
	call func(ctx context.Context, opts ...rxdelivery.CallOption) error
} {
	return []struct {
		name string
		call func(ctx context.Context, opts ...rxdelivery.CallOption) error
	}{
		{"Orders.Create", func(ctx context.Context, opts ...rxdelivery.CallOption) error {
			_, err := c.Orders.Create(ctx, createParams(t, "ref-h2"), opts...)
			return err
		}},
		{"Orders.Cancel", func(ctx context.Context, opts ...rxdelivery.CallOption) error {
			return c.Orders.Cancel(ctx, "ord_1", opts...)
		}},
		{"Requests.Cancel", func(ctx context.Context, opts ...rxdelivery.CallOption) error {
			return c.Requests.Cancel(ctx, "req_1", opts...)
		}},
	}
}

// TestHTTP2UnprocessedWritesAreSentAgain: the server refuses each write
// twice (REFUSED_STREAM, or a graceful GOAWAY below its stream) and then
// processes it. With retries turned off, every write succeeds, replayed
// as attempts of its own that hooks and the attempt log see, and the
// server processes it once, over the SDK's pool and a caller's transport,
// with and without an attempt timeout.
func TestHTTP2UnprocessedWritesAreSentAgain(t *testing.T) {
	t.Parallel()
	for _, fault := range []h2Fault{refusedStream, goAwayBelow} {
		for _, own := range []bool{true, false} {
			for _, attempt := range []time.Duration{rxdelivery.DefaultAttemptTimeout, 0} {
				name := h2FaultNames[fault] + "/caller transport"
				if own {
					name = h2FaultNames[fault] + "/SDK pool"
				}
				if attempt == 0 {
					name += "/no attempt timeout"
				}
				t.Run(name, func(t *testing.T) {
					s := newH2Server(t, fault)
					hc := s.Client()
					if own {
						hc = pooledTLSClient(s.Server)
					}
					c, err := rxdelivery.NewClient(testutil.Key, testutil.Secret,
						rxdelivery.WithDeliveryURL(s.URL), rxdelivery.WithOmniURL(s.URL),
						rxdelivery.WithHTTPClient(hc), rxdelivery.WithRetryMax(0),
						rxdelivery.WithAttemptTimeout(attempt))
					require.NoError(t, err)
					t.Cleanup(c.CloseIdleConnections)
					t.Cleanup(hc.CloseIdleConnections)

					for _, w := range h2Writes(t, c) {
						delivered, refused := s.delivered.Load(), s.refused.Load()
						s.refuse.Store(2)
						var md rxdelivery.Metadata
						var hooked []int
						seen := rxdelivery.WithMiddleware(func(next option.AttemptFunc) option.AttemptFunc {
							return func(ctx context.Context, a *option.Attempt) option.AttemptResult {
								hooked = append(hooked, a.Number)
								return next(ctx, a)
							}
						})
						ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
						err := w.call(ctx, rxdelivery.WithMetadata(&md), seen)
						cancel()
						assert.NoError(t, err, w.name)
						assert.Equal(t, int64(2), s.refused.Load()-refused, "%s: refusals", w.name)
						assert.Equal(t, int64(1), s.delivered.Load()-delivered, "%s: deliveries", w.name)
						// Every send is an attempt hooks and the attempt log
						// see, the replays too; none is a retry of the policy.
						assert.Equal(t, 3, md.Attempts, "%s: each replay is an attempt", w.name)
						assert.Equal(t, []int{1, 2, 3}, hooked, "%s: the hooks saw each attempt", w.name)
						if assert.Len(t, md.AttemptLog, 3, w.name) {
							assert.Equal(t, option.AttemptFailed, md.AttemptLog[0].End, w.name)
							assert.Equal(t, option.AttemptFailed, md.AttemptLog[1].End, w.name)
							assert.Equal(t, option.AttemptResponded, md.AttemptLog[2].End, w.name)
						}
					}
				})
			}
		}
	}
}

// TestHTTP2ErrorGoAwayBeforeTheFirstStreamIsKnown: a server that answers
// the first stream of each connection with a GOAWAY carrying an error
// code and a last stream id below it did not process the write. net/http
// words that apart ("... received GOAWAY from server ErrCode:..."), with
// no type to read, so this test is also the canary of those words under
// the Go that runs it: the write is not replayed at once (a server in
// trouble), the retry policy sends it again after its wait, and it is
// processed once; were the words to change, the first refusal would be an
// unknown outcome and the test would fail.
func TestHTTP2ErrorGoAwayBeforeTheFirstStreamIsKnown(t *testing.T) {
	t.Parallel()
	s := newH2Server(t, goAwayErrorBelow)
	hc := pooledTLSClient(s.Server)
	t.Cleanup(hc.CloseIdleConnections)
	c, err := rxdelivery.NewClient(testutil.Key, testutil.Secret,
		rxdelivery.WithDeliveryURL(s.URL), rxdelivery.WithOmniURL(s.URL), rxdelivery.WithHTTPClient(hc),
		rxdelivery.WithRetryMax(1), rxdelivery.WithRetryWaitMin(time.Millisecond))
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	for _, w := range h2Writes(t, c) {
		hc.CloseIdleConnections()
		delivered, refused := s.delivered.Load(), s.refused.Load()
		s.refuse.Store(1)
		var md rxdelivery.Metadata
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := w.call(ctx, rxdelivery.WithMetadata(&md))
		cancel()
		require.NoError(t, err, "%s under %s", w.name, runtime.Version())
		assert.Equal(t, int64(1), s.refused.Load()-refused, "%s: refusals", w.name)
		assert.Equal(t, int64(1), s.delivered.Load()-delivered, "%s: deliveries", w.name)
		assert.Equal(t, 2, md.Attempts, "%s: the retry policy sent it again, not a replay", w.name)
	}
}

// TestHTTP2RefusedWritesAreBounded: a server that refuses every stream.
// The write is sent, then replayed MaxReplays times, each an attempt of
// its own; the retry policy's one retry does the same, and the call then
// fails with a known outcome (not
// applied): nothing loops, nothing is processed.
func TestHTTP2RefusedWritesAreBounded(t *testing.T) {
	for _, fault := range []h2Fault{refusedStream, goAwayBelow} {
		t.Run(h2FaultNames[fault], func(t *testing.T) {
			t.Parallel()
			s := newH2Server(t, fault)
			s.refuse.Store(-1)
			hc := pooledTLSClient(s.Server)
			t.Cleanup(hc.CloseIdleConnections)
			c, err := rxdelivery.NewClient(testutil.Key, testutil.Secret,
				rxdelivery.WithDeliveryURL(s.URL), rxdelivery.WithHTTPClient(hc),
				rxdelivery.WithRetryMax(1), rxdelivery.WithRetryWaitMin(time.Millisecond))
			require.NoError(t, err)
			t.Cleanup(c.CloseIdleConnections)

			var md rxdelivery.Metadata
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err = c.Orders.Create(ctx, createParams(t, "ref-refused"), rxdelivery.WithMetadata(&md))
			require.Error(t, err)
			t.Logf("%v", err)
			assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
			assert.True(t, md.OutcomeKnown)
			assert.Equal(t, 2*(1+core.MaxReplays), md.Attempts, "every send is an attempt")
			assert.Equal(t, int64(2*(1+core.MaxReplays)), s.refused.Load(), "sends of the refused write")
			assert.Zero(t, s.delivered.Load())
		})
	}
}

// TestHTTP2RefusedUntilTheAttemptTimeoutIsKnown: a server that refuses
// every stream, and an attempt timeout shorter than the replays would
// take together. Each replay is an attempt with its own timeout, and the
// call ends with the refusal: the outcome is known, not an attempt
// timeout's unknown.
//
// Not parallel: the replays are timed against a 250ms attempt timeout, and
// other tests' load on the same cores stretches a send beyond the margin
// the guard measured, which turns the last replay into a real unknown.
func TestHTTP2RefusedUntilTheAttemptTimeoutIsKnown(t *testing.T) {
	s := newH2Server(t, refusedStream)
	s.refuse.Store(-1)
	hc := pooledTLSClient(s.Server)
	t.Cleanup(hc.CloseIdleConnections)
	c, err := rxdelivery.NewClient(testutil.Key, testutil.Secret,
		rxdelivery.WithDeliveryURL(s.URL), rxdelivery.WithHTTPClient(hc),
		rxdelivery.WithRetryMax(0), rxdelivery.WithAttemptTimeout(250*time.Millisecond))
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	// Each create takes about 1.6s of replays; the whole suite makes five,
	// the README's test command one.
	creates := 1
	if fullsuite.On() {
		creates = 5
	}
	for i := 0; i < creates; i++ {
		var md rxdelivery.Metadata
		_, err = c.Orders.Create(context.Background(), createParams(t, "ref-refused"), rxdelivery.WithMetadata(&md))
		require.Error(t, err)
		assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
		assert.NotErrorIs(t, err, rxdelivery.ErrAttemptTimeout)
		assert.True(t, md.OutcomeKnown)
	}
	t.Logf("%d sends refused, last error: %v", s.refused.Load(), err)
	assert.Zero(t, s.delivered.Load())
}

// badHeader is a caller's transport that adds a header net/http refuses
// to send (over HTTP/1, or over HTTP/2 only) before passing the request on.
type badHeader struct {
	next        http.RoundTripper
	name, value string
}

func (t badHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header[t.name] = []string{t.value}
	return t.next.RoundTrip(r)
}

// TestRefusedBeforeWritingIsNotSent: a caller's transport adds a header
// net/http refuses to write (a line break or NUL in a value, a space in a
// name; over HTTP/2 a connection-specific header). net/http fails the
// request before dialling or before opening a stream: the server receives
// nothing, and every write fails at once, unretried, with a known
// outcome.
func TestRefusedBeforeWritingIsNotSent(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, header, value string
		h2                  bool
	}{
		{"CR LF in a value", "X-Trace", "a\r\nX-Injected: 1", false},
		{"LF in a value", "X-Trace", "a\nb", false},
		{"NUL in a value", "X-Trace", "a\x00b", false},
		{"space in a name", "X Trace", "a", false},
		{"HTTP/2 Connection header", "Connection", "upgrade", true},
		{"HTTP/2 Upgrade header", "Upgrade", "websocket", true},
		{"HTTP/2 Transfer-Encoding header", "Transfer-Encoding", "gzip", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var hits int64
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hits++
				writeJSON(w, 200, orderBody("ord_1"))
			})
			var srv *httptest.Server
			var tr *http.Transport
			if tc.h2 {
				srv = httptest.NewUnstartedServer(h)
				srv.EnableHTTP2 = true
				// Connections the client dialled and left unused are
				// closed mid-handshake when the test ends.
				srv.Config.ErrorLog = log.New(io.Discard, "", 0)
				srv.StartTLS()
				tr = pooledTLSClient(srv).Transport.(*http.Transport)
			} else {
				srv = httptest.NewServer(h)
				tr = core.NewPooledTransport()
			}
			t.Cleanup(srv.Close)
			t.Cleanup(tr.CloseIdleConnections)
			c, err := rxdelivery.NewClient(testutil.Key, testutil.Secret,
				rxdelivery.WithDeliveryURL(srv.URL), rxdelivery.WithOmniURL(srv.URL),
				rxdelivery.WithRetryWaitMin(time.Millisecond),
				rxdelivery.WithHTTPClient(&http.Client{Transport: badHeader{tr, tc.header, tc.value}}))
			require.NoError(t, err)
			t.Cleanup(c.CloseIdleConnections)
			for _, w := range h2Writes(t, c) {
				var md rxdelivery.Metadata
				err := w.call(context.Background(), rxdelivery.WithMetadata(&md))
				require.Error(t, err, w.name)
				t.Logf("%s: %v", w.name, err)
				assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome, "%s: %v", w.name, err)
				assert.True(t, md.OutcomeKnown, w.name)
				assert.Equal(t, 1, md.Attempts, "%s: not retried", w.name)
			}
			assert.Zero(t, hits, "requests the server received")
		})
	}
}
