package safetext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rxdelivery/rxdelivery-go/internal/fields"
)

// text is one text being judged: its runes (escapes decoded, spaces
// normalised), their lower case, the same text as a string for the
// patterns of numbers.go (at maps its byte offsets to rune indexes), what
// is denied and what is kept rune by rune, and its words.
type text struct {
	f          *Filter
	rs, lower  []rune
	s          string
	at         []int
	deny, kept []bool
	toks       []word
	// caps is true when capitals say nothing of the text's words: it is
	// written in capitals, or in title case.
	caps bool
}

// word is a word of the text being judged: runes [start, end).
type word struct {
	start, end int
	lower      string
	digits     bool // every rune is an ASCII digit
	title      bool // an upper-case letter, then lower-case ones
	upper      bool // upper-case letters only
	flags      nameFlags
	known      bool // a word of the language, the vocabulary or the models
	keep       bool
	decided    bool
	name       bool // judged a person's or a place's name
	quoted     bool // inside quotes: a value echoed, not the platform's sentence
}

// Text returns the safe text of s, one of the platform's strings: its
// words of the language, field names and paths, ids the call names, and
// numbers of a known safe form stay; names of people and places, numbers
// that could be a date of birth, a phone number, a ZIP code or a record's
// number, every word the filter does not know and every value of the
// second line become Redacted, a run of them one Redacted. Escapes are
// decoded first, and control and invisible characters become spaces.
func (f *Filter) Text(s string) string {
	if s == "" {
		return s
	}
	t := newText(f, s)
	t.markKnown()
	t.markForms()
	t.judgeWords()
	t.judgeNames()
	t.judgeNumbers()
	t.judgeStreets()
	return t.render(len(s))
}

func newText(f *Filter, s string) *text {
	rs := []rune(Decode(s))
	t := &text{f: f, rs: rs, lower: make([]rune, len(rs)), deny: make([]bool, len(rs)), kept: make([]bool, len(rs))}
	var b strings.Builder
	t.at = make([]int, 0, len(rs)*2)
	for i, r := range rs {
		if isSpace(r) {
			rs[i] = ' '
		}
		t.lower[i] = unicode.ToLower(rs[i])
		b.WriteRune(rs[i])
		for range utf8.RuneLen(rs[i]) {
			t.at = append(t.at, i)
		}
	}
	t.at = append(t.at, len(rs))
	t.s = b.String()
	t.tokenize()
	return t
}

// span sets m over the runes of the bytes [i, j) of t.s.
func (t *text) span(i, j int, m []bool) {
	for k := t.at[i]; k < t.at[j]; k++ {
		m[k] = true
	}
}

// tokenize splits the text into its words and tells whether capitals say
// anything in it.
func (t *text) tokenize() {
	upper, title, long := 0, 0, 0
	for i := 0; i < len(t.rs); {
		if !isWord(t.rs[i]) {
			i++
			continue
		}
		j := i
		digits := true
		for j < len(t.rs) && isWord(t.rs[j]) {
			digits = digits && isDigit(t.rs[j])
			j++
		}
		w := word{start: i, end: j, digits: digits, lower: string(t.lower[i:j])}
		if !digits {
			w.title, w.upper = caseOf(t.rs[i:j])
			if j-i >= 3 && strings.IndexFunc(w.lower, unicode.IsLetter) >= 0 {
				long++
				if w.upper {
					upper++
				} else if w.title {
					title++
				}
			}
		}
		t.toks = append(t.toks, w)
		i = j
	}
	t.caps = long > 0 && (upper*10 >= long*7 || (upper+title)*100 >= long*85 && long >= 3)
	t.markQuoted()
}

