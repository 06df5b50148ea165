package core

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// This file holds the loopback rule: credentials go over https, or over
// plain http to a loopback address and nowhere else. The rule is judged on
// where the bytes go, not on how the host is spelled:
//
//   - A host is a loopback host when it is a loopback IP address (127.0.0.0/8,
//     ::1, an IPv4-mapped form such as ::ffff:127.0.0.1) or the name
//     "localhost" or a name under ".localhost", written in ASCII in any case
//     with at most one trailing dot. Look-alikes that only fold or map to
//     those letters (a long s, fullwidth letters) are not.
//   - Such a name stands for 127.0.0.1 and then ::1, as RFC 6761 reserves it;
//     no resolver is asked, so no DNS answer can send the request elsewhere.
//   - A plain-http request never goes through a proxy, whatever the
//     environment (HTTP_PROXY, NO_PROXY) or a transport's Proxy says.
//   - The connection a plain-http request is written on must be to a
//     loopback address (or a Unix socket); one that is not is closed before
//     anything is written, and the request fails with a NotSentError.
//
// https requests pass through unchanged.

// errNotLoopback is the cause of a plain-http request refused by the rule.
var errNotLoopback = errors.New("plain http is sent only to a loopback address, never through a proxy or to an address a name resolves to")

// loopbackIPs are the addresses of a loopback name, in the order they are
// dialled.
var loopbackIPs = []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1}), netip.IPv6Loopback()}

// loopbackHost reports whether host is a loopback host (see the top of this
// file) and, when it is an IP literal, returns the address; a loopback name
// gives the zero Addr. host is a host name or IP address without brackets
// or port, as url.URL.Hostname and net.SplitHostPort give it.
func loopbackHost(host string) (netip.Addr, bool) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip, ip.Unmap().IsLoopback()
	}
	name := strings.TrimSuffix(host, ".")
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			// url.Parse keeps a non-ASCII host, and net/http maps it through
			// IDNA (and strings.EqualFold through Unicode folding): only the
			// ASCII spelling is the reserved name.
			return netip.Addr{}, false
		}
	}
	const suffix = ".localhost"
	ok := strings.EqualFold(name, "localhost") ||
		(len(name) > len(suffix) && strings.EqualFold(name[len(name)-len(suffix):], suffix))
	return netip.Addr{}, ok
}

// isLoopback reports whether host (without port) is a loopback host.
func isLoopback(host string) bool {
	_, ok := loopbackHost(host)
	return ok
}

// peerIsLoopback reports whether a connection's remote address a is a
// loopback address or a Unix socket, both of which keep the bytes on this
// machine.
func peerIsLoopback(a net.Addr) bool {
	switch a := a.(type) {
	case nil:
		return false
	case *net.TCPAddr:
		return a != nil && a.IP.IsLoopback()
	case *net.UnixAddr:
		return a != nil
	}
	ap, err := netip.ParseAddrPort(a.String())
	return err == nil && ap.Addr().Unmap().IsLoopback()
}

// dialFunc is the type of http.Transport.DialContext.
type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// loopbackDial returns the dialer of plain-http connections: it dials only
// the loopback addresses of a loopback host (with next, the transport's own
// dialer), never a name, and closes a connection whose peer is not a
// loopback address before anything is written on it.
func loopbackDial(next dialFunc) dialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		ip, ok := loopbackHost(host)
		if !ok {
			return nil, &rxtypes.NotSentError{Err: errNotLoopback}
		}
		ips := loopbackIPs
		if ip.IsValid() {
			ips = []netip.Addr{ip}
		}
		var first error
		for _, ip := range ips {
			conn, err := next(ctx, network, net.JoinHostPort(ip.String(), port))
			if err == nil {
				if !peerIsLoopback(conn.RemoteAddr()) {
					conn.Close()
					return nil, &rxtypes.NotSentError{Err: errNotLoopback}
				}
				return conn, nil
			}
			if first == nil {
				first = err
			}
			if ctx.Err() != nil {
				break
			}
		}
		return nil, first
	}
}

