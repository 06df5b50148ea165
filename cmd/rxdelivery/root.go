package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Exit codes, one per outcome; doc.go and docs/cli.md list them.
const (
	exitOK             = 0 // success
	exitFailure        = 1 // any other failure: the network, the platform unavailable, a store
	exitUsage          = 2 // usage or configuration: nothing was sent
	exitInvalid        = 3 // the input broke a rule of the documents: nothing was sent
	exitNotFound       = 4 // no such resource, claim or subscription
	exitRefused        = 5 // the platform responded and refused (a 4xx, a cancel too late)
	exitUnknownOutcome = 6 // a write failed after it may have taken effect: see the runbook
	exitInFlight       = 7 // another create of the reference holds the journal's claim: retry after its lease
)

// app is one run of the command: its streams and the global flags.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer

	jsonOut        bool
	dump           string
	omniURL        string
	deliveryURL    string
	trackingURL    string
	pricingURL     string
	sandbox        bool
	programID      string
	retryMax       int
	attemptTimeout time.Duration
	timeout        time.Duration
	// showPatientData prints, after an error, what the platform said as
	// it said it: patient data, for the pharmacy's staff entitled to it.
	showPatientData bool

	// closers run when the command ends (the --dump file).
	closers []func()
	// clientOpts are options a command adds to its client (a dry run's
	// transport, which sends nothing).
	clientOpts []rxdelivery.Option
	// next is the runbook printed after an error of unknown outcome.
	next string
	// ran is the command that returned the error printed, for the flags
	// that set what a problem's path names.
	ran *cobra.Command
}

// usageError is a command line the command cannot run.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error {
	return &usageError{err: fmt.Errorf(format, a...)}
}

// run runs the command line args and returns the exit code. A panic that
// slips through is reported on one line (no stack, no value: either could
// hold what was given or received) with exit code 1. A command ended by a
// signal (an interrupt, SIGTERM: the cause of ctx, see runProcess) prints
// what it has and exits 128 plus the signal's number; sandbox and listen,
// which serve until stopped, end without an error and exit 0.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	// Messages on standard error quote what was given (a file name, an id):
	// a control character in one is shown escaped, never acted on.
	stderr = printableLines{w: stderr}
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		if recover() != nil {
			fmt.Fprintln(stderr, "rxdelivery: internal error: the command stopped on a bug; please report it with the command's name (not its values)")
			code = exitFailure
		}
	}()
	defer func() {
		for _, c := range a.closers {
			c()
		}
	}()
	root := a.rootCommand()
	root.SetArgs(longFlags(root, args))
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	ran, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	a.ran = ran
	code = exitCode(err)
	a.printError(err, code)
	var sig *interrupted
	if errors.As(context.Cause(ctx), &sig) {
		return sig.exitCode()
	}
	return code
}

// longFlags rewrites a long flag written with one dash (-sqlite, -addr,
// -older-than), as the removed example programs examples/journal-admin and
// examples/sandbox-server took them, to its two-dash form, so that their
// documented command lines keep working. Only names of the command's long
// flags are rewritten; "--" ends the flags.
func longFlags(root *cobra.Command, args []string) []string {
	names := map[string]bool{}
	for _, c := range allCommands(root) {
		for _, fs := range []*pflag.FlagSet{c.LocalFlags(), c.PersistentFlags(), c.InheritedFlags()} {
			fs.VisitAll(func(f *pflag.Flag) { names[f.Name] = true })
		}
	}
	out := make([]string, len(args))
	for i, arg := range args {
		out[i] = arg
		if arg == "--" {
			copy(out[i:], args[i:])
			break
		}
		if len(arg) > 2 && arg[0] == '-' && arg[1] != '-' {
			name, _, _ := strings.Cut(arg[1:], "=")
			if names[name] {
				out[i] = "-" + arg
			}
		}
	}
	return out
}

// printError writes err to stderr, in the command's words (flags and
// environment variables, not the SDK's options): every validation problem
// on a line of its own, under the flag that set it when a flag did, and
// for an unknown outcome what to do next.
func (a *app) printError(err error, code int) {
	var ve *rxdelivery.ValidationError
	switch {
	case errors.As(err, &ve):
		n := fmt.Sprintf("%d problems", len(ve.Problems))
		if len(ve.Problems) == 1 {
			n = "1 problem"
		}
		fmt.Fprintf(a.stderr, "rxdelivery: invalid input, nothing was sent (%s):\n", n)
		for _, p := range ve.Problems {
			fmt.Fprintf(a.stderr, "  %s: %s\n", printable(a.problemPath(p.Path)), printable(cliWords(p.Message)))
		}
	case code == exitUnknownOutcome:
		fmt.Fprintln(a.stderr, "OUTCOME UNKNOWN:", printable(cliWords(prefixed(err))))
		if a.next != "" {
			fmt.Fprint(printableLines{a.stderr}, a.next)
		}
	default:
		fmt.Fprintln(a.stderr, printable(cliWords(prefixed(err))))
	}
	a.printPlatformWords(err)
	if code == exitUsage {
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprintln(a.stderr, "Run 'rxdelivery --help' or add --help to a command for its usage.")
		}
	}
}

