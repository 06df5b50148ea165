package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
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

// clientArgs are the client flags a command line the command prints
// repeats, so that it runs as printed: the base URLs given as flags (a URL
// holding a user or password is not repeated: the environment, or the
// operator, gives it).
func (a *app) clientArgs() []string {
	var args []string
	for _, f := range []struct{ name, value string }{
		{"--omni-url", a.omniURL}, {"--delivery-url", a.deliveryURL},
	} {
		if u, err := url.Parse(f.value); f.value != "" && err == nil && u.User == nil {
			args = append(args, f.name, f.value)
		}
	}
	return args
}

// printedCommand is the command line "rxdelivery ARGS..." as the command
// prints it for a person to run: each argument quoted for a shell when it
// needs it (quoteArg), so that it runs as printed and no character of it
// acts on the terminal.
func printedCommand(args ...string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = quoteArg(a)
	}
	return "rxdelivery " + strings.Join(quoted, " ")
}

// runbookArgs are the global and store flags of the journal commands a
// runbook prints, so that each runs as printed: the journal's store the
// create used (an SQLite file by its absolute path, or PostgreSQL at
// $JOURNAL_DATABASE_URL) and the platform's URLs given as flags.
func (a *app) runbookArgs(s storeFlags) []string {
	args := a.clientArgs()
	args = append(args, "journal")
	switch {
	case s.postgres:
		args = append(args, "--postgres")
	case s.sqlite != "":
		path, err := filepath.Abs(s.sqlite)
		if err != nil {
			path = s.sqlite
		}
		args = append(args, "--sqlite", path)
	}
	return args
}

// createRunbook is what to do after a create of unknown outcome: what
// (order, request) made on iface with the reference ref, whose claim was
// taken at claimedAt (the time of the call without a journal).
// journalArgs are the flags of the journal commands (runbookArgs), nil
// without a journal; postgres says they read the connection string from
// the environment. Every command it prints runs as printed, the placeholder
// ORDER_ID or REQUEST_ID replaced by the id found.
func createRunbook(what, iface, ref string, claimedAt time.Time, journalArgs []string, postgres bool) string {
	cmd := "orders"
	if iface == journal.InterfaceOmni {
		cmd = "requests"
	}
	placeholder := strings.ToUpper(what) + "_ID"
	command := func(args ...string) string { return "       " + printedCommand(args...) + "\n" }
	var b strings.Builder
	fmt.Fprintf(&b, "The %s may or may not exist on the platform. Do not create it again until you know:\n", what)
	fmt.Fprintf(&b, "  1. look for %s with external reference number %q among those your pharmacy\n", article(what), ref)
	fmt.Fprintf(&b, "     sees, or ask the platform's support for one created around %s;\n", claimedAt.UTC().Format(time.RFC3339))
	if journalArgs != nil {
		fmt.Fprintf(&b, "  2. found: record its id (the journal reads the %s and checks its reference):\n", what)
		b.WriteString(command(append(journalArgs[:len(journalArgs):len(journalArgs)], "resolve", iface, ref, placeholder)...))
		fmt.Fprintln(&b, "     not found: remove the claim, so that the next create is sent:")
		b.WriteString(command(append(journalArgs[:len(journalArgs):len(journalArgs)], "free", iface, ref)...))
		if postgres {
			fmt.Fprintf(&b, "     (with %s set as for the create)\n", envDSN)
		}
		fmt.Fprintln(&b, "  Until then the journal sends nothing for this reference.")
	} else {
		fmt.Fprintf(&b, "  2. found: use it, and do not create it again:\n")
		b.WriteString(command(cmd, "get", placeholder))
		fmt.Fprintln(&b, "     not found: run the create again.")
	}
	return b.String()
}

