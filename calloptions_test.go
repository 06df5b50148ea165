package rxdelivery_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/pricing"
)

// httptest: a handler that hangs until the attempt timeout ends the request on a real connection.

// anyBody satisfies the decoder of every endpoint: the members of the
// documents' examples of every success answer, merged (testutil.AnyBody),
// so that a new endpoint's answer is in it from its document.
var anyBody = testutil.AnyBody()

// answerEmptyObject in a script answers 200 with the body {}.
const answerEmptyObject = 1

// optServer is a platform on every interface that answers each request
// with the next of a script of statuses (then 200 with anyBody), and
// records what it was sent. newOptMock serves it through Setup's httpmock,
// for tests of what is sent and how an answer is read; newOptServer on a
// raw loopback server, for the tests whose handler hangs until the attempt
// timeout ends the request on a real connection.
type optServer struct {
	// URL is the raw server's, or the mock's omni URL.
	URL     string
	onMock  bool
	mu      sync.Mutex
	script  []int
	headers []http.Header
	hits    atomic.Int32
	// answer sets extra answer headers.
	answer http.Header
	// stall makes the first n requests wait for their context to end.
	stall atomic.Int32
}

// newOptServer starts s on a raw loopback server.
//
// httptest: the stalled requests are ended by the attempt timeout on a real connection.
func newOptServer(t *testing.T, script ...int) *optServer {
	s := &optServer{script: script}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// newOptMock returns s served through Setup's httpmock: no socket.
func newOptMock(script ...int) *optServer {
	return &optServer{script: script, onMock: true, URL: testutil.OmniURL}
}

func (s *optServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.hits.Add(1)
	s.mu.Lock()
	s.headers = append(s.headers, r.Header.Clone())
	status := http.StatusOK
	if len(s.script) > 0 {
		status, s.script = s.script[0], s.script[1:]
	}
	for k, v := range s.answer {
		w.Header()[k] = v
	}
	s.mu.Unlock()
	if s.stall.Add(-1) >= 0 {
		select {
		case <-r.Context().Done():
		case <-time.After(20 * time.Second):
		}
		return
	}
	if status == answerEmptyObject {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
		return
	}
	if status != http.StatusOK {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(anyBody))
}

func (s *optServer) push(statuses ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, statuses...)
}

func (s *optServer) lastHeader() http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.headers[len(s.headers)-1]
}

