// Package corpus reads the privacy filter's corpora of error messages
// (internal/safetext/testdata) for the tests that measure the filter on
// them, and scores what the filter left of a message: the planted values
// that survived, the key words kept. It imports nothing of the SDK, so a
// test of the filter that uses it does not rebuild the SDK's packages.
package corpus

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unicode"
)

// Message is one message of the privacy filter's corpus
// (internal/safetext/testdata/corpus.jsonl): an error message in a
// wording the platform's documents do not use, the operation and status it
// answers, the key words an operator needs to act on it, and the patient
// values planted in it.
type Message struct {
	Line     int
	Op       string
	Status   int
	Type     string
	Template string // the message with its placeholders ({full_name}, {dob}, …)
	Message  string // the message with the values planted
	Keys     []string
	Plants   []Plant
}

// Plant is a patient value planted in a corpus message.
type Plant struct {
	Kind, Value string
}

// Planted values by kind: names that are words of the language (the hard
// case), names that are not, and the forms of dates, phones, ZIP codes,
// record and prescription numbers, streets, cities, e-mail addresses and
// notes that platforms echo.
var plantValues = map[string][]string{
	"first_name": {"Will", "Hope", "Rose", "Grace", "Bill", "Mark", "Faith", "Joy", "Amber", "Frank", "May", "Sandy", "Dawn", "Carol", "Grant", "Philomena", "Marguerite"},
	"last_name":  {"Page", "King", "Price", "Young", "Long", "Street", "Baker", "Hunter", "Rich", "Little", "Wood", "Hill", "Short", "Fields", "Ward", "Vandersloot", "Quillfeather"},
	"full_name":  {"Will Page", "Hope King", "Rose Price", "Grace Young", "Bill Long", "Mark Street", "Faith Baker", "Joy Hunter", "Amber Rich", "Frank Little", "May Wood", "Sandy Hill", "Dawn Short", "Carol Fields", "Grant Ward", "Philomena Vandersloot"},
	"street":     {"12 Elm St", "4417 Quillfeather Lane", "88 Hope Street", "221 Baker Street", "7 King Road", "1600 Long Avenue", "31 Price Drive"},
	"city":       {"Reading", "Mobile", "Columbus", "Springfield", "Independence", "Orange"},
	"dob":        {"1937-11-23", "11/23/1937", "Nov 23, 1937", "23.11.1937", "23 November 1937", "1948-02-29"},
	"phone":      {"(614) 555-7319", "614-555-7319", "+1 614 555 7319", "6145557319"},
	"zip":        {"43215", "43215-1234", "90210"},
	"mrn":        {"MRN-004417", "004417", "A00937716"},
	"rx_number":  {"RX7654321", "7654321", "RX/991-22"},
	"email":      {"rose.price@example.com", "will.page@example.org"},
	"note":       {"Leave with neighbour Marguerite", "Ring twice, Hope answers", "Gate code 4412"},
}

// Messages returns the corpus' messages with values planted. Case 0 plants
// them as written above, 1 in lower case, 2 in upper case; a message the
// platform sends in capitals gets them in capitals whatever the case.
func Messages(t testing.TB, plantCase int) []Message {
	t.Helper()
	return File(t, "corpus.jsonl", plantCase)
}

