package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/spf13/cobra"
)

// watchFlags are the polling flags of the watch commands.
type watchFlags struct {
	interval, maxInterval time.Duration
}

// Default polling of watch: a delivery moves in minutes, so a read every
// 15 seconds follows it closely, and 2 minutes between reads bounds the
// wait once it has stood still for a while.
const (
	defaultWatchInterval    = 15 * time.Second
	defaultWatchMaxInterval = 2 * time.Minute
)

func (w *watchFlags) register(c *cobra.Command) {
	c.Flags().DurationVar(&w.interval, "interval", defaultWatchInterval, "wait between two reads after a change")
	c.Flags().DurationVar(&w.maxInterval, "max-interval", defaultWatchMaxInterval, "longest wait between two reads while nothing changes")
}

// watch reads a resource with step until it is final. step returns the
// resource's state, whether it is final, and how to print it; a line is
// printed at the first read and at each change of state. The wait between
// reads starts at interval, grows by half while nothing changes, up to
// maxInterval, and is jittered by up to a tenth so that many watchers do
// not read in step.
func (a *app) watch(ctx context.Context, w watchFlags, step func(context.Context) (state string, final bool, show func(), err error)) error {
	if w.interval <= 0 || w.maxInterval < w.interval {
		return usagef("--interval must be positive and --max-interval at least --interval")
	}
	wait := w.interval
	last, first := "", true
	for {
		state, final, show, err := step(ctx)
		if err != nil {
			return err
		}
		if first || state != last {
			show()
			first, last, wait = false, state, w.interval
		} else {
			wait = min(wait+wait/2, w.maxInterval)
		}
		if final {
			return nil
		}
		d := wait - time.Duration(rand.Int64N(int64(wait)/10+1))
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("watch stopped before a final status: %w", context.Cause(ctx))
		case <-t.C:
		}
	}
}

// watchLine prints one state of a watched resource: a line with the time,
// the id and the status, or the resource as one line of JSON.
func (a *app) watchLine(v any, id, status string) {
	if a.jsonOut {
		_ = a.printJSONLine(v)
		return
	}
	fmt.Fprintf(a.stdout, "%s  %s  %s\n", time.Now().UTC().Format(time.RFC3339), id, status)
}
