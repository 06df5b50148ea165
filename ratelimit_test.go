package rxdelivery_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

func TestRateLimitWaitsPerInterface(t *testing.T) {
	t.Parallel()
	s := newOptServer(t)
	// Delivery: 2 attempts a second, bursts of 1; pricing is not limited.
	c := s.client(t, rxdelivery.WithRateLimit(rxdelivery.Delivery, 2, 1))
	ctx := context.Background()

	start := time.Now()
	_, err := c.Orders.Get(ctx, "ord_1")
	require.NoError(t, err, "the burst is free")
	_, err = c.Orders.Get(ctx, "ord_1")
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), 400*time.Millisecond, "the second call waited for its turn (500ms after the first)")

	// Another interface does not wait on delivery's limit.
	for i := 0; i < 5; i++ {
		_, err = c.Pricing.Quote(ctx, quoteParams())
		require.NoError(t, err)
	}

	// A wait that would pass the deadline fails at once and sends nothing;
	// a write stopped so has a known outcome.
	slow := s.client(t, rxdelivery.WithRateLimit(rxdelivery.Delivery, 0.05, 1)) // one every 20s
	_, err = slow.Orders.Get(ctx, "ord_1")
	require.NoError(t, err)
	hits := s.hits.Load()
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var md rxdelivery.Metadata
	start = time.Now()
	_, err = slow.Orders.Create(dctx, testutil.SamedayOrder(), rxdelivery.WithMetadata(&md))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.True(t, md.OutcomeKnown)
	assert.Less(t, time.Since(start), 3*time.Second, "refused at once, not after the deadline")
	assert.Equal(t, hits, s.hits.Load(), "nothing was sent")

	// Cancelling the context ends the wait.
	cctx, ccancel := context.WithCancel(ctx)
	go func() { time.Sleep(50 * time.Millisecond); ccancel() }()
	_, err = slow.Orders.Get(cctx, "ord_1")
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, hits, s.hits.Load())
}

func TestRateLimitSlowsDownOn429(t *testing.T) {
	t.Parallel()
	s := newOptServer(t)
	c := s.client(t, rxdelivery.WithRateLimit(rxdelivery.Pricing, 20, 1), rxdelivery.WithRetryMax(0))
	ctx := context.Background()

	// Each 429 halves the rate: 10, 5, 2.5, then 1.25 a second.
	s.push(429, 429, 429, 429)
	for i := 0; i < 4; i++ {
		_, err := c.Pricing.Quote(ctx, quoteParams())
		require.ErrorIs(t, err, rxdelivery.ErrRateLimited)
	}
	// The next attempt waits about 1/1.25s = 800ms where, before the 429s,
	// it would have waited 50ms.
	start := time.Now()
	_, err := c.Pricing.Quote(ctx, quoteParams())
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), 400*time.Millisecond)
}