// printPlatformWords writes, when --show-patient-data asks for it and err
// carries an answer of the platform, what the platform said as it said
// it, under a line that says it is patient data. Without the flag it
// writes nothing: the line above is the safe rendering.
func (a *app) printPlatformWords(err error) {
	var api *rxdelivery.APIError
	if !a.showPatientData || !errors.As(err, &api) {
		return
	}
	p := api.Platform()
	fmt.Fprintln(a.stderr, "PATIENT DATA (--show-patient-data): the platform said:")
	for _, l := range [][2]string{{"message", p.Message}, {"type", p.Type}, {"code", p.Code}, {"id", p.ID}} {
		if l[1] != "" {
			fmt.Fprintf(a.stderr, "  %s: %s\n", l[0], printable(l[1]))
		}
	}
	for _, d := range p.Details {
		field := d.Field
		if field == "" {
			field = "detail"
		}
		fmt.Fprintf(a.stderr, "  %s: %s\n", printable(field), printable(d.Message))
	}
}

// prefixed returns err's message behind the command's name, once: the
// SDK's errors begin with it already.
func prefixed(err error) string {
	msg := err.Error()
	if strings.HasPrefix(msg, "rxdelivery: ") {
		return msg
	}
	return "rxdelivery: " + msg
}

// exitCode maps an error to the exit code of its outcome.
func exitCode(err error) int {
	var (
		ue  *usageError
		ie  *inputError
		ce  *rxdelivery.ConfigError
		api *rxdelivery.APIError
	)
	switch {
	case errors.Is(err, journal.ErrInFlight):
		return exitInFlight
	case errors.Is(err, rxdelivery.ErrUnknownOutcome):
		return exitUnknownOutcome
	case errors.As(err, &ue), errors.As(err, &ce), errors.Is(err, rxdelivery.ErrNoBaseURL):
		return exitUsage
	case errors.As(err, &ie), errors.Is(err, rxdelivery.ErrInvalidParams), errors.Is(err, rxdelivery.ErrSandboxOnly):
		return exitInvalid
	case errors.Is(err, rxdelivery.ErrNotFound), errors.Is(err, journal.ErrNoClaim):
		return exitNotFound
	case errors.As(err, &api) && api.StatusCode >= 400 && api.StatusCode < 500 && api.StatusCode != 429:
		return exitRefused
	case errors.Is(err, journal.ErrNoMatch), errors.Is(err, journal.ErrMismatch):
		return exitRefused
	}
	return exitFailure
}

