package rxdelivery_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// httptest: a TLS server speaking HTTP/2, whose transport refuses connection-level headers.

// unsendable are header values net/http refuses to send: each would stop
// a request before it was written.
var unsendable = map[string]string{
	"CRLF": "acme/1.0\r\nX-Injected: y",
	"LF":   "acme/1.0\nX-Injected: y",
	"CR":   "acme/1.0\rX-Injected: y",
	"NUL":  "acme/1.0\x00",
	"DEL":  "acme/1.0\x7f",
	"ESC":  "acme/1.0\x1b[31m",
}

// TestUnsendableUserAgentIsRefusedByNewClient checks that WithUserAgent
// with a line break, a NUL or another control character fails NewClient
// (and NewClientFromEnv) with a *ConfigError that names the option and
// does not quote the value, instead of building a client whose every
// write net/http refuses before sending and the SDK reported as an
// unknown outcome.
func TestUnsendableUserAgentIsRefusedByNewClient(t *testing.T) {
	s := newOptMock()
	for name, ua := range unsendable {
		_, err := rxdelivery.NewClient("key", "secret", rxdelivery.WithDeliveryURL(s.URL), rxdelivery.WithUserAgent(ua))
		var ce *rxdelivery.ConfigError
		require.ErrorAs(t, err, &ce, name)
		assert.Contains(t, err.Error(), "WithUserAgent", name)
		assert.NotContains(t, err.Error(), "acme", name)

		t.Setenv(rxdelivery.EnvAPIKey, "key")
		t.Setenv(rxdelivery.EnvAPISecret, "secret")
		t.Setenv(rxdelivery.EnvDeliveryURL, s.URL)
		_, err = rxdelivery.NewClientFromEnv(rxdelivery.WithUserAgent(ua))
		require.ErrorAs(t, err, &ce, name)
	}
	assert.EqualValues(t, 0, s.hits.Load())

	// A tab, text beyond ASCII and surrounding spaces can be sent.
	c := s.client(t, rxdelivery.WithUserAgent("  acme\tpharmacy/2.1 (Zürich)  "))
	require.NoError(t, c.Orders.Cancel(context.Background(), "ord_1"))
	assert.Equal(t, "acme\tpharmacy/2.1 (Zürich) rxdelivery-go/"+rxdelivery.Version, s.lastHeader().Get("User-Agent"))
}

// TestUnsendableHeaderIsRefusedBeforeSending checks WithHeader at both
// levels: a value with a control character, or a name that is not a token,
// fails NewClient, or the call, with a *ConfigError that sends nothing, so
// a write's outcome is known; the message never quotes the value, nor a
// name that is not one (a credential pasted into it).
func TestUnsendableHeaderIsRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	s := newOptMock()
	c := s.client(t)
	ctx := context.Background()
	bad := map[string][2]string{
		"bad name: space":        {"X Note", "v"},
		"bad name: colon":        {"X-Note:", "v"},
		"bad name: empty":        {"", "v"},
		"bad name: pasted value": {"Authorization: Bearer tok-s3cr3t", "x"},
		"bad name: non-ASCII":    {"X-Nöte", "v"},
		"bad name: line break":   {"X-Note\r\nX-Injected", "v"},
	}
	for name, v := range unsendable {
		bad["bad value: "+name] = [2]string{"X-Note", v + " tok-s3cr3t"}
	}
	for name, kv := range bad {
		var ce *rxdelivery.ConfigError
		_, err := rxdelivery.NewClient("key", "secret", rxdelivery.WithDeliveryURL(s.URL), rxdelivery.WithHeader(kv[0], kv[1]))
		require.ErrorAs(t, err, &ce, name)
		assert.Contains(t, err.Error(), "WithHeader", name)
		assert.NotContains(t, err.Error(), "s3cr3t", name)
		assert.NotContains(t, err.Error(), "acme", name)

		for _, write := range []func() error{
			func() error {
				return e0(c.Orders.Create(ctx, testutil.SamedayOrder(), rxdelivery.WithHeader(kv[0], kv[1])))
			},
			func() error { return c.Orders.Cancel(ctx, "ord_1", rxdelivery.WithHeader(kv[0], kv[1])) },
			func() error { return c.Requests.Cancel(ctx, "req_1", rxdelivery.WithHeader(kv[0], kv[1])) },
		} {
			err := write()
			require.ErrorAs(t, err, &ce, name)
			assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome, name)
			assert.NotContains(t, err.Error(), "s3cr3t", name)
		}
	}
	assert.EqualValues(t, 0, s.hits.Load(), "nothing was sent")

	// The name of a valid header is quoted, to say which one is wrong.
	err := c.Orders.Cancel(ctx, "ord_1", rxdelivery.WithHeader("x-note", "a\nb"))
	assert.Contains(t, err.Error(), `"X-Note"`)
}

