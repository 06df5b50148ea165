package reliability_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// httptest: real loopback listeners; the rule under test is about addresses, proxies and resolvers.

// The loopback rule: credentials and patient data go over https, or over
// plain http to a loopback address, whatever a proxy setting, a resolver or
// the spelling of the host says. Each test sends a create (credentials and
// the fixture's patient values) to a loopback server under a host spelled
// as a loopback host, with a proxy or a resolver that would send it
// elsewhere, and counts what arrives where.

// isolatedEnv names, in a child process of the test binary, the test that
// the child runs.
const isolatedEnv = "RXDELIVERY_ISOLATED_TEST"

// isolated runs the calling test alone, in a child process of the test
// binary, and reports whether the caller is that child (and should go on).
// net/http reads the proxy environment once per process, and a test that
// replaces net.DefaultResolver must not race with other tests' dials: such
// a test needs a process of its own. The parent fails when the child
// fails, with its output.
func isolated(t *testing.T) bool {
	t.Helper()
	if os.Getenv(isolatedEnv) == t.Name() {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v", "-test.timeout=5m")
	cmd.Env = append(os.Environ(), isolatedEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the isolated run of %s failed: %v\n%s", t.Name(), err, out)
	}
	if !bytes.Contains(out, []byte("--- PASS: "+t.Name())) {
		t.Fatalf("the isolated run did not run %s:\n%s", t.Name(), out)
	}
	return false
}

// fakeProxy is a loopback listener standing for an HTTP proxy: it counts
// the connections and the bytes it receives, and answers 502 to whatever
// request it reads.
type fakeProxy struct {
	ln           net.Listener
	conns, bytes atomic.Int64
	mu           sync.Mutex
	open         []net.Conn
	wg           sync.WaitGroup
}

func newFakeProxy(t *testing.T) *fakeProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &fakeProxy{ln: ln}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.conns.Add(1)
			p.mu.Lock()
			p.open = append(p.open, c)
			p.mu.Unlock()
			p.wg.Add(1)
			go p.serve(c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		for _, c := range p.open {
			c.Close()
		}
		p.mu.Unlock()
		p.wg.Wait()
	})
	return p
}

func (p *fakeProxy) serve(c net.Conn) {
	defer p.wg.Done()
	defer c.Close()
	var seen []byte
	buf := make([]byte, 4096)
	for {
		n, err := c.Read(buf)
		p.bytes.Add(int64(n))
		seen = append(seen, buf[:n]...)
		if bytes.Contains(seen, []byte("\r\n\r\n")) {
			_, _ = io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			return
		}
		if err != nil {
			return
		}
	}
}

// URL is the proxy's URL.
func (p *fakeProxy) URL() string { return "http://" + p.ln.Addr().String() }

// opaque is a RoundTripper of the caller's that is not an *http.Transport:
// it hands every request to an *http.Transport of its own.
type opaque struct{ next *http.Transport }

func (o opaque) RoundTrip(r *http.Request) (*http.Response, error) { return o.next.RoundTrip(r) }

// loopbackServer is a plain-http server on 127.0.0.1 (or [::1]) that
// answers every create and counts those that carry the credentials.
// newLoopbackServer returns nil when [::1] cannot be listened on.
type loopbackServer struct {
	*httptest.Server
	port    string
	created atomic.Int64
}

func newLoopbackServer(t *testing.T, addr string) *loopbackServer {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil && strings.HasPrefix(addr, "[") {
		return nil // no IPv6 loopback here
	}
	require.NoError(t, err)
	s := &loopbackServer{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		drainRequest(r)
		if user, pass, ok := r.BasicAuth(); ok && user == testutil.Key && pass == testutil.Secret {
			s.created.Add(1)
		}
		writeJSON(w, 200, orderBody("ord_1"))
	}))
	s.Listener.Close()
	s.Listener = ln
	s.Start()
	t.Cleanup(s.Close)
	_, s.port, _ = net.SplitHostPort(ln.Addr().String())
	return s
}

// spelling is one way to write a loopback host in a base URL.
type spelling struct {
	host string // as written in the URL, brackets included
	v6   bool   // the server must listen on [::1]
}

