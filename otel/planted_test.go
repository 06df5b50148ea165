package rxotel_test

import (
	"regexp"
	"strings"
	"testing"
)

// The patient values the echo tests plant, and how a detector looks for
// them in telemetry. A word is looked for anywhere, in any case. A number
// is looked for as a whole value in the forms a platform writes it (the
// value alone, a phone number's groups with any separator, a date of
// birth's year), never as a run of digits inside a timestamp or a
// duration: a log line's "duration=1.614ms" or a span's start time holds
// digits by chance, not an echo.

// clockValues matches the times and durations of telemetry: RFC 3339
// timestamps and Go durations ("1.614ms", "2m3.5s", "350µs").
var clockValues = regexp.MustCompile(`(?i)\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?` +
	`|(\d+(\.\d+)?(ns|µs|us|ms|h|m|s))+\b`)

// carries reports whether s holds the planted value v: a word anywhere,
// in any case; a number as a whole run of digits outside the times and
// durations of clockValues.
func carries(s, v string) bool {
	s = strings.ToLower(s)
	if !isDigits(v) {
		return strings.Contains(s, strings.ToLower(v))
	}
	s = clockValues.ReplaceAllString(s, " ")
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], v)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(v)
		if (start == 0 || !isDigit(s[start-1])) && (end == len(s) || !isDigit(s[end])) {
			return true
		}
		i = start + 1
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// TestPlantedValueDetector: the detector finds a planted number in each
// documented form and never inside a time or a duration.
func TestPlantedValueDetector(t *testing.T) {
	t.Parallel()
	found := []struct{ s, v string }{
		{"message=call (614) 555-0177", "614"},
		{"message=call 614-555-0177", "0177"},
		{"message=call 614.555.0177", "555"},
		{"message=6145550177", "6145550177"},
		{"born 1975-03-14", "1975"},
		{"born 03/14/1975", "1975"},
		{"status=Jane Roe", "jane"},
	}
	for _, c := range found {
		if !carries(c.s, c.v) {
			t.Errorf("carries(%q, %q) = false, want true", c.s, c.v)
		}
	}
	missed := []struct{ s, v string }{
		{"duration=1.614ms", "614"},
		{"waited=2m1.975s", "1975"},
		{"duration=614µs", "614"},
		{"time=2026-01-19T16:14:05.555+01:00", "555"},
		{"start=2026-01-19 06:14:05.0177Z", "0177"},
		{"attempts=6145", "614"},
	}
	for _, c := range missed {
		if carries(c.s, c.v) {
			t.Errorf("carries(%q, %q) = true, want false", c.s, c.v)
		}
	}
}
