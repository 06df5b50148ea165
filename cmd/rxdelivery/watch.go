package main

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/spf13/cobra"
)

// watchFlags are the polling flags of the watch commands: the SDK's watch
// options, with its defaults.
type watchFlags struct {
	interval, maxInterval time.Duration
}

func (w *watchFlags) register(c *cobra.Command) {
	c.Flags().DurationVar(&w.interval, "interval", rxdelivery.DefaultPollInterval, "wait between two reads after a change")
	c.Flags().DurationVar(&w.maxInterval, "max-interval", rxdelivery.DefaultMaxPollInterval, "longest wait between two reads while nothing changes")
}

// options returns the SDK's watch options for the flags.
func (w *watchFlags) options() ([]rxdelivery.WatchOption, error) {
	if w.interval <= 0 || w.maxInterval < w.interval {
		return nil, usagef("--interval must be positive and --max-interval at least --interval")
	}
	return []rxdelivery.WatchOption{rxdelivery.WithPollInterval(w.interval), rxdelivery.WithMaxPollInterval(w.maxInterval)}, nil
}

// watchCommand makes cmd the command that follows the resources its
// arguments name until each reaches a final status, printing each change:
// one through Watch, several together through WatchMany.
func watchCommand[P, T any](a *app, k kind[P, T], cmd *cobra.Command) *cobra.Command {
	var w watchFlags
	cmd.Args = cobra.MinimumNArgs(1)
	cmd.RunE = a.withClient(func(ctx context.Context, _ *cobra.Command, client *rxdelivery.Client, ids []string) error {
		opts, err := w.options()
		if err != nil {
			return err
		}
		show := func(v *T) {
			id, status := k.watched(v)
			a.watchLine(v, id, status)
		}
		if len(ids) > 1 {
			return followMany(ctx, a, k.service(client).WatchMany(ctx, ids, opts...), show)
		}
		return follow(ctx, k.service(client).Watch(ctx, ids[0], opts...), show)
	})
	w.register(cmd)
	return cmd
}

// follow prints each state a watch yields, until it ends: at a final
// status (nil), or with the error that ended it. A resource yielded with
// its error (a status the documents do not list) is printed first.
func follow[T any](ctx context.Context, seq iter.Seq2[*T, error], show func(*T)) error {
	for v, err := range seq {
		if v != nil {
			show(v)
		}
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("watch stopped before a final status: %w", context.Cause(ctx))
			}
			return err
		}
	}
	return nil
}

// followMany prints each state a watch of many resources yields, until
// it ends. A resource that leaves the watch on its own (gone from the
// answer, or with a status the documents do not list: a
// *rxdelivery.WatchError) is reported on stderr and the others go on; the
// first such error is returned at the end, for the exit code.
func followMany[T any](ctx context.Context, a *app, seq iter.Seq2[*T, error], show func(*T)) error {
	var first error
	for v, err := range seq {
		if v != nil {
			show(v)
		}
		if err == nil {
			continue
		}
		var we *rxdelivery.WatchError
		if !errors.As(err, &we) {
			if ctx.Err() != nil {
				return fmt.Errorf("watch stopped before a final status: %w", context.Cause(ctx))
			}
			return err
		}
		fmt.Fprintln(a.stderr, printable(prefixed(err)))
		if first == nil {
			first = &leftWatch{first: err}
		}
		first.(*leftWatch).n++
	}
	return first
}

// leftWatch reports, once a watch of many has ended, that some resources
// left it without a final status (each was reported as it left); it
// matches what the first of them matched, for the exit code.
type leftWatch struct {
	n     int
	first error
}

func (e *leftWatch) Error() string {
	return fmt.Sprintf("%d watched without reaching a final status (see above)", e.n)
}

func (e *leftWatch) Unwrap() error { return e.first }

// watchLine prints one state of a watched resource: a line with the time,
// the id and the status, or the resource as one line of JSON.
func (a *app) watchLine(v any, id, status string) {
	if a.jsonOut {
		_ = a.printJSONLine(v)
		return
	}
	fmt.Fprintf(a.stdout, "%s  %s  %s\n", time.Now().UTC().Format(time.RFC3339), printable(id), printable(status))
}
