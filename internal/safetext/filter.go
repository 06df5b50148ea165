// Package safetext is the one place where the platform's words become
// words a person may read. A platform that echoes a patient's name, street,
// note, date of birth or phone number rarely echoes it verbatim: it cuts,
// re-cases, re-formats and escapes it. So each word is judged by what it
// is (text.go): a word of the English language (lexicon/, SCOWL), a field
// name or JSON path of the platform's models (package fields), an enum
// name or an id the call names in its path passes, unless it is also a
// person's first name or surname or a town's name (lexicon/, the 1990 US
// Census and GeoNames) and its context says it is used as one (names.go);
// a number passes where its form is known safe and goes where it could
// identify someone (numbers.go); every word the filter does not know
// becomes "[redacted]", and a run of them one "[redacted]".
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
	"regexp"
	"slices"
	"strings"
	"time"
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
// nil *Filter judge by the words alone, with no second line. A Filter is safe for
// concurrent use once built.
type Filter struct {
	ids    []string        // ids the call's shown path names, exact case
	whole  []string        // lower-case values of the second line, longest first
	words  map[string]bool // lower-case words of patient values
	digits []string        // the digits of patient values
	at     time.Time       // the present, for dates; zero for the clock's
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
	// Now is the present the filter judges dates by (a date within two
	// years of it stays); zero means the time of each judgement.
	Now time.Time
}

// New returns the filter of a call that sent s.
func New(s Sent) *Filter {
	f := &Filter{words: map[string]bool{}, at: s.Now}
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

// literals are chunks of the SDK's and Go's words that hold digits in a
// shape the number rule refuses.
var literals = []string{"HTTP/1.0", "HTTP/1.1", "HTTP/2.0", "HTTP/2", "ISO 8601", "x509", "http2", "YYYY-MM-DD", "http(s)", "c/o"}

// pathRE matches a JSON path: names joined by dots, each with optional
// indexes ("prescriptions[0].payers[1].bin", "ids[]").
var pathRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\[[0-9]*\])*(\.[A-Za-z_][A-Za-z0-9_]*(\[[0-9]*\])*)*$`)

// pathName reports whether name (a segment of a path) is a field of the
// platform's models or a word of the vocabulary.
func pathName(name string) bool {
	l := strings.ToLower(name)
	return vocab[l] || (len(l) > 1 && fields.Known(l))
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

// Code returns the safe form of an error type or code: each of its
// space-separated chunks passes when it is enum-like (letters, digits and
// underscores) and each of its underscore-separated parts is a word of
// the language, the vocabulary or the models and not of the second line,
// and not every part is a person's name ("unable_to_cancel",
// "controlled_substance"); any other chunk becomes Redacted.
func (f *Filter) Code(s string) string {
	if s == "" {
		return s
	}
	t := &text{f: f}
	var out []string
	for _, c := range strings.FieldsFunc(Decode(s), isSpace) {
		lc := strings.ToLower(c)
		ok := strings.IndexFunc(c, func(r rune) bool { return !isWord(r) }) < 0 &&
			(f == nil || !slices.Contains(f.whole, lc)) && t.known(lc)
		if ok && !strings.Contains(lc, "_") {
			ok = (f == nil || !f.words[lc]) && !lex().names[lc].personal() || domain(lc)
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

// Safe reports whether Code and Text keep s whole: the platform's word or
// words, with nothing redacted.
func (f *Filter) Safe(s string) bool { return !strings.Contains(f.Text(s), Redacted) }

// ID returns s when it is an id the call's path names, and "" otherwise:
// a typed field holds the platform's value or nothing.
func (f *Filter) ID(s string) string {
	if f != nil && slices.Contains(f.ids, s) {
		return s
	}
	return ""
}
