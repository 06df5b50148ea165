package rxdelivery_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// httptest: a dropped connection (a hijacked socket), a body cut short and an attempt stalled until its timeout on a real connection are among the ends it names.

// step is one answer of a scripted server.
type step struct {
	status int
	// id is the X-Request-Id header sent; header sets more.
	id     string
	header http.Header
	body   string
	// drop closes the connection without answering; stall waits for the
	// request's context to end; cut announces a longer body than it sends.
	drop, stall, cut bool
}

// scripted is a platform on every interface that answers each request
// with the next step (then 200 with anyBody) and counts the requests.
// newScriptedMock serves it through Setup's httpmock, for the scripts of
// answers; newScripted on a raw loopback server, for the scripts that drop
// or cut a connection or stall until a timeout ends it.
type scripted struct {
	// URL is the raw server's, or the mock's omni URL.
	URL    string
	onMock bool
	mu     sync.Mutex
	steps  []step
	paths  []string
	bodies []string
}

// newScripted starts s on a raw loopback server.
//
// httptest: a dropped connection, a body cut short and a stall ended by a timeout need a real socket.
func newScripted(t *testing.T, steps ...step) *scripted {
	s := &scripted{steps: steps}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// newScriptedMock returns s served through Setup's httpmock: no socket, so
// no step of it drops or cuts the connection.
func newScriptedMock(t *testing.T, steps ...step) *scripted {
	for _, st := range steps {
		if st.drop || st.cut {
			t.Fatal("a step that drops or cuts the connection needs newScripted's socket")
		}
	}
	return &scripted{steps: steps, onMock: true, URL: testutil.OmniURL}
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	st := step{status: 200, body: anyBody}
	if len(s.steps) > 0 {
		st, s.steps = s.steps[0], s.steps[1:]
	}
	s.paths = append(s.paths, r.URL.EscapedPath())
	var b strings.Builder
	if r.Body != nil {
		buf := make([]byte, 4096)
		for {
			n, err := r.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
	}
	s.bodies = append(s.bodies, b.String())
	s.mu.Unlock()
	switch {
	case st.drop:
		hj, _ := w.(http.Hijacker)
		conn, _, _ := hj.Hijack()
		conn.Close()
		return
	case st.stall:
		<-r.Context().Done()
		return
	}
	for k, v := range st.header {
		w.Header()[k] = v
	}
	if st.id != "" {
		w.Header().Set("X-Request-Id", st.id)
	}
	w.Header().Set("Content-Type", "application/json")
	if st.cut {
		w.Header().Set("Content-Length", "1000")
		w.WriteHeader(st.status)
		_, _ = w.Write([]byte(`{"order":{"id":`))
		return
	}
	w.WriteHeader(st.status)
	_, _ = w.Write([]byte(st.body))
}

// client returns a client on s with small retry waits.
func (s *scripted) client(t *testing.T, opts ...rxdelivery.Option) *rxdelivery.Client {
	t.Helper()
	base := []rxdelivery.Option{
		rxdelivery.WithRetryWaitMin(time.Millisecond), rxdelivery.WithRetryWaitMax(2 * time.Second),
	}
	if s.onMock {
		env := testutil.Setup(t, append(append(base, rxdelivery.WithSandbox(false)), opts...)...)
		env.Serve(s)
		return env.Client
	}
	base = append(base, rxdelivery.WithOmniURL(s.URL), rxdelivery.WithDeliveryURL(s.URL),
		rxdelivery.WithTrackingURL(s.URL), rxdelivery.WithPricingURL(s.URL))
	c, err := rxdelivery.NewClient("key", "secret", append(base, opts...)...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

func (s *scripted) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.paths)
}

// TestErrorsCarryTheRequestIDAndAttempts: every error type a call that
// got a response returns carries the platform's request id of its last
// response and the call's attempts, and its Error text ends with the id,
// so that the error quoted in a ticket is enough; Metadata agrees.
func TestErrorsCarryTheRequestIDAndAttempts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("APIError after retries", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t, step{status: 503, id: "req_0a1"}, step{status: 503, id: "req_0a2"},
			step{status: 404, id: "req_0a3", body: `{"error":{"message":"Order not found"}}`})
		var md rxdelivery.Metadata
		_, err := s.client(t).Orders.Get(ctx, "ord_1", rxdelivery.WithMetadata(&md))
		var ae *rxdelivery.APIError
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, "req_0a3", ae.RequestID)
		assert.Equal(t, 3, ae.Attempts)
		assert.True(t, strings.HasSuffix(err.Error(), " (request id req_0a3)"), err.Error())
		assert.Equal(t, "req_0a3", md.RequestID)
		assert.Equal(t, 3, md.Attempts)
		assert.Contains(t, fmt.Sprintf("%#v", err), `RequestID:"req_0a3", Attempts:3`)
	})
	t.Run("APIError of a write of unknown outcome", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t, step{status: 500, id: "3f2a9c1e-7b4d-4e2a-9c1e-0a1b2c3d4e5f"})
		_, err := s.client(t).Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
		var ae *rxdelivery.APIError
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, 1, ae.Attempts)
		assert.True(t, strings.HasSuffix(err.Error(),
			"(outcome unknown: reconcile before retrying) (request id 3f2a9c1e-7b4d-4e2a-9c1e-0a1b2c3d4e5f)"), err.Error())
	})
	t.Run("DecodeError", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t, step{status: 200, id: "req_0d1", body: `{"order":[]}`})
		_, err := s.client(t).Orders.Get(ctx, "ord_1")
		var de *rxdelivery.DecodeError
		require.ErrorAs(t, err, &de)
		assert.Equal(t, "req_0d1", de.RequestID)
		assert.Equal(t, 1, de.Attempts)
		assert.True(t, strings.HasSuffix(err.Error(), " (request id req_0d1)"), err.Error())
	})
	t.Run("DecodeError of a body cut short after a retry", func(t *testing.T) {
		t.Parallel()
		s := newScripted(t, step{status: 200, id: "req_0c1", cut: true}, step{status: 200, id: "req_0c2", cut: true})
		_, err := s.client(t).Orders.Get(ctx, "ord_1", rxdelivery.WithRetryMax(1))
		var de *rxdelivery.DecodeError
		require.ErrorAs(t, err, &de)
		assert.True(t, de.Incomplete)
		assert.Equal(t, "req_0c2", de.RequestID)
		assert.Equal(t, 2, de.Attempts)
	})
	t.Run("TransportError after a response", func(t *testing.T) {
		t.Parallel()
		s := newScripted(t, step{status: 503, id: "req_0e1"}, step{stall: true})
		var md rxdelivery.Metadata
		_, err := s.client(t).Orders.Get(ctx, "ord_1", rxdelivery.WithRetryMax(1), rxdelivery.WithMetadata(&md),
			rxdelivery.WithAttemptTimeout(100*time.Millisecond))
		var te *rxdelivery.TransportError
		require.ErrorAs(t, err, &te)
		assert.Equal(t, "req_0e1", te.RequestID, "the id of the last response the call got")
		assert.Equal(t, 2, te.Attempts)
		assert.True(t, strings.HasSuffix(err.Error(), " (request id req_0e1)"), err.Error())
		assert.Equal(t, 2, md.Attempts)
	})
	t.Run("TransportError without a response", func(t *testing.T) {
		t.Parallel()
		s := newScripted(t, step{drop: true})
		_, err := s.client(t).Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
		var te *rxdelivery.TransportError
		require.ErrorAs(t, err, &te)
		assert.Empty(t, te.RequestID)
		assert.Equal(t, 1, te.Attempts)
		assert.NotContains(t, err.Error(), "request id")
	})
	t.Run("not sent by a hook", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t)
		refuse := rxdelivery.WithMiddleware(func(option.AttemptFunc) option.AttemptFunc {
			return func(context.Context, *option.Attempt) option.AttemptResult { return option.AttemptResult{} }
		})
		_, err := s.client(t).Orders.Get(ctx, "ord_1", refuse)
		var te *rxdelivery.TransportError
		require.ErrorAs(t, err, &te)
		assert.Empty(t, te.RequestID, "nothing was sent")
		assert.Equal(t, 1, te.Attempts, "the attempt the hook stopped, as Metadata counts it")
		assert.Zero(t, s.requests())
	})
	t.Run("refused before sending", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t)
		var md rxdelivery.Metadata
		_, err := s.client(t).Orders.Create(ctx, &orders.CreateParams{}, rxdelivery.WithMetadata(&md))
		require.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
		assert.Zero(t, md.Attempts)
		assert.Empty(t, md.RequestID)
		assert.NotContains(t, err.Error(), "request id")
		_, err = s.client(t).Orders.Get(ctx, "ord_1", rxdelivery.WithHeader("X-Bad", "a\nb"), rxdelivery.WithMetadata(&md))
		var ce *rxdelivery.ConfigError
		require.ErrorAs(t, err, &ce)
		assert.Zero(t, md.Attempts)
		assert.Zero(t, s.requests())
	})
}

