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
)

// Platforms echo what they were sent: a 422 may repeat a patient's name or
// street, a 403 the key, and a broken server anything at all in a status
// line. The SDK knows every value a call sent (in its body, its query and
// the path segments errors do not show) and the credentials, so it removes
// each from every string it formats of the platform's words: the fields
// of an APIError, the causes of a TransportError and a DecodeError, and
// attempt log lines. APIError.Body alone keeps the raw response.

// Redacted is what stands for a value the call sent, or a credential, in
// the platform's words.
const Redacted = "[redacted]"

// minSubstring is the shortest value removed wherever it appears; a
// shorter one (a three-letter name) is removed only as a whole word, so
// that "Doe" does not cut "Does". Values shorter than minValue (a state
// code, a quantity, a fill number) carry nothing that identifies a
// patient and are left alone, so that "0" does not cut "127.0.0.1".
const (
	minSubstring = 4
	minValue     = 3
)

// scrubber removes a call's values from strings. Its list is built on
// first use (only an error or a log line needs it) and may be used from
// several goroutines.
type scrubber struct {
	once   sync.Once
	body   []byte
	query  string
	hidden []string // path segments shown as placeholders
	creds  []string
	values []string // longest first
}

// newScrubber returns the scrubber of a call to path (shown as shownPath,
// with its hidden values as placeholders) with query and the encoded body.
func (b *Backend) newScrubber(path, shownPath, query string, body []byte) *scrubber {
	sc := &scrubber{body: body, query: query, creds: b.secrets}
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

// build collects the values, in every form a platform may echo them.
func (sc *scrubber) build() {
	seen := map[string]bool{}
	add := func(v string) {
		v = strings.TrimSpace(v)
		if len(v) < minValue || seen[strings.ToLower(v)] {
			return
		}
		seen[strings.ToLower(v)] = true
		sc.values = append(sc.values, v)
		for _, f := range [...]string{url.QueryEscape(v), url.PathEscape(v)} {
			if f != v && !seen[strings.ToLower(f)] {
				seen[strings.ToLower(f)] = true
				sc.values = append(sc.values, f)
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
			walkValues(doc, add)
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
	slices.SortStableFunc(sc.values, func(a, b string) int { return len(b) - len(a) })
}

// walkValues calls add with every string and number of a decoded JSON
// document (not its keys).
func walkValues(v any, add func(string)) {
	switch v := v.(type) {
	case string:
		add(v)
	case json.Number:
		add(v.String())
	case []any:
		for _, e := range v {
			walkValues(e, add)
		}
	case map[string]any:
		for _, e := range v {
			walkValues(e, add)
		}
	}
}

// scrub returns s with every value of the call replaced by Redacted. A nil
// scrubber returns s unchanged.
func (sc *scrubber) scrub(s string) string {
	if sc == nil || s == "" {
		return s
	}
	sc.once.Do(sc.build)
	for _, v := range sc.values {
		s = replaceFold(s, v, len(v) < minSubstring)
	}
	return s
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
