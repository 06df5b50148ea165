package core

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/rxdelivery/rxdelivery-go/internal/fields"
	"github.com/rxdelivery/rxdelivery-go/internal/safetext"
)

// Platforms echo what they were sent, and rarely verbatim: a 422 may
// repeat a patient's surname inside a sentence, a truncated note, a date
// of birth in another layout; a 403 the key; a broken server anything at
// all in a status line. So every string the SDK formats of the platform's
// words (the fields of an APIError, the causes of a TransportError and a
// DecodeError, error messages in transcripts) passes through the filter
// of package safetext, which judges each word by what it is: words of the
// language, field names and enum names pass unless used as a person's or
// a place's name, numbers pass where their form is safe, and every other
// token becomes "[redacted]". The values the call sent in patient fields,
// its hidden path segments and the credentials are removed as a second
// line, even where they are ordinary words. APIError.Platform and
// APIError.Body alone keep the raw words.

// Redacted is what stands for the words of the platform's that are not
// known safe, and for a value the call sent or a credential.
const Redacted = safetext.Redacted

// scrubber judges the platform's words for one call. What it judges by is
// built on first use (only an error, a log line or a transcript needs it)
// and may be used from several goroutines; a successful call without a
// transcript never builds it, and costs no more than the fields below.
type scrubber struct {
	once   sync.Once
	body   []byte
	query  string
	shown  string   // the path as errors show it
	hidden []string // path segments shown as placeholders
	creds  []string
	built  *scrubbed
}

// scrubbed is what a scrubber judges by, built once.
type scrubbed struct {
	filter *safetext.Filter
	values []string // every value the call sent, for sent; longest first
}

// newScrubber returns the scrubber of a call to path (shown as shownPath,
// with its hidden values as placeholders) with query and the encoded body.
func (b *Backend) newScrubber(path, shownPath, query string, body []byte) *scrubber {
	sc := &scrubber{body: body, query: query, shown: shownPath, creds: b.secrets}
	if shownPath != path {
		shown := strings.Split(shownPath, "/")
		for i, seg := range strings.Split(path, "/") {
			if i >= len(shown) || shown[i] != seg {
				if v, err := url.PathUnescape(seg); err == nil {
					sc.hidden = append(sc.hidden, v)
				}
				sc.hidden = append(sc.hidden, seg)
			}
		}
	}
	return sc
}

// build makes the call's filter: the ids its shown path names, the values
// it sent in patient fields (of its body and its query), its hidden path
// segments and the credentials.
func (sc *scrubber) build() {
	var sent safetext.Sent
	for _, seg := range strings.Split(sc.shown, "/") {
		if seg != "" && !strings.HasPrefix(seg, ":") {
			if v, err := url.PathUnescape(seg); err == nil {
				sent.IDs = append(sent.IDs, v)
			}
		}
	}
	sent.Secret = append(append(sent.Secret, sc.creds...), sc.hidden...)
	add := func(key, v string) {
		if fields.Of(key) == fields.Patient {
			sent.Patient = append(sent.Patient, v)
		}
	}
	if len(sc.body) > 0 {
		d := json.NewDecoder(bytes.NewReader(sc.body))
		d.UseNumber()
		var doc any
		if d.Decode(&doc) == nil {
			walkValues("", doc, add)
		}
	}
	if sc.query != "" {
		if q, err := url.ParseQuery(sc.query); err == nil {
			for k, vs := range q {
				for _, v := range vs {
					add(k, v)
				}
			}
		}
	}
	sc.built = &scrubbed{filter: safetext.New(sent), values: sc.sentValues()}
}

// walkValues calls add with every string and number of a decoded JSON
// document and the key of the member that holds it (for a list's
// elements, the list's key).
func walkValues(key string, v any, add func(key, v string)) {
	switch v := v.(type) {
	case string:
		add(key, v)
	case json.Number:
		add(key, v.String())
	case []any:
		for _, e := range v {
			walkValues(key, e, add)
		}
	case map[string]any:
		for k, e := range v {
			walkValues(k, e, add)
		}
	}
}

