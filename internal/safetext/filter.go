// Package safetext is the one place where the platform's words become
// words a person may read. A platform that echoes a patient's name, street,
// note, date of birth or phone number rarely echoes it verbatim: it cuts,
// re-cases, re-formats and escapes it. So the platform's words are judged
// by an allowlist: a token passes only when it is a word of the platform's
// documented messages or of the simulator's, a field name or a JSON path of
// the platform's models (package fields), a status or enum name, an English
// function word or a common word of validation messages, an id the call
// names in its path, or a small number that stands alone. Every other
// token becomes "[redacted]", and a run of them one "[redacted]".
//
// A second line removes the values the call sent in patient fields (whole,
// and word by word), its credentials and its hidden path segments, even
// where one of them is a word of the vocabulary (a surname "Price"). Text
// is decoded (HTML entities, JSON and Go escapes, percent escapes) before
// it is judged, so an escaped name cannot pass as a harmless token.
//
// The filter runs only when an error or a log line is built, never on a
// successful call.
package safetext

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rxdelivery/rxdelivery-go/internal/fields"
)

// Redacted stands for the words the filter removed.
const Redacted = "[redacted]"

// Shortest values of the second line: a patient's value of two characters
// (a surname "An") is removed as a whole word; a credential or a path
// segment needs three. A word of a patient's value is matched from four
// characters, or three when it is not a function word (a note's "the" and
// "not" name nobody, and the platform's sentences need them); the digits
// of one from three digits.
const (
	minPatient = 2
	minSecret  = 3
	minWord    = 3
	minDigits  = 3
)

// Filter judges the platform's words for one call. The zero value and a
// nil *Filter judge by the allowlist alone. A Filter is safe for
// concurrent use once built.
type Filter struct {
	ids    []string        // ids the call's shown path names, exact case
	whole  []string        // lower-case values of the second line, longest first
	words  map[string]bool // lower-case words of patient values
	digits []string        // the digits of patient values
}

// Sent is what a call sent, for the second line.
type Sent struct {
	// IDs are the identifiers the call's shown path names (an order id):
	// they pass wherever they appear.
	IDs []string
	// Patient holds the values the call sent in patient fields (fields.Of
	// is Patient for their JSON key), and query values of the same kind.
	Patient []string
	// Secret holds the credentials and the path segments errors show as
	// placeholders.
	Secret []string
}

// New returns the filter of a call that sent s.
func New(s Sent) *Filter {
	f := &Filter{words: map[string]bool{}}
	seen := map[string]bool{}
	addWhole := func(v string, min int) {
		v = strings.ToLower(strings.TrimSpace(Decode(v)))
		if utf8.RuneCountInString(v) < min || seen[v] {
			return
		}
		seen[v] = true
		f.whole = append(f.whole, v)
	}
	for _, id := range s.IDs {
		if id != "" && !slices.Contains(f.ids, id) {
			f.ids = append(f.ids, id)
		}
	}
	for _, v := range s.Secret {
		addWhole(v, minSecret)
	}
	for _, v := range s.Patient {
		addWhole(v, minPatient)
		d := Decode(v)
		for _, w := range strings.FieldsFunc(d, func(r rune) bool { return !isWord(r) }) {
			lw := strings.ToLower(w)
			if n := utf8.RuneCountInString(lw); n > minWord || (n == minWord && !functionWords[lw]) {
				f.words[lw] = true
			}
		}
		var digits strings.Builder
		for _, r := range d {
			if isDigit(r) {
				digits.WriteRune(r)
			}
		}
		if digits.Len() >= minDigits && !slices.Contains(f.digits, digits.String()) {
			f.digits = append(f.digits, digits.String())
		}
	}
	slices.SortStableFunc(f.whole, func(a, b string) int { return len(b) - len(a) })
	return f
}

// isWord reports whether r belongs to a word: a letter, a digit, a mark or
// an underscore.
func isWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// isSpace reports whether r separates chunks: white space, a control
// character or an invisible format character. Each is written as a space.
func isSpace(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError
}

