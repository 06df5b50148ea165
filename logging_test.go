package rxdelivery_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
)

// httptest: the flows include a connection cut mid-call (a hijacked socket).

// syncBuffer is a bytes.Buffer safe for a handler's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Reset()
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestLogLevelsAnOperatorSees checks that, at the Info level an operator's
// default logger has, retries, give-ups and unknown outcomes are logged,
// attempts are not, and no line carries a query value, a body value or a
// credential.
func TestLogLevelsAnOperatorSees(t *testing.T) {
	t.Parallel()
	s := newOptMock()
	var buf syncBuffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	c := s.client(t, rxdelivery.WithLogger(logger))
	ctx := context.Background()

	s.push(503, 429)
	_, err := c.Pharmacies.Search(ctx, &pharmacies.SearchParams{OriginAddress: "42 Elm Avenue, Columbus, OH 43210"})
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, 2, buf.String())
	assert.Contains(t, lines[0], `level=INFO msg="rxdelivery: retrying" operation=pharmacies.Search method=GET path=/api/v1/pharmacies/ attempt=2`)
	assert.Contains(t, lines[0], "after_status=503")
	assert.Contains(t, lines[1], "attempt=3")

	s.push(503, 503, 503, 503)
	_, err = c.Orders.Get(ctx, "ord_1")
	require.Error(t, err)
	assert.Contains(t, buf.String(), `level=WARN msg="rxdelivery: giving up" operation=orders.Get method=GET path=/api/v1/orders/{id} attempts=4 error=unavailable status=503`)

	s.push(500)
	_, err = c.Orders.Create(ctx, testutil.SamedayOrder())
	require.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.Contains(t, buf.String(), `level=ERROR msg="rxdelivery: outcome of the write is unknown" operation=orders.Create method=POST path=/api/v1/orders attempts=1 error=unknown_outcome status=500`)

	s.push(500)
	require.Error(t, c.Orders.RemovePrescription(ctx, "ord_1", "RX-SECRET-77"))

	before := buf.String()
	s.push(404)
	_, err = c.Orders.Get(ctx, "ord_2")
	require.ErrorIs(t, err, rxdelivery.ErrNotFound)
	assert.Equal(t, before, buf.String(), "a refusal is the caller's to report")

	out := buf.String()
	assert.NotContains(t, out, "level=DEBUG")
	for _, secret := range []string{"Elm", "43210", "origin_address", "RX-SECRET-77", "secret", "a2V5",
		"Doe", "6145550100", "Columbus"} {
		assert.NotContains(t, out, secret)
	}
	assert.Contains(t, out, "/prescriptions/{rx_number}")
	assert.NotContains(t, out, "ord_1", "log lines show the templated path")
}

// flowServer answers each request with the next action of a script (then
// 200 with anyBody): a status ("503", "429" with Retry-After: 0, "302" to
// another path with a query), or "cut" (the connection closed without an
// answer).
type flowServer struct {
	*httptest.Server
	mu     sync.Mutex
	script []string
}

// newFlowServer starts a flowServer.
//
// httptest: a "cut" closes a hijacked connection without an answer, which needs a real socket.
func newFlowServer(t *testing.T) *flowServer {
	s := &flowServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		s.mu.Lock()
		action := "ok"
		if len(s.script) > 0 {
			action, s.script = s.script[0], s.script[1:]
		}
		s.mu.Unlock()
		switch action {
		case "cut":
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		case "429":
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
		case "302":
			w.Header().Set("Location", "/elsewhere/ord_LOG_9?patient=Jane+Roe")
			w.WriteHeader(http.StatusFound)
		case "ok":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(anyBody))
		default:
			status, _ := strconv.Atoi(action)
			w.WriteHeader(status)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *flowServer) play(actions ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = actions
}