// TestRequestIDIsShownOnlyInASafeForm: a request id that is not a
// generated identifier's (a name, words, a value the call sent) is left
// out of the error, its text and Metadata; Header keeps it raw.
func TestRequestIDIsShownOnlyInASafeForm(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"Jane-Roe-1975", "req 8f3a", "Roe", "ord_1", strings.Repeat("a1", 70)} {
		s := newScriptedMock(t, step{status: 404, id: id, body: `{"error":{"message":"Order not found"}}`})
		var md rxdelivery.Metadata
		_, err := s.client(t).Orders.Get(context.Background(), "ord_1", rxdelivery.WithMetadata(&md))
		var ae *rxdelivery.APIError
		require.ErrorAs(t, err, &ae, id)
		assert.Empty(t, ae.RequestID, id)
		assert.NotContains(t, err.Error(), "request id", id)
		assert.Contains(t, fmt.Sprintf("%#v", err), `RequestID:""`, id)
		assert.Empty(t, md.RequestID, id)
		require.Len(t, md.AttemptLog, 1)
		assert.Empty(t, md.AttemptLog[0].RequestID, id)
		assert.Equal(t, id, md.Header.Get("X-Request-Id"), "Header keeps it as sent")
	}
}

// TestAttemptLogListsEachAttempt: Metadata.AttemptLog has one record per
// attempt with its status, request id, Retry-After, the wait before it
// and how it ended.
func TestAttemptLogListsEachAttempt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("responses", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t,
			step{status: 429, id: "req_1a", header: http.Header{"Retry-After": {"1"}}},
			step{status: 503, id: "req_2b"},
			step{status: 200, id: "req_3c", body: anyBody})
		var md rxdelivery.Metadata
		_, err := s.client(t).Orders.Get(ctx, "ord_1", rxdelivery.WithMetadata(&md))
		require.NoError(t, err)
		require.Len(t, md.AttemptLog, 3)
		want := []struct {
			status int
			id     string
			ra     time.Duration
		}{{429, "req_1a", time.Second}, {503, "req_2b", 0}, {200, "req_3c", 0}}
		for i, a := range md.AttemptLog {
			assert.Equal(t, i+1, a.Number)
			assert.Equal(t, option.AttemptResponded, a.End)
			assert.Equal(t, "response", a.End.String())
			assert.Empty(t, a.ErrorKind)
			assert.Equal(t, want[i].status, a.StatusCode)
			assert.Equal(t, want[i].id, a.RequestID)
			assert.Equal(t, want[i].ra, a.RetryAfter)
		}
		assert.GreaterOrEqual(t, md.AttemptLog[1].Wait, time.Second, "the second attempt waited out the Retry-After")
		assert.Equal(t, 3, md.Attempts)
	})
	t.Run("failures", func(t *testing.T) {
		t.Parallel()
		s := newScripted(t, step{drop: true}, step{stall: true}, step{status: 200, cut: true}, step{status: 200, body: anyBody})
		var md rxdelivery.Metadata
		_, err := s.client(t).Orders.Get(ctx, "ord_1", rxdelivery.WithMetadata(&md),
			rxdelivery.WithAttemptTimeout(100*time.Millisecond))
		require.NoError(t, err)
		require.Len(t, md.AttemptLog, 4)
		ends := make([]string, 4)
		for i, a := range md.AttemptLog {
			ends[i] = a.End.String() + "/" + a.ErrorKind
		}
		assert.Equal(t, []string{"failed/transport", "attempt_timeout/attempt_timeout", "body_cut/body_cut", "response/"}, ends)
		assert.Equal(t, 200, md.AttemptLog[2].StatusCode, "the cut response's status")
		assert.GreaterOrEqual(t, md.AttemptLog[1].Duration, 100*time.Millisecond, "the attempt ran to its timeout")
	})
	t.Run("not sent", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t, step{status: 429, id: "req_9a", header: http.Header{"Retry-After": {"30"}}})
		c := s.client(t, rxdelivery.WithRetryWaitMax(time.Minute))
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		// The first call's 429 pauses the interface for 30s, more than the
		// call may wait: it ends at once.
		_, err := c.Orders.Get(ctx, "ord_1")
		require.ErrorIs(t, err, rxdelivery.ErrRateLimited)
		var md rxdelivery.Metadata
		_, err = c.Orders.Get(ctx, "ord_1", rxdelivery.WithMetadata(&md))
		require.ErrorIs(t, err, rxdelivery.ErrRateLimited)
		require.Len(t, md.AttemptLog, 1)
		a := md.AttemptLog[0]
		assert.Equal(t, option.AttemptNotSent, a.End)
		assert.Equal(t, "not_sent", a.ErrorKind)
		assert.Zero(t, a.StatusCode)
		assert.Equal(t, 1, s.requests(), "the second call sent nothing")
		require.ErrorIs(t, err, rxdelivery.ErrNotSent)
		var te *rxdelivery.TransportError
		require.ErrorAs(t, err, &te)
		assert.Empty(t, te.RequestID, "no response came to this call")
		assert.Equal(t, 1, te.Attempts)
	})
	t.Run("each call its own slice", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t, step{status: 503}, step{status: 200, body: anyBody}, step{status: 200, body: anyBody})
		c := s.client(t)
		var md rxdelivery.Metadata
		_, err := c.Orders.Get(ctx, "ord_1", rxdelivery.WithMetadata(&md))
		require.NoError(t, err)
		first := md.AttemptLog
		_, err = c.Orders.Get(ctx, "ord_1", rxdelivery.WithMetadata(&md))
		require.NoError(t, err)
		assert.Len(t, first, 2)
		assert.Equal(t, 503, first[0].StatusCode, "the next call did not write over it")
		assert.Len(t, md.AttemptLog, 1)
	})
}