const rootLong = `rxdelivery is the operator's command for the prescription-delivery platform:
every operation of its interfaces (requests, orders, pharmacies, tracking,
pricing), the local simulator (sandbox), the journal's runbook (journal) and a
local notification receiver (listen).

Configuration comes from the RXDELIVERY_* variables the SDK reads
(RXDELIVERY_API_KEY, RXDELIVERY_API_SECRET, RXDELIVERY_OMNI_URL,
RXDELIVERY_DELIVERY_URL, RXDELIVERY_TRACKING_URL, RXDELIVERY_PRICING_URL,
RXDELIVERY_SANDBOX, RXDELIVERY_PROGRAM_ID, RXDELIVERY_<INTERFACE>_API_KEY and
_API_SECRET); the flags below override the non-secret ones. Credentials are
read from the environment only, never from a flag, and never printed.

Output is a table for people; --json prints JSON for scripts.

Exit codes:
  0  success
  1  failure: network, platform unavailable, journal store
  2  usage or configuration error: nothing was sent
  3  invalid input (a file or a value breaking a rule): nothing was sent
  4  not found
  5  refused by the platform (such as a cancel after pickup)
  6  unknown outcome of a write: it may have taken effect; follow the
     instructions printed, and do not repeat it blindly
  7  another create of the reference is in flight (the journal's claim):
     retry after the lease ends at the time printed
  130, 143  interrupted (SIGINT) or terminated (SIGTERM), after printing
     what it had; sandbox and listen stop cleanly with 0`

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "rxdelivery",
		Short:         "Operate the prescription-delivery platform from the command line",
		Long:          rootLong,
		Example:       "  rxdelivery orders create -f order.yaml",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version().String(),
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &usageError{err: err}
	})
	pf := root.PersistentFlags()
	pf.BoolVar(&a.jsonOut, "json", false, "print JSON instead of a table")
	pf.StringVar(&a.dump, "dump", "", "write a patient-safe transcript of every attempt to `FILE` (- for standard error), for the platform's support")
	pf.StringVar(&a.omniURL, "omni-url", "", "base `URL` of the omni interface (overrides RXDELIVERY_OMNI_URL)")
	pf.StringVar(&a.deliveryURL, "delivery-url", "", "base `URL` of the delivery interface (overrides RXDELIVERY_DELIVERY_URL)")
	pf.StringVar(&a.trackingURL, "tracking-url", "", "base `URL` of the tracking interface (overrides RXDELIVERY_TRACKING_URL)")
	pf.StringVar(&a.pricingURL, "pricing-url", "", "base `URL` of the pricing interface (overrides RXDELIVERY_PRICING_URL)")
	pf.BoolVar(&a.sandbox, "sandbox", false, "the platform is a sandbox: test_meta may be sent (overrides RXDELIVERY_SANDBOX)")
	pf.StringVar(&a.programID, "program-id", "", "omni program `ID` for creates that leave it empty (overrides RXDELIVERY_PROGRAM_ID)")
	pf.IntVar(&a.retryMax, "retry-max", 3, "retries after a call's first attempt (writes are retried only when the platform provably did not act)")
	pf.DurationVar(&a.attemptTimeout, "attempt-timeout", rxdelivery.DefaultAttemptTimeout, "bound on each attempt")
	pf.DurationVar(&a.timeout, "timeout", 0, "bound on the whole command (0: none)")
	pf.BoolVar(&a.showPatientData, "show-patient-data", false, "after an error, also print what the platform said as it said it: PATIENT DATA, for pharmacy staff entitled to the order, never for logs, tickets or shared terminals")
	for _, name := range clientFlags {
		_ = pf.SetAnnotation(name, flagGroupKey, []string{groupClient})
	}
	_ = pf.SetAnnotation("json", flagGroupKey, []string{groupOutput})
	_ = pf.SetAnnotation("show-patient-data", flagGroupKey, []string{groupOutput})

	root.AddCommand(
		a.requestsCommand(),
		a.ordersCommand(),
		a.pharmaciesCommand(),
		a.trackingCommand(),
		a.pricingCommand(),
		a.sandboxCommand(),
		a.cassetteCommand(),
		a.journalCommand(),
		a.listenCommand(),
		a.versionCommand(),
	)
	root.SetHelpCommand(a.helpCommand())
	root.InitDefaultCompletionCmd()
	root.SetUsageFunc(usage)
	for _, c := range allCommands(root) {
		c.SuggestionsMinimumDistance = 2
		if c.Example == "" {
			c.Example = "  " + defaultExample(c)
		}
		if c.Args == nil && c.Runnable() {
			c.Args = cobra.NoArgs
		}
		c.Args = usageArgs(c.Args)
		if c.HasSubCommands() && !c.Runnable() {
			// A group run bare shows its help; with a word that names none
			// of its commands, it says which it may have meant.
			c.RunE = func(c *cobra.Command, args []string) error {
				if len(args) > 0 {
					return unknownCommand(c, args[0])
				}
				return c.Help()
			}
			c.Args = cobra.ArbitraryArgs
		}
	}
	return root
}

// unknownCommand is the usage error for name, which names no command of
// group c, with the commands it may have meant.
func unknownCommand(c *cobra.Command, name string) error {
	msg := fmt.Sprintf("unknown command %q for %q", name, c.CommandPath())
	if s := c.SuggestionsFor(name); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return &usageError{err: errors.New(msg)}
}

// helpCommand is 'rxdelivery help [COMMAND...]': the help of the command
// its words name, nested ones included. Words that name none are a usage
// error, with suggestions.
func (a *app) helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "help [COMMAND]...",
		Short:   "Show the help of any command",
		Example: "  rxdelivery help orders create",
		Args:    cobra.ArbitraryArgs,
		ValidArgsFunction: func(c *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			target, _, err := c.Root().Find(args)
			if err != nil || target == nil {
				target = c.Root()
			}
			var names []cobra.Completion
			for _, s := range target.Commands() {
				if s.IsAvailableCommand() || s == c {
					names = append(names, cobra.CompletionWithDesc(s.Name(), s.Short))
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			target := c.Root()
			for _, word := range args {
				next := subcommand(target, word)
				if next == nil {
					return unknownCommand(target, word)
				}
				target = next
			}
			return target.Help()
		},
	}
}

// subcommand returns the command of c named (or aliased) name, nil if none.
func subcommand(c *cobra.Command, name string) *cobra.Command {
	for _, s := range c.Commands() {
		if s.Name() == name || s.HasAlias(name) {
			return s
		}
	}
	return nil
}

