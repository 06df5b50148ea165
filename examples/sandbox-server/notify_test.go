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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// offLoopback is a connection that reports a peer off loopback
// (192.0.2.10, TEST-NET-1) although it is to the test's listener.
type offLoopback struct{ net.Conn }

func (offLoopback) RemoteAddr() net.Addr { return &net.TCPAddr{IP: net.IPv4(192, 0, 2, 10), Port: 443} }

// TestInsecureListenersJudgedByPeer: -insecure-listeners skips certificate
// verification by where the connection goes, not by the listener's host
// name: "localhost" whose connection lands off loopback (a resolver's
// answer) keeps verification, and the self-signed listener gets nothing.
func TestInsecureListenersJudgedByPeer(t *testing.T) {
	var hits atomic.Int64
	l := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
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
	require.NoError(t, err, "a self-signed listener on loopback")
	res.Body.Close()
	hc.CloseIdleConnections()
	assert.Equal(t, int64(1), hits.Load())

	elsewhere := func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := toListener(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return offLoopback{c}, nil
	}
	hc = newNotifyClient(true, elsewhere)
	_, err = hc.Post(listener, "application/json", strings.NewReader("{}"))
	assert.Error(t, err, "verified off loopback")
	hc.CloseIdleConnections()
	assert.Equal(t, int64(1), hits.Load(), "notifications the listener received")
}
