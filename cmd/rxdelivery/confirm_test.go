package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// fakeTerminal is standard input that a person types at: the lines given.
type fakeTerminal struct{ *strings.Reader }

func (fakeTerminal) IsTerminal() bool { return true }

// TestConfirm: at a terminal only y or yes goes on; --yes and an input that
// is not a terminal go on without a question.
func TestConfirm(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		stdin    io.Reader
		yes      bool
		want     bool
		question bool
	}{
		{"y", fakeTerminal{strings.NewReader("y\n")}, false, true, true},
		{"YES", fakeTerminal{strings.NewReader(" YES \n")}, false, true, true},
		{"no", fakeTerminal{strings.NewReader("n\n")}, false, false, true},
		{"empty line", fakeTerminal{strings.NewReader("\n")}, false, false, true},
		{"other", fakeTerminal{strings.NewReader("yep\n")}, false, false, true},
		{"end of input", fakeTerminal{strings.NewReader("")}, false, false, true},
		{"--yes", fakeTerminal{strings.NewReader("n\n")}, true, true, false},
		{"a pipe", strings.NewReader("n\n"), false, true, false},
	} {
		var errOut bytes.Buffer
		a := &app{stdin: tc.stdin, stderr: &errOut}
		if got := a.confirm("Cancel order ord_1\x1b[2J?", tc.yes); got != tc.want {
			t.Errorf("%s: confirm = %v, want %v", tc.name, got, tc.want)
		}
		asked := errOut.String() == `Cancel order ord_1\x1b[2J? [y/N] `
		if asked != tc.question {
			t.Errorf("%s: stderr %q; asked = %v, want %v", tc.name, errOut.String(), asked, tc.question)
		}
	}
}

// TestCancelAsksAtATerminal runs orders cancel against the simulator with
// a terminal as standard input: "n" cancels nothing (exit code 2, no call
// of the cancel), "y" cancels. It sets the process's environment, so it
// does not run in parallel.
func TestCancelAsksAtATerminal(t *testing.T) {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	for _, line := range srv.EnvLines(true) {
		k, v, _ := strings.Cut(line, "=")
		t.Setenv(k, v)
	}
	order, err := os.ReadFile(filepath.Join("testdata", "script", "orders.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(order), "-- order.yaml --\n")
	yaml, _, _ := strings.Cut(rest, "\n-- ")
	path := filepath.Join(t.TempDir(), "order.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	cli := func(stdin string, args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), args, fakeTerminal{strings.NewReader(stdin)}, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	if code, _, stderr := cli("", "orders", "create", "-f", path); code != exitOK {
		t.Fatalf("create: exit code %d: %s", code, stderr)
	}

	code, stdout, stderr := cli("n\n", "orders", "cancel", "ord_000001")
	if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, "Cancel order ord_000001? [y/N] ") ||
		!strings.Contains(stderr, "not confirmed: order ord_000001 was not cancelled (--yes cancels without asking)") {
		t.Errorf("answered n: exit code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if n := len(srv.CallsTo("orders.Cancel")); n != 0 {
		t.Fatalf("answered n: %d cancels sent", n)
	}

	code, stdout, stderr = cli("y\n", "orders", "cancel", "ord_000001")
	if code != exitOK || !strings.Contains(stdout, "order ord_000001 cancelled") {
		t.Errorf("answered y: exit code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if n := len(srv.CallsTo("orders.Cancel")); n != 1 {
		t.Errorf("answered y: %d cancels sent, want 1", n)
	}
}