// journaledCreate runs create, a create through the journal j of what
// (order, request) on iface with the reference ref, and sets the runbook
// printed when its outcome is unknown, with the claim's time and the
// commands of the journal jf names. A create refused because another
// holds the claim in flight is not unknown: its error says when to retry.
func journaledCreate[T any](ctx context.Context, a *app, j *journal.Journal, jf *journalFlags, what, iface, ref string,
	create func(context.Context) (*T, error)) (*T, error) {
	v, err := create(ctx)
	if err == nil {
		return v, nil
	}
	var ce *journal.ClaimedError
	claimedAt := time.Now()
	switch {
	case errors.As(err, &ce) && ce.Claim.State == journal.StateInFlight:
		return v, &inFlightError{claim: ce.Claim, err: err}
	case errors.As(err, &ce):
		claimedAt = ce.Claim.ClaimedAt
	case errors.Is(err, rxdelivery.ErrUnknownOutcome):
		// This create's own claim, now unknown: its time is the store's.
		gctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		if c, gerr := j.Get(gctx, journal.Key{Interface: iface, Reference: ref}); gerr == nil {
			claimedAt = c.ClaimedAt
		}
		cancel()
	default:
		return v, err
	}
	a.next = createRunbook(what, iface, ref, claimedAt, a.runbookArgs(jf.storeFlags), jf.postgres)
	return v, err
}

// inFlightError is a create refused because another create of its
// reference holds the claim with a live lease: nothing to settle, retry
// after the lease. It matches journal.ErrInFlight (exit code 7).
type inFlightError struct {
	claim journal.Claim
	err   error
}

func (e *inFlightError) Error() string {
	return fmt.Sprintf("another create of this reference is in flight (held by %s); retry after the lease ends at %s",
		printable(e.claim.Holder), e.claim.LeaseUntil.UTC().Format(time.RFC3339))
}

func (e *inFlightError) Unwrap() error { return e.err }

func article(what string) string {
	if strings.ContainsRune("aeiou", rune(what[0])) {
		return "an " + what
	}
	return "a " + what
}

