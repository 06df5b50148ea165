package core

import (
	"context"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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
	p := testCall(false)
	min, max := 100*time.Millisecond, 1600*time.Millisecond
	for attempt := 0; attempt < 8; attempt++ {
		base := min << attempt
		if base > max {
			base = max
		}
		for i := 0; i < 50; i++ {
			w := p.backoff(min, max, attempt, nil)
			assert.GreaterOrEqual(t, w, base/2, "attempt %d", attempt)
			assert.LessOrEqual(t, w, base, "attempt %d", attempt)
		}
	}
	resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"2"}}}
	assert.Equal(t, 2*time.Second, p.backoff(min, 10*time.Second, 0, resp))
	assert.Equal(t, time.Second, p.backoff(min, time.Second, 0, resp), "never above the cap")
	assert.Equal(t, time.Duration(0), p.backoff(0, 0, 3, nil))
}

func TestCheckRetryPolicy(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	resp := func(code int) *http.Response { return &http.Response{StatusCode: code, Header: http.Header{}} }
	safe, write := testCall(false), testCall(true)
	for code, want := range map[int][2]bool{ // {safe, write}
		200: {false, false}, 400: {false, false}, 404: {false, false}, 409: {false, false},
		429: {true, true}, 503: {true, true},
		500: {true, false}, 502: {true, false}, 504: {true, false},
	} {
		got, err := safe.checkRetry(ctx, resp(code), nil)
		assert.NoError(t, err)
		assert.Equal(t, want[0], got, "safe %d", code)
		got, _ = write.checkRetry(ctx, resp(code), nil)
		assert.Equal(t, want[1], got, "write %d", code)
	}
	reset := errors.New("connection reset by peer")
	dial := &net.OpError{Op: "dial", Err: errors.New("refused")}
	dns := &net.DNSError{Err: "no such host", Name: "x"}
	got, _ := safe.checkRetry(ctx, nil, reset)
	assert.True(t, got)
	got, _ = write.checkRetry(ctx, nil, reset)
	assert.False(t, got, "a write whose request may have left is not retried")
	got, _ = write.checkRetry(ctx, nil, dial)
	assert.True(t, got)
	got, _ = write.checkRetry(ctx, nil, dns)
	assert.True(t, got)
	got, _ = safe.checkRetry(ctx, nil, x509.UnknownAuthorityError{})
	assert.False(t, got, "certificate problems do not pass on a second try")
	got, _ = safe.checkRetry(ctx, nil, errors.New(`unsupported protocol scheme "ftp"`))
	assert.False(t, got)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	got, err := safe.checkRetry(cancelled, resp(503), nil)
	assert.False(t, got)
	assert.NoError(t, err)
}

// testCall is a call of a read, or of a write, on a client whose longest
// wait is a minute.
func testCall(write bool) *call {
	b := &Backend{s: &Shared{waitMax: time.Minute, now: time.Now}}
	return newCall(b, &Request{Endpoint: &Endpoint{Name: "test.Call", Method: "POST", Route: "/x", Write: write}})
}
