package reliability_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/core"
)

// httptest: answers cut by a hijacked connection, attempts stalled on a connection until the context ends, 64 MiB bodies streamed, and the pool's connections held by the server.

const (
	getPath    = "/api/v1/orders/ord_1"
	createPath = "/api/v1/orders"
	// attemptsMax is the first attempt and the default three retries.
	attemptsMax = 4
)

// apiError asserts that err is an *rxdelivery.APIError of status whose
// message names the endpoint and the status, and returns it.
func apiError(t *testing.T, err error, method, path string, status int) *rxdelivery.APIError {
	t.Helper()
	var ae *rxdelivery.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, status, ae.StatusCode)
	assert.Equal(t, method, ae.Method)
	assert.Equal(t, path, ae.Path)
	assert.True(t, containsAll(err.Error(), method+" "+path, strconv.Itoa(status)), "error %q names the endpoint and status", err)
	return ae
}

// transportError asserts that err is an *rxdelivery.TransportError naming
// the endpoint, and returns it.
func transportError(t *testing.T, err error, method, path string) *rxdelivery.TransportError {
	t.Helper()
	var te *rxdelivery.TransportError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, method, te.Method)
	assert.Equal(t, path, te.Path)
	assert.Contains(t, err.Error(), method+" "+path)
	return te
}

// decodeError asserts that err is an *rxdelivery.DecodeError naming the
// endpoint and the 200 status, matching ErrMalformedResponse.
func decodeError(t *testing.T, err error, method, path string) *rxdelivery.DecodeError {
	t.Helper()
	var de *rxdelivery.DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, method, de.Method)
	assert.Equal(t, path, de.Path)
	assert.Equal(t, http.StatusOK, de.StatusCode)
	assert.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
	assert.True(t, containsAll(err.Error(), method+" "+path, "200"), "error %q names the endpoint and status", err)
	return de
}

// TestWaitsEndWithTheContext: an attempt the server holds on a real
// connection, before its headers or in its body, is ended by the call's
// context, and a write so ended has an unknown outcome.
func TestWaitsEndWithTheContext(t *testing.T) {
	t.Parallel()
	// An attempt the server stalls, before its headers or in the middle of
	// its body, on a real connection: only the context can end it. The
	// bound below only detects a wait the context did not end.
	const bound = 30 * time.Second
	t.Run("slow headers", func(t *testing.T) {
		var s *server
		s = newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
			drainRequest(r)
			s.wait(r)
		})
		c := newClient(t, s)
		for _, write := range []bool{false, true} {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			start := time.Now()
			var err error
			path := getPath
			if write {
				path = createPath
				_, err = c.Orders.Create(ctx, createParams(t, "ref-1"))
			} else {
				_, err = c.Orders.Get(ctx, "ord_1")
			}
			cancel()
			assert.Less(t, time.Since(start), bound)
			te := transportError(t, err, map[bool]string{false: http.MethodGet, true: http.MethodPost}[write], path)
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			assert.Equal(t, write, te.UnknownOutcome, "a write that reached the server has an unknown outcome")
		}
		assert.Equal(t, int64(2), s.attempts.Load(), "an attempt ended by the context is not retried")
	})

	t.Run("slow body", func(t *testing.T) {
		var s *server
		s = newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
			drainRequest(r)
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "1000")
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, `{"order":{"id":"ord_1",`)
			w.(http.Flusher).Flush()
			s.wait(r)
		})
		// The deadline starts when the answer's headers are in the client's
		// hands, so it always falls in the body, however slow the machine.
		tr := &headersThen{next: http.DefaultTransport.(*http.Transport).Clone()}
		t.Cleanup(tr.next.CloseIdleConnections)
		c := newClient(t, s, rxdelivery.WithHTTPClient(&http.Client{Transport: tr}))
		for _, write := range []bool{false, true} {
			ctx, cancel := context.WithCancelCause(context.Background())
			tr.arm(func() { time.AfterFunc(100*time.Millisecond, func() { cancel(context.DeadlineExceeded) }) })
			start := time.Now()
			var err error
			method, path := http.MethodGet, getPath
			if write {
				method, path = http.MethodPost, createPath
				_, err = c.Orders.Create(ctx, createParams(t, "ref-1"))
			} else {
				_, err = c.Orders.Get(ctx, "ord_1")
			}
			cancel(nil)
			assert.Less(t, time.Since(start), bound)
			decodeError(t, err, method, path)
			assert.ErrorIs(t, err, context.DeadlineExceeded, "the call's context ended the read (its cause)")
			if write {
				assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome, "the order was accepted; its answer was lost")
			}
		}
	})
}

// headersThen is a transport that calls the function armed before a call
// once that call's answer has its headers.
type headersThen struct {
	next *http.Transport
	mu   sync.Mutex
	then func()
}

// arm sets the function the next answer's headers call.
func (h *headersThen) arm(f func()) {
	h.mu.Lock()
	h.then = f
	h.mu.Unlock()
}

func (h *headersThen) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := h.next.RoundTrip(r)
	if err == nil {
		h.mu.Lock()
		f := h.then
		h.then = nil
		h.mu.Unlock()
		if f != nil {
			f()
		}
	}
	return resp, err
}

