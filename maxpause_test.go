package rxdelivery_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

// yearLong answers its first request 503 with a Retry-After of a year
// (31536000 seconds), and every later one with an order.
func yearLong(t *testing.T, env *testutil.Env) *atomic.Int32 {
	var sent atomic.Int32
	order := testutil.FixtureResponder(t, http.StatusOK, "delivery/order_new_sameday.json")
	env.Mock.RegisterResponder(http.MethodGet, testutil.DeliveryURL+"/api/v1/orders/ord_1",
		func(r *http.Request) (*http.Response, error) {
			if sent.Add(1) == 1 {
				resp := httpmock.NewStringResponse(http.StatusServiceUnavailable, `{"error":{"message":"down for maintenance"}}`)
				resp.Header.Set("Retry-After", "31536000")
				return resp, nil
			}
			return order(r)
		})
	return &sent
}

// TestYearLongRetryAfterPausesForTheMaxPause: a 503 with Retry-After
// 31536000 (a year) pauses the interface for the client's longest pause
// (DefaultMaxPause, minutes), not a year. The platform's 503 stays an
// *APIError carrying its value; the call the pause refuses is the one
// not-sent shape, a *TransportError whose *NotSentError carries the
// pause's end and matches ErrNotSent. Each error says its hint once.
func TestYearLongRetryAfterPausesForTheMaxPause(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithRetryMax(0))
	sent := yearLong(t, env)
	ctx := context.Background()

	before := time.Now()
	_, err := env.Client.Orders.Get(ctx, "ord_1")
	var apiErr *rxdelivery.APIError
	require.ErrorAs(t, err, &apiErr, "the platform's answer")
	assert.Equal(t, 365*24*time.Hour, apiErr.RetryAfter, "the platform's value, as it said it")
	assert.False(t, errors.Is(err, rxdelivery.ErrNotSent), "it was sent")
	assert.Equal(t, 1, strings.Count(err.Error(), "retry after"), "%v", err)

	until := env.Client.LimiterState(rxdelivery.Delivery).PausedUntil
	assert.WithinRange(t, until, before.Add(rxdelivery.DefaultMaxPause), time.Now().Add(rxdelivery.DefaultMaxPause),
		"the pause is the longest pause, not a year")

	_, err = env.Client.Orders.Get(ctx, "ord_1")
	require.ErrorIs(t, err, rxdelivery.ErrNotSent)
	require.ErrorIs(t, err, rxdelivery.ErrRateLimited, "the platform asked for the pause")
	var te *rxdelivery.TransportError
	require.ErrorAs(t, err, &te, "the one not-sent shape")
	var ns *rxdelivery.NotSentError
	require.ErrorAs(t, err, &ns)
	assert.True(t, until.Equal(ns.PausedUntil), "the error carries the pause's end: %v, want %v", ns.PausedUntil, until)
	assert.False(t, errors.Is(err, rxdelivery.ErrUnknownOutcome))
	assert.Equal(t, 1, strings.Count(err.Error(), "retry after"), "the hint is said once: %v", err)
	assert.Equal(t, int32(1), sent.Load(), "nothing is sent inside the pause")
}

// TestEndPauseLetsCallsGo: the application reads the pause a Retry-After
// set (LimiterState) and ends it early (EndPause); the next call is sent.
// WithMaxPause sets the longest pause.
func TestEndPauseLetsCallsGo(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithRetryMax(0), rxdelivery.WithMaxPause(2*time.Minute))
	sent := yearLong(t, env)
	ctx := context.Background()

	before := time.Now()
	_, err := env.Client.Orders.Get(ctx, "ord_1")
	require.Error(t, err)
	until := env.Client.LimiterState(rxdelivery.Delivery).PausedUntil
	assert.WithinRange(t, until, before.Add(2*time.Minute), time.Now().Add(2*time.Minute))
	_, err = env.Client.Orders.Get(ctx, "ord_1")
	require.ErrorIs(t, err, rxdelivery.ErrNotSent)

	env.Client.EndPause(rxdelivery.Delivery)
	assert.True(t, env.Client.LimiterState(rxdelivery.Delivery).PausedUntil.IsZero(), "no pause runs")
	o, err := env.Client.Orders.Get(ctx, "ord_1")
	require.NoError(t, err)
	assert.NotEmpty(t, o.ID)
	assert.Equal(t, int32(2), sent.Load())

	env.Client.EndPause(rxdelivery.Delivery) // nothing runs: a no-op
	var zero rxdelivery.Client
	zero.EndPause(rxdelivery.Delivery) // safe on the zero Client
}
