package rxdelivery_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

func TestRateLimitWaitsPerInterface(t *testing.T) {
	t.Parallel()
	s := newOptMock()
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
	_, err = slow.Orders.Create(dctx, testutil.SamedayOrder(), rxdelivery.WithMetadata(&md))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.ErrorContains(t, err, "wait would pass the context's deadline", "refused by the limiter, not ended by the deadline")
	assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.True(t, md.OutcomeKnown)
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
	s := newOptMock()
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

// queueProbe is a context that reports when its deadline is asked for:
// the limiter asks when an attempt joins its queue, and nothing asks
// before it on a read's way to the limiter.
type queueProbe struct {
	context.Context
	asked chan<- struct{}
	once  sync.Once
}

func (p *queueProbe) Deadline() (time.Time, bool) {
	p.once.Do(func() { p.asked <- struct{}{} })
	return p.Context.Deadline()
}

// TestRateLimitCancelledCallersGiveTheirTurnsBack: callers that give up
// while they wait for their turn hold none (issue 19, item 9: with 2/s,
// after eight queued callers were cancelled, a call with a 1s deadline was
// refused at once although the platform had seen 2 attempts in that
// second).
func TestRateLimitCancelledCallersGiveTheirTurnsBack(t *testing.T) {
	t.Parallel()
	s := newOptMock()
	c := s.client(t, rxdelivery.WithRateLimit(rxdelivery.Delivery, 2, 1))
	_, err := c.Orders.Get(context.Background(), "ord_1")
	require.NoError(t, err, "the burst is free")

	ctx, cancel := context.WithCancel(context.Background())
	asked := make(chan struct{}, 8)
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		go func() {
			_, err := c.Orders.Get(&queueProbe{Context: ctx, asked: asked}, "ord_1")
			errs <- err
		}()
	}
	for i := 0; i < 8; i++ {
		<-asked
	}
	cancel()
	for i := 0; i < 8; i++ {
		require.ErrorIs(t, <-errs, context.Canceled)
	}
	require.Equal(t, int32(1), s.hits.Load())

	dctx, dcancel := context.WithTimeout(context.Background(), time.Second)
	defer dcancel()
	_, err = c.Orders.Get(dctx, "ord_1")
	require.NoError(t, err, "its turn comes 500ms after the first call's")
	assert.Equal(t, int32(2), s.hits.Load())
}

// TestRateLimitStormSlowsQueuedCallers: 64 callers queue at 40 attempts a
// second on a platform that answers nothing but 429. The first four 429s
// bring the rate down to its floor of 2.5 a second, for every caller
// already queued as for those that come later (issue 19, item 10: callers
// queued before the storm kept the old rate, about 20 a second at 20/s).
// The server counts the attempts of the second after its fifth.
func TestRateLimitStormSlowsQueuedCallers(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var hits []time.Time
	env := testutil.Setup(t,
		rxdelivery.WithRateLimit(rxdelivery.Pricing, 40, 1),
		rxdelivery.WithRetryMax(0),
	)
	env.Mock.RegisterNoResponder(func(*http.Request) (*http.Response, error) {
		mu.Lock()
		hits = append(hits, time.Now())
		mu.Unlock()
		return httpmock.NewBytesResponse(http.StatusTooManyRequests, nil), nil
	})
	c := env.Client

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				_, err := c.Pricing.Quote(ctx, quoteParams())
				if ctx.Err() == nil && !errors.Is(err, rxdelivery.ErrRateLimited) {
					t.Errorf("a call failed otherwise: %v", err)
				}
			}
		}()
	}
	fifth := func() (time.Time, bool) {
		mu.Lock()
		defer mu.Unlock()
		if len(hits) < 5 {
			return time.Time{}, false
		}
		return hits[4], true
	}
	var from time.Time
	for ok := false; !ok; from, ok = fifth() {
		time.Sleep(10 * time.Millisecond)
	}
	to := from.Add(time.Second)
	time.Sleep(time.Until(to) + 50*time.Millisecond)
	cancel()
	wg.Wait()

	mu.Lock()
	defer mu.Unlock()
	n := 0
	for _, h := range hits {
		if h.After(from) && !h.After(to) {
			n++
		}
	}
	// At 2.5 a second, turns 400ms apart: 2 in the second, 3 at most.
	assert.LessOrEqual(t, n, 3, "attempts in the second after the fifth")
	t.Logf("%d attempts in all, %d in the second after the fifth", len(hits), n)
}
