package rxdelivery

import (
	"bytes"
	"context"
	"encoding/base64"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewClientFromEnv(t *testing.T) {
	t.Setenv(EnvAPIKey, "env-key")
	t.Setenv(EnvAPISecret, "env-secret")
	t.Setenv(EnvOmniURL, "https://omni.example.test/v")
	t.Setenv(EnvDeliveryURL, "https://delivery.example.test")
	t.Setenv(EnvTrackingURL, "https://tracking.example.test")
	t.Setenv(EnvPricingURL, "https://pricing.example.test")
	t.Setenv(EnvSandbox, "true")
	t.Setenv("RXDELIVERY_TRACKING_API_KEY", "trk-key")
	t.Setenv("RXDELIVERY_TRACKING_API_SECRET", "trk-secret")

	c, err := NewClientFromEnv(WithPricingURL("https://override.example.test"))
	require.NoError(t, err)
	assert.True(t, c.Sandbox())

	mock := httpmock.NewMockTransport()
	c, err = NewClientFromEnv(WithHTTPClient(&http.Client{Transport: mock}))
	require.NoError(t, err)
	var got []*http.Request
	var mu sync.Mutex
	mock.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		got = append(got, r)
		mu.Unlock()
		return httpmock.NewStringResponse(204, ""), nil
	})
	require.NoError(t, c.Requests.Cancel(context.Background(), "req_1"))
	require.Len(t, got, 1)
	assert.Equal(t, "https://omni.example.test/v/api/v1/requests/req_1", got[0].URL.String())
	assert.Equal(t, "Basic "+base64.URLEncoding.EncodeToString([]byte("env-key:env-secret")), got[0].Header.Get("Authorization"))
}

func TestNewClientFromEnvErrors(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvAPISecret, "")
	_, err := NewClientFromEnv()
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, err.Error(), EnvAPIKey)

	t.Setenv(EnvAPIKey, "k")
	t.Setenv(EnvAPISecret, "s")
	t.Setenv(EnvSandbox, "maybe")
	_, err = NewClientFromEnv()
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, err.Error(), EnvSandbox)

	t.Setenv(EnvSandbox, "0")
	t.Setenv(EnvOmniURL, "http://omni.example.test")
	_, err = NewClientFromEnv()
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, err.Error(), "plain http")
}

func TestNewClientFromEnvPerInterfaceKeysOnly(t *testing.T) {
	for _, iface := range []string{"OMNI", "DELIVERY", "TRACKING", "PRICING"} {
		t.Setenv("RXDELIVERY_"+iface+"_URL", "")
		t.Setenv("RXDELIVERY_"+iface+"_API_KEY", "")
		t.Setenv("RXDELIVERY_"+iface+"_API_SECRET", "")
	}
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvAPISecret, "")
	t.Setenv(EnvSandbox, "")
	t.Setenv(EnvTrackingURL, "https://tracking.example.test")
	t.Setenv("RXDELIVERY_TRACKING_API_KEY", "trk-key")
	t.Setenv("RXDELIVERY_TRACKING_API_SECRET", "trk-secret")

	mock := httpmock.NewMockTransport()
	var auth string
	mock.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		auth = r.Header.Get("Authorization")
		return httpmock.NewStringResponse(200, `{"tracking_number":"9400","carrier":"POSTAL","subscription_status":"ENABLED"}`), nil
	})
	c, err := NewClientFromEnv(WithHTTPClient(&http.Client{Transport: mock}))
	require.NoError(t, err, "the tracking key covers the only configured interface")
	_, err = c.Tracking.GetSubscription(context.Background(), "9400")
	require.NoError(t, err)
	assert.Equal(t, "Basic "+base64.StdEncoding.EncodeToString([]byte("trk-key:trk-secret")), auth)

	// Credentials given as options count as well.
	_, err = NewClientFromEnv(WithPricingURL("https://pricing.example.test"), WithCredentials(Pricing, "p", "s"))
	require.NoError(t, err)

	// An interface with a base URL and no key of its own needs the
	// client-wide key, and the error names it.
	t.Setenv(EnvPricingURL, "https://pricing.example.test")
	_, err = NewClientFromEnv()
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, err.Error(), EnvAPIKey)
	assert.Contains(t, err.Error(), "pricing")
	assert.NotContains(t, err.Error(), "tracking")

	// Half a client-wide pair is refused.
	t.Setenv(EnvAPIKey, "k")
	_, err = NewClientFromEnv()
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, err.Error(), "together")
}

