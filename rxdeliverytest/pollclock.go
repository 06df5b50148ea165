package rxdeliverytest

import (
	"context"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/poll"
)

// PollClock returns the clock the watches of the server's clients wait on
// between reads (Watch, Wait and WatchMany of the orders and requests
// services): [Server.Client], [Server.NewClient] and [Server.ClientOptions]
// give it to their clients with [rxdelivery.WithClock].
//
// On the manual clock a watch's wait does not sleep: it moves the
// simulator's clock forward by the wait (as [Server.Advance] does, applying
// every transition that became due) and returns at once, so a test of code
// that waits for a delivery runs through the whole life cycle in
// milliseconds and sees the statuses the platform would show at that pace.
// Time moves only while something waits: a test that moves it itself with
// Advance, while a watch runs in another goroutine, shares the clock with
// it. With [WithRealClock] a wait sleeps in real time.
//
// A wait ends early, with the context's error, when its context ends.
func (s *Server) PollClock() rxdelivery.Clock { return pollClock{s: s} }

// pollClock is the clock of PollClock.
type pollClock struct{ s *Server }

func (c pollClock) Now() time.Time { return c.s.Now() }

func (c pollClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if c.s.realClock {
		return poll.RealClock{}.Sleep(ctx, d)
	}
	c.s.Advance(d)
	return ctx.Err()
}
