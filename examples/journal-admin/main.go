// Command journal-admin is the operator's tool for a journal's claims
// (package journal): it lists the creates whose outcome is unknown and
// settles each one once you have found out, on the platform, whether it
// happened.
//
//	journal-admin -sqlite journal.db list
//	JOURNAL_DATABASE_URL=postgres://... journal-admin -postgres list
//	journal-admin -sqlite journal.db get delivery rx-2026-0001
//	journal-admin -sqlite journal.db resolve delivery rx-2026-0001 ord_123
//	journal-admin -sqlite journal.db free delivery rx-2026-0001
//
// list prints the unknown claims, oldest first, one a line: interface,
// reference, holder, when it was claimed, and why it is unknown (with
// -state in_flight or created, the claims in that state). resolve
// records the id of the request or order you found for the reference (the
// next create of that reference returns it without sending); free removes
// the claim of a create you found did not happen (the next create is
// sent). Both refuse a claim that is not unknown: one still in flight
// within its lease, or already created. prune removes the created claims
// older than a duration longer than any retry or redelivery you expect, so
// the store does not grow without end.
//
// The PostgreSQL connection string is read from JOURNAL_DATABASE_URL, so
// that no password appears in a command line or a shell history.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/pgstore"
	"github.com/rxdelivery/rxdelivery-go/journal/sqlitestore"
)

// envDSN names the variable holding the PostgreSQL connection string.
const envDSN = "JOURNAL_DATABASE_URL"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "journal-admin:", err)
		if errors.Is(err, errUsage) {
			fmt.Fprint(os.Stderr, usage)
		}
		stop()
		os.Exit(1)
	}
}

const usage = `usage: journal-admin (-sqlite PATH | -postgres) COMMAND

commands:
  list [-state S] [-limit N]         the claims of unknown outcome (or in state S:
                                     in_flight, created), oldest first
  get INTERFACE REFERENCE            one claim
  resolve INTERFACE REFERENCE ID     the create happened: record its request or order id
  free INTERFACE REFERENCE           the create did not happen: remove the claim
  prune -older-than DURATION         remove created claims older than DURATION (their
                                     references would be sent again by a new create)

INTERFACE is omni (requests), delivery (orders) or tracking.
-postgres reads the connection string from ` + envDSN + `.
`

// errUsage marks an error in the command line; main prints the usage.
var errUsage = errors.New("usage")

// run executes one command; getenv reads the environment.
func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("journal-admin", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	sqlitePath := fs.String("sqlite", "", "path of the journal's SQLite file")
	postgres := fs.Bool("postgres", false, "use the PostgreSQL database at $"+envDSN)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return nil
		}
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: no command", errUsage)
	}
	store, closeStore, err := open(ctx, *sqlitePath, *postgres, getenv)
	if err != nil {
		return err
	}
	defer closeStore()
	j := journal.New(store)
	cmd, rest := fs.Arg(0), fs.Args()[1:]
	switch cmd {
	case "list":
		lf := flag.NewFlagSet("list", flag.ContinueOnError)
		lf.SetOutput(io.Discard)
		limit := lf.Int("limit", 1000, "list at most this many claims")
		state := lf.String("state", string(journal.StateUnknown), "the state listed: unknown, in_flight or created")
		if err := lf.Parse(rest); err != nil {
			return fmt.Errorf("%w: %w", errUsage, err)
		}
		var claims []journal.Claim
		switch journal.State(*state) {
		case journal.StateUnknown:
			claims, err = j.Unknown(ctx, *limit)
		case journal.StateInFlight, journal.StateCreated:
			// Unknown first turns the ended leases unknown, so that the
			// in-flight claims listed are live ones.
			if _, err = j.Unknown(ctx, 0); err == nil {
				claims, err = store.List(ctx, journal.State(*state), *limit)
			}
		default:
			return fmt.Errorf("%w: state %q: want unknown, in_flight or created", errUsage, *state)
		}
		if err != nil {
			return err
		}
		for i := range claims {
			claims[i].Token = ""
		}
		printClaims(stdout, claims)
		if len(claims) == 0 {
			fmt.Fprintf(stdout, "no claims %s\n", *state)
		}
		return nil
	case "get":
		k, err := key(rest, 2)
		if err != nil {
			return err
		}
		c, err := j.Get(ctx, k)
		if err != nil {
			return err
		}
		printClaims(stdout, []journal.Claim{c})
		return nil
	case "resolve":
		k, err := key(rest, 3)
		if err != nil {
			return err
		}
		if err := j.Resolve(ctx, k, rest[2]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s resolved: created as %s\n", k, rest[2])
		return nil
	case "prune":
		pf := flag.NewFlagSet("prune", flag.ContinueOnError)
		pf.SetOutput(io.Discard)
		age := pf.Duration("older-than", 0, "prune the created claims claimed longer ago than this (such as 720h)")
		if err := pf.Parse(rest); err != nil {
			return fmt.Errorf("%w: %w", errUsage, err)
		}
		if *age <= 0 {
			return fmt.Errorf("%w: prune needs -older-than, a positive duration", errUsage)
		}
		n, err := j.Prune(ctx, time.Now().Add(-*age))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "pruned %d created claims\n", n)
		return nil
	case "free":
		k, err := key(rest, 2)
		if err != nil {
			return err
		}
		if err := j.Free(ctx, k); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s freed: the next create of it will be sent\n", k)
		return nil
	}
	return fmt.Errorf("%w: unknown command %q", errUsage, cmd)
}

func open(ctx context.Context, sqlitePath string, postgres bool, getenv func(string) string) (journal.Store, func(), error) {
	switch {
	case sqlitePath != "" && postgres:
		return nil, nil, fmt.Errorf("%w: give -sqlite or -postgres, not both", errUsage)
	case sqlitePath != "":
		if _, err := os.Stat(sqlitePath); err != nil {
			return nil, nil, fmt.Errorf("no journal at %s: %w", sqlitePath, err)
		}
		s, err := sqlitestore.Open(sqlitePath)
		if err != nil {
			return nil, nil, err
		}
		return s, func() { s.Close() }, nil
	case postgres:
		dsn := getenv(envDSN)
		if dsn == "" {
			return nil, nil, errors.New(envDSN + " is not set")
		}
		s, err := pgstore.Open(ctx, dsn)
		if err != nil {
			return nil, nil, err
		}
		return s, func() { s.Close() }, nil
	}
	return nil, nil, fmt.Errorf("%w: give -sqlite PATH or -postgres", errUsage)
}

// key reads INTERFACE REFERENCE from args, which must hold n arguments.
func key(args []string, n int) (journal.Key, error) {
	if len(args) != n {
		return journal.Key{}, fmt.Errorf("%w: want %d arguments, got %d", errUsage, n, len(args))
	}
	switch args[0] {
	case journal.InterfaceOmni, journal.InterfaceDelivery, journal.InterfaceTracking:
	default:
		return journal.Key{}, fmt.Errorf("%w: interface %q: want omni, delivery or tracking", errUsage, args[0])
	}
	return journal.Key{Interface: args[0], Reference: args[1]}, nil
}

func printClaims(w io.Writer, claims []journal.Claim) {
	if len(claims) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "INTERFACE\tREFERENCE\tSTATE\tID\tHOLDER\tCLAIMED\tNOTE")
	for _, c := range claims {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Interface, c.Reference, c.State, dash(c.ID), c.Holder,
			c.ClaimedAt.Format(time.RFC3339), dash(strings.ReplaceAll(c.Note, "\t", " ")))
	}
	tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
