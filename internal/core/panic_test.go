package core

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// httptest: the server counts the TCP connections opened and held, to show the pool's one connection reused after each panic.

// Caller code the SDK runs during a call (attempt and call hooks, the
// logger's handler, the transcript writer, the caller's transport) may
// panic, or end its goroutine (a test's t.FailNow in a hook). The panic
// goes on to the caller, but what the attempt holds is released first:
// the response, whose connection goes back to the pool, and the attempt
// timeout's context (issue 19, item 8: 40 panicking hooks opened 40
// connections and held them, with their goroutines, until the attempt
// timeout, or forever without one).

// connCounter counts the connections a server was opened and those still
// open.
type connCounter struct {
	mu     sync.Mutex
	opened int
	open   map[net.Conn]bool
}

func (c *connCounter) track(conn net.Conn, st http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch st {
	case http.StateNew:
		c.opened++
		c.open[conn] = true
	case http.StateClosed, http.StateHijacked:
		delete(c.open, conn)
	}
}

// countedServer starts a server of h whose connections conns counts; it
// is closed when the test ends.
func countedServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *connCounter) {
	conns := &connCounter{open: map[net.Conn]bool{}}
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = conns.track
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, conns
}

func (c *connCounter) counts() (opened, held int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opened, len(c.open)
}

// ctxRecorder is the caller's transport: it records the context of every
// attempt it is given, and panics instead of sending when told to.
type ctxRecorder struct {
	next  http.RoundTripper
	panic bool
	mu    sync.Mutex
	ctxs  []context.Context
}

func (r *ctxRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.ctxs = append(r.ctxs, req.Context())
	r.mu.Unlock()
	if r.panic {
		panic("caller's transport")
	}
	return r.next.RoundTrip(req)
}

// live returns how many recorded attempt contexts have not ended.
func (r *ctxRecorder) live() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, ctx := range r.ctxs {
		if ctx.Err() == nil {
			n++
		}
	}
	return n
}

// panicHandler is a slog handler that panics on every record at its
// level.
type panicHandler struct{ level slog.Level }

func (panicHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h panicHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Level == h.level {
		panic("logger's handler")
	}
	return nil
}
func (h panicHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h panicHandler) WithGroup(string) slog.Handler      { return h }

// panicWriter panics on its write number at, counting from 1, in every
// cycle of every writes.
type panicWriter struct {
	at, every int
	n         atomic.Int32
}

func (w *panicWriter) Write(p []byte) (int, error) {
	if n := int(w.n.Add(1)); (n-1)%w.every+1 == w.at {
		panic("transcript writer")
	}
	return len(p), nil
}

// abnormal runs f on a goroutine of its own and reports how f ended: with
// a panic's value, or by ending its goroutine (runtime.Goexit).
func abnormal(f func()) (p any, goexit bool) {
	done := make(chan struct{})
	returned := false
	go func() {
		defer close(done)
		defer func() { p = recover() }()
		f()
		returned = true
	}()
	<-done
	return p, !returned && p == nil
}

