package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/mattn/go-isatty"
)

// A cancel asks first when a person is at the terminal: "Cancel order
// ord_123? [y/N]" on stderr, and goes on only on "y" or "yes". --yes skips
// the question. With standard input that is not a terminal (a script, a
// job runner, a pipe) there is no one to ask, and the cancel goes on as
// it always has: the script's author chose to cancel, and refusing would
// break every script that cancels today without making any of them safer.

// terminal is a standard input that says whether a person types at it.
// An *os.File is asked through its descriptor (interactive); a test's
// input may be one.
type terminal interface{ IsTerminal() bool }

// interactive reports whether r, the command's standard input, is a
// terminal.
func interactive(r io.Reader) bool {
	switch f := r.(type) {
	case terminal:
		return f.IsTerminal()
	case interface{ Fd() uintptr }:
		return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
	}
	return false
}

// confirm asks question (with " [y/N] " after it) on stderr when standard
// input is a terminal and yes was not given, and reports whether to go on:
// only a line of "y" or "yes" (any case) says yes; an empty line, any
// other answer and the end of the input say no.
func (a *app) confirm(question string, yes bool) bool {
	if yes || !interactive(a.stdin) {
		return true
	}
	fmt.Fprintf(a.stderr, "%s [y/N] ", printable(question))
	line, _ := bufio.NewReader(a.stdin).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}
