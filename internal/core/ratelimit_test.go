package core

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLimiterSlowsOn429AndComesBack(t *testing.T) {
	t.Parallel()
	l := NewLimiter(80, 1)
	l.observe(429)
	assert.InDelta(t, 40, l.Limit(), 1e-9)
	l.observe(429)
	l.observe(429)
	assert.InDelta(t, 10, l.Limit(), 1e-9)
	for i := 0; i < 10; i++ {
		l.observe(429)
	}
	assert.InDelta(t, 5, l.Limit(), 1e-9, "not below a sixteenth")
	l.observe(503)
	assert.InDelta(t, 5, l.Limit(), 1e-9, "a 5xx does not speed it up")
	l.observe(200)
	assert.InDelta(t, 9, l.Limit(), 1e-9, "a success gives back a twentieth")
	for i := 0; i < 100; i++ {
		l.observe(204)
	}
	assert.InDelta(t, 80, l.Limit(), 1e-9, "not above the configured rate")
}

func TestLimiterWaitsWithinTheContext(t *testing.T) {
	t.Parallel()
	l := NewLimiter(0.1, 1) // one attempt every 10s
	require.NoError(t, l.Wait(context.Background()), "the burst is free")

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	start := time.Now()
	err := l.Wait(ctx)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 2*time.Second, "a wait past the deadline is refused at once")

	cctx, ccancel := context.WithCancel(context.Background())
	ccancel()
	assert.True(t, errors.Is(l.Wait(cctx), context.Canceled))
}
