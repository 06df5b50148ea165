package core

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

const testBase = "https://api.rxdelivery.test/prefix"

// newTestBackend returns an omni backend on an httpmock transport.
func newTestBackend(t *testing.T, cfg Config) (*Backend, *httpmock.MockTransport) {
	t.Helper()
	mock := httpmock.NewMockTransport()
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Transport: mock}
	}
	if cfg.RetryWaitMax == 0 {
		cfg.RetryWaitMin, cfg.RetryWaitMax = time.Millisecond, 5*time.Second
	}
	if cfg.Defaults.RetryMax == nil {
		cfg.Defaults = retries(3)
	}
	cfg.Validate = true
	b, err := NewShared(cfg).NewBackend(rxtypes.InterfaceOmni, testBase, Credentials{Key: "k", Secret: "s"}, nil)
	require.NoError(t, err)
	return b, mock
}

// sequence answers with each responder in turn and counts the attempts.
type sequence struct {
	mu       sync.Mutex
	steps    []httpmock.Responder
	attempts int
	bodies   [][]byte
	times    []time.Time
}

func (s *sequence) responder(req *http.Request) (*http.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
	}
	s.bodies = append(s.bodies, body)
	s.times = append(s.times, time.Now())
	i := s.attempts
	s.attempts++
	if i >= len(s.steps) {
		i = len(s.steps) - 1
	}
	return s.steps[i](req)
}

func (s *sequence) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts
}

func withHeader(status int, body, key, value string) httpmock.Responder {
	return func(*http.Request) (*http.Response, error) {
		r := httpmock.NewStringResponse(status, body)
		r.Header.Set(key, value)
		return r, nil
	}
}

func ok(body string) httpmock.Responder { return httpmock.NewStringResponder(200, body) }

type out struct {
	ID string `json:"id"`
}

func TestRetryAfterSecondsThenSuccess(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	seq := &sequence{steps: []httpmock.Responder{
		withHeader(429, `{"error":{"message":"slow down"}}`, "Retry-After", "1"),
		ok(`{"id":"r1"}`),
	}}
	mock.RegisterResponder("GET", testBase+"/api/v1/requests/r1", seq.responder)
	var o out
	start := time.Now()
	_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/api/v1/requests/r1"}, &o)
	elapsed := time.Since(start)
	require.NoError(t, err)
	assert.Equal(t, "r1", o.ID)
	assert.Equal(t, 2, seq.count())
	assert.GreaterOrEqual(t, seq.times[1].Sub(seq.times[0]), time.Second, "waited for Retry-After")
	assert.Less(t, elapsed, 10*time.Second, "waited about Retry-After, not the backoff cap")
}

func TestRetryAfterHTTPDateThenSuccess(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	// Whole seconds: the HTTP date has no fraction, so the wait is 1s to 2s.
	at := time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat)
	seq := &sequence{steps: []httpmock.Responder{
		withHeader(429, `{"error":{"message":"slow down"}}`, "Retry-After", at),
		ok(`{"id":"r1"}`),
	}}
	mock.RegisterResponder("GET", testBase+"/api/v1/requests/r1", seq.responder)
	var o out
	_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/api/v1/requests/r1"}, &o)
	require.NoError(t, err)
	assert.Equal(t, 2, seq.count())
	wait := seq.times[1].Sub(seq.times[0])
	assert.GreaterOrEqual(t, wait, 900*time.Millisecond)
	assert.Less(t, wait, 10*time.Second)
}

func TestGetRetriesServerErrors(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	seq := &sequence{steps: []httpmock.Responder{
		httpmock.NewStringResponder(500, `{"error":{"message":"boom"}}`),
		httpmock.NewStringResponder(500, `{"error":{"message":"boom"}}`),
		ok(`{"id":"r1"}`),
	}}
	mock.RegisterResponder("GET", testBase+"/api/v1/requests/r1", seq.responder)
	var o out
	_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/api/v1/requests/r1"}, &o)
	require.NoError(t, err)
	assert.Equal(t, "r1", o.ID)
	assert.Equal(t, 3, seq.count())
}

