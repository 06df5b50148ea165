package core

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// httptest: net/http's own transports must refuse each request, the HTTP/2 ones on a TLS connection that negotiated HTTP/2, for their words to be read.

// TestNetHTTPWordsCanary provokes, for real and under the Go that runs the
// test, each refusal net/http makes before it writes a request, and checks
// that fateOf still reads it as never sent. net/http exports no type for
// them, so fateOf reads their words (unsent.go); the day a Go release
// rewords one, this test fails instead of a write silently turning into
// an unknown outcome. The HTTP/2 refusals after sending (a graceful
// GOAWAY below the stream, REFUSED_STREAM) are provoked for real by the
// hostile HTTP/2 server of internal/reliability, whose tests fail the same
// day (a refused write would no longer be sent again).
func TestNetHTTPWordsCanary(t *testing.T) {
	t.Parallel()
	h1 := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(h1.Close)
	h2 := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	h2.EnableHTTP2 = true
	h2.StartTLS()
	t.Cleanup(h2.Close)

	type provoke func(r *http.Request)
	header := func(k, v string) provoke { return func(r *http.Request) { r.Header[k] = []string{v} } }
	cases := []struct {
		name  string
		http2 bool
		edit  provoke
	}{
		{"invalid header value", false, header("X-A", "a\nb")},
		{"invalid header name", false, header("X A", "b")},
		{"invalid method", false, func(r *http.Request) { r.Method = "GET POST" }},
		{"unsupported scheme", false, func(r *http.Request) { r.URL.Scheme = "ftp" }},
		{"no Host", false, func(r *http.Request) { r.URL.Host = "" }},
		{"nil URL", false, func(r *http.Request) { r.URL = nil }},
		{"nil Header", false, func(r *http.Request) { r.Header = nil }},
		{"HTTP/2 Connection header", true, header("Connection", "upgrade")},
		{"HTTP/2 Upgrade header", true, header("Upgrade", "websocket")},
		{"HTTP/2 Transfer-Encoding header", true, header("Transfer-Encoding", "gzip")},
	}
	for _, tc := range cases {
		srv, rt := h1, http.RoundTripper(&http.Transport{})
		if tc.http2 {
			srv, rt = h2, h2.Client().Transport
		}
		r, err := http.NewRequestWithContext(context.Background(), "POST", srv.URL+"/x", strings.NewReader("{}"))
		require.NoError(t, err)
		tc.edit(r)
		resp, err := rt.RoundTrip(r)
		if resp != nil {
			resp.Body.Close()
		}
		require.Error(t, err, tc.name)
		assert.Equal(t, notSentInvalid, fateOf(&url.Error{Op: "Post", URL: "x", Err: err}),
			"%s under %s: net/http said %q; update unsent.go's words and the Go versions the README names", tc.name, runtime.Version(), err)
	}
}
