package main

import (
	"context"
	"fmt"
	"iter"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/spf13/cobra"
)

// The commands several kinds of resource share are written once, here
// and in watch.go: each helper takes a *cobra.Command holding the
// command's own texts (Use, Short, Long, Example) and gives it its
// arguments, flags and run. The texts, runbooks and table columns of each
// kind stand in its own file.

// creator is the create of a service: *orders.Service and
// *requests.Service, or either through the journal.
type creator[P, T any] interface {
	Create(ctx context.Context, p *P, opts ...rxdelivery.CallOption) (*T, error)
}

// deliveryService is what *orders.Service and *requests.Service have in
// common: the create (params P) and reads, cancel and watch of a resource
// T that a delivery is followed by.
type deliveryService[P, T any] interface {
	creator[P, T]
	Get(ctx context.Context, id string, opts ...rxdelivery.CallOption) (*T, error)
	GetMany(ctx context.Context, ids []string, opts ...rxdelivery.CallOption) ([]T, error)
	Cancel(ctx context.Context, id string, opts ...rxdelivery.CallOption) error
	Watch(ctx context.Context, id string, opts ...rxdelivery.WatchOption) iter.Seq2[*T, error]
	WatchMany(ctx context.Context, ids []string, opts ...rxdelivery.WatchOption) iter.Seq2[*T, error]
}

// kind is what the commands orders and requests share (create, get,
// get-many, cancel, watch) know of one of them: a resource T created from
// params P.
type kind[P, T any] struct {
	// noun names one resource in messages and runbooks: "order".
	noun string
	// iface is the journal's interface its creates are claimed under.
	iface string
	// service is its service on a client.
	service func(*rxdelivery.Client) deliveryService[P, T]
	// journaled is its create through the journal j.
	journaled func(j *journal.Journal, c *rxdelivery.Client) creator[P, T]
	// validate checks the params of a create as it will be sent.
	validate func(*P) error
	// reference is the external reference number a create's params give.
	reference func(*P) string
	// sentReference sets the external reference number of a resource a
	// create responded with to the one the create sent, when the
	// response left it out (the delivery interface's create response does
	// not echo it).
	sentReference func(v *T, ref string)
	// createError, when set, rewords an error of a create of p that
	// Create refused before sending (a problem of the configuration
	// rather than of the file) in the command's terms.
	createError func(p *P, err error) error
	// id is the id of a resource.
	id func(*T) string
	// table is how it prints.
	table columns[T]
	// watched is the id and the status a watch prints of it.
	watched func(*T) (id, status string)
}

// get reads one resource of the kind by its id.
func (k kind[P, T]) get(ctx context.Context, c *rxdelivery.Client, id string) (*T, error) {
	return k.service(c).Get(ctx, id)
}

// getCommand makes cmd the command that reads one resource by the id in
// its one argument (get) and prints it.
func getCommand[T any](a *app, cols columns[T], get func(ctx context.Context, c *rxdelivery.Client, id string) (*T, error), cmd *cobra.Command) *cobra.Command {
	cmd.Args = cobra.ExactArgs(1)
	cmd.RunE = a.withClient(func(ctx context.Context, _ *cobra.Command, client *rxdelivery.Client, args []string) error {
		v, err := get(ctx, client, args[0])
		if err != nil {
			return err
		}
		return showOne(a, cols, v)
	})
	return cmd
}

// getManyCommand makes cmd the command that reads the resources its
// arguments name in one call and prints them: always a list, one id or
// many. An id the platform did not return is reported on stderr, each on
// a line, after the list of those it did; then the command ends with a
// not-found error (exit code 4).
func getManyCommand[P, T any](a *app, k kind[P, T], cmd *cobra.Command) *cobra.Command {
	cmd.Args = cobra.MinimumNArgs(1)
	cmd.RunE = a.withClient(func(ctx context.Context, _ *cobra.Command, client *rxdelivery.Client, ids []string) error {
		list, err := k.service(client).GetMany(ctx, ids)
		if err != nil {
			return err
		}
		if err := showList(a, k.table, list); err != nil {
			return err
		}
		returned := make(map[string]bool, len(list))
		for i := range list {
			returned[k.id(&list[i])] = true
		}
		missing := &notReturned{noun: k.noun, asked: len(ids)}
		for _, id := range ids {
			if !returned[id] {
				returned[id] = true // each id reported once
				missing.ids = append(missing.ids, id)
				fmt.Fprintf(a.stderr, "rxdelivery: %s %s: not found\n", k.noun, printable(id))
			}
		}
		if len(missing.ids) > 0 {
			return missing
		}
		return nil
	})
	return cmd
}

// notReturned is a get-many that did not return every id it asked for
// (each was reported as found missing): it matches rxdelivery.ErrNotFound.
type notReturned struct {
	noun  string
	asked int
	ids   []string
}

func (e *notReturned) Error() string {
	return fmt.Sprintf("%d of the %d %ss asked for not found (see above)", len(e.ids), e.asked, e.noun)
}

