package safetext_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/corpus"
	"github.com/rxdelivery/rxdelivery-go/internal/safetext"
)

// corpusNow is the present the corpus is judged at: its messages speak of
// dates in 2026.
var corpusNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// TestCorpus measures the filter on messages written for the tests, in
// wordings the platform's documents do not use, with patient values
// planted in every case and position (corpus.Messages): no planted value
// survives, whether the call sent it (the second line knows it) or not (a
// read whose answer names someone), and at least 95% of the messages keep
// every key word an operator needs. The 20 messages that lose the most are
// printed, original beside rendered, for a reviewer to judge.
func TestCorpus(t *testing.T) {
	t.Parallel()
	for _, c := range measureCorpus(t, "corpus.jsonl") {
		if c.msgs < 250 {
			t.Fatalf("the corpus has %d messages; it needs 250", c.msgs)
		}
		if c.leaks > 0 {
			t.Errorf("%s: %d planted values survived", c.name, c.leaks)
		}
		if share := float64(c.whole) / float64(c.msgs); share < 0.95 {
			t.Errorf("%s: %.1f%% of the messages keep every key word; at least 95%% must", c.name, 100*share)
		}
	}
}

// TestHeldOutCorpus measures the filter on a second corpus
// (testdata/heldout.jsonl: 200 messages across the 16 operations, written
// without sight of the filter or of the first corpus) and is never tuned
// for: a message it renders badly is a finding to fix in the filter's
// rules, not a line to change. Measured first, it kept every key word in
// 83.5% of its messages and let 3 planted values through as written, 10
// in lower case; the classes of those leaks are rules of names.go now
// (TestNamesByContext). It holds no planted value surviving as written
// and in capitals, and in lower case at most the one it still shows: a
// surname that is also a platform's noun after a preposition that takes
// one ("filtering by price"), which reads as the noun. It holds the share
// of messages that keep every key word at 85% or more, to catch a
// regression; the first corpus' 95% is not claimed for wordings no rule
// was written for.
func TestHeldOutCorpus(t *testing.T) {
	t.Parallel()
	for _, c := range measureCorpus(t, "heldout.jsonl") {
		if allowed := map[string]int{"lower case": 1}[c.name]; c.leaks > allowed {
			t.Errorf("%s: %d planted values survived; at most %d may", c.name, c.leaks, allowed)
		}
		if share := float64(c.whole) / float64(c.msgs); share < 0.85 {
			t.Errorf("%s: %.1f%% of the messages keep every key word; at least 85%% must", c.name, 100*share)
		}
	}
}

// corpusResult is what measureCorpus found in one case of planting.
type corpusResult struct {
	name                                                string
	msgs, whole, keys, allKeys, types, typesKept, leaks int
}

// measureCorpus renders every message of a corpus file through a read's
// filter and a write's (which knows the values the call sent), in the three
// cases of planting, and logs every planted value that survives (its
// callers fail on their count), the figures and the 20 messages that lose
// the most key words.
func measureCorpus(t *testing.T, file string) []corpusResult {
	t.Helper()
	type worstMessage struct {
		m    corpus.Message
		out  string
		lost []string
	}
	var worst []worstMessage
	var results []corpusResult
	for plantCase, name := range []string{"as written", "lower case", "upper case"} {
		msgs := corpus.File(t, file, plantCase)
		r := corpusResult{name: name, msgs: len(msgs)}
		for _, m := range msgs {
			var sent []string
			for _, p := range m.Plants {
				sent = append(sent, p.Value)
			}
			read := safetext.New(safetext.Sent{Now: corpusNow})
			write := safetext.New(safetext.Sent{Patient: sent, Now: corpusNow})
			for i, f := range []*safetext.Filter{read, write} {
				out := f.Text(m.Message)
				s := corpus.Survivors(out, m)
				if len(s) == 0 {
					continue
				}
				r.leaks++
				t.Logf("%s line %d (%s, %s): planted %q survived: %q", file, m.Line, name, []string{"read", "write"}[i], s, scrubPlants(out, m))
			}
			out := read.Text(m.Message)
			kept, lost := corpus.KeysKept(out, m)
			r.keys += len(kept)
			r.allKeys += len(m.Keys)
			if len(lost) == 0 {
				r.whole++
			} else if plantCase == 0 {
				worst = append(worst, worstMessage{m, out, lost})
			}
			if m.Type != "" {
				r.types++
				if read.Code(m.Type) == m.Type {
					r.typesKept++
				}
			}
		}
		t.Logf("%s, %s: %d messages, %d keep every key word (%.1f%%), %d of %d key words kept, %d of %d types kept, %d leaks",
			file, name, r.msgs, r.whole, 100*float64(r.whole)/float64(r.msgs), r.keys, r.allKeys, r.typesKept, r.types, r.leaks)
		results = append(results, r)
	}
	sort.SliceStable(worst, func(i, j int) bool { return len(worst[i].lost) > len(worst[j].lost) })
	var b strings.Builder
	for i, r := range worst {
		if i == 20 {
			break
		}
		fmt.Fprintf(&b, "\n%3d. %s %d\n     said:     %s\n     rendered: %s\n     lost:     %q",
			i+1, r.m.Op, r.m.Status, r.m.Template, scrubPlants(r.out, r.m), r.lost)
	}
	t.Logf("%s: the messages that lose the most:%s", file, b.String())
	return results
}

// scrubPlants shows out with each planted value that survived replaced by
// its placeholder, so a failure prints no planted value.
func scrubPlants(out string, m corpus.Message) string {
	for _, p := range m.Plants {
		out = strings.ReplaceAll(out, p.Value, "{"+p.Kind+"}")
	}
	return out
}
