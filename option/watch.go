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
// and WatchMany. Every CallOption is a WatchOption and applies to each
// read of the watch (WithMetadata is filled by each read in turn; after
// the watch it holds the last one's).
type WatchOption interface {
	// ApplyWatch applies the option to s.
	ApplyWatch(s *WatchSettings)
}

// WatchSettings are what watch options set. The SDK applies a watch's
// options to a zero WatchSettings and then fills in the defaults of what
// is left zero.
type WatchSettings struct {
	// Interval is the first wait between reads (DefaultPollInterval when
	// zero).
	Interval time.Duration
	// MaxInterval caps the wait between reads (DefaultMaxPollInterval when
	// zero; raised to Interval when below it).
	MaxInterval time.Duration
	// BatchSize is how many ids one read of WatchMany asks for
	// (DefaultPollBatchSize when zero).
	BatchSize int
	// Until is the condition that ends a watch besides a final status, a
	// func(*orders.Order) bool or func(*requests.Request) bool (see
	// Until); nil for none.
	Until any
	// Calls are the call options applied to each read.
	Calls []CallOption
}

// ApplyWatch adds o to the call options of every read of the watch.
func (o CallOption) ApplyWatch(s *WatchSettings) { s.Calls = append(s.Calls, o) }

// watchOption is a WatchOption that is not a call option.
type watchOption func(*WatchSettings)

func (f watchOption) ApplyWatch(s *WatchSettings) { f(s) }

// WithPollInterval sets the first wait between two reads of a watch
// (DefaultPollInterval by default); the wait comes back to it after every
// read that saw a change. A d of zero or less changes nothing.
func WithPollInterval(d time.Duration) WatchOption {
	return watchOption(func(s *WatchSettings) {
		if d > 0 {
			s.Interval = d
		}
	})
}

// WithMaxPollInterval caps the wait between two reads of a watch
// (DefaultMaxPollInterval by default), which grows while nothing changes.
// A d of zero or less changes nothing.
func WithMaxPollInterval(d time.Duration) WatchOption {
	return watchOption(func(s *WatchSettings) {
		if d > 0 {
			s.MaxInterval = d
		}
	})
}

// WithPollBatchSize sets how many ids one read of WatchMany asks for
// (DefaultPollBatchSize by default). An n of zero or less changes nothing.
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