// defaultExample is the example line of the commands cobra adds (help,
// completion and its shells).
func defaultExample(c *cobra.Command) string {
	switch {
	case c.Name() == "completion":
		return "rxdelivery completion bash > /etc/bash_completion.d/rxdelivery"
	case c.HasParent() && c.Parent().Name() == "completion":
		if c.Name() == "bash" || c.Name() == "zsh" {
			return "source <(rxdelivery completion " + c.Name() + ")"
		}
		return "rxdelivery completion " + c.Name() + " > rxdelivery." + c.Name()
	}
	return c.CommandPath() + " --help"
}

func allCommands(c *cobra.Command) []*cobra.Command {
	out := []*cobra.Command{c}
	for _, s := range c.Commands() {
		out = append(out, allCommands(s)...)
	}
	return out
}

// usageArgs makes an argument check's error a usage error.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	if check == nil {
		return nil
	}
	return func(c *cobra.Command, args []string) error {
		if err := check(c, args); err != nil {
			return &usageError{err: err}
		}
		return nil
	}
}

// context returns the command's context, bounded by --timeout.
func (a *app) context(c *cobra.Command) (context.Context, context.CancelFunc) {
	ctx := c.Context()
	if a.timeout > 0 {
		return context.WithTimeout(ctx, a.timeout)
	}
	return context.WithCancel(ctx)
}

// client builds the SDK client from the environment and the flags.
func (a *app) client(c *cobra.Command) (*rxdelivery.Client, error) {
	var opts []rxdelivery.Option
	// A flag given overrides its variable; one not given leaves it be.
	ifGiven := func(flag string, opt rxdelivery.Option) {
		if c.Flags().Changed(flag) {
			opts = append(opts, opt)
		}
	}
	ifGiven("omni-url", rxdelivery.WithOmniURL(a.omniURL))
	ifGiven("delivery-url", rxdelivery.WithDeliveryURL(a.deliveryURL))
	ifGiven("tracking-url", rxdelivery.WithTrackingURL(a.trackingURL))
	ifGiven("pricing-url", rxdelivery.WithPricingURL(a.pricingURL))
	ifGiven("sandbox", rxdelivery.WithSandbox(a.sandbox))
	ifGiven("program-id", rxdelivery.WithProgramID(a.programID))
	if a.retryMax < 0 {
		return nil, usagef("--retry-max must not be negative")
	}
	opts = append(opts,
		rxdelivery.WithRetryMax(a.retryMax),
		rxdelivery.WithAttemptTimeout(a.attemptTimeout),
		rxdelivery.WithUserAgent("rxdelivery-cli/"+version().Version))
	if a.dump != "" {
		w, err := a.dumpWriter()
		if err != nil {
			return nil, err
		}
		opts = append(opts, rxdelivery.WithTranscript(w))
	}
	return rxdelivery.NewClientFromEnv(append(opts, a.clientOpts...)...)
}

// dumpWriter opens the --dump destination.
func (a *app) dumpWriter() (io.Writer, error) {
	if a.dump == "-" {
		return printableLines{a.stderr}, nil
	}
	f, err := os.OpenFile(a.dump, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		// Nothing was sent: the command line names a file it cannot write.
		return nil, &usageError{err: fmt.Errorf("--dump: %w", err)}
	}
	a.closers = append(a.closers, func() { f.Close() })
	return f, nil
}

// printJSON writes v as indented JSON.
func (a *app) printJSON(v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	b = append(printableJSON(b), '\n')
	_, err = a.stdout.Write(b)
	return err
}

// withClient is the RunE of a command that calls the platform: run gets the
// command's context (ended by --timeout or an interrupt, released when run
// returns) and the client built from the flags and RXDELIVERY_* variables.
func (a *app) withClient(run func(ctx context.Context, c *cobra.Command, client *rxdelivery.Client, args []string) error) func(*cobra.Command, []string) error {
	return func(c *cobra.Command, args []string) error {
		ctx, cancel := a.context(c)
		defer cancel()
		client, err := a.client(c)
		if err != nil {
			return err
		}
		return run(ctx, c, client, args)
	}
}

// withInput is withClient for a command whose input (a params file, flags)
// vet checks first: input it refuses is refused before the configuration
// is read, and nothing is sent.
func (a *app) withInput(vet func() error, run func(ctx context.Context, c *cobra.Command, client *rxdelivery.Client, args []string) error) func(*cobra.Command, []string) error {
	call := a.withClient(run)
	return func(c *cobra.Command, args []string) error {
		if err := vet(); err != nil {
			return err
		}
		return call(c, args)
	}
}