func TestGetGivesUpAfterRetryMax(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{Defaults: retries(2)})
	seq := &sequence{steps: []httpmock.Responder{httpmock.NewStringResponder(502, `{"error":{"message":"upstream"}}`)}}
	mock.RegisterResponder("GET", testBase+"/api/v1/x", seq.responder)
	_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/api/v1/x"}, nil)
	var apiErr *rxtypes.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 502, apiErr.StatusCode)
	assert.Equal(t, "upstream", apiErr.Message)
	assert.ErrorIs(t, err, rxtypes.ErrUnavailable)
	assert.NotErrorIs(t, err, rxtypes.ErrUnknownOutcome, "a read has no outcome to lose")
	assert.Equal(t, 3, seq.count())
}

func TestWriteAnswered500IsAttemptedOnce(t *testing.T) {
	t.Parallel()
	for _, status := range []int{500, 502, 504} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			b, mock := newTestBackend(t, Config{})
			seq := &sequence{steps: []httpmock.Responder{httpmock.NewStringResponder(status, `{"error":{"message":"oops"}}`)}}
			mock.RegisterResponder("POST", testBase+"/api/v1/requests", seq.responder)
			_, err := b.Do(context.Background(), Call{Method: "POST", Path: "/api/v1/requests", Body: map[string]string{"a": "b"}, Write: true}, nil)
			require.Error(t, err)
			assert.Equal(t, 1, seq.count())
			assert.ErrorIs(t, err, rxtypes.ErrUnknownOutcome)
			var apiErr *rxtypes.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.True(t, apiErr.UnknownOutcome)
			assert.Contains(t, err.Error(), "outcome unknown")
		})
	}
}

func TestWriteRetriedOnRefusals(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	seq := &sequence{steps: []httpmock.Responder{
		httpmock.NewStringResponder(503, `{"error":{"message":"maintenance"}}`),
		withHeader(429, `{}`, "Retry-After", "0"),
		ok(`{"id":"o1"}`),
	}}
	mock.RegisterResponder("POST", testBase+"/api/v1/orders", seq.responder)
	var o out
	payload := map[string]any{"patient": map[string]string{"first_name": "Jane"}, "fee": 5}
	_, err := b.Do(context.Background(), Call{Method: "POST", Path: "/api/v1/orders", Body: payload, Write: true}, &o)
	require.NoError(t, err)
	assert.Equal(t, "o1", o.ID)
	require.Equal(t, 3, seq.count())
	for i := 1; i < len(seq.bodies); i++ {
		assert.Equal(t, seq.bodies[0], seq.bodies[i], "attempt %d body replayed intact", i+1)
	}
	assert.JSONEq(t, `{"patient":{"first_name":"Jane"},"fee":5}`, string(seq.bodies[0]))
}

func TestWriteTransportErrorIsUnknownAndNotRetried(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	seq := &sequence{steps: []httpmock.Responder{httpmock.NewErrorResponder(io.ErrUnexpectedEOF)}}
	mock.RegisterResponder("POST", testBase+"/api/v1/orders", seq.responder)
	_, err := b.Do(context.Background(), Call{Method: "POST", Path: "/api/v1/orders", Body: map[string]int{}, Write: true}, nil)
	var te *rxtypes.TransportError
	require.ErrorAs(t, err, &te)
	assert.ErrorIs(t, err, rxtypes.ErrUnknownOutcome)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, 1, seq.count())
}

func TestWriteDialFailureIsRetriedAndKnown(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{Defaults: retries(2)})
	dialErr := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	seq := &sequence{steps: []httpmock.Responder{httpmock.NewErrorResponder(dialErr)}}
	mock.RegisterResponder("POST", testBase+"/api/v1/orders", seq.responder)
	_, err := b.Do(context.Background(), Call{Method: "POST", Path: "/api/v1/orders", Body: map[string]int{}, Write: true}, nil)
	var te *rxtypes.TransportError
	require.ErrorAs(t, err, &te)
	assert.NotErrorIs(t, err, rxtypes.ErrUnknownOutcome, "a failed dial never sent the request")
	assert.Equal(t, 3, seq.count())
}