// loopbackSpellings are the hosts the SDK accepts as loopback: the four of
// the report, a trailing dot, IP literals.
var loopbackSpellings = []spelling{
	{host: "LOCALHOST"}, {host: "Localhost"}, {host: "SANDBOX.LOCALHOST"}, {host: "pharmacy.localhost"},
	{host: "localhost"}, {host: "localhost."}, {host: "sandbox.localhost."},
	{host: "127.0.0.1"}, {host: "[::ffff:127.0.0.1]"}, {host: "[::1]", v6: true},
}

// clientKind builds the client's HTTP client for one case; opaque marks a
// caller's RoundTripper that is not an *http.Transport.
type clientKind struct {
	name   string
	opaque bool
	opts   func(t *testing.T) []rxdelivery.Option
}

// callerTransport registers tr's idle connections to close when the test
// ends and returns the option that gives the client tr (or an opaque
// RoundTripper over it).
func callerTransport(t *testing.T, tr *http.Transport, wrap bool) []rxdelivery.Option {
	t.Cleanup(tr.CloseIdleConnections)
	var rt http.RoundTripper = tr
	if wrap {
		rt = opaque{tr}
	}
	return []rxdelivery.Option{rxdelivery.WithHTTPClient(&http.Client{Transport: rt})}
}

// createThrough sends one create to host:port with opts, and checks where
// it went: 0 bytes to p, and either the server's record of it (over a
// connection whose peer is the server's address) or, where allowed, a
// refusal before sending with a known outcome.
func createThrough(t *testing.T, s *loopbackServer, p *fakeProxy, host string, mayRefuse bool, opts ...rxdelivery.Option) {
	t.Helper()
	base := "http://" + host + ":" + s.port
	all := append([]rxdelivery.Option{rxdelivery.WithDeliveryURL(base), rxdelivery.WithRetryMax(0)}, opts...)
	c, err := rxdelivery.NewClient(testutil.Key, testutil.Secret, all...)
	require.NoError(t, err, "a loopback base URL")
	t.Cleanup(c.CloseIdleConnections)

	var peers []string
	var mu sync.Mutex
	ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		mu.Lock()
		peers = append(peers, info.Conn.RemoteAddr().String())
		mu.Unlock()
	}})
	proxied, before := p.bytes.Load(), s.created.Load()
	_, err = c.Orders.Create(ctx, createParams(t, "ref-loopback"))
	// The proxy has read all it will read once the connection is closed;
	// closing the client's idle connections makes sure of that.
	c.CloseIdleConnections()
	assert.Equal(t, proxied, p.bytes.Load(), "bytes sent to the proxy")
	if err != nil && mayRefuse {
		var ns *rxtypes.NotSentError
		assert.True(t, errors.As(err, &ns), "a refusal before sending: %v", err)
		assert.False(t, errors.Is(err, rxdelivery.ErrUnknownOutcome), "a refused create has a known outcome")
		assert.Contains(t, err.Error(), "loopback")
		assert.Equal(t, before, s.created.Load())
		return
	}
	require.NoError(t, err)
	assert.Equal(t, before+1, s.created.Load(), "creates that reached the server")
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, peers)
	for _, peer := range peers {
		assert.Equal(t, s.Listener.Addr().String(), peer, "the connection's peer")
	}
}

