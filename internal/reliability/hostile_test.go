package reliability_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
)

// httptest: connections closed mid-response, HTTP/2 resets and TLS pools need real sockets.

// The hostile-server suite: the client against servers that commit a write
// and then misbehave at a layer below the retry policy (HTTP/2 stream
// resets and GOAWAY, HTTP/1 connections closed after a request), redirect
// to other schemes, hosts and ports, echo what they were sent, answer what
// the endpoint does not promise, or never end.

// pooledTLSClient returns an http.Client on the SDK's own pool that trusts
// the test server's certificate.
func pooledTLSClient(s *httptest.Server) *http.Client {
	tr := core.NewPooledTransport()
	tr.TLSClientConfig = s.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	return &http.Client{Transport: tr}
}

// TestHTTP2WritesAreSentOnce commits each write and then resets its stream
// (PROTOCOL_ERROR), which net/http's HTTP/2 transport would answer by
// sending the request again on a new stream, or sends a GOAWAY naming the
// write's stream and closes the connection. Neither proves the server did
// nothing: every write reaches the server once and fails with an unknown
// outcome, even with retries allowed, over the SDK's pool and over a
// caller's transport.
func TestHTTP2WritesAreSentOnce(t *testing.T) {
	t.Parallel()
	// The guard makes a write's attempt unrewindable on both of its paths:
	// under an attempt timeout (the default) and without one.
	for _, fault := range []h2Fault{resetProtocol, goAwayNamingStream} {
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
						rxdelivery.WithHTTPClient(hc), rxdelivery.WithRetryWaitMin(time.Millisecond),
						rxdelivery.WithAttemptTimeout(attempt))
					require.NoError(t, err)
					t.Cleanup(c.CloseIdleConnections)
					t.Cleanup(hc.CloseIdleConnections)

					writes := []struct {
						name string
						call func(ctx context.Context) error
					}{
						{"Orders.Create", func(ctx context.Context) error {
							_, err := c.Orders.Create(ctx, createParams(t, "ref-h2"))
							return err
						}},
						{"Orders.Cancel", func(ctx context.Context) error { return c.Orders.Cancel(ctx, "ord_1") }},
						{"Requests.Cancel", func(ctx context.Context) error { return c.Requests.Cancel(ctx, "req_1") }},
					}
					for _, w := range writes {
						before := s.delivered.Load()
						ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
						err := w.call(ctx)
						cancel()
						got := s.delivered.Load() - before
						t.Logf("%s: deliveries %d", w.name, got)
						assert.Equal(t, int64(1), got, "%s: deliveries of one write", w.name)
						require.Error(t, err)
						assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome, "%s: %v", w.name, err)
						assert.NotErrorIs(t, err, context.DeadlineExceeded, "%s: the caller's context did not end", w.name)
					}
				})
			}
		}
	}
}

// TestHTTP2ReadsStillRecover checks that the guard leaves reads alone: a
// GET whose stream is reset is sent again, by net/http or by the retry
// policy, and the server sees it more than once.
func TestHTTP2ReadsStillRecover(t *testing.T) {
	t.Parallel()
	s := newH2Server(t, resetProtocol)
	c, err := rxdelivery.NewClient(testutil.Key, testutil.Secret,
		rxdelivery.WithDeliveryURL(s.URL), rxdelivery.WithHTTPClient(pooledTLSClient(s.Server)),
		rxdelivery.WithRetryMax(1), rxdelivery.WithRetryWaitMin(time.Millisecond))
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = c.Orders.Get(ctx, "ord_1")
	require.Error(t, err)
	assert.Greater(t, s.delivered.Load(), int64(1))
}

// idempotencyKey is a caller's transport that marks every request with an
// Idempotency-Key header, which makes net/http's HTTP/1 transport take a
// POST as safe to send again on a fresh connection.
type idempotencyKey struct{ next http.RoundTripper }

func (t idempotencyKey) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Idempotency-Key", "caller-key")
	return t.next.RoundTrip(r)
}