// TestEveryLogLineNamesTheOperation runs a full flow on each of the
// endpoints with a debug logger writing JSON: a success, a retried 503, a
// 429 with Retry-After, a connection cut (retried for a read, an unknown
// outcome for a write), a give-up, a redirect answered 3xx and a redirect
// a caller's client follows (or, for a write, is refused). It parses every
// line written and checks that each carries the operation, method and
// templated path of its call (with the base URL's path), and never an
// identifier, a query or the redirect's target.
func TestEveryLogLineNamesTheOperation(t *testing.T) {
	t.Parallel()
	s := newFlowServer(t)
	var buf syncBuffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var mu sync.Mutex
	var op option.Operation
	record := rxdelivery.WithCallMiddleware(func(next option.CallFunc) option.CallFunc {
		return func(ctx context.Context, o *option.Operation) option.CallResult {
			mu.Lock()
			op = *o
			mu.Unlock()
			return next(ctx, o)
		}
	})
	prefix := map[rxdelivery.Interface]string{rxdelivery.Omni: "/omni", rxdelivery.Delivery: "/delivery",
		rxdelivery.Tracking: "/tracking-api", rxdelivery.Pricing: "/pricing-api"}
	mk := func(extra ...rxdelivery.Option) *rxdelivery.Client {
		opts := []rxdelivery.Option{rxdelivery.WithoutValidation(), rxdelivery.WithLogger(logger), record,
			rxdelivery.WithRetryWaitMin(time.Millisecond), rxdelivery.WithRetryWaitMax(5 * time.Millisecond)}
		for iface, p := range prefix {
			opts = append(opts, rxdelivery.WithBaseURL(iface, s.URL+p))
		}
		c, err := rxdelivery.NewClient("key", "secret", append(opts, extra...)...)
		require.NoError(t, err)
		t.Cleanup(c.CloseIdleConnections)
		return c
	}
	plain := mk()
	following := mk(rxdelivery.WithHTTPClient(&http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error { return nil },
	}))
	flows := []struct {
		name    string
		client  *rxdelivery.Client
		actions []string
		opts    []option.CallOption
	}{
		{"success", plain, nil, nil},
		{"503 then success", plain, []string{"503"}, nil},
		{"429 with Retry-After then success", plain, []string{"429"}, nil},
		{"connection cut", plain, []string{"cut"}, nil},
		{"give-up after 503s", plain, []string{"503", "503"}, []option.CallOption{rxdelivery.WithRetryMax(1)}},
		{"500", plain, []string{"500"}, []option.CallOption{rxdelivery.WithRetryMax(0)}},
		{"redirect answered", plain, []string{"302"}, nil},
		{"redirect followed or refused", following, []string{"302"}, nil},
	}
	messages := map[string]int{}
	ctx := context.Background()
	for _, e := range testutil.Calls(t) {
		for _, f := range flows {
			buf.Reset()
			s.play(f.actions...)
			_ = e.Call(ctx, f.client, f.opts...)
			mu.Lock()
			want := op
			mu.Unlock()
			require.Equal(t, e.Name, want.Name)
			msg := e.Name + ", " + f.name
			out := buf.String()
			lines := strings.Split(strings.TrimSpace(out), "\n")
			require.NotEmpty(t, lines, msg)
			attempts := 0
			for _, line := range lines {
				var rec map[string]any
				require.NoError(t, json.Unmarshal([]byte(line), &rec), "%s: %s", msg, line)
				messages[rec["msg"].(string)]++
				if strings.HasPrefix(rec["msg"].(string), "rxdelivery: attempt") {
					attempts++
				}
				assert.Equal(t, want.Name, rec["operation"], "%s: %s", msg, line)
				assert.Equal(t, want.Method, rec["method"], "%s: %s", msg, line)
				assert.Equal(t, prefix[e.Interface]+want.Path, rec["path"], "%s: %s", msg, line)
			}
			assert.NotZero(t, attempts, "%s: each attempt has its debug line", msg)
			// Ids and patient values the rows send, and others: none is logged.
			never := append([]string{"req_1", "req_2", "ord_1", "ord_2", "5550001", "RX-1", "1Z999", "ChIJ_place",
				"?", "ids", "elsewhere", "LOG_9", "Jane", "secret", "a2V5", testutil.RxNumber, "Quillfeather"},
				testutil.PatientValues()...)
			for _, never := range never {
				assert.NotContains(t, out, never, msg)
			}
		}
	}
	for _, m := range []string{"rxdelivery: attempt", "rxdelivery: attempt failed", "rxdelivery: retrying",
		"rxdelivery: giving up", "rxdelivery: outcome of the write is unknown"} {
		assert.NotZero(t, messages[m], "the flows write %q lines", m)
	}
	t.Logf("lines per message: %v", messages)
}
