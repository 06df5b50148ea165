package main

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// httptest: the --insecure-listeners client is judged by the peer of a real TLS connection to a self-signed listener.

// offLoopback is a connection that reports a peer off loopback
// (192.0.2.10, TEST-NET-1) although it is to the test's listener.
type offLoopback struct{ net.Conn }

func (offLoopback) RemoteAddr() net.Addr { return &net.TCPAddr{IP: net.IPv4(192, 0, 2, 10), Port: 443} }

// TestInsecureListenersJudgedByPeer: sandbox --insecure-listeners skips
// certificate verification by where the connection goes, not by the
// listener's host name: "localhost" whose connection lands off loopback (a
// resolver's answer) keeps verification, and the self-signed listener gets
// nothing.
func TestInsecureListenersJudgedByPeer(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	l := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	l.Config.ErrorLog = log.New(io.Discard, "", 0) // quiet the refused handshake
	l.StartTLS()
	defer l.Close()
	_, port, _ := net.SplitHostPort(l.Listener.Addr().String())
	listener := "https://localhost:" + port + "/hooks"

	toListener := func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, l.Listener.Addr().String())
	}
	hc := newNotifyClient(true, toListener)
	res, err := hc.Post(listener, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatalf("a self-signed listener on loopback: %v", err)
	}
	res.Body.Close()
	hc.CloseIdleConnections()
	if hits.Load() != 1 {
		t.Fatalf("listener hits = %d, want 1", hits.Load())
	}

	elsewhere := func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := toListener(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return offLoopback{c}, nil
	}
	hc = newNotifyClient(true, elsewhere)
	if _, err = hc.Post(listener, "application/json", strings.NewReader("{}")); err == nil {
		t.Error("a self-signed certificate was accepted off loopback")
	}
	hc.CloseIdleConnections()
	if hits.Load() != 1 {
		t.Errorf("listener hits = %d, want 1", hits.Load())
	}

	// Without --insecure-listeners, verification is never skipped.
	hc = newNotifyClient(false, nil)
	hc.Transport.(*http.Transport).DialContext = toListener
	if _, err = hc.Post(listener, "application/json", strings.NewReader("{}")); err == nil {
		t.Error("a self-signed certificate was accepted without --insecure-listeners")
	}
}