func TestPanicsReleaseWhatTheAttemptHolds(t *testing.T) {
	t.Parallel()
	after := func(end func()) option.Middleware {
		return func(next option.AttemptFunc) option.AttemptFunc {
			return func(ctx context.Context, a *option.Attempt) option.AttemptResult {
				next(ctx, a)
				end()
				return option.AttemptResult{}
			}
		}
	}
	callAfter := func(next option.CallFunc) option.CallFunc {
		return func(ctx context.Context, op *option.Operation) option.CallResult {
			next(ctx, op)
			panic("call hook")
		}
	}
	type setup struct {
		logger *slog.Logger
		opts   []option.CallOption
		// panicTransport makes the caller's transport panic.
		panicTransport bool
		// unavailable makes the server answer 503; retries is the
		// call's retry count.
		unavailable bool
		retries     int
	}
	cases := []struct {
		name  string
		setup func() setup
		// sends is whether the request reaches the server.
		sends bool
	}{
		{"attempt hook panics after next", func() setup {
			return setup{opts: []option.CallOption{option.WithMiddleware(after(func() { panic("attempt hook") }))}}
		}, true},
		{"attempt hook ends its goroutine after next", func() setup {
			return setup{opts: []option.CallOption{option.WithMiddleware(after(runtime.Goexit))}}
		}, true},
		{"attempt hook panics before next", func() setup {
			return setup{opts: []option.CallOption{option.WithMiddleware(func(option.AttemptFunc) option.AttemptFunc {
				return func(context.Context, *option.Attempt) option.AttemptResult { panic("attempt hook") }
			})}}
		}, false},
		{"call hook panics after next", func() setup {
			return setup{opts: []option.CallOption{option.WithCallMiddleware(callAfter)}}
		}, true},
		{"logger's handler panics on the attempt's line", func() setup {
			return setup{logger: slog.New(panicHandler{slog.LevelDebug})}
		}, true},
		{"logger's handler panics on the retry's line", func() setup {
			return setup{logger: slog.New(panicHandler{slog.LevelInfo}), unavailable: true, retries: 1}
		}, true},
		{"logger's handler panics on the end's line", func() setup {
			return setup{logger: slog.New(panicHandler{slog.LevelWarn}), unavailable: true}
		}, true},
		{"transcript writer panics on the response", func() setup {
			return setup{opts: []option.CallOption{option.WithTranscript(&panicWriter{at: 2, every: 2})}}
		}, true},
		{"transcript writer panics on the request", func() setup {
			return setup{opts: []option.CallOption{option.WithTranscript(&panicWriter{at: 1, every: 1})}}
		}, false},
		{"caller's transport panics", func() setup {
			return setup{panicTransport: true}
		}, false},
	}
	for _, tc := range cases {
		for _, write := range []bool{false, true} {
			for _, timeout := range []time.Duration{time.Hour, 0} {
				name := tc.name + "/read"
				if write {
					name = tc.name + "/write"
				}
				if timeout == 0 {
					name += "/no attempt timeout"
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					su := tc.setup()
					srv, conns := countedServer(t, func(w http.ResponseWriter, r *http.Request) {
						_, _ = io.Copy(io.Discard, r.Body)
						if su.unavailable {
							w.WriteHeader(http.StatusServiceUnavailable)
						}
						_, _ = w.Write([]byte(`{"id":"x"}`))
					})
					pool := NewPooledTransport()
					defer pool.CloseIdleConnections()
					rec := &ctxRecorder{next: pool, panic: su.panicTransport}
					s := NewShared(Config{
						HTTPClient: &http.Client{Transport: rec}, Logger: su.logger,
						RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond,
						RetryBudget: NewBudget(1 << 20),
					})
					b, err := s.NewBackend(rxtypes.InterfaceOmni, srv.URL, Credentials{Key: "k", Secret: "s"}, nil)
					require.NoError(t, err)
					call := Call{Method: "GET", Path: "/ok", Opts: append(su.opts, option.WithAttemptTimeout(timeout), option.WithRetryMax(su.retries))}
					if write {
						call = Call{Method: "POST", Path: "/orders", Body: map[string]string{"a": "b"}, Write: true, Opts: call.Opts}
					}

					const calls = 40
					ended := 0
					for i := 0; i < calls; i++ {
						p, goexit := abnormal(func() { _, _ = b.Do(context.Background(), call, &out{}) })
						if p != nil || goexit {
							ended++
						}
					}
					assert.Equal(t, calls, ended, "every call ended in the caller's panic or exit")
					opened, held := conns.counts()
					if tc.sends {
						assert.Equal(t, 1, opened, "connections opened: one, reused")
						assert.Equal(t, 1, held, "connections held: the pool's idle one")
					} else {
						assert.Zero(t, opened, "nothing was sent")
					}
					if timeout > 0 {
						// Without an attempt timeout the attempt's context is
						// the call's own.
						assert.Zero(t, rec.live(), "attempt contexts that did not end")
					}
				})
			}
		}
	}
}

// TestPanickingCheckRedirectReleasesTheHop: a caller's CheckRedirect that
// panics while net/http holds the redirect's response does not keep that
// response's connection: 40 such calls open one connection, reused.
func TestPanickingCheckRedirectReleasesTheHop(t *testing.T) {
	t.Parallel()
	srv, conns := countedServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ok" {
			http.Redirect(w, r, "/moved", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte(`{"id":"x"}`))
	})
	pool := NewPooledTransport()
	defer pool.CloseIdleConnections()
	s := NewShared(Config{HTTPClient: &http.Client{Transport: pool,
		CheckRedirect: func(*http.Request, []*http.Request) error { panic("caller's CheckRedirect") }}})
	b, err := s.NewBackend(rxtypes.InterfaceOmni, srv.URL, Credentials{Key: "k", Secret: "s"}, nil)
	require.NoError(t, err)
	const calls = 40
	for i := 0; i < calls; i++ {
		p, _ := abnormal(func() { _, _ = b.Do(context.Background(), Call{Method: "GET", Path: "/ok"}, &out{}) })
		require.Equal(t, "caller's CheckRedirect", p, "the caller's panic goes on")
	}
	opened, held := conns.counts()
	assert.Equal(t, 1, opened, "connections opened: one, reused")
	assert.Equal(t, 1, held, "connections held: the pool's idle one")
}