// TestPlainHTTPNeverThroughEnvironmentProxy: with HTTP_PROXY and
// http_proxy naming a proxy, a create to every spelling of a loopback host
// reaches the loopback server and sends nothing to the proxy, over the
// SDK's own pool, http.DefaultTransport and a caller's *http.Transport
// (which take the proxy from the environment). A caller's RoundTripper
// that is not an *http.Transport either reaches the server directly or is
// refused before sending.
func TestPlainHTTPNeverThroughEnvironmentProxy(t *testing.T) {
	if !isolated(t) {
		return
	}
	p := newFakeProxy(t)
	for _, v := range []string{"HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"} {
		t.Setenv(v, p.URL())
	}
	for _, v := range []string{"NO_PROXY", "no_proxy", "REQUEST_METHOD"} {
		t.Setenv(v, "")
	}
	// The environment is read once per process: check it was read now.
	u, err := http.ProxyFromEnvironment(&http.Request{URL: &url.URL{Scheme: "http", Host: "pharmacy.localhost"}})
	require.NoError(t, err)
	require.NotNil(t, u, "the environment's proxy applies to pharmacy.localhost in net/http")

	kinds := []clientKind{
		{name: "SDK pool", opts: func(*testing.T) []rxdelivery.Option { return nil }},
		{name: "DefaultTransport", opts: func(t *testing.T) []rxdelivery.Option {
			t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
			return []rxdelivery.Option{rxdelivery.WithHTTPClient(&http.Client{})}
		}},
		{name: "caller Transport", opts: func(t *testing.T) []rxdelivery.Option {
			return callerTransport(t, http.DefaultTransport.(*http.Transport).Clone(), false)
		}},
		{name: "caller RoundTripper", opaque: true, opts: func(t *testing.T) []rxdelivery.Option {
			return callerTransport(t, http.DefaultTransport.(*http.Transport).Clone(), true)
		}},
	}
	v4, v6 := newLoopbackServer(t, "127.0.0.1:0"), newLoopbackServer(t, "[::1]:0")
	for _, k := range kinds {
		for _, sp := range loopbackSpellings {
			t.Run(k.name+"/"+sp.host, func(t *testing.T) {
				s := v4
				if sp.v6 {
					if s = v6; s == nil {
						t.Skip("no IPv6 loopback")
					}
				}
				createThrough(t, s, p, sp.host, k.opaque, k.opts(t)...)
			})
		}
	}
	assert.Zero(t, p.bytes.Load(), "bytes the proxy received in all")
}

// TestPlainHTTPNeverThroughTransportProxy: a caller's *http.Transport whose
// Proxy sends every request to a proxy (http.ProxyURL) carries a create to
// every spelling of a loopback host straight to the loopback server, and
// nothing to the proxy; so does a redirect hop a caller's client follows to
// plain http. A caller's RoundTripper that is not an *http.Transport over
// the same transport is refused before sending.
func TestPlainHTTPNeverThroughTransportProxy(t *testing.T) {
	t.Parallel()
	p := newFakeProxy(t)
	proxyURL, err := url.Parse(p.URL())
	require.NoError(t, err)
	v4, v6 := newLoopbackServer(t, "127.0.0.1:0"), newLoopbackServer(t, "[::1]:0")
	for _, wrap := range []bool{false, true} {
		name := "caller Transport"
		if wrap {
			name = "caller RoundTripper"
		}
		for _, sp := range loopbackSpellings {
			t.Run(name+"/"+sp.host, func(t *testing.T) {
				s := v4
				if sp.v6 {
					if s = v6; s == nil {
						t.Skip("no IPv6 loopback")
					}
				}
				conns := p.conns.Load()
				createThrough(t, s, p, sp.host, wrap, callerTransport(t, &http.Transport{Proxy: http.ProxyURL(proxyURL)}, wrap)...)
				if !wrap {
					assert.Equal(t, conns, p.conns.Load(), "connections to the proxy")
				}
			})
		}
	}

	t.Run("redirect hop", func(t *testing.T) {
		target := newRedirectTarget(t, false)
		_, port, _ := net.SplitHostPort(target.Listener.Addr().String())
		base := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", "http://SANDBOX.LOCALHOST:"+port+"/api/v1/orders/ord_1")
			w.WriteHeader(http.StatusTemporaryRedirect)
		}))
		t.Cleanup(base.Close)
		tr := &http.Transport{Proxy: http.ProxyURL(proxyURL)}
		t.Cleanup(tr.CloseIdleConnections)
		c, err := rxdelivery.NewClient(testutil.Key, testutil.Secret, rxdelivery.WithDeliveryURL(base.URL),
			rxdelivery.WithHTTPClient(&http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return nil }}))
		require.NoError(t, err)
		t.Cleanup(c.CloseIdleConnections)
		before := p.bytes.Load()
		_, err = c.Orders.Get(context.Background(), "ord_1")
		require.NoError(t, err)
		c.CloseIdleConnections()
		assert.Equal(t, int64(1), target.hits.Load(), "reads that reached the redirect's target")
		assert.Equal(t, before, p.bytes.Load(), "bytes sent to the proxy")
	})
	assert.Zero(t, p.bytes.Load(), "bytes the proxy received in all")
}