// scrub returns the safe text of s, one of the platform's strings: every
// token the filter does not keep and every value of the second line
// replaced by Redacted. A nil scrubber judges by the words alone.
func (sc *scrubber) scrub(s string) string {
	return sc.get().Text(s)
}

// code returns the safe form of an error type or code: enum-like words of
// the vocabulary only.
func (sc *scrubber) code(s string) string { return sc.get().Code(s) }

// value returns an error type or code when every word of it is safe, and
// "" otherwise: a typed field holds the platform's value or nothing.
func (sc *scrubber) value(s string) string {
	if c := sc.code(s); c == s {
		return s
	}
	return ""
}

// id returns s when the call's shown path names it, "" otherwise.
func (sc *scrubber) id(s string) string { return sc.get().ID(s) }

// sent returns s with every value the call sent (in any field, in its
// escaped forms), its hidden path segments and the credentials replaced
// by Redacted, and nothing else: for text that is not the platform's
// words (a redirect's scheme and host) and for telling whether a value in
// a transcript echoes one the call sent. Values shorter than minValue are
// left, and those shorter than minSubstring are matched as whole words.
func (sc *scrubber) sent(s string) string {
	if sc == nil || s == "" {
		return s
	}
	sc.once.Do(sc.build)
	for _, v := range sc.built.values {
		s = replaceFold(s, v, len(v) < minSubstring)
	}
	return s
}

// minSubstring is the shortest value sent removes wherever it appears; a
// shorter one (a three-letter name) is removed only as a whole word, so
// that "Doe" does not cut "Does". Values shorter than minValue (a state
// code, a quantity, a fill number) are left alone, so that "0" does not
// cut "127.0.0.1".
const (
	minSubstring = 4
	minValue     = 3
)

// get returns the call's filter, built on first use; nil for a nil
// scrubber.
func (sc *scrubber) get() *safetext.Filter {
	if sc == nil {
		return nil
	}
	sc.once.Do(sc.build)
	return sc.built.filter
}

// sentValues collects every value the call sent (of any field), its hidden
// path segments and the credentials, in every form a platform may echo
// them, longest first.
func (sc *scrubber) sentValues() []string {
	var values []string
	seen := map[string]bool{}
	add := func(v string) {
		v = strings.TrimSpace(v)
		if len(v) < minValue || seen[strings.ToLower(v)] {
			return
		}
		seen[strings.ToLower(v)] = true
		values = append(values, v)
		for _, f := range [...]string{url.QueryEscape(v), url.PathEscape(v)} {
			if f != v && !seen[strings.ToLower(f)] {
				seen[strings.ToLower(f)] = true
				values = append(values, f)
			}
		}
	}
	for _, v := range sc.creds {
		add(v)
	}
	for _, v := range sc.hidden {
		add(v)
	}
	if len(sc.body) > 0 {
		d := json.NewDecoder(bytes.NewReader(sc.body))
		d.UseNumber()
		var doc any
		if d.Decode(&doc) == nil {
			walkValues("", doc, func(_, v string) { add(v) })
		}
	}
	if sc.query != "" {
		if q, err := url.ParseQuery(sc.query); err == nil {
			for _, vs := range q {
				for _, v := range vs {
					add(v)
				}
			}
		}
	}
	slices.SortStableFunc(values, func(a, b string) int { return len(b) - len(a) })
	return values
}

// replaceFold replaces every case-insensitive occurrence of v in s with
// Redacted; with whole, only those not inside a longer word.
func replaceFold(s, v string, whole bool) string {
	if len(v) > len(s) {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i+len(v) <= len(s); {
		if strings.EqualFold(s[i:i+len(v)], v) && (!whole || (boundary(s, i-1, true) && boundary(s, i+len(v), false))) {
			b.WriteString(s[last:i])
			b.WriteString(Redacted)
			i += len(v)
			last = i
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// boundary reports whether position i of s (the rune before a match when
// before, the one after it otherwise) is outside s or not a letter or
// digit.
func boundary(s string, i int, before bool) bool {
	if i < 0 || i >= len(s) {
		return true
	}
	var r rune
	if before {
		r, _ = utf8.DecodeLastRuneInString(s[:i+1])
	} else {
		r, _ = utf8.DecodeRuneInString(s[i:])
	}
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}