// TestHTTP1IdempotencyKeyDoesNotReplayWrites: a keep-alive server that
// receives a create on a reused connection, commits it and closes the
// connection without answering. net/http sends a request again in that
// case when it can rewind the body and takes the request as idempotent.
func TestHTTP1IdempotencyKeyDoesNotReplayWrites(t *testing.T) {
	t.Parallel()
	var creates atomic.Int64
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int64) {
		if r.Method == http.MethodGet {
			writeJSON(w, 200, orderBody("ord_1"))
			return
		}
		creates.Add(1)
		hijack(t, w, r, "")
	})
	tr := core.NewPooledTransport()
	t.Cleanup(tr.CloseIdleConnections)
	c := newClient(t, s, rxdelivery.WithHTTPClient(&http.Client{Transport: idempotencyKey{tr}}))
	ctx := context.Background()
	// Warm a connection so that the create goes out on a reused one.
	_, err := c.Orders.Get(ctx, "ord_1")
	require.NoError(t, err)
	_, err = c.Orders.Create(ctx, createParams(t, "ref-h1"))
	require.Error(t, err)
	assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.Equal(t, int64(1), creates.Load(), "deliveries of one create")
}

// redirector answers every request with status and a Location of target,
// and counts what reaches it; target counts what follows the redirect and
// records whether the credentials came with it.
type redirectTarget struct {
	*httptest.Server
	hits, withAuth, withReferer atomic.Int64
	methods                     chan string
}

func newRedirectTarget(t *testing.T, tlsOn bool) *redirectTarget {
	rt := &redirectTarget{methods: make(chan string, 16)}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rt.hits.Add(1)
		if r.Header.Get("Authorization") != "" {
			rt.withAuth.Add(1)
		}
		if r.Header.Get("Referer") != "" {
			rt.withReferer.Add(1)
		}
		select {
		case rt.methods <- r.Method:
		default:
		}
		writeJSON(w, 200, orderBody("ord_redirected"))
	})
	if tlsOn {
		rt.Server = httptest.NewTLSServer(h)
	} else {
		rt.Server = httptest.NewServer(h)
	}
	t.Cleanup(rt.Close)
	return rt
}

var redirectStatuses = []int{
	http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
	http.StatusTemporaryRedirect, http.StatusPermanentRedirect,
}

// TestRedirectsAreNotFollowed: every redirect status, to another port
// (over plain http) and to another scheme, for every kind of call, with
// the SDK's own client: nothing follows, and the 3xx is an *APIError with
// the Location's scheme and host only. A write's 3xx has an unknown
// outcome.
func TestRedirectsAreNotFollowed(t *testing.T) {
	t.Parallel()
	for _, tlsTarget := range []bool{false, true} {
		target := newRedirectTarget(t, tlsTarget)
		for _, status := range redirectStatuses {
			s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
				drainRequest(r)
				w.Header().Set("Location", target.URL+"/api/v1/orders?dob=1947-11-23")
				w.WriteHeader(status)
			})
			c := newClient(t, s)
			ctx := context.Background()
			calls := map[string]struct {
				write bool
				call  func() error
			}{
				"create": {true, func() error { _, err := c.Orders.Create(ctx, createParams(t, "ref-r")); return err }},
				"cancel": {true, func() error { return c.Orders.Cancel(ctx, "ord_1") }},
				"get":    {false, func() error { _, err := c.Orders.Get(ctx, "ord_1"); return err }},
			}
			for name, tc := range calls {
				err := tc.call()
				var apiErr *rxdelivery.APIError
				require.ErrorAs(t, err, &apiErr, "%d %s", status, name)
				assert.Equal(t, status, apiErr.StatusCode)
				host := strings.TrimPrefix(strings.TrimPrefix(target.URL, "http://"), "https://")
				assert.Equal(t, target.URL, apiErr.Location)
				assert.Contains(t, err.Error(), host)
				assert.NotContains(t, err.Error(), "1947-11-23")
				assert.NotContains(t, apiErr.Header.Get("Location"), "dob")
				assert.Equal(t, tc.write, errors.Is(err, rxdelivery.ErrUnknownOutcome), "%d %s: %v", status, name, err)
			}
		}
		assert.Zero(t, target.hits.Load(), "requests that followed a redirect")
	}
}