// fakeDNS is a DNS server on loopback that answers every A question with
// one address and every other question with no record, counting the
// questions.
type fakeDNS struct {
	pc      net.PacketConn
	answer  [4]byte
	queries atomic.Int64
	done    chan struct{}
}

func newFakeDNS(t *testing.T, answer net.IP) *fakeDNS {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	require.NoError(t, err)
	d := &fakeDNS{pc: pc, done: make(chan struct{})}
	copy(d.answer[:], answer.To4())
	go d.serve()
	t.Cleanup(func() {
		pc.Close()
		<-d.done
	})
	return d
}

func (d *fakeDNS) serve() {
	defer close(d.done)
	buf := make([]byte, 1500)
	for {
		n, from, err := d.pc.ReadFrom(buf)
		if err != nil {
			return
		}
		d.queries.Add(1)
		q := buf[:n]
		i := 12
		for i < n && q[i] != 0 {
			i += int(q[i]) + 1
		}
		i++ // the root label
		if n < 12 || i+4 > n {
			continue
		}
		qtype := binary.BigEndian.Uint16(q[i:])
		resp := append([]byte(nil), q[:i+4]...)
		resp[2] = 0x84 | q[2]&0x01 // a response, authoritative, recursion as asked
		resp[3] = 0x80             // recursion available, no error
		binary.BigEndian.PutUint16(resp[4:], 1)
		binary.BigEndian.PutUint16(resp[6:], 0)
		binary.BigEndian.PutUint16(resp[8:], 0)
		binary.BigEndian.PutUint16(resp[10:], 0)
		if qtype == 1 { // A
			binary.BigEndian.PutUint16(resp[6:], 1)
			resp = append(resp, 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4)
			resp = append(resp, d.answer[:]...)
		}
		_, _ = d.pc.WriteTo(resp, from)
	}
}

// resolver returns a Go resolver that asks d only.
func (d *fakeDNS) resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var dialer net.Dialer
		return dialer.DialContext(ctx, "udp", d.pc.LocalAddr().String())
	}}
}

// impostor is a listener on another loopback address at the test server's
// port, counting the bytes it receives.
type impostor struct {
	ln    net.Listener
	bytes atomic.Int64
	wg    sync.WaitGroup
}

func newImpostor(t *testing.T, ip, port string) *impostor {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, port))
	if err != nil {
		t.Skipf("cannot listen on %s: %v", ip, err)
	}
	m := &impostor{ln: ln}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			m.wg.Add(1)
			go func() {
				defer m.wg.Done()
				defer c.Close()
				n, _ := io.Copy(io.Discard, io.LimitReader(c, 1))
				m.bytes.Add(n)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		m.wg.Wait()
	})
	return m
}

// TestLocalhostNameIsNotResolved: a name under .localhost is loopback
// without asking DNS. net.DefaultResolver asks a DNS server that answers
// 127.0.0.2 for every name, where an impostor listens on the server's
// port: the SDK's own pool asks it nothing, sends nothing to the impostor,
// and reaches the server on 127.0.0.1.
func TestLocalhostNameIsNotResolved(t *testing.T) {
	t.Parallel()
	if !isolated(t) {
		return
	}
	d := newFakeDNS(t, net.IPv4(127, 0, 0, 2))
	saved := net.DefaultResolver
	net.DefaultResolver = d.resolver()
	t.Cleanup(func() { net.DefaultResolver = saved })
	addrs, err := net.DefaultResolver.LookupHost(context.Background(), "pharmacy.localhost")
	require.NoError(t, err)
	require.Equal(t, []string{"127.0.0.2"}, addrs, "the fake DNS answers")
	asked := d.queries.Load()

	s := newLoopbackServer(t, "127.0.0.1:0")
	m := newImpostor(t, "127.0.0.2", s.port)
	p := newFakeProxy(t)
	for _, host := range []string{"pharmacy.localhost", "SANDBOX.LOCALHOST.", "localhost"} {
		t.Run(host, func(t *testing.T) {
			createThrough(t, s, p, host, false)
		})
	}
	assert.Equal(t, asked, d.queries.Load(), "DNS questions the SDK asked")
	assert.Zero(t, m.bytes.Load(), "bytes the impostor received")
}

