package option

import (
	"context"
	"time"
)

// Defaults of a watch (Watch, Wait and WatchMany of the orders and requests
// services).
const (
	// DefaultPollInterval is the wait before the second read of a watch,
	// and after every read that saw a change.
	DefaultPollInterval = 10 * time.Second
	// DefaultMaxPollInterval caps the wait between two reads. While nothing
	// changes each wait is PollGrowth times the one before, up to this cap.
	DefaultMaxPollInterval = 2 * time.Minute
	// PollGrowth is the factor by which the wait grows after a read that
	// saw no change (or failed and is tried again).
	PollGrowth = 1.5
	// PollJitter is the spread of every wait: each is drawn uniformly
	// within PollJitter of its nominal length (10%: a wait of 10s lasts
	// between 9s and 11s), so that watches started together do not read
	// together.
	PollJitter = 0.1
	// DefaultPollBatchSize is how many ids one read of a WatchMany asks
	// for (ids[]=… repeated in one get-many call). The documents set no
	// limit; 50 ids of up to 30 characters keep the request line under
	// 2.5 KB, well below the 8 KB that common proxies accept.
	DefaultPollBatchSize = 50
)

// Clock is the time a client's watches wait on between reads.
// rxdelivery.WithClock sets it for a client; the default waits in real
// time. The test kit (rxdeliverytest) gives its clients one that moves the
// simulator's manual clock instead of sleeping, so a test of code that
// waits for a delivery runs in milliseconds.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Sleep waits for d, or until ctx ends, and returns ctx's error in
	// that case (nil otherwise).
	Sleep(ctx context.Context, d time.Duration) error
}

// WatchOption configures a watch: the trailing arguments of Watch, Wait
// and WatchMany. Every [CallOption] is a WatchOption and applies to each
// read of the watch, but for [WithMetadata]: its [Metadata] sums the watch
// so far, updated after every read (so it is current each time the watch
// yields, and complete when it ends). Attempts and Duration add up every
// read's attempts and time (the waits between reads left out);
// RetryBudgetExhausted is set once any read met an empty budget;
// StatusCode, Header and RequestID are those of the last read that got a
// response (a read that got none does not erase them); AttemptLog lists
// the attempts of the last read. [WithResponseInto] holds the last read's
// response. Each round of reads is reported to a [WithWatchProgress] func.
type WatchOption interface {
	// ApplyWatch applies the option to s.
	ApplyWatch(s *WatchSettings)
}

// WatchSettings are what watch options set. The SDK applies a watch's
// options to a zero WatchSettings and then fills in the defaults of what
// is left zero.
type WatchSettings struct {
	// Interval is the first wait between reads ([DefaultPollInterval] when
	// zero).
	Interval time.Duration
	// MaxInterval caps the wait between reads ([DefaultMaxPollInterval]
	// when zero; raised to Interval when below it).
	MaxInterval time.Duration
	// BatchSize is how many ids one read of WatchMany asks for
	// ([DefaultPollBatchSize] when zero).
	BatchSize int
	// Until is the condition that ends a watch besides a final status, a
	// func(*orders.Order) bool or func(*requests.Request) bool (see
	// Until); nil for none.
	Until any
	// Calls are the call options applied to each read.
	Calls []CallOption
	// Progress, when set, is called after every round of reads
	// ([WithWatchProgress]).
	Progress func(WatchRound)
}

// ApplyWatch adds o to the call options of every read of the watch.
func (o CallOption) ApplyWatch(s *WatchSettings) { s.Calls = append(s.Calls, o) }

// watchOption is a WatchOption that is not a call option.
type watchOption func(*WatchSettings)

func (f watchOption) ApplyWatch(s *WatchSettings) { f(s) }

// WithPollInterval sets the first wait between two reads of a watch
// ([DefaultPollInterval] by default); the wait comes back to it after every
// read that saw a change. A d of zero or less changes nothing.
func WithPollInterval(d time.Duration) WatchOption {
	return watchOption(func(s *WatchSettings) {
		if d > 0 {
			s.Interval = d
		}
	})
}

// WithMaxPollInterval caps the wait between two reads of a watch
// ([DefaultMaxPollInterval] by default), which grows while nothing changes.
// A d of zero or less changes nothing.
func WithMaxPollInterval(d time.Duration) WatchOption {
	return watchOption(func(s *WatchSettings) {
		if d > 0 {
			s.MaxInterval = d
		}
	})
}

// WithPollBatchSize sets how many ids one read of WatchMany asks for
// ([DefaultPollBatchSize] by default). An n of zero or less changes
// nothing.
func WithPollBatchSize(n int) WatchOption {
	return watchOption(func(s *WatchSettings) {
		if n > 0 {
			s.BatchSize = n
		}
	})
}

// Until ends a watch (or makes Wait return) as soon as cond reports true
// for the resource read, even before a final status. T is the resource
// of the service watched: *orders.Order for the orders service,
// *requests.Request for the requests service; orders.Until and
// requests.Until spell it. A condition of another type is refused when
// the watch starts, before anything is sent. A nil cond changes nothing.
func Until[T any](cond func(T) bool) WatchOption {
	return watchOption(func(s *WatchSettings) {
		if cond != nil {
			s.Until = cond
		}
	})
}

// WatchRound is what one round of a watch did, as [WithWatchProgress]
// reports it. A round of Watch or Wait is one read; a round of WatchMany
// reads every open id once, in batches, and stops early at a batch the
// platform throttled (the ids not read are read first next round).
type WatchRound struct {
	// Round is the round's number, from 1.
	Round int
	// Batches is how many reads (get-many calls for WatchMany, gets for
	// Watch) the round made.
	Batches int
	// Read is how many ids the round's successful reads asked for.
	Read int
	// Failed is how many of the round's reads failed for a passing reason
	// (429, 5xx, a failed connection, an attempt timeout) and will be made
	// again; Throttled is how many of those asked to slow down (a 429, a
	// Retry-After, or a call not sent because a Retry-After pauses the
	// interface).
	Failed, Throttled int
	// Carried is how many ids the round did not read because a read was
	// throttled: the next round starts with them.
	Carried int
	// Changed is how many resources the round yielded: first reads and
	// changes.
	Changed int
	// Open is how many ids the watch still follows after the round.
	Open int
	// Wait is the wait before the next round, a Retry-After included; 0
	// when the round ended the watch.
	Wait time.Duration
}

// WithWatchProgress calls f after every round of a watch's reads, on the
// goroutine that ranges over the watch, with what the round did and the
// wait before the next one (see [WatchRound]). The round that ends the
// watch is reported too, with Wait 0, unless the watch ended because the
// loop over it stopped. f must not block: the watch waits for it. A nil
// f changes nothing.
func WithWatchProgress(f func(WatchRound)) WatchOption {
	return watchOption(func(s *WatchSettings) {
		if f != nil {
			s.Progress = f
		}
	})
}