func TestRetryAfterAboveCapReturnsAtOnce(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{RetryWaitMin: time.Millisecond, RetryWaitMax: 2 * time.Second})
	seq := &sequence{steps: []httpmock.Responder{withHeader(429, `{"error":{"code":"rate_limit_exceeded","message":"too many"}}`, "Retry-After", "120")}}
	mock.RegisterResponder("GET", testBase+"/api/v1/x", seq.responder)
	start := time.Now()
	_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/api/v1/x"}, nil)
	assert.Less(t, time.Since(start), 60*time.Second, "the 120s wait was not slept")
	var apiErr *rxtypes.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 120*time.Second, apiErr.RetryAfter)
	assert.Equal(t, "rate_limit_exceeded", apiErr.Code)
	assert.ErrorIs(t, err, rxtypes.ErrRateLimited)
	assert.Equal(t, 1, seq.count())
	assert.Contains(t, err.Error(), "retry after 2m0s")
}

func TestRetryAfterPastDeadlineReturnsAtOnce(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{RetryWaitMin: time.Millisecond, RetryWaitMax: time.Minute})
	seq := &sequence{steps: []httpmock.Responder{withHeader(429, `{}`, "Retry-After", "50")}}
	mock.RegisterResponder("GET", testBase+"/api/v1/x", seq.responder)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	_, err := b.Do(ctx, Call{Method: "GET", Path: "/api/v1/x"}, nil)
	assert.Less(t, time.Since(start), 10*time.Second, "neither the wait nor the deadline was slept through")
	require.NoError(t, ctx.Err())
	var apiErr *rxtypes.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 50*time.Second, apiErr.RetryAfter)
	assert.Equal(t, 1, seq.count())
}

func TestContextCancelledDuringWait(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{RetryWaitMin: time.Millisecond, RetryWaitMax: time.Minute})
	seq := &sequence{steps: []httpmock.Responder{withHeader(429, `{}`, "Retry-After", "30")}}
	mock.RegisterResponder("POST", testBase+"/api/v1/orders", seq.responder)
	ctx, cancel := context.WithCancel(context.Background())
	var cancelledAt atomic.Int64
	go func() {
		time.Sleep(100 * time.Millisecond)
		cancelledAt.Store(time.Now().UnixNano())
		cancel()
	}()
	_, err := b.Do(ctx, Call{Method: "POST", Path: "/api/v1/orders", Body: map[string]int{}, Write: true}, nil)
	returned := time.Now()
	require.ErrorIs(t, err, context.Canceled)
	assert.Less(t, returned.Sub(time.Unix(0, cancelledAt.Load())), 10*time.Second, "the 30s wait ended with the context")
	assert.NotErrorIs(t, err, rxtypes.ErrUnknownOutcome, "cancelled while waiting after a 429: nothing was applied")
	assert.Equal(t, 1, seq.count())
}

func TestContextAlreadyDoneSendsNothing(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := b.Do(ctx, Call{Method: "POST", Path: "/api/v1/orders", Body: map[string]int{}, Write: true}, nil)
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, err, rxtypes.ErrNotSent, "the one not-sent shape")
	assert.NotErrorIs(t, err, rxtypes.ErrUnknownOutcome)
	assert.Equal(t, 0, mock.GetTotalCallCount())
}