// TestSetHeaderRefusesWhatCannotBeSent checks that an attempt hook's
// SetHeader reports false for a header that cannot be sent and sends the
// attempt without it, so that a write is sent (and its outcome known)
// rather than refused by net/http after the hook and reported as an
// unknown outcome.
func TestSetHeaderRefusesWhatCannotBeSent(t *testing.T) {
	t.Parallel()
	s := newOptMock()
	var mu sync.Mutex
	got := map[string]bool{}
	hook := func(next option.AttemptFunc) option.AttemptFunc {
		return func(ctx context.Context, a *option.Attempt) option.AttemptResult {
			mu.Lock()
			for name, v := range unsendable {
				got["value "+name] = a.SetHeader("X-Trace", v)
			}
			got["name with a space"] = a.SetHeader("X Trace", "v")
			got["name with a colon"] = a.SetHeader("X-Trace:", "v")
			got["empty name"] = a.SetHeader("", "v")
			got["owned"] = a.SetHeader("authorization", "Bearer x")
			got["connection-level"] = a.SetHeader("Upgrade", "websocket")
			got["valid"] = a.SetHeader("x-ok", "t-1\tv")
			mu.Unlock()
			return next(ctx, a)
		}
	}
	c := s.client(t, rxdelivery.WithMiddleware(hook))
	var md rxdelivery.Metadata
	_, err := c.Orders.Create(context.Background(), testutil.SamedayOrder(), rxdelivery.WithMetadata(&md))
	require.NoError(t, err, "the write is sent without the refused headers")
	assert.Equal(t, 1, md.Attempts)
	require.NoError(t, c.Orders.Cancel(context.Background(), "ord_1"))
	mu.Lock()
	defer mu.Unlock()
	for what, set := range got {
		assert.Equal(t, what == "valid", set, what)
	}
	h := s.lastHeader()
	assert.Equal(t, "t-1\tv", h.Get("X-Ok"))
	assert.Empty(t, h.Values("X-Trace"))
	assert.Empty(t, h.Values("Upgrade"))
	assert.NotContains(t, h.Get("Authorization"), "Bearer")
}

// TestConnectionHeadersAreTheTransports sends a write over HTTP/2 with the
// connection-level headers HTTP/2 forbids, given by WithHeader: they are
// the transport's, ignored like the SDK's own, and the write is sent.
// net/http's HTTP/2 transport refuses a request with an Upgrade header
// before writing it.
func TestConnectionHeadersAreTheTransports(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []http.Header
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(anyBody))
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	c, err := rxdelivery.NewClient("key", "secret", rxdelivery.WithDeliveryURL(srv.URL), rxdelivery.WithHTTPClient(srv.Client()),
		rxdelivery.WithHeader("Upgrade", "websocket"), rxdelivery.WithHeader("Keep-Alive", "timeout=5"))
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	_, err = c.Orders.Create(context.Background(), testutil.SamedayOrder(),
		rxdelivery.WithHeader("Proxy-Connection", "keep-alive"), rxdelivery.WithHeader("TE", "gzip"),
		rxdelivery.WithHeader("Trailer", "X-Checksum"), rxdelivery.WithHeader("X-Ok", "1"))
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, seen, 1)
	assert.Equal(t, "1", seen[0].Get("X-Ok"))
	for _, k := range []string{"Upgrade", "Keep-Alive", "Proxy-Connection", "Te", "Trailer"} {
		assert.Empty(t, seen[0].Values(k), k)
	}
}

// TestBaseURLThatCannotBeSentIsRefused checks base URLs with control
// characters or a port no connection can use, for every interface: refused
// by NewClient with a *ConfigError naming the option, never quoting the
// URL.
func TestBaseURLThatCannotBeSentIsRefused(t *testing.T) {
	t.Parallel()
	for _, u := range []string{
		"http://127.0.0.1:8080/a\r\nb", "http://127.0.0.1:8080/\x00", "http://127.0.0.1:8080\n", "http://127.0.0.1:8080/\x7f",
		"http://127.0.0.1:99999", "http://127.0.0.1:0", "http://127.0.0.1:65536/omni", "https://[::1]:1000000",
	} {
		for _, iface := range []rxdelivery.Interface{rxdelivery.Omni, rxdelivery.Delivery, rxdelivery.Tracking, rxdelivery.Pricing} {
			_, err := rxdelivery.NewClient("key", "secret", rxdelivery.WithBaseURL(iface, u))
			var ce *rxdelivery.ConfigError
			require.ErrorAs(t, err, &ce, "%q %s", u, iface)
			assert.Contains(t, err.Error(), iface.String()+" base URL", "%q", u)
			assert.NotContains(t, err.Error(), "127.0.0.1", "%q", u)
		}
	}
	for _, u := range []string{"http://127.0.0.1:1", "http://127.0.0.1:65535/omni", "https://[::1]:443", "http://localhost"} {
		_, err := rxdelivery.NewClient("key", "secret", rxdelivery.WithOmniURL(u))
		assert.NoError(t, err, u)
	}
}
