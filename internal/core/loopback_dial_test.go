package core

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// httptest: the loopback rule's dials, the caller's Proxy and Dial, and the address a proxied connection was made for are only seen on real loopback connections.

// TestLoopbackNameDialsIPv4ThenIPv6: a loopback name is dialled as
// 127.0.0.1 and then ::1, never as the name, so a server listening on
// [::1] only is reached under "localhost" whatever the hosts file says.
func TestLoopbackNameDialsIPv4ThenIPv6(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skip("no IPv6 loopback")
	}
	var hits atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	defer srv.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())

	d := &recordingDialer{}
	tr := &http.Transport{DialContext: d.dial}
	defer tr.CloseIdleConnections()
	s := NewShared(Config{HTTPClient: &http.Client{Transport: tr}, Defaults: retries(0)})
	defer s.CloseIdleConnections()
	b, err := s.NewBackend(rxtypes.InterfaceOmni, "http://Pharmacy.LocalHost.:"+port, Credentials{Key: "k", Secret: "s"}, nil)
	require.NoError(t, err)
	_, err = b.Do(context.Background(), Call{Method: http.MethodGet, Path: "/x"}, nil)
	require.NoError(t, err)
	assert.Equal(t, int64(1), hits.Load())
	assert.Equal(t, []string{"127.0.0.1:" + port, "[::1]:" + port}, d.addrs())
}

// TestHTTPSKeepsTheCallerTransport: an https request goes to the caller's
// transport itself, proxy function and all.
func TestHTTPSKeepsTheCallerTransport(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	var proxyAsked atomic.Int64
	tr := srv.Client().Transport.(*http.Transport).Clone()
	tr.Proxy = func(*http.Request) (*url.URL, error) { proxyAsked.Add(1); return nil, nil }
	defer tr.CloseIdleConnections()
	s := NewShared(Config{HTTPClient: &http.Client{Transport: tr}})
	defer s.CloseIdleConnections()
	b, err := s.NewBackend(rxtypes.InterfaceOmni, srv.URL, Credentials{Key: "k", Secret: "s"}, nil)
	require.NoError(t, err)
	_, err = b.Do(context.Background(), Call{Method: http.MethodGet, Path: "/x"}, nil)
	require.NoError(t, err)
	assert.Equal(t, int64(1), proxyAsked.Load(), "the caller's Proxy decides for https")
	assert.Nil(t, s.loopback.plain.Load(), "no plain-http copy for an https client")
}

// TestOpaqueRoundTripperIsWatched: a RoundTripper that is not an
// *http.Transport gets a plain-http request as it is; one whose
// connection was made for another address (a proxy) is refused before
// anything is written on it, and one that reports no connection (a mock)
// is trusted.
func TestOpaqueRoundTripperIsWatched(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	srvURL, _ := url.Parse(srv.URL)
	// The "proxy" is the server itself: only the address the connection
	// was asked for tells it apart.
	tr := &http.Transport{Proxy: http.ProxyURL(srvURL)}
	defer tr.CloseIdleConnections()
	lt := newLoopbackTransport(opaqueRT{tr})
	req, _ := http.NewRequest(http.MethodGet, "http://pharmacy.localhost:1/x", nil)
	_, err := lt.RoundTrip(req)
	var ns *rxtypes.NotSentError
	require.ErrorAs(t, err, &ns)
	assert.Zero(t, hits.Load(), "requests written through the proxy")

	direct := &http.Transport{}
	defer direct.CloseIdleConnections()
	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/x", nil)
	resp, err := newLoopbackTransport(opaqueRT{direct}).RoundTrip(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, int64(1), hits.Load())

	mocked := newLoopbackTransport(roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 204, Body: http.NoBody, Request: r}, nil
	}))
	req, _ = http.NewRequest(http.MethodGet, "http://localhost/x", nil)
	resp, err = mocked.RoundTrip(req)
	require.NoError(t, err)
	assert.Equal(t, 204, resp.StatusCode)
}

type opaqueRT struct{ next http.RoundTripper }

func (o opaqueRT) RoundTrip(r *http.Request) (*http.Response, error) { return o.next.RoundTrip(r) }

// TestCallerDialIsKept: a caller's transport that dials with the
// deprecated Dial field keeps it for plain http, asked for a loopback
// address only.
func TestCallerDialIsKept(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	d := &recordingDialer{}
	tr := &http.Transport{}
	//lint:ignore SA1019 the field this test is about.
	tr.Dial = func(network, addr string) (net.Conn, error) { return d.dial(context.Background(), network, addr) }
	defer tr.CloseIdleConnections()
	lt := newLoopbackTransport(tr)
	defer lt.CloseIdleConnections()
	req, _ := http.NewRequest(http.MethodGet, "http://SANDBOX.LOCALHOST:"+port+"/x", nil)
	resp, err := lt.RoundTrip(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, []string{"127.0.0.1:" + port}, d.addrs())
}