// Decode returns s with its escapes undone, repeatedly (an escape of an
// escape), as a reader would see them: HTML entities, JSON and Go escapes
// (\u00e9, \x41, \n) and percent escapes (%C3%A9). Invalid UTF-8 becomes
// U+FFFD.
func Decode(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	for range 8 {
		t := strings.ToValidUTF8(unPercent(unBackslash(html.UnescapeString(s))), "\uFFFD")
		if t == s {
			break
		}
		s = t
	}
	return s
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// unPercent decodes every valid %XX of s; others stay.
func unPercent(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			h, ok1 := hexVal(s[i+1])
			l, ok2 := hexVal(s[i+2])
			if ok1 && ok2 {
				b = append(b, h<<4|l)
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}

// unBackslash decodes the JSON and Go escapes of s: \uXXXX (with surrogate
// pairs), \UXXXXXXXX, \xXX, and the one-letter escapes; others stay.
func unBackslash(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	hexRune := func(h string) (rune, bool) {
		var r rune
		for i := 0; i < len(h); i++ {
			v, ok := hexVal(h[i])
			if !ok {
				return 0, false
			}
			r = r<<4 | rune(v)
		}
		return r, true
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		c := s[i+1]
		switch c {
		case 'n', 't', 'r', 'b', 'f', 'v', 'a':
			b.WriteByte(' ')
			i++
		case '"', '\\', '/', '\'':
			b.WriteByte(c)
			i++
		case 'u', 'U', 'x':
			n := map[byte]int{'u': 4, 'U': 8, 'x': 2}[c]
			if i+2+n > len(s) {
				b.WriteByte(s[i])
				continue
			}
			r, ok := hexRune(s[i+2 : i+2+n])
			if !ok {
				b.WriteByte(s[i])
				continue
			}
			i += 1 + n
			if c == 'u' && r >= 0xD800 && r < 0xDC00 && i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
				if lo, ok := hexRune(s[i+3 : i+7]); ok && lo >= 0xDC00 && lo < 0xE000 {
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					i += 6
				}
			}
			if c == 'x' {
				b.WriteByte(byte(r))
			} else {
				b.WriteRune(r)
			}
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// literals are chunks of the SDK's and Go's words that hold digits in a
// shape the number rule refuses.
var literals = []string{"HTTP/1.0", "HTTP/1.1", "HTTP/2.0", "HTTP/2", "ISO 8601", "x509", "http2", "YYYY-MM-DD", "http(s)"}

// pathRE matches a JSON path: names joined by dots, each with optional
// indexes ("prescriptions[0].payers[1].bin", "ids[]").
var pathRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\[[0-9]*\])*(\.[A-Za-z_][A-Za-z0-9_]*(\[[0-9]*\])*)*$`)

// pathName reports whether name (a segment of a path) is a field of the
// platform's models or a word of the vocabulary.
func pathName(name string) bool {
	l := strings.ToLower(name)
	return vocab[l] || (len(l) > 1 && fields.Known(l))
}

// word is a word of the text being judged: runes [start, end).
type word struct {
	start, end int
	digits     bool // every rune is an ASCII digit
	keep       bool
	decided    bool
}

// Text returns s with every token outside the allowlist, and every value
// of the second line, replaced by Redacted; a run of redacted tokens (with
// what separates them) becomes one. Escapes are decoded first, and
// control and invisible characters become spaces.
func (f *Filter) Text(s string) string {
	if s == "" {
		return s
	}
	rs := []rune(Decode(s))
	lower := make([]rune, len(rs))
	for i, r := range rs {
		if isSpace(r) {
			rs[i] = ' '
		}
		lower[i] = unicode.ToLower(rs[i])
	}
	deny := make([]bool, len(rs))
	kept := make([]bool, len(rs))
	if f != nil {
		for _, v := range f.whole {
			mark(lower, []rune(v), deny)
		}
		for _, id := range f.ids {
			mark(rs, []rune(id), kept)
		}
	}
	for _, l := range literals {
		mark(lower, []rune(strings.ToLower(l)), kept)
	}
	f.markPaths(rs, kept)

	// The words, judged one by one.
	var toks []word
	for i := 0; i < len(rs); {
		if !isWord(rs[i]) {
			i++
			continue
		}
		j := i
		digits := true
		for j < len(rs) && isWord(rs[j]) {
			digits = digits && isDigit(rs[j])
			j++
		}
		toks = append(toks, word{start: i, end: j, digits: digits})
		i = j
	}
	for k := range toks {
		t := &toks[k]
		switch {
		case anyTrue(deny[t.start:t.end]):
			t.keep, t.decided = false, true
		case allTrue(kept[t.start:t.end]):
			t.keep, t.decided = true, true
		case t.digits:
			// Decided below, once the words around it are.
		default:
			t.keep, t.decided = f.word(rs, toks, k), true
		}
	}
	for k := range toks {
		if t := &toks[k]; !t.decided {
			t.keep, t.decided = f.number(rs, toks, k, kept), true
		}
	}

	// The text again, each run of redacted tokens as one Redacted.
	var b strings.Builder
	b.Grow(len(s))
	pos := 0
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		if t.keep {
			writeRunes(&b, rs[pos:t.end])
			pos = t.end
			continue
		}
		writeRunes(&b, rs[pos:t.start])
		b.WriteString(Redacted)
		end := t.end
		for k+1 < len(toks) && !toks[k+1].keep {
			k++
			end = toks[k].end
		}
		pos = end
	}
	writeRunes(&b, rs[pos:])
	return b.String()
}

func writeRunes(b *strings.Builder, rs []rune) {
	for _, r := range rs {
		b.WriteRune(r)
	}
}

func anyTrue(m []bool) bool { return slices.Contains(m, true) }

func allTrue(m []bool) bool { return !slices.Contains(m, false) }

// mark sets m over every occurrence of v in rs whose ends are not inside a
// longer word (when v's own end is a word rune).
func mark(rs, v []rune, m []bool) {
	if len(v) == 0 || len(v) > len(rs) {
		return
	}
	for i := 0; i+len(v) <= len(rs); i++ {
		if !slices.Equal(rs[i:i+len(v)], v) {
			continue
		}
		if isWord(v[0]) && i > 0 && isWord(rs[i-1]) {
			continue
		}
		if e := i + len(v); isWord(v[len(v)-1]) && e < len(rs) && isWord(rs[e]) {
			continue
		}
		for j := i; j < i+len(v); j++ {
			m[j] = true
		}
	}
}

// markPaths marks as kept every JSON path of two names or more, or with an
// index, whose names are all fields or words of the vocabulary: the words
// of a single name are judged as words (the second line may hold them).
func (f *Filter) markPaths(rs []rune, kept []bool) {
	for i := 0; i < len(rs); {
		if rs[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(rs) && rs[j] != ' ' {
			j++
		}
		a, z := i, j
		for a < z && !isWord(rs[a]) {
			a++
		}
		for z > a && !isWord(rs[z-1]) && rs[z-1] != ']' {
			z--
		}
		for z > a && rs[z-1] == ']' && (z-2 < a || (rs[z-2] != '[' && !isDigit(rs[z-2]))) {
			z--
		}
		if c := string(rs[a:z]); strings.ContainsAny(c, ".[") && pathRE.MatchString(c) && f.pathNames(c) {
			for k := a; k < z; k++ {
				kept[k] = true
			}
		}
		i = j
	}
}

// pathNames reports whether every name of the path c is a field or a
// word of the vocabulary.
func (f *Filter) pathNames(c string) bool {
	for _, n := range strings.FieldsFunc(c, func(r rune) bool { return r == '.' || r == '[' || r == ']' }) {
		if strings.Trim(n, "0123456789") != "" && !pathName(n) {
			return false
		}
	}
	return true
}

// word judges toks[k], a token that holds a letter (or a digit in a
// word): a word of the vocabulary or a field name, not a word of the
// second line; or the "s" of a possessive after a kept word.
func (f *Filter) word(rs []rune, toks []word, k int) bool {
	t := toks[k]
	w := strings.ToLower(string(rs[t.start:t.end]))
	if f != nil && f.words[w] {
		return false
	}
	if vocab[w] || (len(w) > 1 && fields.Known(w)) {
		return true
	}
	if w == "s" && k > 0 && t.start >= 1 && (rs[t.start-1] == '\'' || rs[t.start-1] == '’') &&
		toks[k-1].end == t.start-1 && toks[k-1].keep {
		return true
	}
	return false
}

// groupSeparators may stand between the digit groups of one value: a
// phone number's, a date's, a street number's.
const groupSeparators = " -./,:()+#"

// number judges toks[k], a run of digits. It passes when it stands alone
// (no other digits within three separators either side: "(614) 555-7319",
// "11/23/1937" and "Nov 23, 1937" are groups), has at most three digits
// (a status, a count, a length; a year or a street number has four), is
// not next to a redacted word ("23 November") and is no part of the digits
// of a patient's value. "8601" after "ISO" passes as a literal.
func (f *Filter) number(rs []rune, toks []word, k int, kept []bool) bool {
	t := toks[k]
	if t.end-t.start > 3 {
		return false
	}
	near := func(i, step int) bool {
		for n := 0; n < 4 && i >= 0 && i < len(rs); n, i = n+1, i+step {
			switch {
			case isDigit(rs[i]):
				return !kept[i]
			case !strings.ContainsRune(groupSeparators, rs[i]):
				return false
			}
		}
		return false
	}
	if near(t.start-1, -1) || near(t.end, 1) {
		return false
	}
	if k > 0 && toks[k-1].decided && !toks[k-1].keep {
		return false
	}
	if k+1 < len(toks) && toks[k+1].decided && !toks[k+1].keep {
		return false
	}
	if f != nil && t.end-t.start >= minDigits {
		d := string(rs[t.start:t.end])
		for _, p := range f.digits {
			if strings.Contains(p, d) {
				return false
			}
		}
	}
	return true
}

// Code returns the safe form of an error type or code: each of its
// space-separated chunks passes only when it is enum-like (letters, digits
// and underscores) and each of its underscore-separated parts is a word of
// the vocabulary, not of the second line ("unable_to_cancel",
// "rate_limit_exceeded"); any other chunk becomes Redacted.
func (f *Filter) Code(s string) string {
	if s == "" {
		return s
	}
	d := Decode(s)
	var out []string
	for _, c := range strings.FieldsFunc(d, isSpace) {
		ok := true
		for _, p := range strings.Split(c, "_") {
			lp := strings.ToLower(p)
			if p == "" || !vocab[lp] || strings.IndexFunc(p, func(r rune) bool { return !isWord(r) }) >= 0 ||
				(f != nil && (f.words[lp] || slices.Contains(f.whole, lp))) {
				ok = false
				break
			}
		}
		switch {
		case ok:
			out = append(out, c)
		case len(out) == 0 || out[len(out)-1] != Redacted:
			out = append(out, Redacted)
		}
	}
	return strings.Join(out, " ")
}

// ID returns s when it is an id the call's path names, Redacted
// otherwise (and "" for "").
func (f *Filter) ID(s string) string {
	if s == "" {
		return s
	}
	if f != nil && slices.Contains(f.ids, s) {
		return s
	}
	return Redacted
}
