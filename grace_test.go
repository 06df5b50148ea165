package rxdelivery_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// stopWhileCreating runs the shutdown of a job runner: 32 workers each
// create an order on a platform that takes stall to respond, and the
// runner's context ends (as signal.NotifyContext's does on SIGTERM) once
// every create is in flight. It returns the creates whose outcome is
// unknown, those that succeeded, and the orders the platform holds.
func stopWhileCreating(t *testing.T, stall time.Duration, opts ...rxdelivery.CallOption) (unknown, created, held int) {
	t.Helper()
	srv := rxdeliverytest.Start(t)
	client := srv.Client()
	const workers = 32
	srv.FailNext(rxdeliverytest.OrdersCreate, workers, rxdeliverytest.Committed(rxdeliverytest.StallFor(stall)))
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := rxdeliverytest.SamedayOrderParams()
			var md rxdelivery.Metadata
			_, err := client.Orders.Create(ctx, p, append(opts, rxdelivery.WithMetadata(&md))...)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				created++
			case errors.Is(err, rxdelivery.ErrUnknownOutcome):
				unknown++
			default:
				t.Errorf("create: %v", err)
			}
		}()
	}
	require.Eventually(t, func() bool { return len(srv.Orders()) == workers }, 10*time.Second, time.Millisecond,
		"every create reached the platform")
	stop() // the deploy's SIGTERM
	wg.Wait()
	return unknown, created, len(srv.Orders())
}

// TestWriteGraceLeavesNoUnknownOutcomeOnShutdown: stopping a job runner
// whose creates are in flight leaves every one of them with an unknown
// outcome (an operator's work each, with the journal) unless the writes
// have a grace; with one, all of them finish with the order the platform
// created.
func TestWriteGraceLeavesNoUnknownOutcomeOnShutdown(t *testing.T) {
	t.Parallel()
	// Without a grace the platform holds every response for a minute, so
	// that no create can finish before the stop however slowly the 32 reach
	// it; with one it takes 300 ms, well inside the grace.
	unknown, created, held := stopWhileCreating(t, time.Minute)
	t.Logf("without a grace: %d unknown outcomes, %d created, the platform holds %d", unknown, created, held)
	assert.Equal(t, 32, unknown)
	assert.Equal(t, 32, held)

	unknown, created, held = stopWhileCreating(t, 300*time.Millisecond, rxdelivery.WithWriteGrace(5*time.Second))
	t.Logf("with a 5s grace: %d unknown outcomes, %d created, the platform holds %d", unknown, created, held)
	assert.Zero(t, unknown)
	assert.Equal(t, 32, created)
	assert.Equal(t, 32, held)
}

// TestWriteGraceStopsWhatWasNotSent: a write whose context ends while it
// waits between attempts stops at once (nothing in flight), its outcome
// known, and a grace that runs out leaves the outcome unknown.
func TestWriteGraceStopsWhatWasNotSent(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	client, err := srv.NewClient(rxdelivery.WithRetryWaitMax(5 * time.Second))
	require.NoError(t, err)
	// A 503 with a long Retry-After: the create waits between attempts.
	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.Unavailable(2*time.Second))
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	time.AfterFunc(100*time.Millisecond, stop) // during the 2 s wait
	var md rxdelivery.Metadata
	_, err = client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams(), rxdelivery.WithWriteGrace(5*time.Second), rxdelivery.WithMetadata(&md))
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, md.Attempts, "the wait ended with the context: no second attempt")
	assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.False(t, md.GraceUsed)
	assert.Empty(t, srv.Orders())

	// In flight longer than the grace: unknown, as without one.
	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.Committed(rxdeliverytest.StallFor(2*time.Second)))
	ctx2, stop2 := context.WithCancel(context.Background())
	defer stop2()
	go func() {
		for len(srv.Orders()) == 0 {
			time.Sleep(time.Millisecond)
		}
		stop2()
	}()
	_, err = client.Orders.Create(ctx2, rxdeliverytest.SamedayOrderParams(), rxdelivery.WithWriteGrace(50*time.Millisecond), rxdelivery.WithMetadata(&md))
	assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.True(t, md.GraceUsed)
}

// TestWriteGraceKeepsTheCallersDeadline: a grace lets a write in flight
// outlive its caller's context, and nothing else. A Retry-After or a rate
// limiter's turn past the caller's deadline is refused at once, as without
// a grace, and a call the caller's deadline ended says so
// (context.DeadlineExceeded, never context.Canceled).
func TestWriteGraceKeepsTheCallersDeadline(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	client, err := srv.NewClient(rxdelivery.WithRetryWaitMax(5 * time.Second))
	require.NoError(t, err)
	create := func(timeout time.Duration, opts ...rxdelivery.CallOption) (rxdelivery.Metadata, error) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		var md rxdelivery.Metadata
		_, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams(), append(opts, rxdelivery.WithMetadata(&md))...)
		return md, err
	}

	// A 503 whose Retry-After (2 s) outlasts the caller's 200 ms: the
	// platform's answer, at once, with or without a grace.
	for _, grace := range []time.Duration{0, 5 * time.Second} {
		srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.Unavailable(2*time.Second))
		md, err := create(200*time.Millisecond, rxdelivery.WithWriteGrace(grace))
		var apiErr *rxdelivery.APIError
		require.ErrorAs(t, err, &apiErr, "grace %v", grace)
		assert.Equal(t, 503, apiErr.StatusCode)
		assert.Equal(t, 2*time.Second, apiErr.RetryAfter)
		assert.NotErrorIs(t, err, context.Canceled, "grace %v", grace)
		assert.Equal(t, 1, md.Attempts)
		srv.Advance(3 * time.Second) // past the pause the Retry-After set
	}

	// A write in flight when the caller's deadline passes goes on for the
	// grace; when the grace runs out too, the deadline ended it.
	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.Committed(rxdeliverytest.StallFor(2*time.Second)))
	md, err := create(100*time.Millisecond, rxdelivery.WithWriteGrace(50*time.Millisecond))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.NotErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.True(t, md.GraceUsed)

	// The rate limiter's turn is judged against the caller's deadline.
	slow, err := srv.NewClient(rxdelivery.WithRateLimit(rxdelivery.Delivery, 0.05, 1)) // one every 20 s
	require.NoError(t, err)
	_, err = slow.Orders.Get(context.Background(), "ord_missing")
	require.ErrorIs(t, err, rxdelivery.ErrNotFound, "the burst")
	client = slow
	md, err = create(5*time.Second, rxdelivery.WithWriteGrace(time.Minute))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.ErrorContains(t, err, "wait would pass the context's deadline", "refused at once by the limiter")
	assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.Equal(t, 1, md.Attempts)
}