// elsewhere is a connection that stands for one to a host off loopback: it
// is in fact to the test server, reports a remote address of 192.0.2.10
// (TEST-NET-1), and counts the bytes written on it.
type elsewhere struct {
	net.Conn
	written *atomic.Int64
}

func (c elsewhere) RemoteAddr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(192, 0, 2, 10), Port: 80}
}

func (c elsewhere) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.written.Add(int64(n))
	return n, err
}

// TestCallerDialerAndResolver: a caller's *http.Transport whose dialer
// resolves names with its own resolver (a DNS server on loopback that
// answers 192.0.2.10 for every name) is asked only for loopback addresses
// and reaches the server; a dialer whose connection is not to a loopback
// address (whatever it was asked) gets nothing written on it, and the
// create is refused with a known outcome, over an *http.Transport and over
// a RoundTripper that is not one.
func TestCallerDialerAndResolver(t *testing.T) {
	t.Parallel()
	s := newLoopbackServer(t, "127.0.0.1:0")
	p := newFakeProxy(t)
	d := newFakeDNS(t, net.IPv4(192, 0, 2, 10))
	var written atomic.Int64
	var mu sync.Mutex
	var asked []string
	// resolving dials what its resolver answers for a name; an address off
	// loopback is stood for by a connection to the test server (tests reach
	// loopback only).
	resolving := func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		asked = append(asked, addr)
		mu.Unlock()
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if net.ParseIP(host) == nil {
			ips, err := d.resolver().LookupHost(ctx, host)
			if err != nil {
				return nil, err
			}
			host = ips[0]
		}
		var dialer net.Dialer
		if ip := net.ParseIP(host); !ip.IsLoopback() {
			c, err := dialer.DialContext(ctx, network, s.Listener.Addr().String())
			if err != nil {
				return nil, err
			}
			return elsewhere{Conn: c, written: &written}, nil
		}
		return dialer.DialContext(ctx, network, net.JoinHostPort(host, port))
	}
	for _, host := range []string{"pharmacy.localhost", "SANDBOX.LOCALHOST", "localhost.", "127.0.0.1"} {
		t.Run("resolving dialer/"+host, func(t *testing.T) {
			createThrough(t, s, p, host, false, callerTransport(t, &http.Transport{DialContext: resolving}, false)...)
		})
	}
	mu.Lock()
	for _, a := range asked {
		host, _, _ := net.SplitHostPort(a)
		ip := net.ParseIP(host)
		assert.True(t, ip != nil && ip.IsLoopback(), "the SDK asked its caller's dialer for %q", a)
	}
	mu.Unlock()
	assert.Zero(t, d.queries.Load(), "DNS questions")
	assert.Zero(t, written.Load(), "bytes written off loopback")

	// A dialer that connects elsewhere than it is asked.
	misrouting := func(ctx context.Context, network, addr string) (net.Conn, error) {
		var dialer net.Dialer
		c, err := dialer.DialContext(ctx, network, s.Listener.Addr().String())
		if err != nil {
			return nil, err
		}
		return elsewhere{Conn: c, written: &written}, nil
	}
	for _, wrap := range []bool{false, true} {
		t.Run("misrouting dialer/opaque="+strconv.FormatBool(wrap), func(t *testing.T) {
			before := s.created.Load()
			c, err := rxdelivery.NewClient(testutil.Key, testutil.Secret, append(callerTransport(t, &http.Transport{DialContext: misrouting}, wrap),
				rxdelivery.WithDeliveryURL("http://pharmacy.localhost:"+s.port), rxdelivery.WithRetryMax(2))...)
			require.NoError(t, err)
			t.Cleanup(c.CloseIdleConnections)
			_, err = c.Orders.Create(context.Background(), createParams(t, "ref-misrouted"))
			require.Error(t, err)
			var ns *rxtypes.NotSentError
			assert.True(t, errors.As(err, &ns), "refused before sending: %v", err)
			assert.False(t, errors.Is(err, rxdelivery.ErrUnknownOutcome))
			assert.True(t, strings.Contains(err.Error(), "loopback"), err.Error())
			assert.Equal(t, before, s.created.Load(), "creates that reached the server")
		})
	}
	assert.Zero(t, written.Load(), "bytes written off loopback")
	assert.Zero(t, p.bytes.Load())
}