func TestHeadersAndURL(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{UserAgent: "acme/1 rxdelivery-go/0.0.0"})
	var got *http.Request
	var body []byte
	mock.RegisterResponder("POST", testBase+"/api/v1/requests", func(r *http.Request) (*http.Response, error) {
		got = r
		body, _ = io.ReadAll(r.Body)
		return httpmock.NewStringResponse(200, `{"id":"x"}`), nil
	})
	_, err := b.Do(context.Background(), Call{Method: "POST", Path: "/api/v1/requests", Query: "a=1", Body: struct {
		Name string `json:"name"`
	}{"Jane"}, Write: true}, &out{})
	require.NoError(t, err)
	assert.Equal(t, "https://api.rxdelivery.test/prefix/api/v1/requests?a=1", got.URL.String())
	assert.Equal(t, "Basic "+base64.URLEncoding.EncodeToString([]byte("k:s")), got.Header.Get("Authorization"))
	assert.Equal(t, "application/json", got.Header.Get("Accept"))
	assert.Equal(t, "application/json", got.Header.Get("Content-Type"))
	assert.Equal(t, "acme/1 rxdelivery-go/0.0.0", got.Header.Get("User-Agent"))
	assert.Equal(t, `{"name":"Jane"}`, string(body))
}

func TestNoContentTypeWithoutBody(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	var got http.Header
	mock.RegisterResponder("DELETE", testBase+"/api/v1/requests/r1", func(r *http.Request) (*http.Response, error) {
		got = r.Header
		return httpmock.NewStringResponse(204, ""), nil
	})
	resp, err := b.Do(context.Background(), Call{Method: "DELETE", Path: "/api/v1/requests/r1", Write: true}, nil)
	require.NoError(t, err)
	assert.Equal(t, 204, resp.StatusCode)
	assert.Empty(t, got.Get("Content-Type"))
}

func TestErrorBodyShapes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                   string
		status                 int
		body                   string
		id, typ, code, message string
		is                     []error
	}{
		{"omni", 422, `{"error":{"id":"req_1","type":"unable_to_cancel","message":"orders are not in a cancellable status"}}`,
			"", "unable_to_cancel", "", "orders are not in a cancellable status", []error{rxtypes.ErrBadRequest, rxtypes.ErrUnableToCancel}},
		{"delivery", 400, `{"error":{"message":"Order is not in a cancellable status"}}`,
			"", "", "", "Order is not in a cancellable status", []error{rxtypes.ErrBadRequest, rxtypes.ErrUnableToCancel}},
		{"tracking", 404, `{"error":{"code":"not_found","message":"subscription not found"}}`,
			"", "", "not_found", "subscription not found", []error{rxtypes.ErrNotFound}},
		{"pricing", 502, `{"error":{"message":"pricing could not be retrieved from the provider"}}`,
			"", "", "", "pricing could not be retrieved from the provider", []error{rxtypes.ErrUnavailable}},
		{"string error", 401, `{"error":"bad key"}`, "", "", "", "bad key", []error{rxtypes.ErrUnauthorized}},
		{"numeric id", 403, `{"error":{"id":42,"message":"no"}}`, "", "", "", "no", []error{rxtypes.ErrForbidden}},
		{"html", 500, `<html>oops</html>`, "", "", "", "", nil},
		{"empty", 503, ``, "", "", "", "", []error{rxtypes.ErrUnavailable}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, mock := newTestBackend(t, Config{Defaults: retries(0)})
			mock.RegisterResponder("GET", testBase+"/api/v1/x", httpmock.NewStringResponder(tc.status, tc.body))
			_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/api/v1/x"}, nil)
			var apiErr *rxtypes.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tc.status, apiErr.StatusCode)
			assert.Equal(t, "GET", apiErr.Method)
			assert.Equal(t, "/api/v1/x", apiErr.Path)
			assert.Equal(t, tc.id, apiErr.ID)
			assert.Equal(t, tc.typ, apiErr.Type)
			assert.Equal(t, tc.code, apiErr.Code)
			assert.Equal(t, tc.message, apiErr.Message)
			assert.Equal(t, tc.body, string(apiErr.Body))
			for _, s := range tc.is {
				assert.ErrorIs(t, err, s)
			}
			assert.Contains(t, err.Error(), "GET /api/v1/x: "+strconv.Itoa(tc.status))
		})
	}
}