func (s *optServer) client(t *testing.T, opts ...rxdelivery.Option) *rxdelivery.Client {
	base := []rxdelivery.Option{
		rxdelivery.WithSandbox(true),
		rxdelivery.WithRetryWaitMin(time.Millisecond), rxdelivery.WithRetryWaitMax(5 * time.Millisecond),
	}
	if s.onMock {
		env := testutil.Setup(t, append(base, opts...)...)
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

func TestCallRetryMaxChangesThatCallOnly(t *testing.T) {
	t.Parallel()
	s := newOptMock()
	c := s.client(t) // default: 3 retries
	ctx := context.Background()

	s.push(503)
	_, err := c.Orders.Get(ctx, "ord_1", rxdelivery.WithRetryMax(0))
	require.ErrorIs(t, err, rxdelivery.ErrUnavailable)
	assert.EqualValues(t, 1, s.hits.Load(), "no retry for this call")

	s.hits.Store(0)
	s.push(503, 503)
	_, err = c.Orders.Get(ctx, "ord_1", rxdelivery.WithRetryMax(1))
	require.ErrorIs(t, err, rxdelivery.ErrUnavailable)
	assert.EqualValues(t, 2, s.hits.Load())

	s.hits.Store(0)
	s.push(503, 503, 503)
	_, err = c.Orders.Get(ctx, "ord_1")
	require.NoError(t, err, "the client's three retries are back for the next call")
	assert.EqualValues(t, 4, s.hits.Load())

	// A client-level WithRetryMax is the default, and a call's own wins.
	c2 := s.client(t, rxdelivery.WithRetryMax(0))
	s.hits.Store(0)
	s.push(503)
	_, err = c2.Orders.Get(ctx, "ord_1")
	require.ErrorIs(t, err, rxdelivery.ErrUnavailable)
	assert.EqualValues(t, 1, s.hits.Load())
	s.hits.Store(0)
	s.push(503)
	_, err = c2.Orders.Get(ctx, "ord_1", rxdelivery.WithRetryMax(2))
	require.NoError(t, err)
	assert.EqualValues(t, 2, s.hits.Load())

	// The retry policy still decides: a create is not resent after a 500.
	s.hits.Store(0)
	s.push(500)
	_, err = c.Orders.Create(ctx, testutil.SamedayOrder(), rxdelivery.WithRetryMax(5))
	require.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.EqualValues(t, 1, s.hits.Load())
}

func TestCallHeaderOnTheWireForThatCallOnly(t *testing.T) {
	t.Parallel()
	s := newOptMock()
	c := s.client(t, rxdelivery.WithHeader("X-Team", "pharmacy"), rxdelivery.WithHeader("X-Env", "client"))
	ctx := context.Background()

	_, err := c.Orders.Get(ctx, "ord_1", rxdelivery.WithHeader("X-Trace", "t-1"), rxdelivery.WithHeader("X-Env", "call"),
		rxdelivery.WithHeader("Authorization", "Bearer stolen"), rxdelivery.WithHeader("user-agent", "other"))
	require.NoError(t, err)
	h := s.lastHeader()
	assert.Equal(t, "t-1", h.Get("X-Trace"))
	assert.Equal(t, "call", h.Get("X-Env"), "the call's value wins over the client's")
	assert.Equal(t, "pharmacy", h.Get("X-Team"))
	assert.Contains(t, h.Get("Authorization"), "Basic ", "an extra header never replaces the credentials")
	assert.Contains(t, h.Get("User-Agent"), "rxdelivery-go/")

	_, err = c.Orders.Get(ctx, "ord_1")
	require.NoError(t, err)
	h = s.lastHeader()
	assert.Empty(t, h.Get("X-Trace"), "the next call does not carry it")
	assert.Equal(t, "client", h.Get("X-Env"))
	assert.Equal(t, "pharmacy", h.Get("X-Team"))

	// A header that cannot be sent fails the call before sending, and
	// the client that would send it on every call.
	hits := s.hits.Load()
	_, err = c.Orders.Get(ctx, "ord_1", rxdelivery.WithHeader("X-Note", "line\r\nInjected: 1"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"X-Note"`)
	assert.NotContains(t, err.Error(), "Injected")
	_, err = c.Orders.Get(ctx, "ord_1", rxdelivery.WithHeader("Bad Name", "v"))
	require.Error(t, err)
	assert.Equal(t, hits, s.hits.Load())
	_, err = rxdelivery.NewClient("k", "s", rxdelivery.WithHeader("X-Note", "a\nb"))
	require.Error(t, err)

	// Every attempt of a retried call carries it.
	s.push(503)
	_, err = c.Pricing.Quote(ctx, quoteParams(), rxdelivery.WithHeader("X-Trace", "t-2"))
	require.NoError(t, err)
	s.mu.Lock()
	n := len(s.headers)
	assert.Equal(t, "t-2", s.headers[n-2].Get("X-Trace"))
	assert.Equal(t, "t-2", s.headers[n-1].Get("X-Trace"))
	s.mu.Unlock()
}

func quoteParams() *pricing.QuoteParams {
	d := rxdelivery.MustDecimal("1")
	return &pricing.QuoteParams{
		Pickup:            pricing.Location{Address: pricing.Address{ZIPCode: "43210"}},
		Dropoff:           pricing.Location{Address: pricing.Address{ZIPCode: "10001"}},
		PackageDimensions: pricing.PackageDimensions{LengthIn: d, WidthIn: d, HeightIn: d, WeightOz: d},
	}
}

func TestCallAttemptTimeout(t *testing.T) {
	t.Parallel()
	s := newOptServer(t)
	c := s.client(t)

	// The first attempt stalls; with a bound of its own the read is sent
	// again and succeeds.
	s.stall.Store(1)
	var md rxdelivery.Metadata
	_, err := c.Orders.Get(context.Background(), "ord_1", rxdelivery.WithAttemptTimeout(500*time.Millisecond), rxdelivery.WithMetadata(&md))
	require.NoError(t, err)
	assert.Equal(t, 2, md.Attempts)

	// Without it, the same stall holds the call until its context ends.
	s.stall.Store(1)
	ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = c.Orders.Get(ctx, "ord_1")
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.GreaterOrEqual(t, time.Since(start), 400*time.Millisecond)

	// A write that timed out after sending has an unknown outcome and is
	// not sent again.
	s.stall.Store(1)
	s.hits.Store(0)
	err = c.Orders.Cancel(context.Background(), "ord_1", rxdelivery.WithAttemptTimeout(500*time.Millisecond), rxdelivery.WithMetadata(&md))
	require.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.EqualValues(t, 1, s.hits.Load())
	assert.False(t, md.OutcomeKnown)
	assert.Equal(t, "attempt_timeout", option.ErrorKind(errors.Unwrap(err)))
}

func TestCallMetadataEqualsWhatTheServerSent(t *testing.T) {
	t.Parallel()
	s := newOptMock()
	s.answer = http.Header{"X-Request-Id": {"req-abc-123"}, "X-Ratelimit-Remaining": {"41"}}
	c := s.client(t)
	ctx := context.Background()

	s.push(503)
	var md rxdelivery.Metadata
	_, err := c.Orders.Get(ctx, "ord_1", rxdelivery.WithMetadata(&md))
	require.NoError(t, err)
	assert.Equal(t, 200, md.StatusCode)
	assert.Equal(t, "req-abc-123", md.RequestID)
	assert.Equal(t, "41", md.Header.Get("X-Ratelimit-Remaining"))
	assert.Equal(t, "application/json", md.Header.Get("Content-Type"))
	assert.Equal(t, 2, md.Attempts)
	assert.Positive(t, md.Duration)
	assert.True(t, md.OutcomeKnown)

	// A failed write: the status of the answer, outcome unknown.
	s.push(502)
	md = rxdelivery.Metadata{}
	_, err = c.Orders.Create(ctx, testutil.SamedayOrder(), rxdelivery.WithMetadata(&md))
	require.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.Equal(t, 502, md.StatusCode)
	assert.Equal(t, 1, md.Attempts)
	assert.False(t, md.OutcomeKnown)
	assert.Equal(t, "req-abc-123", md.RequestID)

	// A 2xx answer without the order: the create may have happened.
	s.push(answerEmptyObject)
	md = rxdelivery.Metadata{}
	var seen option.CallResult
	_, err = c.Orders.Create(ctx, testutil.SamedayOrder(), rxdelivery.WithMetadata(&md),
		rxdelivery.WithCallMiddleware(func(next option.CallFunc) option.CallFunc {
			return func(ctx context.Context, op *option.Operation) option.CallResult {
				seen = next(ctx, op)
				return seen
			}
		}))
	require.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	require.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
	assert.Equal(t, 200, md.StatusCode)
	assert.False(t, md.OutcomeKnown)
	assert.ErrorIs(t, seen.Err, rxdelivery.ErrUnknownOutcome, "the hook sees the call's real error")

	// A refused answer: the outcome is known.
	s.push(404)
	md = rxdelivery.Metadata{}
	err = c.Orders.Cancel(ctx, "ord_1", rxdelivery.WithMetadata(&md))
	require.ErrorIs(t, err, rxdelivery.ErrNotFound)
	assert.Equal(t, 404, md.StatusCode)
	assert.True(t, md.OutcomeKnown)

	// Refused by the client before sending: no status, no attempt, the
	// outcome known (metadata_test.go covers every such end).
	md = rxdelivery.Metadata{StatusCode: 7, Attempts: 7}
	_, err = c.Orders.Get(ctx, "", rxdelivery.WithMetadata(&md))
	require.Error(t, err)
	assert.Equal(t, rxdelivery.Metadata{OutcomeKnown: true}, md)

	_, err = rxdelivery.NewClient("k", "s", rxdelivery.WithMetadata(&md))
	require.Error(t, err, "metadata belongs to one call")
	assert.Contains(t, err.Error(), "WithMetadata")
}

type seen struct {
	op      option.Operation
	attempt int
	status  int
}

func TestMiddlewareSeesEveryAttemptInOrder(t *testing.T) {
	t.Parallel()
	s := newOptMock()
	var mu sync.Mutex
	var got []seen
	var calls []option.CallResult
	record := func(next option.AttemptFunc) option.AttemptFunc {
		return func(ctx context.Context, a *option.Attempt) option.AttemptResult {
			r := next(ctx, a)
			mu.Lock()
			got = append(got, seen{a.Operation, a.Number, r.StatusCode})
			mu.Unlock()
			return r
		}
	}
	callRec := func(next option.CallFunc) option.CallFunc {
		return func(ctx context.Context, op *option.Operation) option.CallResult {
			r := next(ctx, op)
			mu.Lock()
			calls = append(calls, r)
			mu.Unlock()
			return r
		}
	}
	c := s.client(t, rxdelivery.WithMiddleware(record), rxdelivery.WithCallMiddleware(callRec))
	ctx := context.Background()

	s.push(429, 503)
	require.NoError(t, c.Orders.RemovePrescription(ctx, "ord_1", "RX-555-0199"))
	want := option.Operation{Name: "orders.RemovePrescription", Method: "DELETE",
		Path: "/api/v1/orders/{id}/prescriptions/{rx_number}", Interface: "delivery", Class: option.Write}
	assert.Equal(t, []seen{{want, 1, 429}, {want, 2, 503}, {want, 3, 200}}, got)
	require.Len(t, calls, 1)
	assert.Equal(t, 3, calls[0].Metadata.Attempts)
	assert.NoError(t, calls[0].Err)

	// A call's own middleware runs inside the client's, for that call.
	got = nil
	var inner []int
	_, err := c.Pricing.Quote(ctx, quoteParams(), rxdelivery.WithMiddleware(func(next option.AttemptFunc) option.AttemptFunc {
		return func(ctx context.Context, a *option.Attempt) option.AttemptResult {
			inner = append(inner, a.Number)
			return next(ctx, a)
		}
	}))
	require.NoError(t, err)
	assert.Equal(t, []int{1}, inner)
	require.Len(t, got, 1)
	assert.Equal(t, option.Operation{Name: "pricing.Quote", Method: "POST", Path: "/pricing/v1/quotes", Interface: "pricing", Class: option.Safe}, got[0].op)
	_, err = c.Orders.Get(ctx, "ord_1")
	require.NoError(t, err)
	assert.Equal(t, []int{1}, inner, "not on the next call")
}

func TestMiddlewareThatDoesNotSend(t *testing.T) {
	t.Parallel()
	s := newOptMock()
	stop := errors.New("circuit open")
	c := s.client(t, rxdelivery.WithMiddleware(func(next option.AttemptFunc) option.AttemptFunc {
		return func(ctx context.Context, a *option.Attempt) option.AttemptResult {
			return option.AttemptResult{Err: stop}
		}
	}))
	var md rxdelivery.Metadata
	_, err := c.Orders.Create(context.Background(), testutil.SamedayOrder(), rxdelivery.WithMetadata(&md))
	require.ErrorIs(t, err, stop)
	assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome, "nothing was sent: the outcome is known")
	assert.True(t, md.OutcomeKnown)
	assert.Equal(t, 1, md.Attempts, "not retried")
	assert.EqualValues(t, 0, s.hits.Load())
}

// TestEveryEndpointNamesItsOperation calls every endpoint of core.Endpoints
// (by its row in testutil.Calls) with a recording middleware and checks that
// each reports the table's name, templated path, interface and class.
func TestEveryEndpointNamesItsOperation(t *testing.T) {
	t.Parallel()
	s := newOptMock()
	var got []option.Operation
	c := s.client(t, rxdelivery.WithoutValidation(), rxdelivery.WithMiddleware(func(next option.AttemptFunc) option.AttemptFunc {
		return func(ctx context.Context, a *option.Attempt) option.AttemptResult {
			got = append(got, a.Operation)
			return next(ctx, a)
		}
	}))
	ctx := context.Background()
	byName := rows(t)
	var want []option.Operation
	for _, ep := range core.Endpoints {
		row, ok := byName[ep.Name]
		if !ok {
			continue
		}
		require.NoError(t, row.Call(ctx, c), ep.Name)
		class := option.Safe
		if ep.Write {
			class = option.Write
		}
		want = append(want, option.Operation{Name: ep.Name, Method: ep.Method, Path: ep.Route, Interface: ep.Interface.String(), Class: class})
	}
	assert.Equal(t, want, got)
}

func TestHookThatCallsNextTwiceSendsOnce(t *testing.T) {
	t.Parallel()
	s := newOptMock()
	var second option.AttemptResult
	c := s.client(t, rxdelivery.WithMiddleware(func(next option.AttemptFunc) option.AttemptFunc {
		return func(ctx context.Context, a *option.Attempt) option.AttemptResult {
			r := next(ctx, a)
			second = next(ctx, a)
			return r
		}
	}))
	_, err := c.Orders.Create(context.Background(), testutil.SamedayOrder())
	require.NoError(t, err)
	assert.EqualValues(t, 1, s.hits.Load(), "a write is never sent twice by a hook")
	assert.Error(t, second.Err)
}

func TestCallHookThatDoesNotCallNext(t *testing.T) {
	t.Parallel()
	s := newOptMock()
	var md rxdelivery.Metadata
	_, err := s.client(t).Orders.Create(context.Background(), testutil.SamedayOrder(), rxdelivery.WithMetadata(&md),
		rxdelivery.WithCallMiddleware(func(next option.CallFunc) option.CallFunc {
			return func(ctx context.Context, op *option.Operation) option.CallResult { return option.CallResult{} }
		}))
	require.Error(t, err)
	assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.Equal(t, "not_sent", option.ErrorKind(errors.Unwrap(err)))
	assert.Equal(t, 0, md.Attempts)
	assert.EqualValues(t, 0, s.hits.Load())
}

// TestHooksUnderConcurrency runs many calls at once through one client
// with client-wide hooks, a header, a rate limit and per-call metadata,
// for the race detector, and checks each call's metadata is its own.
func TestHooksUnderConcurrency(t *testing.T) {
	t.Parallel()
	s := newOptMock()
	s.answer = http.Header{"X-Request-Id": {"req-7f3a2c"}}
	var attempts atomic.Int32
	c := s.client(t, rxdelivery.WithHeader("X-Team", "t"), rxdelivery.WithRateLimit(rxdelivery.Delivery, 10000, 100),
		rxdelivery.WithMiddleware(func(next option.AttemptFunc) option.AttemptFunc {
			return func(ctx context.Context, a *option.Attempt) option.AttemptResult {
				attempts.Add(1)
				a.SetHeader("X-Attempt", "1")
				return next(ctx, a)
			}
		}))
	var wg sync.WaitGroup
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var md rxdelivery.Metadata
			_, err := c.Orders.Get(context.Background(), "ord_1", rxdelivery.WithMetadata(&md), rxdelivery.WithHeader("X-Call", "c"))
			assert.NoError(t, err)
			assert.Equal(t, 1, md.Attempts)
			assert.Equal(t, "req-7f3a2c", md.RequestID)
		}()
	}
	wg.Wait()
	assert.EqualValues(t, 32, attempts.Load())
	h := s.lastHeader()
	assert.Equal(t, "t", h.Get("X-Team"))
	assert.Equal(t, "c", h.Get("X-Call"))
	assert.Equal(t, "1", h.Get("X-Attempt"))
}