func (e *notReturned) Unwrap() error { return rxdelivery.ErrNotFound }

// cancelCommand makes cmd the command that cancels the resource its one
// argument names. runbook is what to do when the cancel's outcome is
// unknown: a format whose one %s is the command line that reads the
// resource, printed to run as is (printedCommand).
//
// At a terminal it asks first (confirm), unless --yes or --dry-run is
// given; an answer other than yes cancels nothing (exit code 2).
func cancelCommand[P, T any](a *app, k kind[P, T], cmd *cobra.Command, runbook string) *cobra.Command {
	var d dryRun
	var yes bool
	cmd.Args = cobra.ExactArgs(1)
	cmd.RunE = d.wrap(a, a.withClient(func(ctx context.Context, _ *cobra.Command, client *rxdelivery.Client, args []string) error {
		id := args[0]
		if !d.on && !a.confirm(fmt.Sprintf("Cancel %s %s?", k.noun, id), yes) {
			return usagef("not confirmed: %s %s was not cancelled (--yes cancels without asking)", k.noun, printable(id))
		}
		a.next = fmt.Sprintf(runbook, printedCommand(append(a.clientArgs(), k.noun+"s", "get", id)...))
		err := k.service(client).Cancel(ctx, id, d.callOptions()...)
		if d.on {
			return d.report(a, err)
		}
		if err != nil {
			return err
		}
		return a.done(map[string]string{"id": id, "result": "cancelled"}, "%s %s cancelled\n", k.noun, id)
	}))
	d.register(cmd)
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "cancel without asking (a cancel asks only when standard input is a terminal)")
	return cmd
}

// fileCommand makes cmd a command whose input is a params file P, JSON or
// YAML, given with -f FILE (what names the input in the flag's help and in
// the error of a missing -f). The file is read and checked with validate
// before anything else: every problem is reported at once and nothing is
// sent. send then sends it, with the command's arguments, and the resource
// it responds with is printed.
//
// With --dry-run the file is read and checked the same way, and send makes
// its call with the dry run's options (d, which it gets): nothing is sent,
// and what would be is printed (see dryRun).
func fileCommand[P, T any](a *app, what string, validate func(*P) error, cols columns[T],
	send func(ctx context.Context, client *rxdelivery.Client, args []string, p *P, d *dryRun) (*T, error), cmd *cobra.Command) *cobra.Command {
	var file string
	var p P
	var d dryRun
	cmd.RunE = d.wrap(a, a.withInput(func() error {
		if file == "" {
			return usagef("give the %s's file with -f FILE", what)
		}
		return readParams(file, a.stdin, &p, func() error { return validate(&p) })
	}, func(ctx context.Context, _ *cobra.Command, client *rxdelivery.Client, args []string) error {
		v, err := send(ctx, client, args, &p, &d)
		if d.on {
			return d.report(a, err)
		}
		if err != nil {
			return err
		}
		return showOne(a, cols, v)
	}))
	fileFlag(cmd, &file, what)
	d.register(cmd)
	return cmd
}

// fileFlag gives cmd the -f flag of its params file.
func fileFlag(cmd *cobra.Command, file *string, what string) {
	cmd.Flags().StringVarP(file, "file", "f", "", "the "+what+"'s JSON or YAML `FILE` (- for standard input)")
	_ = cmd.MarkFlagFilename("file", "json", "yaml", "yml")
}

// createCommand makes cmd the command that creates a resource from a
// params file (see fileCommand) and prints it, with the external
// reference number it was sent with. With --journal-sqlite or
// --journal-postgres the create goes through the journal, which never
// sends a reference twice; when its outcome is unknown, the runbook says
// how to find out and settle it.
func createCommand[P, T any](a *app, k kind[P, T], cmd *cobra.Command) *cobra.Command {
	var jf journalFlags
	send := func(ctx context.Context, client *rxdelivery.Client, _ []string, p *P, d *dryRun) (*T, error) {
		var j *journal.Journal
		if !d.on {
			// A dry run claims nothing: the journal is not opened.
			var closeJ func()
			var err error
			if j, closeJ, err = jf.open(ctx); err != nil {
				return nil, err
			}
			defer closeJ()
		}
		var v *T
		var err error
		if j != nil {
			v, err = journaledCreate(ctx, a, j, &jf, k.noun, k.iface, k.reference(p), func(ctx context.Context) (*T, error) { return k.journaled(j, client).Create(ctx, p) })
		} else {
			a.next = createRunbook(k.noun, k.iface, k.reference(p), time.Now(), nil, false)
			v, err = k.service(client).Create(ctx, p, d.callOptions()...)
		}
		if err == nil && v != nil {
			k.sentReference(v, k.reference(p))
		}
		if err != nil && k.createError != nil {
			err = k.createError(p, err)
		}
		return v, err
	}
	jf.register(cmd)
	return fileCommand(a, k.noun, k.validate, k.table, send, cmd)
}
