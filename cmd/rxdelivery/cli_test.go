package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// TestEveryCommandHasHelpWithAnExample runs --help on every command of the
// tree: each answers 0 with its usage and at least one example line.
func TestEveryCommandHasHelpWithAnExample(t *testing.T) {
	t.Parallel()
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	cmds := allCommands(a.rootCommand())
	have := map[string]bool{}
	for _, c := range cmds {
		have[c.CommandPath()] = true
	}
	for _, want := range []string{
		"requests create", "requests get", "requests get-many", "requests cancel", "requests watch",
		"orders create", "orders get", "orders get-many", "orders cancel", "orders watch",
		"orders add-prescription", "orders remove-prescription",
		"pharmacies search", "pharmacies get", "pharmacies delivery-info",
		"tracking subscribe", "tracking get", "pricing quote", "sandbox",
		"journal list", "journal get", "journal resolve", "journal unresolve", "journal free", "journal prune",
		"listen", "completion bash",
	} {
		if !have["rxdelivery "+want] {
			t.Errorf("no command rxdelivery %s", want)
		}
	}
	for _, c := range cmds {
		path := strings.Fields(c.CommandPath())[1:]
		var out, errOut bytes.Buffer
		code := run(context.Background(), append(path, "--help"), strings.NewReader(""), &out, &errOut)
		if code != exitOK || errOut.Len() != 0 {
			t.Errorf("%s --help: exit code %d, stderr %q", c.CommandPath(), code, errOut.String())
			continue
		}
		help := out.String()
		i := strings.Index(help, "Examples:\n")
		if !strings.Contains(help, "Usage:\n") || i < 0 || !exampleLine(help[i+len("Examples:\n"):]) {
			t.Errorf("%s --help has no usage or no example line:\n%s", c.CommandPath(), help)
		}
	}
}

