package main

import (
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// cmdRunPrinted runs a command line the last command printed, exactly as
// printed, through bash, and checks its exit code:
//
//	runprinted CODE WORD [PLACEHOLDER=VALUE...]
//
// The line is the one line of the last command's standard output and
// error that, leading spaces removed, starts with "rxdelivery " and holds
// WORD as a word of its own (such as resolve or free). Each PLACEHOLDER
// word of it (ORDER_ID) is replaced by VALUE, as an operator fills it in;
// nothing else of the line is changed.
func cmdRunPrinted(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: runprinted CODE WORD [PLACEHOLDER=VALUE...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	var found []string
	for _, out := range []string{ts.ReadFile("stdout"), ts.ReadFile("stderr")} {
		for _, line := range strings.Split(out, "\n") {
			line = strings.TrimLeft(line, " ")
			if strings.HasPrefix(line, "rxdelivery ") && containsWord(line, args[1]) {
				found = append(found, line)
			}
		}
	}
	if len(found) != 1 {
		ts.Fatalf("runprinted: %d printed command lines with %q, want 1: %q", len(found), args[1], found)
	}
	line := found[0]
	for _, sub := range args[2:] {
		name, value, ok := strings.Cut(sub, "=")
		if !ok || !containsWord(line, name) {
			ts.Fatalf("runprinted: the line %q has no placeholder %q", line, name)
		}
		words := strings.Split(line, " ")
		for i, w := range words {
			if w == name {
				words[i] = value
			}
		}
		line = strings.Join(words, " ")
	}
	ts.Logf("running as printed: %s", line)
	err = ts.Exec("bash", "-c", line)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("runprinted: %v", err)
	}
	if got != want {
		ts.Fatalf("%s: exit code %d, want %d", line, got, want)
	}
}

// containsWord reports whether word is one of line's words.
func containsWord(line, word string) bool {
	for _, w := range strings.Split(line, " ") {
		if w == word {
			return true
		}
	}
	return false
}

// cmdWaitCalls waits until the simulator has received N calls of
// OPERATION (a call that hangs included), for at most a minute:
//
//	waitcalls OPERATION N
func cmdWaitCalls(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitcalls OPERATION N")
	}
	srv := ts.Value(simKey{}).(*rxdeliverytest.Server)
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	deadline := time.Now().Add(time.Minute)
	for len(srv.CallsTo(rxdeliverytest.Operation(args[0]))) < n {
		if time.Now().After(deadline) {
			ts.Fatalf("%s: %d calls after a minute, want %d", args[0], len(srv.CallsTo(rxdeliverytest.Operation(args[0]))), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