func TestCutConnections(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("mid-body", func(t *testing.T) {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
			hijack(t, w, r, partial(`{"order":{"id":"ord_1","status":"ne`, 400))
		})
		c := newClient(t, s)
		_, err := c.Orders.Get(ctx, "ord_1")
		de := decodeError(t, err, http.MethodGet, getPath)
		assert.True(t, de.Incomplete)
		assert.Contains(t, err.Error(), "200 OK: response body incomplete: ")
		assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
		assert.Equal(t, int64(attemptsMax), s.attempts.Load(), "a read whose answer is cut is sent again")

		_, err = c.Orders.Create(ctx, createParams(t, "ref-1"))
		de = decodeError(t, err, http.MethodPost, createPath)
		assert.True(t, de.Incomplete)
		assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
		assert.Equal(t, int64(attemptsMax+1), s.attempts.Load(), "a write whose answer is cut is not sent again")
	})

	t.Run("before the answer", func(t *testing.T) {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
			hijack(t, w, r, "")
		})
		c := newClient(t, s)
		_, err := c.Orders.Get(ctx, "ord_1")
		te := transportError(t, err, http.MethodGet, getPath)
		assert.False(t, te.UnknownOutcome)
		assert.Equal(t, int64(attemptsMax), s.attempts.Load(), "a read is retried after a cut")

		_, err = c.Orders.Create(ctx, createParams(t, "ref-1"))
		transportError(t, err, http.MethodPost, createPath)
		assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
		assert.Equal(t, int64(attemptsMax+1), s.attempts.Load(), "a write cut after it was read is not retried")
	})

	t.Run("once, then answered", func(t *testing.T) {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int64) {
			if n == 1 {
				hijack(t, w, r, "")
				return
			}
			writeJSON(w, http.StatusOK, orderBody("ord_1"))
		})
		c := newClient(t, s)
		o, err := c.Orders.Get(ctx, "ord_1")
		require.NoError(t, err)
		assert.Equal(t, "ord_1", o.ID)
		assert.Equal(t, int64(2), s.attempts.Load())
	})
}

// hugeBody writes size bytes of body: prefix, then filler.
func hugeBody(w http.ResponseWriter, status int, prefix string, size int) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(size))
	w.WriteHeader(status)
	if _, err := io.WriteString(w, prefix); err != nil {
		return
	}
	chunk := []byte(strings.Repeat("a", 64<<10))
	for left := size - len(prefix); left > 0; left -= len(chunk) {
		if left < len(chunk) {
			chunk = chunk[:left]
		}
		if _, err := w.Write(chunk); err != nil {
			return // the client stopped reading
		}
	}
}

// allocated returns the bytes allocated while fn ran (by the whole
// process: the server's share is small and fixed).
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestHugeBodies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const size = 64 << 20

	t.Run("error answer", func(t *testing.T) {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
			hugeBody(w, http.StatusInternalServerError, `{"error":{"message":"`, size)
		})
		c := newClient(t, s)
		var err error
		n := allocated(func() { _, err = c.Orders.Get(ctx, "ord_1") })
		ae := apiError(t, err, http.MethodGet, getPath, http.StatusInternalServerError)
		assert.LessOrEqual(t, len(ae.Body), 4<<10, "the error keeps a bounded copy")
		assert.Less(t, n, uint64(8<<20), "bytes allocated for %d attempts at a %d-byte error answer", attemptsMax, size)
		t.Logf("allocated %d bytes over %d attempts at a %d MiB error body", n, s.attempts.Load(), size>>20)
	})

	t.Run("success answer over the limit", func(t *testing.T) {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
			drainRequest(r)
			hugeBody(w, http.StatusOK, `{"order":{"id":"`, size)
		})
		c := newClient(t, s, rxdelivery.WithMaxResponseBytes(1<<20))
		var err error
		n := allocated(func() { _, err = c.Orders.Get(ctx, "ord_1") })
		decodeError(t, err, http.MethodGet, getPath)
		assert.Contains(t, err.Error(), "size limit")
		assert.Less(t, n, uint64(16<<20), "bytes allocated for a %d-byte answer with a 1 MiB limit", size)
		t.Logf("allocated %d bytes for a %d MiB answer with a 1 MiB limit", n, size>>20)

		_, err = c.Orders.Create(ctx, createParams(t, "ref-1"))
		decodeError(t, err, http.MethodPost, createPath)
		assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	})
}

