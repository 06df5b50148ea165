package rxdelivery

import (
	"time"

	"github.com/rxdelivery/rxdelivery-go/option"
)

// Clock is [option.Clock]: the time a client's watches (Watch, Wait and
// WatchMany of the orders and requests services) wait on between reads.
type Clock = option.Clock

// WithClock makes the client's watches wait on c between reads instead of
// in real time. The test kit's clients (rxdeliverytest) have one that
// moves the simulator's manual clock forward instead of sleeping; a
// program seldom needs it. A nil c keeps real time. c is the client's one
// clock for waits the SDK schedules itself: the pause a Retry-After sets
// on an interface and the turns of [WithRateLimit] (see
// [Client.LimiterState]) are counted and waited on c too, so that a test on
// a manual clock sees them end when its clock passes them; a context's
// deadline is read as the time left on it. The waits between the attempts
// of one call (backoff, a Retry-After within a call's retries) and each
// attempt's timeout keep real time: they belong to the transport.
func WithClock(c Clock) Option {
	return clientOpt(func(s *settings) { s.cfg.Clock = c })
}

// WatchOption is [option.WatchOption]: a trailing argument of Watch, Wait
// and WatchMany. Every [CallOption] is one, applied to each read.
type WatchOption = option.WatchOption

// Defaults of a watch (see package option).
const (
	// DefaultPollInterval (10s) is the first wait between two reads of a
	// watch, and the wait after every read that saw a change.
	DefaultPollInterval = option.DefaultPollInterval
	// DefaultMaxPollInterval (2m) caps the wait, which grows by half after
	// every read that saw no change.
	DefaultMaxPollInterval = option.DefaultMaxPollInterval
	// DefaultPollBatchSize (50) is how many ids one get-many read of
	// WatchMany asks for.
	DefaultPollBatchSize = option.DefaultPollBatchSize
)

// WithPollInterval sets the first wait between two reads of a watch
// ([DefaultPollInterval], 10s, by default), to which the wait returns after
// every read that saw a change. See [option.WithPollInterval].
func WithPollInterval(d time.Duration) WatchOption { return option.WithPollInterval(d) }

// WithMaxPollInterval caps the wait between two reads of a watch, which
// grows by half while nothing changes ([DefaultMaxPollInterval], 2m, by
// default). See [option.WithMaxPollInterval].
func WithMaxPollInterval(d time.Duration) WatchOption { return option.WithMaxPollInterval(d) }

// WithPollBatchSize sets how many ids one read of WatchMany asks for
// ([DefaultPollBatchSize], 50, by default). See [option.WithPollBatchSize].
func WithPollBatchSize(n int) WatchOption { return option.WithPollBatchSize(n) }

// WatchRound is [option.WatchRound]: what one round of a watch's reads did
// (reads, ids read, failed and throttled reads, ids carried over, changes,
// ids still open) and the wait before the next.
type WatchRound = option.WatchRound

// WithWatchProgress calls f after every round of a watch's reads with
// what it did and the wait before the next. See [option.WithWatchProgress].
func WithWatchProgress(f func(WatchRound)) WatchOption { return option.WithWatchProgress(f) }
