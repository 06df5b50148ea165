package core

import (
	"context"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{" 7 ", 7 * time.Second, true},
		{"-1", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"99999999999", 365 * 24 * time.Hour, true},
		{"9223372036854775808", 365 * 24 * time.Hour, true},
		{"99999999999999999999999999", 365 * 24 * time.Hour, true},
		{"-99999999999999999999999999", 0, false},
		{now.Add(30 * time.Second).Format(http.TimeFormat), 30 * time.Second, true},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0, true},
		{now.Add(45 * time.Second).Format(time.RFC850), 45 * time.Second, true},
		{now.Add(5 * time.Second).Format(time.ANSIC), 5 * time.Second, true},
	}
	for _, tc := range cases {
		got, ok := parseRetryAfter(tc.in, now)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

func TestBackoffIsExponentialJitteredAndCapped(t *testing.T) {
	t.Parallel()
	min, max := 100*time.Millisecond, 1600*time.Millisecond
	for attempt := 0; attempt < 8; attempt++ {
		base := min << attempt
		if base > max {
			base = max
		}
		for _, j := range []float64{0, 0.25, 0.5, 0.999999} {
			w := backoffWait(min, max, attempt, j)
			assert.GreaterOrEqual(t, w, base/2, "attempt %d", attempt)
			assert.LessOrEqual(t, w, base, "attempt %d", attempt)
		}
	}
	assert.Equal(t, time.Duration(0), backoffWait(0, 0, 3, 0.5))
	// A Retry-After is the wait, whatever the backoff; one above the cap
	// is not waited for.
	in := retryInput{Attempt: 1, Left: 3, Now: time.Now(), WaitMin: min, WaitMax: 10 * time.Second,
		Resp: &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"2"}}}}
	assert.Equal(t, retryDecision{Retry: true, Why: retryYes, Wait: 2 * time.Second, Cost: RetryCost}, decideRetry(readRA(in)))
	in.WaitMax = time.Second
	assert.Equal(t, retryDecision{Why: retryAfterTooLong, Wait: 2 * time.Second}, decideRetry(readRA(in)), "never above the cap")
}

func TestCheckRetryPolicy(t *testing.T) {
	t.Parallel()
	resp := func(code int) *http.Response { return &http.Response{StatusCode: code, Header: http.Header{}} }
	decide := func(write bool, r *http.Response, err error) bool {
		return decideRetry(readRA(retryInput{Write: write, Attempt: 1, Left: 3, Resp: r, Err: err, Now: time.Now(), WaitMax: time.Minute})).Retry
	}
	for code, want := range map[int][2]bool{ // {safe, write}
		200: {false, false}, 400: {false, false}, 404: {false, false}, 409: {false, false},
		429: {true, true}, 503: {true, true},
		500: {true, false}, 502: {true, false}, 504: {true, false},
	} {
		assert.Equal(t, want[0], decide(false, resp(code), nil), "safe %d", code)
		assert.Equal(t, want[1], decide(true, resp(code), nil), "write %d", code)
	}
	reset := errors.New("connection reset by peer")
	dial := &net.OpError{Op: "dial", Err: errors.New("refused")}
	dns := &net.DNSError{Err: "no such host", Name: "x"}
	assert.True(t, decide(false, nil, reset))
	assert.False(t, decide(true, nil, reset), "a write whose request may have left is not retried")
	assert.True(t, decide(true, nil, dial))
	assert.True(t, decide(true, nil, dns))
	assert.False(t, decide(false, nil, x509.UnknownAuthorityError{}), "certificate problems do not pass on a second try")
	assert.False(t, decide(false, nil, errors.New(`unsupported protocol scheme "ftp"`)))

	// The hook reads a context that ended as the end of the call.
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := testCall(false).checkRetry(cancelled, resp(503), nil)
	assert.False(t, got)
	assert.NoError(t, err)
}

