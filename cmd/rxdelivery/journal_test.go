package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/rxdelivery/rxdelivery-go/journal"
)

// hostileRefs are references an old row of the journal may hold: control
// characters (an ESC sequence that clears the screen, a carriage return
// that hides what precedes it, a newline), a bidirectional override,
// bytes that are not UTF-8, and shell syntax.
var hostileRefs = []string{
	"rx-1\x1b[2J\x1b[H", "rx-2\rfree", "rx-3\nrxdelivery journal free delivery x", "rx-4\u202egnp.exe",
	"rx-5\xff\xfe", "rx-6 $(touch pwned) `id` 'q' \"d\" \\", "rx-7\t\x00\x7f", "rx-8\u00a0\u200b",
}

// TestRunbookQuotesEveryReference: whatever a reference holds, the
// runbook prints no character that does not print, and the command lines
// it prints give bash the reference byte for byte (but for a NUL, which no
// command line holds).
func TestRunbookQuotesEveryReference(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, ref := range hostileRefs {
		rb := createRunbook("order", journal.InterfaceDelivery, ref, time.Now(), []string{"journal", "--sqlite", "/tmp/j.db"}, false)
		for _, r := range rb {
			if r != '\n' && !unicode.IsPrint(r) {
				t.Errorf("runbook of %q prints %U:\n%s", ref, r, rb)
			}
		}
		if strings.Contains(rb, "\n       rxdelivery journal free delivery x") {
			t.Errorf("runbook of %q prints a command line of the reference's:\n%s", ref, rb)
		}
		if strings.ContainsRune(ref, 0) {
			continue // no command line can hold a NUL: it is only printed escaped
		}
		var out bytes.Buffer
		cmd := exec.Command(bash, "-c", `printf '%s' `+quoteArg(ref))
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			t.Errorf("bash -c printf %s: %v", quoteArg(ref), err)
		} else if out.String() != ref {
			t.Errorf("quoteArg(%q) = %s gives bash %q", ref, quoteArg(ref), out.String())
		}
	}
	if got := quoteArg("rx-2026-0001"); got != "rx-2026-0001" {
		t.Errorf("quoteArg of a plain reference = %s; want it as is", got)
	}
}

// TestJournalOutputEscapesStoredText: journal get, list and free print a
// reference, holder and note from the store with every character that
// does not print escaped.
func TestJournalOutputEscapesStoredText(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/journal.db"
	st, closeStore, err := storeFlags{sqlite: path}.openStore(context.Background(), true, "--sqlite", "--postgres")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	for _, ref := range hostileRefs {
		c := journal.Claim{Key: journal.Key{Interface: journal.InterfaceDelivery, Reference: ref}, State: journal.StateUnknown,
			Token: "t", Holder: "host\x1b[31m:1", Note: "500\x1b]0;title\x07", ClaimedAt: now, LeaseUntil: now, UpdatedAt: now}
		if _, _, err := st.Insert(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	closeStore()
	check := func(args ...string) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), append([]string{"journal", "--sqlite", path}, args...), strings.NewReader(""), &out, &errOut)
		for _, s := range []string{out.String(), errOut.String()} {
			for _, r := range s {
				if r != '\n' && !unicode.IsPrint(r) {
					t.Errorf("journal %s (exit %d) prints %U:\n%s", strings.Join(args, " "), code, r, s)
					break
				}
			}
		}
	}
	check("list")
	for _, ref := range hostileRefs {
		check("get", "delivery", ref)
		check("free", "delivery", ref)
	}
}