func TestHugeErrorBodyIsBounded(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{Defaults: retries(0)})
	huge := bytes.Repeat([]byte("x"), 8<<20)
	mock.RegisterResponder("GET", testBase+"/api/v1/x", httpmock.NewBytesResponder(500, huge))
	_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/api/v1/x"}, nil)
	var apiErr *rxtypes.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Len(t, apiErr.Body, maxKeptBody)
	assert.Less(t, len(err.Error()), 200)
}

func TestMalformedSuccessBody(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{"truncated": `{"id":"r`, "garbage": `<html>`, "empty": ``, "wrong type": `{"id":5}`} {
		t.Run(name, func(t *testing.T) {
			b, mock := newTestBackend(t, Config{})
			mock.RegisterResponder("GET", testBase+"/api/v1/requests/r1", httpmock.NewStringResponder(200, body))
			_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/api/v1/requests/r1"}, &out{})
			var de *rxtypes.DecodeError
			require.ErrorAs(t, err, &de)
			assert.ErrorIs(t, err, rxtypes.ErrMalformedResponse)
			assert.NotErrorIs(t, err, rxtypes.ErrUnknownOutcome)
			assert.Contains(t, err.Error(), "GET /api/v1/requests/r1: 200 OK: malformed response body")
		})
	}
}

func TestMalformedBodyOfWriteIsUnknownOutcome(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	mock.RegisterResponder("POST", testBase+"/api/v1/orders", httpmock.NewStringResponder(200, `{"order":`))
	_, err := b.Do(context.Background(), Call{Method: "POST", Path: "/api/v1/orders", Body: map[string]int{}, Write: true}, &out{})
	assert.ErrorIs(t, err, rxtypes.ErrMalformedResponse)
	assert.ErrorIs(t, err, rxtypes.ErrUnknownOutcome)
}

func TestRawMessageOut(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	mock.RegisterResponder("GET", testBase+"/api/v1/p", httpmock.NewStringResponder(200, `{"any":[1,2]}`))
	var raw json.RawMessage
	_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/api/v1/p"}, &raw)
	require.NoError(t, err)
	assert.Equal(t, `{"any":[1,2]}`, string(raw))

	mock.RegisterResponder("GET", testBase+"/api/v1/bad", httpmock.NewStringResponder(200, `{"any":`))
	_, err = b.Do(context.Background(), Call{Method: "GET", Path: "/api/v1/bad"}, &raw)
	assert.ErrorIs(t, err, rxtypes.ErrMalformedResponse)
}

func TestMissingBaseURLAndCredentials(t *testing.T) {
	t.Parallel()
	s := NewShared(Config{})
	b, err := s.NewBackend(rxtypes.InterfaceDelivery, "", Credentials{Key: "k", Secret: "s"}, nil)
	require.NoError(t, err)
	_, err = b.Do(context.Background(), Call{Method: "GET", Path: "/x"}, nil)
	assert.ErrorIs(t, err, rxtypes.ErrNoBaseURL)
	assert.Contains(t, err.Error(), "WithDeliveryURL")
	assert.Contains(t, err.Error(), "RXDELIVERY_DELIVERY_URL")

	b, err = s.NewBackend(rxtypes.InterfaceTracking, "https://t.example", Credentials{}, nil)
	require.NoError(t, err)
	_, err = b.Do(context.Background(), Call{Method: "GET", Path: "/x"}, nil)
	var ce *rxtypes.ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, err.Error(), "no credentials for the tracking interface")
}

func TestBaseURLRules(t *testing.T) {
	t.Parallel()
	s := NewShared(Config{})
	good := map[string]string{
		"https://api.example.com":        "https://api.example.com",
		"https://api.example.com/":       "https://api.example.com",
		"http://127.0.0.1:8787/omni/":    "http://127.0.0.1:8787/omni",
		"http://localhost:1/x":           "http://localhost:1/x",
		"http://[::1]:9/pricing":         "http://[::1]:9/pricing",
		"https://api.example.com/a%20b/": "https://api.example.com/a%20b",
	}
	for in, want := range good {
		b, err := s.NewBackend(rxtypes.InterfaceOmni, in, Credentials{Key: "k", Secret: "s"}, nil)
		require.NoError(t, err, in)
		assert.Equal(t, want, b.BaseURL(), in)
	}
	for _, bad := range []string{"http://api.example.com", "ftp://x", "/relative", "https://u:p@x.example", "https://x.example?q=1", "http://10.0.0.1"} {
		_, err := s.NewBackend(rxtypes.InterfaceOmni, bad, Credentials{Key: "k", Secret: "s"}, nil)
		var ce *rxtypes.ConfigError
		require.ErrorAs(t, err, &ce, bad)
		assert.Contains(t, err.Error(), "WithOmniURL")
		assert.NotContains(t, err.Error(), "u:p")
	}
}

