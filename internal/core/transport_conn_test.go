package core

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// httptest: the pool's keep-alive reuse, a dial to a closed port, and a connection held by one call or cut after the server read a write, on real loopback connections.

// TestPoolReusesConnections checks, against a real loopback server, that
// sequential calls share one keep-alive connection and that giving up on
// a call does not close the pool's idle connections.
func TestPoolReusesConnections(t *testing.T) {
	t.Parallel()
	var conns atomic.Int32
	var n atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/fail" {
			w.WriteHeader(500)
			return
		}
		n.Add(1)
		_, _ = w.Write([]byte(`{"id":"x"}`))
	}))
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	s := NewShared(Config{Defaults: retries(1), RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	b, err := s.NewBackend(rxtypes.InterfaceOmni, srv.URL, Credentials{Key: "k", Secret: "s"}, nil)
	require.NoError(t, err)
	for i := 0; i < 20; i++ {
		_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/ok"}, &out{})
		require.NoError(t, err)
		if i == 10 {
			_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/fail"}, nil)
			require.Error(t, err)
		}
	}
	assert.Equal(t, int32(20), n.Load())
	assert.Equal(t, int32(1), conns.Load())
}

func TestDialFailureAgainstClosedPort(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	l.Close()
	s := NewShared(Config{Defaults: retries(1), RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	b, err := s.NewBackend(rxtypes.InterfaceDelivery, "http://"+addr, Credentials{Key: "k", Secret: "s"}, nil)
	require.NoError(t, err)
	_, err = b.Do(context.Background(), Call{Method: "POST", Path: "/api/v1/orders", Query: "secret=1", Body: map[string]int{}, Write: true}, nil)
	var te *rxtypes.TransportError
	require.ErrorAs(t, err, &te)
	assert.NotErrorIs(t, err, rxtypes.ErrUnknownOutcome)
	assert.NotContains(t, err.Error(), "secret=1")
}

// TestWriteWithoutConnectionIsKnown holds the only connection a transport
// may open, so that a write waits for one until its context ends: it never
// left, so its outcome is known. A write the server received and then lost
// keeps its unknown outcome.
func TestWriteWithoutConnectionIsKnown(t *testing.T) {
	t.Parallel()
	held := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/hold" {
			held <- struct{}{}
			<-release
			return
		}
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer srv.Close()
	tr := &http.Transport{MaxConnsPerHost: 1}
	defer tr.CloseIdleConnections()
	s := NewShared(Config{HTTPClient: &http.Client{Transport: tr}, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	b, err := s.NewBackend(rxtypes.InterfaceDelivery, srv.URL, Credentials{Key: "k", Secret: "s"}, nil)
	require.NoError(t, err)

	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = b.Do(context.Background(), Call{Method: "GET", Path: "/hold"}, nil)
	}()
	<-held
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = b.Do(ctx, Call{Method: "POST", Path: "/api/v1/orders", Body: map[string]int{}, Write: true}, nil)
	var te *rxtypes.TransportError
	require.ErrorAs(t, err, &te)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.False(t, te.UnknownOutcome, "the write waited for a connection and never left")
	close(release)
	<-done

	_, err = b.Do(context.Background(), Call{Method: "POST", Path: "/cut", Body: map[string]int{}, Write: true}, nil)
	require.ErrorAs(t, err, &te)
	assert.True(t, te.UnknownOutcome, "the server read the write before the cut")
}
