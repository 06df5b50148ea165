package core

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// TestLoopbackHostRule: the hosts a plain-http base URL and a redirect hop
// may name are the ASCII spellings of localhost and of names under
// .localhost (any case, one trailing dot), and loopback IP literals; a
// look-alike that Unicode folding or IDNA mapping turns into those letters
// is not one.
func TestLoopbackHostRule(t *testing.T) {
	t.Parallel()
	s := NewShared(Config{})
	loopback := []string{
		"localhost", "LOCALHOST", "Localhost", "localhost.", "LocalHost.",
		"pharmacy.localhost", "SANDBOX.LOCALHOST", "a.b.localhost", "sandbox.localhost.",
		"127.0.0.1", "127.1.2.3", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "::1%lo",
	}
	other := []string{
		"localhoſt", "LOCALHOſT", "pharmacy.localhoſt", // long s: strings.EqualFold takes it for s
		"ｌｏｃａｌｈｏｓｔ", "pharmacy.ｌｏｃａｌｈｏｓｔ", // fullwidth: IDNA maps it to ASCII
		"localhost..", ".localhost", "localhost.example", "localhost.localdomain", "notlocalhost",
		"example.com", "10.0.0.1", "::ffff:10.0.0.1", "127.1", "0177.0.0.1", "0x7f.0.0.1", "2130706433",
		"fe80::1%lo", "", "[::1]",
	}
	for _, h := range loopback {
		assert.True(t, isLoopback(h), "%q is loopback", h)
	}
	for _, h := range other {
		assert.False(t, isLoopback(h), "%q is not loopback", h)
	}
	for _, in := range []string{"http://localhost.:8080", "http://SANDBOX.LOCALHOST.:1/x", "http://[::ffff:127.0.0.1]:9"} {
		_, err := s.NewBackend(rxtypes.InterfaceOmni, in, Credentials{Key: "k", Secret: "s"}, nil)
		assert.NoError(t, err, in)
	}
	for _, in := range []string{"http://localhoſt:8080", "http://pharmacy.localhoſt:8080", "http://ｌｏｃａｌｈｏｓｔ:8080", "http://localhost.example:8080"} {
		_, err := s.NewBackend(rxtypes.InterfaceOmni, in, Credentials{Key: "k", Secret: "s"}, nil)
		var ce *rxtypes.ConfigError
		assert.ErrorAs(t, err, &ce, in)
	}
	// The redirect hop a caller's client follows is judged by the same rule.
	first, _ := http.NewRequest(http.MethodGet, "https://api.example.com/x", nil)
	for _, loc := range []string{
		"http://localhoſt:8080/y", "http://ｌｏｃａｌｈｏｓｔ/y",
		"http://localhost:80@example.com/y", "http://127.0.0.1.nip.io/y", "http://localhost.example./y",
	} {
		hop, _ := http.NewRequest(http.MethodGet, loc, nil)
		hop.Response = &http.Response{Request: first}
		_, err := redirectHop(hop, false)
		assert.ErrorIs(t, err, errPlainRedirect, loc)
	}
}

// TestPeerIsLoopback: the connection check takes loopback TCP peers and
// Unix sockets, nothing else.
func TestPeerIsLoopback(t *testing.T) {
	t.Parallel()
	var typedNil *net.TCPAddr
	for a, want := range map[net.Addr]bool{
		&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}:  true,
		&net.TCPAddr{IP: net.IPv6loopback, Port: 1}:        true,
		&net.TCPAddr{IP: net.ParseIP("::ffff:127.0.0.9")}:  true,
		&net.UnixAddr{Name: "/run/x.sock", Net: "unix"}:    true,
		&net.TCPAddr{IP: net.IPv4(192, 0, 2, 10), Port: 1}: false,
		&net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}:  true,
		&net.IPAddr{IP: net.IPv4(10, 0, 0, 1)}:             false,
		typedNil:                                           false,
		pipeAddr{}:                                         false,
	} {
		assert.Equal(t, want, peerIsLoopback(a), "%v", a)
	}
	assert.False(t, peerIsLoopback(nil))
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// recordingDialer dials what it is asked, recording each address.
type recordingDialer struct {
	mu    sync.Mutex
	asked []string
}

func (d *recordingDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	d.mu.Lock()
	d.asked = append(d.asked, addr)
	d.mu.Unlock()
	var nd net.Dialer
	return nd.DialContext(ctx, network, addr)
}

func (d *recordingDialer) addrs() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.asked...)
}

// TestPlainHTTPOffLoopbackIsNeverDialled: a plain-http request to a host
// that is not loopback (which NewBackend and the redirect check refuse
// before) is refused below them too, before any dial, with a known
// outcome; the caller's transport is left as it was given.
func TestPlainHTTPOffLoopbackIsNeverDialled(t *testing.T) {
	t.Parallel()
	d := &recordingDialer{}
	proxied := 0
	tr := &http.Transport{DialContext: d.dial, Proxy: func(*http.Request) (*url.URL, error) { proxied++; return nil, nil }}
	lt := newLoopbackTransport(tr)
	for _, u := range []string{"http://example.com/x", "http://localhoſt/x", "http://10.0.0.1/x"} {
		req, err := http.NewRequest(http.MethodPost, u, nil)
		require.NoError(t, err)
		_, err = lt.RoundTrip(req)
		var ns *rxtypes.NotSentError
		require.ErrorAs(t, err, &ns, u)
		assert.ErrorIs(t, err, errNotLoopback)
	}
	// A dial for an address that is not a loopback host is refused too.
	c, err := loopbackDial(d.dial)(context.Background(), "tcp", "example.com:80")
	assert.Nil(t, c)
	assert.ErrorIs(t, err, errNotLoopback)
	assert.Empty(t, d.addrs(), "dials")
	assert.Zero(t, proxied)
	assert.NotNil(t, tr.Proxy, "the caller's transport is not modified")
	lt.CloseIdleConnections()
}

// TestLoopbackVerdictIsPerHost: the transport judges each request's host;
// one found loopback leaves the next, on another host, to be judged and
// refused.
func TestLoopbackVerdictIsPerHost(t *testing.T) {
	t.Parallel()
	var sent []string
	lt := newLoopbackTransport(roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent = append(sent, r.URL.Host)
		return &http.Response{StatusCode: 204, Body: http.NoBody, Request: r}, nil
	}))
	for _, tc := range []struct {
		url  string
		sent bool
	}{
		{"http://127.0.0.1:8080/x", true}, {"http://127.0.0.1:8080/y", true}, {"http://127.0.0.1.example.com:8080/x", false},
		{"http://localhost:8080/x", true}, {"http://localhost.evil:8080/x", false}, {"http://localhost:8080/x", true},
		{"http://10.0.0.1:8080/x", false}, {"http://[::1]:8080/x", true}, {"http://example.com/x", false},
	} {
		req, err := http.NewRequest(http.MethodGet, tc.url, nil)
		require.NoError(t, err)
		_, err = lt.RoundTrip(req)
		if tc.sent {
			assert.NoError(t, err, tc.url)
		} else {
			assert.ErrorIs(t, err, errNotLoopback, tc.url)
		}
	}
	assert.Equal(t, []string{"127.0.0.1:8080", "127.0.0.1:8080", "localhost:8080", "localhost:8080", "[::1]:8080"}, sent)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