func TestAuthAlphabet(t *testing.T) {
	t.Parallel()
	s := NewShared(Config{})
	creds := Credentials{Key: "k>?", Secret: "s~~?"}
	raw := []byte("k>?:s~~?")
	require.NotEqual(t, base64.StdEncoding.EncodeToString(raw), base64.URLEncoding.EncodeToString(raw), "the test value must tell the alphabets apart")
	for iface, enc := range map[rxtypes.Interface]*base64.Encoding{rxtypes.InterfaceOmni: base64.URLEncoding, rxtypes.InterfaceDelivery: base64.URLEncoding, rxtypes.InterfacePricing: base64.URLEncoding, rxtypes.InterfaceTracking: base64.StdEncoding} {
		b, err := s.NewBackend(iface, "https://x.example", creds, nil)
		require.NoError(t, err)
		assert.Equal(t, "Basic "+enc.EncodeToString(raw), b.authHeader[0], iface.String())
	}
	b, err := s.NewBackend(rxtypes.InterfaceOmni, "https://x.example", creds, base64.RawStdEncoding)
	require.NoError(t, err)
	assert.Equal(t, "Basic "+base64.RawStdEncoding.EncodeToString(raw), b.authHeader[0])
}

func TestSuccessBodyOverLimit(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{MaxResponseBytes: 1 << 10})
	big := append(append([]byte(`{"id":"`), bytes.Repeat([]byte("a"), 4<<10)...), `"}`...)
	mock.RegisterResponder("GET", testBase+"/big", httpmock.NewBytesResponder(200, big))
	_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/big"}, &out{})
	assert.ErrorIs(t, err, rxtypes.ErrMalformedResponse)
	assert.ErrorIs(t, err, errBodyTooLarge)
	var raw json.RawMessage
	_, err = b.Do(context.Background(), Call{Method: "GET", Path: "/big"}, &raw)
	assert.ErrorIs(t, err, errBodyTooLarge)

	exact := []byte(`{"id":"` + string(bytes.Repeat([]byte("a"), 1<<10-9)) + `"}`)
	require.Len(t, exact, 1<<10)
	mock.RegisterResponder("GET", testBase+"/exact", httpmock.NewBytesResponder(200, exact))
	_, err = b.Do(context.Background(), Call{Method: "GET", Path: "/exact"}, &raw)
	assert.NoError(t, err, "a body of exactly the limit is read whole")
}

// cutBody answers 200 with the start of body, then fails the read the way
// a connection reset after the status line does.
func cutBody(body string) httpmock.Responder {
	return func(*http.Request) (*http.Response, error) {
		return &http.Response{
			StatusCode: http.StatusOK,
			Header:     http.Header{"Content-Type": {"application/json"}},
			Body:       io.NopCloser(io.MultiReader(bytes.NewReader([]byte(body)), iotestErrReader{})),
		}, nil
	}
}

type iotestErrReader struct{}

func (iotestErrReader) Read([]byte) (int, error) { return 0, errors.New("connection reset by peer") }