// markQuoted marks the words inside quotes. A double quote opens or
// closes; a single one opens where no letter or digit is before it and
// closes where none is after it, so that an apostrophe ("Driver's",
// "can't") does neither.
func (t *text) markQuoted() {
	var open rune
	in := make([]bool, len(t.rs))
	for i, r := range t.rs {
		before := i > 0 && isWord(t.rs[i-1])
		after := i+1 < len(t.rs) && isWord(t.rs[i+1])
		switch {
		case open == 0 && (r == '"' || r == '“'):
			open = '"'
		case open == '"' && (r == '"' || r == '”'):
			open = 0
		case open == 0 && (r == '\'' || r == '‘') && !before && after:
			open = '\''
		case open == '\'' && (r == '\'' || r == '’') && !after:
			open = 0
		default:
			in[i] = open != 0
		}
	}
	for k := range t.toks {
		t.toks[k].quoted = in[t.toks[k].start]
	}
}

// caseOf tells whether rs is in title case (an upper-case letter, then
// lower-case ones) or in upper case.
func caseOf(rs []rune) (title, upper bool) {
	letters, uppers := 0, 0
	for _, r := range rs {
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) {
				uppers++
			}
		}
	}
	upper = letters > 1 && uppers == letters
	title = letters > 0 && unicode.IsUpper(rs[0]) && uppers == 1
	return title, upper
}

// markKnown marks the second line (denied) and what is kept whole: the
// ids the call names, the SDK's literals, the platform's documented
// phrases and the JSON paths of its models.
func (t *text) markKnown() {
	if t.f != nil {
		for _, v := range t.f.whole {
			mark(t.lower, []rune(v), t.deny)
		}
		for _, id := range t.f.ids {
			mark(t.rs, []rune(id), t.kept)
		}
	}
	for _, l := range literals {
		mark(t.lower, []rune(strings.ToLower(l)), t.kept)
	}
	for _, p := range phrases() {
		mark(t.rs, p, t.kept)
	}
	t.f.markPaths(t.rs, t.kept)
}

// judgeWords decides the words that are not numbers by what they are: a
// word of the second line goes; a word the filter does not know goes; a
// word of the language, the vocabulary or the models stays, unless it is
// also a name, which judgeNames decides from its context.
func (t *text) judgeWords() {
	for k := range t.toks {
		w := &t.toks[k]
		switch {
		case anyTrue(t.deny[w.start:w.end]), t.f != nil && !w.digits && t.f.words[w.lower]:
			w.keep, w.decided = false, true
		case allTrue(t.kept[w.start:w.end]):
			w.keep, w.decided = true, true
		case w.digits:
			// Decided by judgeNumbers, once the words around it are.
		default:
			w.known = t.known(w.lower)
			if w.known && !strings.Contains(w.lower, "_") {
				if w.flags = lex().names[w.lower]; enumWords[w.lower] && (!w.flags.personal() || w.upper && httpMethods[w.lower]) {
					w.flags = 0 // an enum's word, no one's name: "with POSTAL"
				} else if !domain(w.lower) && !lex().english(w.lower) && derived(w.lower) {
					w.flags = surname // a word made from another may be someone's name: judged by its context
				}
			}
			switch {
			case len(w.lower) <= 2 && t.contraction(k), len(w.lower) == 1 && t.prefix(k):
				w.keep, w.decided = true, true
			case !w.known:
				w.keep, w.decided = false, true
			case w.flags == 0:
				w.keep, w.decided = true, true
			}
		}
	}
}

// known reports whether w (lower case) is a word of the language, of the
// vocabulary or of the models, or a snake_case or mixed word all of whose
// parts are ("accept_fee", "controlled_substance").
func (t *text) known(w string) bool {
	if len(w) == 1 && w != "a" && w != "i" {
		return false // an initial ("J. Vandersloot"), unless a possessive's, a contraction's or a prefix's
	}
	if domain(w) || calendar[w] || lex().english(w) || derived(w) {
		return true
	}
	if !strings.Contains(w, "_") {
		return false
	}
	personal := true
	for _, p := range strings.Split(w, "_") {
		if p == "" {
			continue
		}
		if strings.Trim(p, "0123456789") == "" && len(p) <= 3 {
			continue
		}
		if !domain(p) && !lex().english(p) || t.f != nil && t.f.words[p] {
			return false
		}
		personal = personal && lex().names[p].personal()
	}
	return !personal
}