// TestCallerRedirectPolicy: a caller's client whose CheckRedirect follows
// redirects gets reads followed, but a write is never sent to the target,
// the credentials never leave the base URL's origin (another port, another
// scheme), and plain http off loopback is refused.
func TestCallerRedirectPolicy(t *testing.T) {
	t.Parallel()
	follow := func(*http.Request, []*http.Request) error { return nil }
	plain := newRedirectTarget(t, false)
	secure := newRedirectTarget(t, true)
	secureTr := secure.Client().Transport.(*http.Transport).Clone()
	for _, target := range []*redirectTarget{plain, secure} {
		for _, status := range redirectStatuses {
			s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
				drainRequest(r)
				w.Header().Set("Location", target.URL+"/api/v1/orders/ord_1")
				w.WriteHeader(status)
			})
			c := newClient(t, s, rxdelivery.WithHTTPClient(&http.Client{Transport: secureTr, CheckRedirect: follow}))
			ctx := context.Background()
			before := target.hits.Load()
			_, err := c.Orders.Create(ctx, createParams(t, "ref-cr"))
			assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome, "%d create", status)
			err = c.Orders.Cancel(ctx, "ord_1")
			assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome, "%d cancel", status)
			assert.Equal(t, before, target.hits.Load(), "%d: a write reached the redirect's target", status)

			o, err := c.Orders.Get(ctx, "ord_1")
			require.NoError(t, err, "%d get", status)
			assert.Equal(t, "ord_redirected", o.ID)
			assert.Equal(t, http.MethodGet, <-target.methods)
			// A query (patient data in a pharmacy search) never reaches the
			// other origin in a Referer.
			_, _ = c.Pharmacies.Search(ctx, &pharmacies.SearchParams{OriginAddress: e2eStreet + ", " + e2eCity})
			<-target.methods
		}
		assert.Zero(t, target.withAuth.Load(), "credentials sent to another origin")
		assert.Zero(t, target.withReferer.Load(), "a Referer sent to another origin")
	}
	secureTr.CloseIdleConnections()

	// Plain http to a host that is not loopback is refused before any
	// connection: the name below never resolves.
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
		w.Header().Set("Location", "http://pharmacy.invalid/api/v1/orders/ord_1")
		w.WriteHeader(http.StatusFound)
	})
	c := newClient(t, s, rxdelivery.WithHTTPClient(&http.Client{CheckRedirect: follow}), rxdelivery.WithRetryMax(0))
	_, err := c.Orders.Get(context.Background(), "ord_1")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "plain http")
}

// TestRedirectStripsCredentialsOnSameHostOtherScheme: an https base URL
// redirected to plain http on the same (loopback) host, or to another port
// of it, keeps the read but not the credentials.
func TestRedirectSameHostOtherPortOrScheme(t *testing.T) {
	t.Parallel()
	target := newRedirectTarget(t, false) // plain http, same host, other port
	base := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", target.URL+"/api/v1/orders/ord_1")
		w.WriteHeader(http.StatusFound)
	}))
	t.Cleanup(base.Close)
	tr := base.Client().Transport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	c, err := rxdelivery.NewClient(testutil.Key, testutil.Secret, rxdelivery.WithDeliveryURL(base.URL),
		rxdelivery.WithHTTPClient(&http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return nil }}))
	require.NoError(t, err)
	_, err = c.Orders.Get(context.Background(), "ord_1")
	require.NoError(t, err)
	assert.Equal(t, int64(1), target.hits.Load())
	assert.Zero(t, target.withAuth.Load(), "credentials sent over plain http to another port")
}

// stalled answers nothing until the client goes away, counting attempts.
func stalled(s **server) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, _ int64) {
		drainRequest(r)
		(*s).wait(r)
	}
}

// returnsWithin runs call and fails the test when it has not returned
// within limit: a wide bound, to tell "bounded by the attempt timeout"
// from "held until the server lets go".
func returnsWithin(t *testing.T, limit time.Duration, call func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- call() }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		t.Fatalf("the call did not return within %s", limit)
		return nil
	}
}

