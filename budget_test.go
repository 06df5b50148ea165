package rxdelivery_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

// budgetRun makes calls reads from each of 64 goroutines against a
// platform that answers every attempt with status, and returns the
// attempts the platform saw and how many calls said the budget refused a
// retry.
func budgetRun(t *testing.T, c *rxdelivery.Client, attempts *atomic.Int64, calls int) (seen int64, refused int64) {
	t.Helper()
	before := attempts.Load()
	var wg sync.WaitGroup
	var refusedN atomic.Int64
	for g := 0; g < 64; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < calls; i++ {
				var md rxdelivery.Metadata
				_, _ = c.Orders.Get(context.Background(), "ord_1", rxdelivery.WithMetadata(&md))
				if md.RetryBudgetExhausted {
					refusedN.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return attempts.Load() - before, refusedN.Load()
}

// TestRetryBudgetBoundsTheLoadOfAnOutage: 64 goroutines keep calling a
// platform that answers 503. Without a budget every call makes 1 + 3
// attempts; with the default budget, once it has drained, about one. When
// the platform recovers, the next calls succeed at their first attempt:
// first attempts never wait for the budget.
func TestRetryBudgetBoundsTheLoadOfAnOutage(t *testing.T) {
	t.Parallel()
	var down atomic.Bool
	down.Store(true)
	var attempts atomic.Int64
	// The platform: one responder on every client's mock transport.
	platform := func(*http.Request) (*http.Response, error) {
		attempts.Add(1)
		if down.Load() {
			return httpmock.NewStringResponse(http.StatusServiceUnavailable, `{"error":{"message":"down"}}`), nil
		}
		r := httpmock.NewStringResponse(http.StatusOK, `{"order":{"id":"ord_1","status":"new"}}`)
		r.Header.Set("Content-Type", "application/json")
		return r, nil
	}
	client := func(opts ...rxdelivery.Option) *rxdelivery.Client {
		env := testutil.Setup(t, append([]rxdelivery.Option{
			rxdelivery.WithRetryWaitMin(time.Millisecond), rxdelivery.WithRetryWaitMax(time.Millisecond),
		}, opts...)...)
		env.Mock.RegisterNoResponder(platform)
		return env.Client
	}
	const calls = 20 // per goroutine: 1,280 calls

	without := client(rxdelivery.WithRetryBudget(0))
	seen, refused := budgetRun(t, without, &attempts, calls)
	perCall := float64(seen) / (64 * calls)
	t.Logf("without a budget: %d attempts for %d calls (%.2f a call)", seen, 64*calls, perCall)
	assert.Equal(t, 4.0, perCall)
	assert.Zero(t, refused)

	with := client()
	// The first run drains the budget (100 retries).
	seen, _ = budgetRun(t, with, &attempts, calls)
	t.Logf("with the default budget, draining: %d attempts for %d calls (%.2f a call)", seen, 64*calls, float64(seen)/(64*calls))
	// Drained: about one attempt a call.
	seen, refused = budgetRun(t, with, &attempts, calls)
	perCall = float64(seen) / (64 * calls)
	t.Logf("with the budget drained: %d attempts for %d calls (%.2f a call), %d refused a retry", seen, 64*calls, perCall, refused)
	assert.LessOrEqual(t, perCall, 1.2)
	assert.Greater(t, refused, int64(64*calls*9/10), "the metadata says the budget refused the retry")

	// The platform recovers: every call succeeds at its first attempt.
	down.Store(false)
	var wg sync.WaitGroup
	var ok, first atomic.Int64
	for g := 0; g < 64; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var md rxdelivery.Metadata
			if _, err := with.Orders.Get(context.Background(), "ord_1", rxdelivery.WithMetadata(&md)); err == nil {
				ok.Add(1)
			}
			if md.Attempts == 1 {
				first.Add(1)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, int64(64), ok.Load())
	assert.Equal(t, int64(64), first.Load())
}