// TestExitCodes maps each outcome to its documented exit code.
func TestExitCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  error
		want int
	}{
		{usagef("bad flag"), exitUsage},
		{&rxdelivery.ConfigError{}, exitUsage},
		{fmt.Errorf("call: %w", rxdelivery.ErrNoBaseURL), exitUsage},
		{&rxdelivery.ValidationError{Problems: []rxtypes.Problem{{Path: "a", Message: "is required"}}}, exitInvalid},
		{&inputError{err: errors.New("order.yaml: not valid YAML")}, exitInvalid},
		{&rxdelivery.APIError{StatusCode: 404}, exitNotFound},
		{fmt.Errorf("get: %w", journal.ErrNoClaim), exitNotFound},
		{&rxdelivery.APIError{StatusCode: 400, Type: "unable_to_cancel"}, exitRefused},
		{&rxdelivery.APIError{StatusCode: 403}, exitRefused},
		{fmt.Errorf("free: %w", journal.ErrNoMatch), exitRefused},
		{&rxdelivery.APIError{StatusCode: 429}, exitFailure},
		{&rxdelivery.APIError{StatusCode: 503}, exitFailure},
		{&rxdelivery.APIError{StatusCode: 500, Method: "POST", UnknownOutcome: true}, exitUnknownOutcome},
		{&journal.ClaimedError{}, exitUnknownOutcome},
		{&journal.ClaimedError{Claim: journal.Claim{State: journal.StateUnknown}}, exitUnknownOutcome},
		{&journal.ClaimedError{Claim: journal.Claim{State: journal.StateInFlight}}, exitInFlight},
		{&inFlightError{err: &journal.ClaimedError{Claim: journal.Claim{State: journal.StateInFlight}}}, exitInFlight},
		{fmt.Errorf("free: %w", journal.ErrInFlight), exitInFlight},
		{&journal.MismatchError{Interface: "delivery", ID: "ord_1"}, exitRefused},
		{errors.New("dial tcp: connection refused"), exitFailure},
		{&leftWatch{n: 1, first: &rxdelivery.WatchError{Op: "orders.WatchMany", ID: "ord_1", Gone: true}}, exitNotFound},
		{&rxdelivery.WatchError{Op: "orders.Watch", ID: "ord_1", Status: "teleported"}, exitFailure},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%#v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// TestYAMLKeepsWhatWasWritten: an unquoted YAML scalar given to a string
// field is taken as written, so an NDC or a ZIP code keeps its leading
// zeros and an NPI is not a number; an unquoted date is a date, and a
// decimal keeps its digits.
func TestYAMLKeepsWhatWasWritten(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "order.yaml")
	err := os.WriteFile(path, []byte(`
external_reference_number: 0012
pharmacy: {npi: 1234567890, ncpdp: 0550001}
recipient: {description: Jane Doe, address: {street: 1 Main St, city: Boston, state: MA, zipcode: 02108}}
patient: {first_name: Jane, last_name: Doe, date_of_birth: 1980-02-29}
prescriptions:
  - {number: 1e5, ndc: 00002143380, fill_quantity: 30.50, days_supply: 30}
`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	var p orders.CreateParams
	if err := readParams(path, nil, &p, func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	rx := p.Prescriptions[0]
	for _, c := range []struct{ got, want string }{
		{p.ExternalReferenceNumber, "0012"},
		{p.Pharmacy.NPI, "1234567890"},
		{p.Pharmacy.NCPDP, "0550001"},
		{p.Recipient.Address.Zipcode, "02108"},
		{p.Patient.DateOfBirth.String(), "1980-02-29"},
		{rx.Number, "1e5"},
		{rx.NDC, "00002143380"},
		{rx.FillQuantity.String(), "30.50"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	if rx.DaysSupply != 30 {
		t.Errorf("days_supply = %d, want 30", rx.DaysSupply)
	}
}

// exampleLine reports whether s starts with an indented line running the
// command.
func exampleLine(s string) bool {
	line, _, _ := strings.Cut(s, "\n")
	return strings.HasPrefix(line, "  ") && strings.Contains(line, "rxdelivery ")
}

// TestReadmeCommandsExist parses every command line of the command-line
// guide (docs/cli.md, linked from the README): each names a command of the
// tree with flags it has.
func TestReadmeCommandsExist(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := string(b)
	n := 0
	for _, line := range strings.Split(section, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "rxdelivery ") {
			continue
		}
		if i := strings.Index(line, "  #"); i >= 0 {
			line = line[:i]
		}
		args := shellWords(t, line)[1:]
		a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
		c, rest, err := a.rootCommand().Find(args)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if err := c.ParseFlags(rest); err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if c.HasSubCommands() {
			t.Errorf("%s: %s runs no operation", line, c.CommandPath())
			continue
		}
		if err := c.ValidateArgs(c.Flags().Args()); err != nil {
			t.Errorf("%s: %v", line, err)
		}
		n++
	}
	if n < 10 {
		t.Errorf("the section shows %d command lines; want the ten to start with", n)
	}
}

// shellWords splits a command line at spaces outside double quotes.
func shellWords(t *testing.T, line string) []string {
	var words []string
	var cur strings.Builder
	quoted, inWord := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quotes in %q", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// TestLongFlagsWithOneDash: the old programs' one-dash long flags become
// two-dash ones; shorthands, values and everything after "--" are kept.
func TestLongFlagsWithOneDash(t *testing.T) {
	t.Parallel()
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	got := longFlags(a.rootCommand(), []string{"journal", "-sqlite", "j.db", "prune", "-older-than=720h", "-f", "x.yaml", "-1s", "-nope", "--", "-addr"})
	want := []string{"journal", "--sqlite", "j.db", "prune", "--older-than=720h", "-f", "x.yaml", "-1s", "-nope", "--", "-addr"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("longFlags = %q\nwant        %q", got, want)
	}
}

// TestYAMLAliasesAreBounded: a file of nested aliases (ten levels of ten,
// 10^10 values once expanded) is refused as input, at once.
func TestYAMLAliasesAreBounded(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	_, _, err := parseTree("bomb.yaml", []byte(b.String()))
	var ie *inputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "too many values") {
		t.Fatalf("parseTree = %v; want an input error: too many values", err)
	}
}
