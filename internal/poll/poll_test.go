package poll

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func TestPassing(t *testing.T) {
	t.Parallel()
	api := func(status int) error { return &rxtypes.APIError{StatusCode: status} }
	transport := func(cause error) error { return &rxtypes.TransportError{Method: "GET", Path: "/p", Err: cause} }
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"429", api(429), true},
		{"500", api(500), true},
		{"502", api(502), true},
		{"503", api(503), true},
		{"504", api(504), true},
		{"400", api(400), false},
		{"401", api(401), false},
		{"403", api(403), false},
		{"404", api(404), false},
		{"422", api(422), false},
		{"dial", transport(&net.OpError{Op: "dial", Err: errors.New("refused")}), true},
		{"attempt timeout", transport(rxtypes.ErrAttemptTimeout), true},
		{"canceled", transport(context.Canceled), false},
		{"deadline", transport(context.DeadlineExceeded), false},
		{"wrapped 503", fmt.Errorf("reading: %w", api(503)), true},
		{"decode", &rxtypes.DecodeError{StatusCode: 200, Err: errors.New("bad")}, false},
		{"config", &rxtypes.ConfigError{Message: "no base URL"}, false},
		{"validation", &rxtypes.ValidationError{}, false},
		{"watch", &rxtypes.WatchError{Op: "orders.Watch", ID: "x", Gone: true}, false},
	} {
		assert.Equal(t, tc.want, Passing(tc.err), tc.name)
	}
}

func TestJitterStaysWithinTenPercentAndHonoursRetryAfter(t *testing.T) {
	t.Parallel()
	for _, r := range []float64{0, 0.25, 0.5, 0.999999} {
		w := Watch{Rand: func() float64 { return r }}
		d := w.jitter(10*time.Second, nil)
		assert.GreaterOrEqual(t, d, 9*time.Second, "rand %v", r)
		assert.LessOrEqual(t, d, 11*time.Second, "rand %v", r)
	}
	lo := Watch{Rand: func() float64 { return 0 }}
	assert.Equal(t, 9*time.Second, lo.jitter(10*time.Second, nil))
	hi := Watch{Rand: func() float64 { return 0.5 }}
	assert.Equal(t, 10*time.Second, hi.jitter(10*time.Second, nil))

	ra := &rxtypes.APIError{StatusCode: 429, RetryAfter: time.Minute}
	assert.Equal(t, time.Minute, lo.jitter(10*time.Second, ra), "never shorter than Retry-After")
	assert.Equal(t, 9*time.Second, lo.jitter(10*time.Second, &rxtypes.APIError{StatusCode: 429, RetryAfter: time.Second}),
		"a shorter Retry-After leaves the wait")
}

func TestGrowIsCapped(t *testing.T) {
	t.Parallel()
	w := Watch{Interval: 10 * time.Second, MaxInterval: 20 * time.Second}
	assert.Equal(t, 15*time.Second, w.grow(10*time.Second))
	assert.Equal(t, 20*time.Second, w.grow(15*time.Second))
	assert.Equal(t, 20*time.Second, w.grow(20*time.Second))
}

func TestResolve(t *testing.T) {
	t.Parallel()
	w, s := Resolve(nil, nil)
	assert.Equal(t, option.DefaultPollInterval, w.Interval)
	assert.Equal(t, option.DefaultMaxPollInterval, w.MaxInterval)
	assert.Equal(t, option.DefaultPollBatchSize, w.BatchSize)
	assert.Empty(t, s.Calls)

	w, s = Resolve(nil, []option.WatchOption{
		option.WithPollInterval(5 * time.Minute), // above the default cap: the cap follows
		option.WithPollBatchSize(7),
		option.WithRetryMax(0),                                                                  // a call option: applies to each read
		option.WithPollInterval(-1), option.WithPollBatchSize(0), option.WithMaxPollInterval(0), // change nothing
	})
	assert.Equal(t, 5*time.Minute, w.Interval)
	assert.Equal(t, 5*time.Minute, w.MaxInterval)
	assert.Equal(t, 7, w.BatchSize)
	require.Len(t, s.Calls, 1)
	var cs option.Settings
	s.Calls[0].Apply(&cs)
	require.NotNil(t, cs.RetryMax)
	assert.Equal(t, 0, *cs.RetryMax)
}

func TestUntilOf(t *testing.T) {
	t.Parallel()
	type a struct{ n int }
	type b struct{}
	f, err := UntilOf[*a]("x.Watch", option.WatchSettings{})
	assert.NoError(t, err)
	assert.Nil(t, f)

	_, s := Resolve(nil, []option.WatchOption{option.Until(func(v *a) bool { return v.n > 1 })})
	f, err = UntilOf[*a]("x.Watch", s)
	require.NoError(t, err)
	assert.True(t, f(&a{2}))

	_, err = UntilOf[*b]("x.Watch", s)
	var ce *rxtypes.ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "x.Watch")
}

func TestRealClockSleepEndsWithTheContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	go cancel()
	assert.ErrorIs(t, RealClock{}.Sleep(ctx, time.Hour), context.Canceled)
	assert.NoError(t, RealClock{}.Sleep(context.Background(), time.Millisecond))
}
