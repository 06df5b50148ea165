package safetext_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/safetext"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

// corpusNow is the present the corpus is judged at: its messages speak of
// dates in 2026.
var corpusNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// TestCorpus measures the filter on messages written for the tests, in
// wordings the platform's documents do not use, with patient values
// planted in every case and position (testutil.Corpus): no planted value
// survives, whether the call sent it (the second line knows it) or not (a
// read whose answer names someone), and at least 95% of the messages keep
// every key word an operator needs. The 20 messages that lose the most are
// printed, original beside rendered, for a reviewer to judge.
func TestCorpus(t *testing.T) {
	t.Parallel()
	type result struct {
		m    testutil.CorpusMessage
		out  string
		lost []string
	}
	var worst []result
	for plantCase, name := range []string{"as written", "lower case", "upper case"} {
		msgs := testutil.Corpus(t, plantCase)
		if len(msgs) < 250 {
			t.Fatalf("the corpus has %d messages; it needs 250", len(msgs))
		}
		whole, keys, allKeys, types, typesKept, leaks := 0, 0, 0, 0, 0, 0
		for _, m := range msgs {
			var sent []string
			for _, p := range m.Plants {
				sent = append(sent, p.Value)
			}
			read := safetext.New(safetext.Sent{Now: corpusNow})
			write := safetext.New(safetext.Sent{Patient: sent, Now: corpusNow})
			for i, f := range []*safetext.Filter{read, write} {
				out := f.Text(m.Message)
				s := testutil.Survivors(out, m)
				if len(s) == 0 {
					continue
				}
				leaks++
				t.Errorf("corpus line %d (%s, %s): planted %q survived: %q", m.Line, name, []string{"read", "write"}[i], s, scrubPlants(out, m))
			}
			out := read.Text(m.Message)
			kept, lost := testutil.KeysKept(out, m)
			keys += len(kept)
			allKeys += len(m.Keys)
			if len(lost) == 0 {
				whole++
			} else if plantCase == 0 {
				worst = append(worst, result{m, out, lost})
			}
			if m.Type != "" {
				types++
				if read.Code(m.Type) == m.Type {
					typesKept++
				}
			}
		}
		share := float64(whole) / float64(len(msgs))
		t.Logf("%s: %d messages, %d keep every key word (%.1f%%), %d of %d key words kept, %d of %d types kept, %d leaks",
			name, len(msgs), whole, 100*share, keys, allKeys, typesKept, types, leaks)
		if share < 0.95 {
			t.Errorf("%s: %.1f%% of the messages keep every key word; at least 95%% must", name, 100*share)
		}
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
	t.Logf("the messages that lose the most:%s", b.String())
}

// scrubPlants shows out with each planted value that survived replaced by
// its placeholder, so a failure prints no planted value.
func scrubPlants(out string, m testutil.CorpusMessage) string {
	for _, p := range m.Plants {
		out = strings.ReplaceAll(out, p.Value, "{"+p.Kind+"}")
	}
	return out
}