// TestAttemptTimeouts: with context.Background(), a server that never
// answers holds no call: each attempt ends at the attempt timeout, a read
// is retried, a write is sent once with an unknown outcome, and the error
// matches ErrAttemptTimeout, not context.DeadlineExceeded. The same holds
// for the Timeout of a caller's http.Client and the ResponseHeaderTimeout
// of a caller's Transport, and for an answer whose body stalls.
func TestAttemptTimeouts(t *testing.T) {
	t.Parallel()
	// Long enough that a stalled attempt reaches the server before it times
	// out even on a loaded machine (each attempt is counted when it arrives).
	const attempt = 500 * time.Millisecond
	type setup struct {
		name string
		opts func(t *testing.T) []rxdelivery.Option // transports close when the subtest t ends
	}
	headerTimeout := func(t *testing.T) []rxdelivery.Option {
		tr := core.NewPooledTransport()
		tr.ResponseHeaderTimeout = attempt
		t.Cleanup(tr.CloseIdleConnections)
		return []rxdelivery.Option{rxdelivery.WithAttemptTimeout(0), rxdelivery.WithHTTPClient(&http.Client{Transport: tr})}
	}
	setups := []setup{
		{"WithAttemptTimeout", func(*testing.T) []rxdelivery.Option {
			return []rxdelivery.Option{rxdelivery.WithAttemptTimeout(attempt)}
		}},
		{"http.Client.Timeout", func(t *testing.T) []rxdelivery.Option {
			tr := core.NewPooledTransport()
			t.Cleanup(tr.CloseIdleConnections)
			return []rxdelivery.Option{rxdelivery.WithAttemptTimeout(0), rxdelivery.WithHTTPClient(&http.Client{Transport: tr, Timeout: attempt})}
		}},
		{"Transport.ResponseHeaderTimeout", headerTimeout},
	}
	// The subtests wait on stalled servers, not on the CPU: they run
	// side by side.
	for _, su := range setups {
		t.Run(su.name, func(t *testing.T) {
			t.Parallel()
			var s *server
			s = newServer(t, stalled(&s))
			c := newClient(t, s, append(su.opts(t), rxdelivery.WithRetryMax(2))...)
			ctx := context.Background()

			var md rxdelivery.Metadata
			err := returnsWithin(t, 20*time.Second, func() error {
				_, err := c.Orders.Get(ctx, "ord_1", rxdelivery.WithMetadata(&md))
				return err
			})
			require.Error(t, err)
			assert.ErrorIs(t, err, rxdelivery.ErrAttemptTimeout)
			assert.NotErrorIs(t, err, context.DeadlineExceeded)
			assert.Equal(t, 3, md.Attempts, "a read is retried after an attempt timeout")
			// On a loaded machine an attempt bounded by http.Client.Timeout
			// may time out in its TLS handshake, before the server counts it.
			assert.LessOrEqual(t, s.attempts.Load(), int64(3))
			assert.GreaterOrEqual(t, s.attempts.Load(), int64(1))

			before := s.attempts.Load()
			err = returnsWithin(t, 20*time.Second, func() error {
				_, err := c.Orders.Create(ctx, createParams(t, "ref-to"))
				return err
			})
			assert.ErrorIs(t, err, rxdelivery.ErrAttemptTimeout)
			assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
			assert.NotErrorIs(t, err, context.DeadlineExceeded)
			assert.Equal(t, int64(1), s.attempts.Load()-before, "deliveries of one create")
		})
	}

	t.Run("body stalls", func(t *testing.T) {
		t.Parallel()
		var s *server
		s = newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
			drainRequest(r)
			w.Header().Set("Content-Length", "1000")
			w.WriteHeader(200)
			_, _ = w.Write([]byte(`{"order":{`))
			w.(http.Flusher).Flush()
			s.wait(r)
		})
		c := newClient(t, s, rxdelivery.WithAttemptTimeout(attempt), rxdelivery.WithRetryMax(1))
		err := returnsWithin(t, 20*time.Second, func() error { _, err := c.Orders.Get(context.Background(), "ord_1"); return err })
		var de *rxdelivery.DecodeError
		require.ErrorAs(t, err, &de)
		assert.True(t, de.Incomplete)
		assert.ErrorIs(t, err, rxdelivery.ErrAttemptTimeout)
		assert.Equal(t, int64(2), s.attempts.Load())
	})

	t.Run("caller's deadline", func(t *testing.T) {
		t.Parallel()
		var s *server
		s = newServer(t, stalled(&s))
		c := newClient(t, s, rxdelivery.WithAttemptTimeout(time.Hour))
		ctx, cancel := context.WithTimeout(context.Background(), attempt)
		defer cancel()
		_, err := c.Orders.Get(ctx, "ord_1")
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.NotErrorIs(t, err, rxdelivery.ErrAttemptTimeout)
		assert.Equal(t, int64(1), s.attempts.Load())
	})
}

// TestDefaultAttemptTimeout pins the documented default.
func TestDefaultAttemptTimeout(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 30*time.Second, rxdelivery.DefaultAttemptTimeout)
}