// TestErrorsMatchOneType checks that every failure above is exactly one of
// the SDK's error types, whatever the path through the transport.
func TestErrorsMatchOneType(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	handlers := map[string]handlerFunc{
		"429": func(w http.ResponseWriter, r *http.Request, _ int64) { writeJSON(w, 429, `{}`) },
		"cut": func(w http.ResponseWriter, r *http.Request, _ int64) { hijack(t, w, r, "") },
		"bad": func(w http.ResponseWriter, r *http.Request, _ int64) { writeJSON(w, 200, `{`) },
	}
	for name, h := range handlers {
		s := newServer(t, h)
		c := newClient(t, s, rxdelivery.WithRetryMax(1))
		_, err := c.Orders.Get(ctx, "ord_1")
		require.Error(t, err, name)
		var (
			ae *rxdelivery.APIError
			te *rxdelivery.TransportError
			de *rxdelivery.DecodeError
		)
		matched := 0
		for _, ok := range []bool{errors.As(err, &ae), errors.As(err, &te), errors.As(err, &de)} {
			if ok {
				matched++
			}
		}
		assert.Equal(t, 1, matched, "%s: %v", name, err)
	}
}

// TestPoolWaitEndsWithTheContext fills the default pool's connections to
// the host with calls the server holds, then makes one more call: it waits
// for a connection, and its context ends the wait. The write it carried
// never left, so its outcome is known.
func TestPoolWaitEndsWithTheContext(t *testing.T) {
	t.Parallel()
	held := make(chan struct{}, core.DefaultMaxConnsPerHost)
	var s *server
	s = newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
		drainRequest(r)
		held <- struct{}{}
		s.wait(r)
	})
	c := newClient(t, s)
	hold, release := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := 0; i < core.DefaultMaxConnsPerHost; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = c.Orders.Get(hold, "ord_1")
		}()
	}
	for i := 0; i < core.DefaultMaxConnsPerHost; i++ {
		<-held
	}

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.Orders.Create(ctx, createParams(t, "ref-1"))
	te := transportError(t, err, http.MethodPost, createPath)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.False(t, te.UnknownOutcome, "the create never reached the server")
	assert.Equal(t, int64(core.DefaultMaxConnsPerHost), s.attempts.Load())

	release()
	wg.Wait()
}

// TestTheCallersCauseIsKept: a call ended by a context cancelled with a
// cause (context.WithCancelCause) matches both context.Canceled and the
// cause, wherever the call stood: before its first attempt, waiting
// between attempts, in flight, or reading the body. The cause's text is
// shown through the same filter as every cause.
func TestTheCallersCauseIsKept(t *testing.T) {
	t.Parallel()
	errShift := errors.New("shift over for patient Jane Roe")
	check := func(t *testing.T, err error) {
		t.Helper()
		require.Error(t, err)
		assert.ErrorIs(t, err, context.Canceled)
		assert.ErrorIs(t, err, errShift)
		assert.NotContains(t, err.Error(), "Roe")
		assert.Contains(t, err.Error(), "context canceled")
	}
	// stand is where the server holds the call; it cancels the call's
	// context once the call is there.
	stands := map[string]func(s *server, cancel func()) handlerFunc{
		"between attempts": func(s *server, cancel func()) handlerFunc {
			return func(w http.ResponseWriter, r *http.Request, _ int64) {
				drainRequest(r)
				writeJSON(w, http.StatusServiceUnavailable, `{"error":{"message":"down"}}`)
				time.AfterFunc(50*time.Millisecond, cancel)
			}
		},
		"in flight": func(s *server, cancel func()) handlerFunc {
			return func(w http.ResponseWriter, r *http.Request, _ int64) {
				drainRequest(r)
				cancel()
				s.wait(r)
			}
		},
		"in the body": func(s *server, cancel func()) handlerFunc {
			return func(w http.ResponseWriter, r *http.Request, _ int64) {
				drainRequest(r)
				w.Header().Set("Content-Length", "1000")
				w.WriteHeader(http.StatusOK)
				_, _ = io.WriteString(w, `{"order":{"id":"ord_1",`)
				w.(http.Flusher).Flush()
				time.AfterFunc(50*time.Millisecond, cancel)
				s.wait(r)
			}
		},
	}
	for name, stand := range stands {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			var s *server
			s = newServer(t, func(w http.ResponseWriter, r *http.Request, n int64) {
				stand(s, func() { cancel(errShift) })(w, r, n)
			})
			c := newClient(t, s, rxdelivery.WithRetryWaitMin(time.Hour), rxdelivery.WithRetryWaitMax(time.Hour))
			_, err := c.Orders.Get(ctx, "ord_1")
			check(t, err)
		})
	}
	t.Run("a write in flight, past its grace", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		var s *server
		s = newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
			drainRequest(r)
			cancel(errShift)
			s.wait(r)
		})
		c := newClient(t, s, rxdelivery.WithWriteGrace(100*time.Millisecond))
		var md rxdelivery.Metadata
		_, err := c.Orders.Create(ctx, createParams(t, "ref-1"), rxdelivery.WithMetadata(&md))
		check(t, err)
		assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
		assert.True(t, md.GraceUsed, "the write went on for its grace")
	})
	t.Run("before the first attempt", func(t *testing.T) {
		t.Parallel()
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) { writeJSON(w, http.StatusOK, `{}`) })
		c := newClient(t, s)
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(errShift)
		_, err := c.Orders.Create(ctx, createParams(t, "ref-1"))
		check(t, err)
		assert.ErrorIs(t, err, rxdelivery.ErrNotSent)
		assert.Zero(t, s.attempts.Load())
	})
}