// quoteArg quotes s for a POSIX shell when it needs it: in single quotes,
// or, when it holds a control character, a character that does not print
// or bytes that are not UTF-8, in the $'...' form of bash, zsh and ksh
// with those escaped, so that nothing printed moves the cursor, clears
// the screen or hides the text after it.
func quoteArg(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == ':' || r == '=' || r == '@' || r == ',' || r == '+' ||
			(r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))
	}) < 0 {
		return s
	}
	if printable(s) == s {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x80 && !unicode.IsPrint(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case !unicode.IsPrint(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += n
	}
	b.WriteString("'")
	return b.String()
}

const journalLong = `The journal's runbook: list the creates whose outcome is unknown and settle
each one once you have found out, on the platform, whether it happened.

list prints the unknown claims, oldest first, one a line: interface,
reference, holder, when it was claimed, and why it is unknown (with --state
in_flight or created, the claims in that state). resolve records the id of the
request or order you found for the reference (the next create of that
reference returns it without sending): it reads it on the platform first, with
the client's RXDELIVERY_* configuration, and refuses one whose external
reference number is not the claim's (exit code 5) or that does not exist (exit
code 4). unresolve undoes a resolve that recorded the wrong id. free removes
the claim of a create you found did not happen (the next create is sent).
They refuse a claim in another state (exit code 5), and one still in flight
within its lease (exit code 7: retry after the lease). prune removes the
created claims older than a duration longer than any retry or redelivery you
expect, so the store does not grow without end.

INTERFACE is omni (requests), delivery (orders) or tracking. --postgres reads
the connection string from ` + envDSN + `, so that no password appears in a
command line or a shell history.`

func (a *app) journalCommand() *cobra.Command {
	var sf storeFlags
	c := &cobra.Command{
		Use:     "journal",
		Short:   "Settle the journal's creates of unknown outcome (list, get, resolve, unresolve, free, prune)",
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

	// onResource makes cmd a command on the claim of a create and the id
	// of its order or request (resolve, unresolve): run gets the journal's
	// creates of that interface on the client the flags and RXDELIVERY_*
	// variables give, to read the resource.
	onResource := func(cmd *cobra.Command, run func(ctx context.Context, r resourceClaims, k journal.Key, id string) error) *cobra.Command {
		return onClaim(cmd, 3, func(ctx context.Context, j *journal.Journal, k journal.Key, args []string) error {
			if k.Interface == journal.InterfaceTracking {
				return usagef("%s records an order or a request: INTERFACE is delivery or omni", cmd.Name())
			}
			client, err := a.client(cmd)
			if err != nil {
				return err
			}
			r := resourceClaims{noun: "order", iface: k.Interface}
			if k.Interface == journal.InterfaceOmni {
				rq := j.Requests(client.Requests)
				r.noun = "request"
				r.resolve = func(ctx context.Context, ref, id string) (string, error) {
					v, err := rq.Resolve(ctx, ref, id)
					if err != nil || v.Status == nil {
						return "", err
					}
					return string(v.Status.Name), nil
				}
				r.unresolve = rq.Unresolve
			} else {
				o := j.Orders(client.Orders)
				r.resolve = func(ctx context.Context, ref, id string) (string, error) {
					v, err := o.Resolve(ctx, ref, id)
					if err != nil {
						return "", err
					}
					return string(v.Status), nil
				}
				r.unresolve = o.Unresolve
			}
			return run(ctx, r, k, args[2])
		})
	}

	resolve := onResource(&cobra.Command{
		Use:   "resolve INTERFACE REFERENCE ID",
		Short: "The create happened: record the id of its request or order, once the platform confirms it",
		Long: `The create happened: record the id of the request or order you found, so that
the next create of REFERENCE returns it without sending. The order or request
is read on the platform first, and recorded only when its external reference
number is REFERENCE: another one is refused (exit code 5) saying its id and
status, and an id the platform does not know is not found (exit code 4). A
claim still in flight within its lease is refused with exit code 7.`,
		Example: "  rxdelivery journal --sqlite journal.db resolve delivery rx-2026-0001 ord_123",
	}, func(ctx context.Context, r resourceClaims, k journal.Key, id string) error {
		status, err := r.resolve(ctx, k.Reference, id)
		if err != nil {
			return claimError(err)
		}
		return a.done(map[string]string{"interface": k.Interface, "reference": k.Reference, "state": "created", "id": id, "status": status},
			"%s %s resolved: created as %s %s (status %s)\n", k.Interface, quoteArg(k.Reference), r.noun, id, dashed(status))
	})

	unresolve := onResource(&cobra.Command{
		Use:   "unresolve INTERFACE REFERENCE ID",
		Short: "Undo a resolve that recorded the wrong id: the claim is unknown again",
		Long: `Undo the record that REFERENCE was created as ID: the claim is unknown again,
to be resolved with the right id or freed. It is refused (exit code 5) unless
the claim is created as ID and either an operator recorded it (resolve) or the
platform shows that ID does not carry REFERENCE (no such order or request, or
one with another external reference number).`,
		Example: "  rxdelivery journal --sqlite journal.db unresolve delivery rx-2026-0001 ord_123",
	}, func(ctx context.Context, r resourceClaims, k journal.Key, id string) error {
		if err := r.unresolve(ctx, k.Reference, id); err != nil {
			if errors.Is(err, journal.ErrNoMatch) && !errors.Is(err, journal.ErrInFlight) {
				return fmt.Errorf("refused: %w", err)
			}
			return err
		}
		return a.done(map[string]string{"interface": k.Interface, "reference": k.Reference, "state": "unknown", "id": id},
			"%s %s unresolved: no longer recorded as %s %s; resolve or free it\n", k.Interface, quoteArg(k.Reference), r.noun, id)
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
			"%s %s freed: the next create of it will be sent\n", k.Interface, quoteArg(k.Reference))
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

	c.AddCommand(list, get, resolve, unresolve, free, prune)
	return c
}

// resourceClaims are the verified operations on the claims of one
// interface's creates.
type resourceClaims struct {
	noun, iface string
	// resolve records id for ref, and returns the status read.
	resolve   func(ctx context.Context, ref, id string) (status string, err error)
	unresolve func(ctx context.Context, ref, id string, opts ...rxdelivery.CallOption) error
}

func dashed(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// claimError explains a refused resolve or free, whose claim must be
// unknown. A claim in flight, or a resource that does not carry the
// reference, says so itself.
func claimError(err error) error {
	if errors.Is(err, journal.ErrNoMatch) && !errors.Is(err, journal.ErrInFlight) {
		return fmt.Errorf("refused: the claim is not unknown: %w", err)
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
		rows = append(rows, []string{c.Interface, printable(c.Reference), string(c.State), printable(c.ID), printable(c.Holder),
			c.ClaimedAt.UTC().Format(time.RFC3339), printable(c.Note)})
	}
	table(a.stdout, "INTERFACE\tREFERENCE\tSTATE\tID\tHOLDER\tCLAIMED\tNOTE", rows)
	return nil
}
