package main

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"golang.org/x/text/width"
)

// The tables show what an operator follows a delivery by: ids, statuses,
// references, times and carriers. Names, addresses and signatures (patient
// data) are in the --json form of the resource only. Each kind of
// resource's columns stand beside its commands.

// table writes rows under a header (its column names, tab-separated),
// each cell made printable (an empty one shown as "-") and the columns
// aligned by the width a terminal gives them (displayWidth), two spaces
// apart.
func table(w io.Writer, header string, rows [][]string) {
	lines := make([][]string, 0, len(rows)+1)
	lines = append(lines, strings.Split(header, "\t"))
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = dash(printable(c))
		}
		lines = append(lines, cells)
	}
	var widths []int
	for _, l := range lines {
		for i, c := range l {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], displayWidth(c))
		}
	}
	var b strings.Builder
	for _, l := range lines {
		for i, c := range l {
			b.WriteString(c)
			if i < len(l)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-displayWidth(c)+2))
			}
		}
		b.WriteByte('\n')
	}
	_, _ = io.WriteString(w, b.String())
}

// printable returns s as the command prints a value it did not write
// itself (a reference, an id, a name, a status or a message the platform
// returned, a journal's note): every control character (C0, DEL and C1,
// tab and line breaks included), every Unicode format character
// (bidirectional overrides, zero-width characters), the line and
// paragraph separators, the spaces other than U+0020 and every byte that
// is not UTF-8 is written as its Go escape (\x1b, \t, \u202e, \xff), so
// that a value never moves the cursor, clears the screen, reorders a line
// or breaks a table's row.
// Every other character is kept as is. Every printer of the command
// (tables, plain lines, the errors it prints) passes values through it.
func printable(s string) string {
	if utf8.ValidString(s) && strings.IndexFunc(s, escaped) < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case escaped(r):
			// strconv's escapes: \t, \n, \r, \x1b, \u0085, \u202e.
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// printableJSON returns b, valid JSON, with every character printable
// would escape that JSON may hold raw (DEL, the C1 controls, the format
// characters) written as its \u escape, and invalid UTF-8 as \ufffd (as
// encoding/json reads it): the same JSON value, which a terminal shows as
// text. Such a character can only stand inside a string, where the escape
// means the same character; the controls below U+0020 outside a string
// are JSON's whitespace, kept.
func printableJSON(b []byte) []byte {
	if utf8.Valid(b) && bytes.IndexFunc(b, escapedInJSON) < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = append(out, `\ufffd`...)
		case escapedInJSON(r) && r > 0xffff:
			// Outside the BMP: a surrogate pair, as JSON writes one.
			r1, r2 := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
		case escapedInJSON(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

// escapedInJSON reports whether printableJSON writes r as an escape: an
// escaped rune other than JSON's whitespace and the controls that JSON
// never holds raw.
func escapedInJSON(r rune) bool { return r >= 0x7f && escaped(r) }

// escaped reports whether printable writes r as an escape: a control
// character (Cc), a format character (Cf: bidirectional controls,
// zero-width characters), a line or paragraph separator (Zl, Zp), or a
// space other than U+0020 (a no-break space reads as a space and is not
// one: a reference typed back from the screen would differ).
func escaped(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) || (r != ' ' && unicode.Is(unicode.Zs, r))
}

// displayWidth is how many columns a terminal gives s, a printable
// string: 2 for an East Asian wide or fullwidth character (CJK, Hangul,
// most emoji), 0 for a combining mark (Mn, Me), 1 for any other.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Mn, unicode.Me):
		case width.LookupRune(r).Kind() == width.EastAsianWide, width.LookupRune(r).Kind() == width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// when formats a platform time: RFC 3339 in UTC, or the text as sent.
func when(t rxtypes.Time) string {
	if t.Valid() {
		return t.UTC().Format(time.RFC3339)
	}
	return t.Raw
}

// columns is how one kind of resource prints as a table: the header (its
// column names, tab-separated) and the cells of one resource under it.
type columns[T any] struct {
	header string
	row    func(T) []string
}

// print writes list as a table, a row a resource.
func (c columns[T]) print(w io.Writer, list []T) {
	rows := make([][]string, 0, len(list))
	for _, v := range list {
		rows = append(rows, c.row(v))
	}
	table(w, c.header, rows)
}

// showOne prints one resource: a table of one row, or with --json the
// resource.
func showOne[T any](a *app, cols columns[T], v *T) error {
	if a.jsonOut {
		return a.printJSON(v)
	}
	cols.print(a.stdout, []T{*v})
	return nil
}

// showList prints a list of resources: a table, or with --json a JSON
// array (empty, never null, when the list is): the one --json shape of
// every command that lists resources.
func showList[T any](a *app, cols columns[T], list []T) error {
	if a.jsonOut {
		if list == nil {
			list = []T{}
		}
		return a.printJSON(list)
	}
	cols.print(a.stdout, list)
	return nil
}

// done reports a write with no resource in its response: v with --json,
// otherwise a line of text, each string of args made printable.
func (a *app) done(v any, format string, args ...any) error {
	if a.jsonOut {
		return a.printJSON(v)
	}
	_, err := fmt.Fprintf(a.stdout, format, printableArgs(args)...)
	return err
}

// printableArgs returns args with each string (of any string type, such
// as a status) made printable, for a format of the command's own words.
func printableArgs(args []any) []any {
	out := make([]any, len(args))
	for i, v := range args {
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
			v = printable(rv.String())
		}
		out[i] = v
	}
	return out
}

// printableLines is a writer of text to a terminal: each line of each
// Write made printable (the line breaks kept), for text the command
// passes on whole, such as the transcript --dump - writes to stderr.
type printableLines struct{ w io.Writer }

func (p printableLines) Write(b []byte) (int, error) {
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		lines[i] = printable(l)
	}
	if _, err := io.WriteString(p.w, strings.Join(lines, "\n")); err != nil {
		return 0, err
	}
	return len(b), nil
}