// TestDecideRetrySaysWhy: the decision is a retry only with a retry left,
// a live context and a wait that ends before the deadline; each refusal
// says which, and only a retry costs anything.
func TestDecideRetrySaysWhy(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	ra := func(v string) *http.Response {
		return &http.Response{StatusCode: 503, Header: http.Header{"Retry-After": {v}}}
	}
	base := retryInput{Attempt: 1, Left: 1, Now: now, WaitMin: time.Millisecond, WaitMax: time.Minute, Resp: ra("2")}
	for _, tc := range []struct {
		name string
		edit func(*retryInput)
		want retryDecision
	}{
		{"retried", func(*retryInput) {}, retryDecision{Retry: true, Why: retryYes, Wait: 2 * time.Second, Cost: RetryCost}},
		{"no retry left", func(in *retryInput) { in.Left = 0 }, retryDecision{Why: retryNoneLeft, Wait: 2 * time.Second}},
		{"context ended", func(in *retryInput) { in.Ended = true }, retryDecision{Why: retryContextEnded}},
		{"past the deadline", func(in *retryInput) { in.Deadline = now.Add(time.Second) }, retryDecision{Why: retryPastDeadline, Wait: 2 * time.Second}},
		{"at the deadline", func(in *retryInput) { in.Deadline = now.Add(2 * time.Second) }, retryDecision{Retry: true, Why: retryYes, Wait: 2 * time.Second, Cost: RetryCost}},
		{"above the cap", func(in *retryInput) { in.Resp = ra("120") }, retryDecision{Why: retryAfterTooLong, Wait: 2 * time.Minute}},
		{"not retried", func(in *retryInput) { in.Resp = &http.Response{StatusCode: 404} }, retryDecision{Why: retryNotRetried}},
		{"backoff past the deadline: the context ends the wait", func(in *retryInput) {
			in.Resp, in.Err, in.WaitMin, in.Deadline = nil, errors.New("connection reset by peer"), time.Second, now.Add(100*time.Millisecond)
		}, retryDecision{Retry: true, Why: retryYes, Wait: 500 * time.Millisecond, Cost: RetryCost}},
		{"after an attempt timeout", func(in *retryInput) { in.Resp, in.Err = nil, errAttemptTimeout },
			retryDecision{Retry: true, Why: retryYes, Wait: 500 * time.Microsecond, Cost: TimeoutRetryCost}},
	} {
		in := base
		tc.edit(&in)
		assert.Equal(t, tc.want, decideRetry(readRA(in)), tc.name)
	}
	assert.Equal(t, "no retries left", retryNoneLeft.String())
}

// testCall is a call of a read, or of a write, on a client whose longest
// wait is a minute.
func testCall(write bool) *call {
	b := &Backend{s: &Shared{cfg: Config{RetryWaitMax: time.Minute, WallNow: time.Now}}}
	c := newTestCall(b, &Request{Endpoint: &Endpoint{Name: "test.Call", Method: "POST", Route: "/x", Write: write}})
	c.retryMax = DefaultRetryMax
	return c
}

// testBackend is a backend of the delivery interface at url, on a client
// with cfg (retry waits of a millisecond unless cfg sets them).
func testBackend(t *testing.T, url string, cfg Config) *Backend {
	t.Helper()
	if cfg.RetryWaitMax == 0 {
		cfg.RetryWaitMin, cfg.RetryWaitMax = time.Millisecond, time.Millisecond
	}
	be, err := NewShared(cfg).NewBackend(rxtypes.InterfaceDelivery, url, Credentials{Key: "k", Secret: "s"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return be
}

// TestRedirectRefusalIsKnownByItsKindNotItsWords: a redirect the caller's
// CheckRedirect refuses is not retried, whatever its words; a failure
// whose words hold the server's "stopped after" is retried like any other.
func TestRedirectRefusalIsKnownByItsKindNotItsWords(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	mock := httpmock.NewMockTransport()
	mock.RegisterNoResponder(func(*http.Request) (*http.Response, error) {
		hits.Add(1)
		r := httpmock.NewStringResponse(http.StatusFound, "")
		r.Header.Set("Location", "/again")
		return r, nil
	})
	refuse := errors.New("too many hops for this service")
	be := testBackend(t, testBase, Config{Defaults: retries(3), HTTPClient: &http.Client{
		Transport:     mock,
		CheckRedirect: func(*http.Request, []*http.Request) error { return refuse },
	}})
	_, err := be.Do(context.Background(), Call{Method: "GET", Path: "/x"}, nil)
	assert.ErrorIs(t, err, refuse, "the caller's error, as it gave it")
	assert.Equal(t, int64(1), hits.Load(), "the first request only: its hop refused, no retry")

	// A server whose header block says "stopped after": net/http's words
	// for it hold the server's, which decide nothing, and the read is
	// retried.
	mock = httpmock.NewMockTransport()
	seq := &sequence{steps: []httpmock.Responder{
		httpmock.NewErrorResponder(errors.New(`net/http: HTTP/1.x transport connection broken: malformed MIME header: missing colon: "stopped after 10 redirects"`)),
		httpmock.NewStringResponder(http.StatusNoContent, ""),
	}}
	mock.RegisterNoResponder(seq.responder)
	be = testBackend(t, testBase, Config{Defaults: retries(3), HTTPClient: &http.Client{Transport: mock}})
	_, err = be.Do(context.Background(), Call{Method: "GET", Path: "/x"}, nil)
	assert.NoError(t, err)
	assert.Equal(t, 2, seq.count(), "retried once")
}

// readRA reads in.Resp's Retry-After into in, as the call does when the
// response comes.
func readRA(in retryInput) retryInput {
	if in.Resp != nil && in.Resp.Header != nil {
		in.RetryAfter, in.HasRetryAfter = parseRetryAfter(in.Resp.Header.Get("Retry-After"), in.Now)
	}
	return in
}