// derivingPrefixes are the prefixes that make a word of the language
// from another ("redelivery", "misrouted", "unrouted").
var derivingPrefixes = [...]string{"re", "mis", "un", "pre", "non", "dis", "sub"}

// derived reports whether w (lower case), a word the list does not hold,
// is made from one it holds by a prefix of derivingPrefixes or the suffix
// "able" ("sortable", "rebook"): the stem is a word of four letters or
// more, no first name and no town, and a verb unless it has six letters
// or more. Of the 86,756 surnames and first names of the Census lists
// that are not words of the language, 24 are so made, none of the 9,800
// most frequent surnames (Resnick, Repass, Precourt, …).
func derived(w string) bool {
	l := lex()
	stem := func(r string) bool {
		return len(r) >= 4 && l.english(r) && l.names[r]&(firstName|place) == 0 && (len(r) >= 6 || canBeVerb(r))
	}
	for _, p := range derivingPrefixes {
		if r, ok := strings.CutPrefix(w, p); ok && stem(r) {
			return true
		}
	}
	if r, ok := strings.CutSuffix(w, "able"); ok {
		return stem(r) || stem(r+"e")
	}
	return false
}

// domain reports whether w (lower case) is a word of the platform's
// vocabulary or a field of its models.
func domain(w string) bool { return vocab[w] || (len(w) > 1 && fields.Known(w)) }

// possessiveS reports whether toks[k], an "s", follows an apostrophe
// right after the word before it.
func (t *text) possessiveS(k int) bool {
	w := t.toks[k]
	return k > 0 && w.start >= 1 && (t.rs[w.start-1] == '\'' || t.rs[w.start-1] == '’') && t.toks[k-1].end == w.start-1
}

// streetKinds are the words that end a street's name.
var streetKinds = set("st", "street", "ave", "avenue", "rd", "road", "blvd", "boulevard", "ln", "lane", "dr",
	"drive", "ct", "court", "way", "pl", "place", "ter", "terrace", "pkwy", "parkway", "hwy", "highway", "cir",
	"circle", "sq", "square", "trl", "trail", "aly", "alley")

// judgeStreets removes the kind of a street whose name was removed
// ("[redacted] Lane", "Quillfeather.Lane"): with its name gone, it still
// says where someone lives.
func (t *text) judgeStreets() {
	for k := 1; k < len(t.toks); k++ {
		w, p := &t.toks[k], t.toks[k-1]
		if !w.keep || p.keep || !streetKinds[w.lower] || !t.joinedBy(k-1, k, ".,") {
			continue
		}
		if w.title || w.upper || t.caps || p.digits {
			w.keep = false
		}
	}
}

// prefix reports whether toks[k], one letter, is the prefix of a word
// joined to it by a hyphen ("e-bike", "x-www-form-urlencoded").
func (t *text) prefix(k int) bool {
	w := t.toks[k]
	return k+1 < len(t.toks) && w.end < len(t.rs) && t.rs[w.end] == '-' && t.toks[k+1].start == w.end+1 &&
		t.known(t.toks[k+1].lower)
}

// contraction reports whether toks[k] is the tail of a possessive or a
// contraction ("Driver's", "can't", "we'll") after a kept word.
func (t *text) contraction(k int) bool {
	switch t.toks[k].lower {
	case "s", "t", "d", "ll", "re", "ve", "m":
		return t.possessiveS(k)
	}
	return false
}

// render writes the text again, each run of redacted words as one
// Redacted.
func (t *text) render(size int) string {
	var b strings.Builder
	b.Grow(size)
	pos := 0
	for k := 0; k < len(t.toks); k++ {
		w := t.toks[k]
		if w.keep {
			writeRunes(&b, t.rs[pos:w.end])
			pos = w.end
			continue
		}
		writeRunes(&b, t.rs[pos:w.start])
		b.WriteString(Redacted)
		end := w.end
		for k+1 < len(t.toks) && !t.toks[k+1].keep {
			k++
			end = t.toks[k].end
		}
		pos = end
	}
	writeRunes(&b, t.rs[pos:])
	return b.String()
}