// TestRequestIDSuffixOfAnErrorBuiltByOtherCode: an error value built
// outside the SDK shows its RequestID only when it is one token of safe
// characters.
func TestRequestIDSuffixOfAnErrorBuiltByOtherCode(t *testing.T) {
	t.Parallel()
	for id, shown := range map[string]bool{
		"req_abc123": true, "a.b:c-d_e": true, "": false, "req abc": false, "req\nabc": false,
		"req_\u00e9": false, strings.Repeat("a", 129): false, strings.Repeat("a", 128): true,
	} {
		for _, err := range []error{
			&rxdelivery.APIError{StatusCode: 500, Method: "GET", Path: "/p", RequestID: id},
			&rxdelivery.TransportError{Method: "GET", Path: "/p", Err: errors.New("cut"), RequestID: id},
			&rxdelivery.DecodeError{StatusCode: 200, Method: "GET", Path: "/p", Err: errors.New("bad"), RequestID: id},
		} {
			assert.Equal(t, shown, strings.HasSuffix(err.Error(), " (request id "+id+")"), "%T %q", err, id)
			if !shown {
				assert.NotContains(t, err.Error(), "request id", "%T %q", err, id)
			}
		}
	}
}

// TestLogLinesNameTheRequestID: the attempt's debug line and the line of
// a call given up carry the request id in its safe form, and never one of
// another form.
func TestLogLinesNameTheRequestID(t *testing.T) {
	t.Parallel()
	s := newScriptedMock(t, step{status: 503, id: "req_6a1"}, step{status: 503, id: "Jane-Roe-1975"})
	var logs strings.Builder
	l := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	_, err := s.client(t, rxdelivery.WithLogger(l)).Orders.Get(context.Background(), "ord_1", rxdelivery.WithRetryMax(1))
	require.ErrorIs(t, err, rxdelivery.ErrUnavailable)
	assert.Contains(t, logs.String(), `msg="rxdelivery: attempt" operation=orders.Get method=GET path=/api/v1/orders/{id}`)
	assert.Contains(t, logs.String(), "status=503 request_id=req_6a1")
	assert.NotContains(t, logs.String(), "Jane")
	assert.NotContains(t, logs.String(), "Roe")
	assert.Regexp(t, `msg="rxdelivery: giving up" .* attempts=2 error=unavailable status=503\n`, logs.String(),
		"the last response had no id of safe form")

	s = newScriptedMock(t, step{status: 503, id: "req_6a2"})
	logs.Reset()
	_, err = s.client(t, rxdelivery.WithLogger(l)).Orders.Get(context.Background(), "ord_1", rxdelivery.WithRetryMax(0))
	require.Error(t, err)
	assert.Contains(t, logs.String(), "attempts=1 error=unavailable status=503 request_id=req_6a2\n")
}

