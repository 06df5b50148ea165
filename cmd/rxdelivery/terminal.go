package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// terminalSafe returns s with every character that would act on a terminal
// instead of showing (control characters but line feed and tab, the C1
// controls, the bidirectional overrides and isolates, bytes that are not
// UTF-8) written as a Go escape (\x1b, \u202e), so that a value echoed in a
// message (a file name, an id, a flag's value) can neither clear the
// screen, rewrite a line nor reorder what it shows.
func terminalSafe(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case escaped(r):
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needsEscape(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	return strings.IndexFunc(s, escaped) >= 0
}

// escaped reports whether r is written escaped by terminalSafe.
func escaped(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case unicode.IsControl(r): // C0, DEL, C1
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

// safeWriter passes each write through terminalSafe: the command's
// standard error, where messages quote what was given.
type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	if !needsEscape(string(p)) {
		return s.w.Write(p)
	}
	if _, err := io.WriteString(s.w, terminalSafe(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// oneLine is terminalSafe for a value printed within a line: a line break
// in it is escaped too, so it cannot forge a line of its own.
func oneLine(s string) string {
	return strings.NewReplacer("\n", `\n`, "\t", `\t`).Replace(terminalSafe(s))
}
