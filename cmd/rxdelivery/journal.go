package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/pgstore"
	"github.com/rxdelivery/rxdelivery-go/journal/sqlitestore"
	"github.com/spf13/cobra"
)

// envDSN names the variable holding the journal's PostgreSQL connection
// string, so that no password appears in a command line or a shell history.
const envDSN = "JOURNAL_DATABASE_URL"

// storeFlags choose a journal store.
type storeFlags struct {
	sqlite   string
	postgres bool
}

// openStore opens the chosen store; must says a store is required.
func (s storeFlags) openStore(ctx context.Context, must bool, sqliteFlag, postgresFlag string) (journal.Store, func(), error) {
	switch {
	case s.sqlite != "" && s.postgres:
		return nil, nil, usagef("give %s or %s, not both", sqliteFlag, postgresFlag)
	case s.sqlite != "":
		st, err := sqlitestore.Open(s.sqlite)
		if err != nil {
			return nil, nil, err
		}
		return st, func() { st.Close() }, nil
	case s.postgres:
		dsn := os.Getenv(envDSN)
		if dsn == "" {
			return nil, nil, usagef("%s needs the connection string in %s", postgresFlag, envDSN)
		}
		st, err := pgstore.Open(ctx, dsn)
		if err != nil {
			return nil, nil, err
		}
		return st, func() { st.Close() }, nil
	}
	if must {
		return nil, nil, usagef("give %s PATH or %s", sqliteFlag, postgresFlag)
	}
	return nil, func() {}, nil
}

// journalFlags are the flags of a create that goes through the journal.
type journalFlags struct{ storeFlags }

func (f *journalFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.sqlite, "journal-sqlite", "", "claim the reference in the journal's SQLite `FILE` first (created when missing)")
	c.Flags().BoolVar(&f.postgres, "journal-postgres", false, "claim the reference in the journal's PostgreSQL database at $"+envDSN+" first")
	_ = c.MarkFlagFilename("journal-sqlite", "db", "sqlite")
}

// open returns the journal, or nil when no store was given.
func (f *journalFlags) open(ctx context.Context) (*journal.Journal, func(), error) {
	st, closeStore, err := f.openStore(ctx, false, "--journal-sqlite", "--journal-postgres")
	if err != nil || st == nil {
		return nil, closeStore, err
	}
	return journal.New(st), closeStore, nil
}