// TestRetryMaxAndAttemptTimeoutAreOneSetting: WithRetryMax and
// WithAttemptTimeout given to NewClient are the defaults a call clones and
// its own options replace; the client's and a call's forms make the same
// attempts, and both refuse a negative value before sending.
func TestRetryMaxAndAttemptTimeoutAreOneSetting(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	unavailable := func(n int) []step {
		steps := make([]step, n)
		for i := range steps {
			steps[i] = step{status: 503, body: `{"error":"down"}`}
		}
		return steps
	}
	for _, tc := range []struct {
		name   string
		client []rxdelivery.Option
		call   []rxdelivery.CallOption
		want   int
	}{
		{"default", nil, nil, 4},
		{"client", []rxdelivery.Option{rxdelivery.WithRetryMax(1)}, nil, 2},
		{"call", nil, []rxdelivery.CallOption{rxdelivery.WithRetryMax(1)}, 2},
		{"call over client", []rxdelivery.Option{rxdelivery.WithRetryMax(3)}, []rxdelivery.CallOption{rxdelivery.WithRetryMax(0)}, 1},
		{"client zero", []rxdelivery.Option{rxdelivery.WithRetryMax(0)}, nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newScriptedMock(t, unavailable(5)...)
			var md rxdelivery.Metadata
			_, err := s.client(t, tc.client...).Orders.Get(ctx, "ord_1", append(tc.call, rxdelivery.WithMetadata(&md))...)
			require.Error(t, err)
			assert.Equal(t, tc.want, s.requests(), "requests sent")
			assert.Equal(t, tc.want, md.Attempts)
		})
	}
	t.Run("attempt timeout, client and call", func(t *testing.T) {
		t.Parallel()
		bound := rxdelivery.WithAttemptTimeout(50 * time.Millisecond)
		for _, form := range []struct {
			client []rxdelivery.Option
			call   []rxdelivery.CallOption
		}{
			{[]rxdelivery.Option{bound}, nil},
			{nil, []rxdelivery.CallOption{bound}},
		} {
			// On the mock the stalled attempt is counted before its
			// timeout runs, however slow the machine.
			s := newScriptedMock(t, step{stall: true}, step{stall: true})
			_, err := s.client(t, form.client...).Orders.Get(ctx, "ord_1", append(form.call, rxdelivery.WithRetryMax(1))...)
			assert.ErrorIs(t, err, rxdelivery.ErrAttemptTimeout)
			assert.Equal(t, 2, s.requests(), "both forms bound each attempt, and the read is retried once")
		}
	})
	t.Run("negative values", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t)
		for _, o := range []rxdelivery.CallOption{rxdelivery.WithRetryMax(-1), rxdelivery.WithAttemptTimeout(-time.Second), rxdelivery.WithWriteGrace(-time.Second)} {
			_, err := rxdelivery.NewClient("key", "secret", rxdelivery.WithDeliveryURL(s.URL), o)
			var ce *rxdelivery.ConfigError
			assert.ErrorAs(t, err, &ce, "NewClient")
			_, err = s.client(t).Orders.Create(ctx, &orders.CreateParams{}, o)
			assert.ErrorAs(t, err, &ce, "a call")
		}
		assert.Zero(t, s.requests(), "nothing is sent")
	})
}