// loopbackTransport sits below the attempt transport, just above the
// connection pool, and applies the loopback rule to every plain-http
// request, redirect hops included (the attempt transport gives it those
// only; an https request goes to the pool directly).
//
// When next is an *http.Transport (the SDK's own pool, a caller's
// transport, http.DefaultTransport), plain http goes through a copy of it
// made at the first plain-http request: the same settings, no proxy, and a
// dialer that is asked for loopback addresses only (see loopbackDial). The
// caller's transport itself is never modified.
//
// Any other RoundTripper is the caller's code, and the SDK cannot choose its
// proxy or its dialer. It is given the request as it is, and the SDK
// watches, through net/http's client trace, the connection the request gets:
// one made for another address than the request's own (a proxy), or whose
// peer is not a loopback address, is closed before the request is written,
// and the request fails with a NotSentError. A RoundTripper that reports no
// connection (a mock, a canned response) is trusted.
type loopbackTransport struct {
	next  http.RoundTripper
	base  *http.Transport // next, when it is an *http.Transport
	once  sync.Once
	plain atomic.Pointer[http.Transport]
	// loopHost is the last request host (URL.Host, with its port) found
	// to be a loopback host. Whether a host is one depends on that string
	// alone, so the next request to the same host is not judged again.
	loopHost atomic.Pointer[string]
}

func newLoopbackTransport(next http.RoundTripper) *loopbackTransport {
	t := &loopbackTransport{next: next}
	t.base, _ = next.(*http.Transport)
	return t
}

func (t *loopbackTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if h := t.loopHost.Load(); h == nil || *h != req.URL.Host {
		if !isLoopback(req.URL.Hostname()) {
			closeRequestBody(req)
			return nil, &rxtypes.NotSentError{Err: errNotLoopback}
		}
		host := req.URL.Host
		t.loopHost.Store(&host)
	}
	if t.base != nil {
		return t.plainTransport().RoundTrip(req)
	}
	return watchPlain(t.next, req)
}

// plainTransport returns the copy of base that carries plain http.
func (t *loopbackTransport) plainTransport() *http.Transport {
	t.once.Do(func() {
		c := t.base.Clone()
		next := c.DialContext
		//lint:ignore SA1019 a caller's transport that dials with Dial keeps its dialer for plain http.
		if dial := c.Dial; next == nil && dial != nil {
			next = func(_ context.Context, network, addr string) (net.Conn, error) { return dial(network, addr) }
		}
		if next == nil {
			// What http.Transport dials with when it has no dialer.
			next = (&net.Dialer{}).DialContext
		}
		c.Proxy = nil
		// DialContext takes priority over Dial.
		c.DialContext = loopbackDial(next)
		t.plain.Store(c)
	})
	return t.plain.Load()
}

// CloseIdleConnections closes the idle connections of the plain-http copy,
// if there is one (the caller's transport is closed by its owner, Shared).
func (t *loopbackTransport) CloseIdleConnections() {
	if t == nil {
		return
	}
	if c := t.plain.Load(); c != nil {
		c.CloseIdleConnections()
	}
}

// plainWatch follows the connections a plain-http request gets from a
// RoundTripper that is not an *http.Transport.
type plainWatch struct {
	want    string      // the host:port of the request's own connection
	proxied atomic.Bool // the last connection asked for is for another address
	refused atomic.Bool // a connection was closed by the rule
}

func (w *plainWatch) getConn(hostPort string) {
	w.proxied.Store(!strings.EqualFold(hostPort, w.want))
}

func (w *plainWatch) gotConn(info httptrace.GotConnInfo) {
	if info.Conn == nil {
		return
	}
	if w.proxied.Load() || !peerIsLoopback(info.Conn.RemoteAddr()) {
		w.refused.Store(true)
		// Nothing has been written on it for this request: net/http writes
		// a request after GotConn, and a closed connection writes nothing.
		info.Conn.Close()
	}
}

// watchPlain sends a plain-http request through next, a RoundTripper that
// is not an *http.Transport, refusing a connection that breaks the rule.
func watchPlain(next http.RoundTripper, req *http.Request) (*http.Response, error) {
	port := req.URL.Port()
	if port == "" {
		port = "80"
	}
	w := &plainWatch{want: net.JoinHostPort(req.URL.Hostname(), port)}
	ctx := httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{GetConn: w.getConn, GotConn: w.gotConn})
	resp, err := next.RoundTrip(req.WithContext(ctx))
	if err != nil && w.refused.Load() {
		return nil, &rxtypes.NotSentError{Err: errNotLoopback}
	}
	return resp, err
}