func TestNewClientErrors(t *testing.T) {
	t.Parallel()
	_, err := NewClient("key", "")
	assert.ErrorContains(t, err, "key and secret must be given together")
	_, err = NewClient("key", "secret", WithCredentials(Tracking, "only-key", ""))
	assert.ErrorContains(t, err, "tracking API key and secret must be given together")
	_, err = NewClient("key", "secret", WithDeliveryURL("::not a url"))
	assert.ErrorContains(t, err, "WithDeliveryURL")
	_, err = NewClient("key", "secret", WithRetryMax(-1))
	var ce *ConfigError
	require.ErrorAs(t, err, &ce, "a negative retry count is refused, as a call refuses it")
	assert.Contains(t, ce.Message, "WithRetryMax")
	c, err := NewClient("key", "secret", nil, WithRetryWaitMin(time.Hour), WithRetryWaitMax(time.Second))
	require.NoError(t, err)
	assert.False(t, c.Sandbox())
	c.CloseIdleConnections()
}

func TestCallWithoutBaseURLNamesTheOption(t *testing.T) {
	t.Parallel()
	c, err := NewClient("key", "secret")
	require.NoError(t, err)
	_, err = c.Requests.Get(context.Background(), "req_1")
	assert.ErrorIs(t, err, ErrNoBaseURL)
	assert.ErrorContains(t, err, "WithOmniURL")
	assert.ErrorContains(t, err, EnvOmniURL)
}

func TestUserAgentAndLogger(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	mock := httpmock.NewMockTransport()
	var ua string
	mock.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		ua = r.Header.Get("User-Agent")
		return httpmock.NewStringResponse(204, ""), nil
	})
	c, err := NewClient("key", "secret", WithOmniURL("https://omni.example.test"),
		WithHTTPClient(&http.Client{Transport: mock}), WithUserAgent("acme-pharmacy/2.1"), WithLogger(logger))
	require.NoError(t, err)
	require.NoError(t, c.Requests.Cancel(context.Background(), "req_1"))
	assert.Equal(t, "acme-pharmacy/2.1 rxdelivery-go/"+Version, ua)
	assert.Contains(t, logs.String(), "operation=requests.Cancel method=DELETE path=/api/v1/requests/{id}")
	assert.NotContains(t, logs.String(), "req_1")
	assert.Contains(t, logs.String(), "status=204")
}

func TestRetryAfterDateUsesTheClientClock(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	mock := httpmock.NewMockTransport()
	mock.RegisterNoResponder(func(*http.Request) (*http.Response, error) {
		r := httpmock.NewStringResponse(429, `{"error":{"message":"slow"}}`)
		r.Header.Set("Retry-After", now.Add(90*time.Second).Format(http.TimeFormat))
		return r, nil
	})
	c, err := NewClient("key", "secret", WithOmniURL("https://omni.example.test"),
		WithHTTPClient(&http.Client{Transport: mock}), WithRetryWaitMax(time.Second), withWallClock(func() time.Time { return now }))
	require.NoError(t, err)
	_, err = c.Requests.Get(context.Background(), "req_1")
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 90*time.Second, apiErr.RetryAfter)
	assert.Equal(t, 1, mock.GetTotalCallCount())
}

// TestDefaultAttemptTimeoutIsSet: a client made without WithAttemptTimeout
// bounds each attempt by DefaultAttemptTimeout (30s, as documented);
// WithAttemptTimeout(0) removes the bound.
func TestDefaultAttemptTimeoutIsSet(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 30*time.Second, DefaultAttemptTimeout)
	s := defaultSettings()
	d, err := s.callDefaults()
	require.NoError(t, err)
	require.NotNil(t, d.AttemptTimeout)
	assert.Equal(t, DefaultAttemptTimeout, *d.AttemptTimeout)
	applyOptions(s, []Option{WithAttemptTimeout(0)})
	d, err = s.callDefaults()
	require.NoError(t, err)
	assert.Zero(t, *d.AttemptTimeout)
}