// createRunbook is what to do after a create of unknown outcome.
func createRunbook(what, iface, ref string, withJournal bool) string {
	cmd := "orders"
	if iface == journal.InterfaceOmni {
		cmd = "requests"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The %s may or may not exist on the platform. Do not create it again until you know:\n", what)
	fmt.Fprintf(&b, "  1. look for %s with external reference number %q among those your pharmacy\n", article(what), ref)
	fmt.Fprintf(&b, "     sees, or ask the platform's support for one created around %s;\n", time.Now().UTC().Format(time.RFC3339))
	if withJournal {
		fmt.Fprintf(&b, "  2. found: rxdelivery journal resolve %s %s %s_ID   (the next create of it returns it)\n", iface, quoteArg(ref), strings.ToUpper(what))
		fmt.Fprintf(&b, "     not found: rxdelivery journal free %s %s   (the next create of it is sent)\n", iface, quoteArg(ref))
		fmt.Fprintln(&b, "     Until then the journal sends nothing for this reference.")
	} else {
		fmt.Fprintf(&b, "  2. found: use it (rxdelivery %s get ID); not found: run the create again.\n", cmd)
	}
	return b.String()
}

func article(what string) string {
	if strings.ContainsRune("aeiou", rune(what[0])) {
		return "an " + what
	}
	return "a " + what
}

// quoteArg quotes a reference for a shell when it needs it.
func quoteArg(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == ':' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

const journalLong = `The journal's runbook: list the creates whose outcome is unknown and settle
each one once you have found out, on the platform, whether it happened.

list prints the unknown claims, oldest first, one a line: interface,
reference, holder, when it was claimed, and why it is unknown (with --state
in_flight or created, the claims in that state). resolve records the id of the
request or order you found for the reference (the next create of that
reference returns it without sending); free removes the claim of a create you
found did not happen (the next create is sent). Both refuse a claim that is
not unknown: one still in flight within its lease, or already created (exit
code 5). prune removes the created claims older than a duration longer than
any retry or redelivery you expect, so the store does not grow without end.

INTERFACE is omni (requests), delivery (orders) or tracking. --postgres reads
the connection string from ` + envDSN + `, so that no password appears in a
command line or a shell history.`

func (a *app) journalCommand() *cobra.Command {
	var sf storeFlags
	c := &cobra.Command{
		Use:     "journal",
		Short:   "Settle the journal's creates of unknown outcome (list, get, resolve, free, prune)",
		Long:    journalLong,
		Example: "  rxdelivery journal --sqlite journal.db list",
	}
	c.PersistentFlags().StringVar(&sf.sqlite, "sqlite", "", "path of the journal's SQLite `FILE`")
	c.PersistentFlags().BoolVar(&sf.postgres, "postgres", false, "use the PostgreSQL database at $"+envDSN)
	_ = c.MarkPersistentFlagFilename("sqlite", "db", "sqlite")

	// inJournal runs run with the command's context and the journal the
	// flags name (and its store), closed when run returns.
	inJournal := func(c *cobra.Command, run func(ctx context.Context, j *journal.Journal, st journal.Store) error) error {
		if sf.sqlite != "" && !sf.postgres {
			if _, err := os.Stat(sf.sqlite); err != nil {
				return fmt.Errorf("no journal at %s: %w", sf.sqlite, err)
			}
		}
		ctx, cancel := a.context(c)
		defer cancel()
		st, closeStore, err := sf.openStore(ctx, true, "--sqlite", "--postgres")
		if err != nil {
			return err
		}
		defer closeStore()
		return run(ctx, journal.New(st), st)
	}
	// onClaim makes cmd a command on one claim (get, resolve, free), named
	// by the first two of its nargs arguments (INTERFACE REFERENCE): run
	// gets the claim's key, the command's context and the journal.
	onClaim := func(cmd *cobra.Command, nargs int, run func(ctx context.Context, j *journal.Journal, k journal.Key, args []string) error) *cobra.Command {
		cmd.Args = cobra.ExactArgs(nargs)
		cmd.ValidArgsFunction = interfaceCompletion
		cmd.RunE = func(c *cobra.Command, args []string) error {
			k, err := claimKey(args)
			if err != nil {
				return err
			}
			return inJournal(c, func(ctx context.Context, j *journal.Journal, _ journal.Store) error {
				return run(ctx, j, k, args)
			})
		}
		return cmd
	}

	var limit int
	var state string
	list := &cobra.Command{
		Use:     "list",
		Short:   "List the claims of unknown outcome (or in --state), oldest first",
		Example: "  rxdelivery journal --sqlite journal.db list --state in_flight",
		RunE: func(c *cobra.Command, _ []string) error {
			return inJournal(c, func(ctx context.Context, j *journal.Journal, st journal.Store) error {
				var claims []journal.Claim
				var err error
				switch journal.State(state) {
				case journal.StateUnknown:
					claims, err = j.Unknown(ctx, limit)
				case journal.StateInFlight, journal.StateCreated:
					// Unknown first turns the ended leases unknown, so that the
					// in-flight claims listed are live ones.
					if _, err = j.Unknown(ctx, 0); err == nil {
						claims, err = st.List(ctx, journal.State(state), limit)
					}
				default:
					return usagef("--state %q: want unknown, in_flight or created", state)
				}
				if err != nil {
					return err
				}
				return a.showClaims(claims, state)
			})
		},
	}
	list.Flags().IntVar(&limit, "limit", 1000, "list at most this many claims")
	list.Flags().StringVar(&state, "state", string(journal.StateUnknown), "the state listed: unknown, in_flight or created")
	_ = list.RegisterFlagCompletionFunc("state", cobra.FixedCompletions([]string{"unknown", "in_flight", "created"}, cobra.ShellCompDirectiveNoFileComp))

	get := onClaim(&cobra.Command{
		Use:     "get INTERFACE REFERENCE",
		Short:   "Show one claim",
		Example: "  rxdelivery journal --sqlite journal.db get delivery rx-2026-0001",
	}, 2, func(ctx context.Context, j *journal.Journal, k journal.Key, _ []string) error {
		cl, err := j.Get(ctx, k)
		if err != nil {
			return err
		}
		return a.showClaims([]journal.Claim{cl}, "")
	})

	resolve := onClaim(&cobra.Command{
		Use:     "resolve INTERFACE REFERENCE ID",
		Short:   "The create happened: record the id of its request or order",
		Example: "  rxdelivery journal --sqlite journal.db resolve delivery rx-2026-0001 ord_123",
	}, 3, func(ctx context.Context, j *journal.Journal, k journal.Key, args []string) error {
		if err := j.Resolve(ctx, k, args[2]); err != nil {
			return claimError(err)
		}
		return a.done(map[string]string{"interface": k.Interface, "reference": k.Reference, "state": "created", "id": args[2]},
			"%s %s resolved: created as %s\n", k.Interface, k.Reference, args[2])
	})

	free := onClaim(&cobra.Command{
		Use:     "free INTERFACE REFERENCE",
		Short:   "The create did not happen: remove the claim, so the next create is sent",
		Example: "  rxdelivery journal --sqlite journal.db free delivery rx-2026-0001",
	}, 2, func(ctx context.Context, j *journal.Journal, k journal.Key, _ []string) error {
		if err := j.Free(ctx, k); err != nil {
			return claimError(err)
		}
		return a.done(map[string]string{"interface": k.Interface, "reference": k.Reference, "state": "freed"},
			"%s %s freed: the next create of it will be sent\n", k.Interface, k.Reference)
	})

	var olderThan time.Duration
	prune := &cobra.Command{
		Use:     "prune --older-than DURATION",
		Short:   "Remove the created claims older than DURATION",
		Long:    "Remove the created claims claimed longer ago than DURATION: their references would be sent again by a new create, so choose it longer than any retry or redelivery you can receive.",
		Example: "  rxdelivery journal --sqlite journal.db prune --older-than 720h",
		RunE: func(c *cobra.Command, _ []string) error {
			if olderThan <= 0 {
				return usagef("prune needs --older-than, a positive duration")
			}
			return inJournal(c, func(ctx context.Context, j *journal.Journal, _ journal.Store) error {
				n, err := j.Prune(ctx, time.Now().Add(-olderThan))
				if err != nil {
					return err
				}
				return a.done(map[string]int{"pruned": n}, "pruned %d created claims\n", n)
			})
		},
	}
	prune.Flags().DurationVar(&olderThan, "older-than", 0, "prune the created claims claimed longer ago than this (such as 720h)")

	c.AddCommand(list, get, resolve, free, prune)
	return c
}

// claimError explains a refused resolve or free.
func claimError(err error) error {
	if errors.Is(err, journal.ErrNoMatch) {
		return fmt.Errorf("refused: the claim is not unknown (still in flight within its lease, or already created): %w", err)
	}
	return err
}

func interfaceCompletion(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) == 0 {
		return []string{journal.InterfaceOmni, journal.InterfaceDelivery, journal.InterfaceTracking}, cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// claimKey reads INTERFACE REFERENCE.
func claimKey(args []string) (journal.Key, error) {
	switch args[0] {
	case journal.InterfaceOmni, journal.InterfaceDelivery, journal.InterfaceTracking:
	default:
		return journal.Key{}, usagef("interface %q: want omni, delivery or tracking", args[0])
	}
	return journal.Key{Interface: args[0], Reference: args[1]}, nil
}

// claimJSON is a claim as --json prints it: never its token.
type claimJSON struct {
	Interface  string    `json:"interface"`
	Reference  string    `json:"reference"`
	State      string    `json:"state"`
	ID         string    `json:"id,omitempty"`
	Holder     string    `json:"holder"`
	ClaimedAt  time.Time `json:"claimed_at"`
	LeaseUntil time.Time `json:"lease_until"`
	UpdatedAt  time.Time `json:"updated_at"`
	Note       string    `json:"note,omitempty"`
}

func (a *app) showClaims(claims []journal.Claim, state string) error {
	if a.jsonOut {
		out := make([]claimJSON, 0, len(claims))
		for _, c := range claims {
			out = append(out, claimJSON{Interface: c.Interface, Reference: c.Reference, State: string(c.State), ID: c.ID, Holder: c.Holder,
				ClaimedAt: c.ClaimedAt, LeaseUntil: c.LeaseUntil, UpdatedAt: c.UpdatedAt, Note: c.Note})
		}
		if state == "" && len(out) == 1 {
			return a.printJSON(out[0])
		}
		return a.printJSON(out)
	}
	if len(claims) == 0 {
		fmt.Fprintf(a.stdout, "no claims %s\n", state)
		return nil
	}
	rows := make([][]string, 0, len(claims))
	for _, c := range claims {
		rows = append(rows, []string{c.Interface, c.Reference, string(c.State), c.ID, c.Holder, c.ClaimedAt.UTC().Format(time.RFC3339), c.Note})
	}
	table(a.stdout, "INTERFACE\tREFERENCE\tSTATE\tID\tHOLDER\tCLAIMED\tNOTE", rows)
	return nil
}