// File is Messages for another file of internal/safetext/testdata in
// the same form, such as heldout.jsonl: messages written without sight of
// the filter, measured but never tuned for.
func File(t testing.TB, name string, plantCase int) []Message {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	f, err := os.Open(filepath.Join(filepath.Dir(file), "..", "safetext", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Message
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	n := 0
	for s.Scan() {
		n++
		var l struct {
			Op      string   `json:"op"`
			Status  int      `json:"status"`
			Type    string   `json:"type"`
			Message string   `json:"message"`
			Keys    []string `json:"keys"`
			Upper   bool     `json:"upper"`
		}
		if err := json.Unmarshal(s.Bytes(), &l); err != nil {
			t.Fatalf("%s line %d: %v", name, n, err)
		}
		m := Message{Line: n, Op: l.Op, Status: l.Status, Type: l.Type, Template: l.Message, Keys: l.Keys}
		var b strings.Builder
		rest := l.Message
		slot := 0
		for {
			i := strings.IndexByte(rest, '{')
			j := strings.IndexByte(rest, '}')
			if i < 0 || j < i {
				b.WriteString(rest)
				break
			}
			kind := rest[i+1 : j]
			values := plantValues[kind]
			if values == nil {
				t.Fatalf("%s line %d: unknown placeholder {%s}", name, n, kind)
			}
			v := values[(n*7+slot*3)%len(values)]
			switch {
			case l.Upper || plantCase == 2:
				v = strings.ToUpper(v)
			case plantCase == 1:
				v = strings.ToLower(v)
			}
			b.WriteString(rest[:i])
			b.WriteString(v)
			m.Plants = append(m.Plants, Plant{Kind: kind, Value: v})
			rest = rest[j+1:]
			slot++
		}
		m.Message = b.String()
		out = append(out, m)
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Survivors returns the planted values' words and digit runs of three
// digits or more that out (a
// rendering of m.Message) shows more often than the message's own words
// do: a planted "Will" survives in "Will will collect", not in
// "[redacted] will collect". Digit runs are compared whole, so a planted
// "1937" never matches inside a timestamp or a duration. Only the
// identifying part of a note is looked for: its ordinary words are
// removed by the second line when the call sent them, and may pass when
// it did not.
func Survivors(out string, m Message) []string {
	own := tokenCounts(corpusPlaceholder.ReplaceAllString(m.Template, " "))
	got := tokenCounts(machineDigits.ReplaceAllString(out, " "))
	var lost []string
	seen := map[string]bool{}
	for _, p := range m.Plants {
		for _, tok := range tokens(p.Value) {
			lt := strings.ToLower(tok)
			if seen[lt] || p.Kind == "note" && !identifying(tok) || p.Kind == "street" && streetSuffix[lt] ||
				label[lt] || len(tok) < 3 && strings.Trim(tok, "0123456789") == "" {
				continue
			}
			seen[lt] = true
			if got[lt] > own[lt] {
				lost = append(lost, tok)
			}
		}
		if strings.Contains(p.Value, "@") && strings.Contains(strings.ToLower(out), strings.ToLower(p.Value)) {
			lost = append(lost, p.Value)
		}
	}
	return lost
}

// machineDigits are the digits a log line or a transcript writes of its
// own: timestamps, clock times and durations. A planted digit run is never
// looked for inside them.
var machineDigits = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?|\b\d+(?:\.\d+)?(?:ns|µs|us|ms|s|m|h)\b`)

var corpusPlaceholder = regexp.MustCompile(`\{[a-z_]+\}`)

// streetSuffix holds a street's kind: a word the message may use of its
// own ("the street").
var streetSuffix = map[string]bool{"st": true, "street": true, "lane": true, "road": true, "avenue": true, "drive": true}

// label holds the words that introduce a record's or a prescription's
// number inside its value ("MRN-004417", "RX/991-22"): the number
// identifies, the label does not.
var label = map[string]bool{"mrn": true, "rx": true}

// identifying reports whether a word of a note names someone or holds a
// number: what a note's ordinary words never do.
func identifying(w string) bool {
	switch strings.ToLower(w) {
	case "marguerite", "hope", "4412":
		return true
	}
	return false
}

// tokens returns the words and digit runs of s.
func tokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func tokenCounts(s string) map[string]int {
	m := map[string]int{}
	for _, w := range tokens(s) {
		m[strings.ToLower(w)]++
	}
	return m
}

// KeysKept returns the keys of m that out keeps, and those it lost.
func KeysKept(out string, m Message) (kept, lost []string) {
	for _, k := range m.Keys {
		if strings.Contains(out, k) {
			kept = append(kept, k)
		} else {
			lost = append(lost, k)
		}
	}
	return kept, lost
}