func TestSafeCallRetriesCutBody(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	seq := &sequence{steps: []httpmock.Responder{
		cutBody(`{"id":"stale","extra":"from the first attempt`),
		ok(`{"id":"r1"}`),
	}}
	mock.RegisterResponder("POST", testBase+"/api/v1/subscriptions", seq.responder)
	var o struct {
		ID    string `json:"id"`
		Extra string `json:"extra"`
	}
	_, err := b.Do(context.Background(), Call{Method: "POST", Path: "/api/v1/subscriptions", Body: map[string]string{"a": "b"}}, &o)
	require.NoError(t, err)
	assert.Equal(t, "r1", o.ID)
	assert.Empty(t, o.Extra, "nothing of the cut answer is decoded")
	require.Equal(t, 2, seq.count())
	assert.Equal(t, seq.bodies[0], seq.bodies[1], "the same body is sent again")
}

func TestSafeCallCutEveryTimeIsIncomplete(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	seq := &sequence{steps: []httpmock.Responder{cutBody(`{"id":"r`)}}
	mock.RegisterResponder("GET", testBase+"/api/v1/requests/r1", seq.responder)
	_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/api/v1/requests/r1"}, &out{})
	var de *rxtypes.DecodeError
	require.ErrorAs(t, err, &de)
	assert.True(t, de.Incomplete)
	assert.False(t, de.UnknownOutcome)
	assert.Equal(t, http.StatusOK, de.StatusCode)
	assert.ErrorIs(t, err, rxtypes.ErrMalformedResponse)
	assert.Equal(t, "rxdelivery: GET /api/v1/requests/r1: 200 OK: response body incomplete: connection reset by peer", err.Error())
	assert.Equal(t, 4, seq.count(), "the first attempt and three retries")
}

func TestWriteDoesNotRetryCutBody(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	seq := &sequence{steps: []httpmock.Responder{cutBody(`{"id":"ord_`), ok(`{"id":"ord_2"}`)}}
	mock.RegisterResponder("POST", testBase+"/api/v1/orders", seq.responder)
	_, err := b.Do(context.Background(), Call{Method: "POST", Path: "/api/v1/orders", Body: map[string]int{}, Write: true}, &out{})
	var de *rxtypes.DecodeError
	require.ErrorAs(t, err, &de)
	assert.True(t, de.Incomplete)
	assert.ErrorIs(t, err, rxtypes.ErrUnknownOutcome, "the order exists; its answer was lost")
	assert.Equal(t, 1, seq.count())
}

func TestBodyOverLimitIsNotRetried(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{MaxResponseBytes: 16})
	seq := &sequence{steps: []httpmock.Responder{ok(`{"id":"a long identifier"}`)}}
	mock.RegisterResponder("GET", testBase+"/big", seq.responder)
	_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/big"}, &out{})
	var de *rxtypes.DecodeError
	require.ErrorAs(t, err, &de)
	assert.False(t, de.Incomplete)
	assert.ErrorIs(t, err, errBodyTooLarge)
	assert.Equal(t, 1, seq.count())
}

// TestAnswersAreNotShared checks that a raw answer kept by the caller is
// its own copy: later calls reuse the SDK's read buffers.
func TestAnswersAreNotShared(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	mock.RegisterResponder("GET", testBase+"/a", httpmock.NewStringResponder(200, `{"npi":"1111111111"}`))
	mock.RegisterResponder("GET", testBase+"/b", httpmock.NewStringResponder(200, `{"npi":"2222222222"}`))
	var first json.RawMessage
	_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/a"}, &first)
	require.NoError(t, err)
	for range 20 {
		var other json.RawMessage
		_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/b"}, &other)
		require.NoError(t, err)
	}
	assert.Equal(t, `{"npi":"1111111111"}`, string(first))
}

func TestTrailingDataIsMalformed(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	mock.RegisterResponder("GET", testBase+"/x", httpmock.NewStringResponder(200, `{"id":"r1"} {"id":"r2"}`))
	_, err := b.Do(context.Background(), Call{Method: "GET", Path: "/x"}, &out{})
	var de *rxtypes.DecodeError
	require.ErrorAs(t, err, &de)
	assert.False(t, de.Incomplete)
	assert.Contains(t, err.Error(), "200 OK: malformed response body: ")
}

// retries is the call defaults of a client given WithRetryMax(n).
func retries(n int) option.Settings { return option.Settings{RetryMax: &n} }
