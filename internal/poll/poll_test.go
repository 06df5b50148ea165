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

// recordClock records the waits of a watch without waiting.
type recordClock struct{ log *[]string }

func (recordClock) Now() time.Time { return time.Time{} }
func (c recordClock) Sleep(_ context.Context, d time.Duration) error {
	*c.log = append(*c.log, "wait "+d.String())
	return nil
}

// TestManyCarriesAThrottledRoundOver: a batch answered 429 ends the round;
// the batches after it are not read until the wait (no shorter than the
// Retry-After), and the next round starts with them. A 503 without one
// lets the round go on.
func TestManyCarriesAThrottledRoundOver(t *testing.T) {
	t.Parallel()
	type item struct{ id, state string }
	r := Resource[item]{
		Op:      "test.WatchMany",
		ID:      func(v item) string { return v.id },
		State:   func(v item) string { return v.state },
		Unknown: func(item) (string, bool) { return "", false },
		Final:   func(v item) bool { return v.state == "done" },
	}
	run := func(fail error) []string {
		var log []string
		reads := 0
		w := Watch{Clock: recordClock{&log}, Interval: time.Second, MaxInterval: time.Second, BatchSize: 1, Rand: func() float64 { return 0.5 }}
		read := func(_ context.Context, ids []string) ([]item, error) {
			reads++
			log = append(log, "read "+ids[0])
			if reads == 2 {
				return nil, fail
			}
			state := "open"
			if reads > 3 {
				state = "done"
			}
			return []item{{ids[0], state}}, nil
		}
		Many(context.Background(), w, r, []string{"a", "b", "c"}, read, func(item, error) bool { return true })
		return log
	}
	assert.Equal(t, []string{
		"read a", "read b", "wait 5s", // the Retry-After, before anything else
		"read b", "read c", "read a", // the next round starts with what was left
		"wait 1s", "read b",
	}, run(&rxtypes.APIError{StatusCode: 429, RetryAfter: 5 * time.Second}))
	// A read the client did not send because a Retry-After pauses the
	// interface ends the round the same way, and the wait lasts to the
	// pause's end.
	assert.Equal(t, []string{
		"read a", "read b", "wait 5s",
		"read b", "read c", "read a",
		"wait 1s", "read b",
	}, run(&rxtypes.TransportError{Err: &rxtypes.NotSentError{Err: errors.New("paused"), PausedUntil: time.Time{}.Add(5 * time.Second)}}))
	assert.Equal(t, []string{
		"read a", "read b", "read c", "wait 1s",
		"read a", "read b", "read c",
	}, run(&rxtypes.APIError{StatusCode: 503}))
}
