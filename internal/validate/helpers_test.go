package validate

import (
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// assertNotQuoted fails when msg contains the input in, or its trimmed
// form, for inputs long enough not to occur in a message by chance.
func assertNotQuoted(t *testing.T, msg, in string) {
	t.Helper()
	in = strings.TrimSpace(in)
	if len(in) >= 4 && strings.Contains(msg, in) {
		t.Errorf("message %q quotes the input %q", msg, in)
	}
}

// problems returns the problems recorded by c, or nil.
func problems(c *Collector) []rxtypes.Problem {
	err := c.Err()
	if err == nil {
		return nil
	}
	return err.(*rxtypes.ValidationError).Problems
}

// collectorCase is one call of a Collector check and the message it should
// record at the path "f", or "" when it should record nothing.
type collectorCase struct {
	in   string
	want string
}

// runCollector runs check on each case with a fresh Collector and compares
// the recorded problem.
func runCollector(t *testing.T, opts Options, check func(*Collector, string, string), cases []collectorCase) {
	t.Helper()
	for _, tc := range cases {
		c := Collector{Options: opts}
		check(&c, "a.b[0].f", tc.in)
		got := problems(&c)
		if tc.want == "" {
			if got != nil {
				t.Errorf("input %q: got %v, want no problem", tc.in, got)
			}
			continue
		}
		if len(got) != 1 || got[0].Path != "a.b[0].f" || got[0].Message != tc.want {
			t.Errorf("input %q: got %v, want [a.b[0].f: %s]", tc.in, got, tc.want)
			continue
		}
		assertNotQuoted(t, got[0].Message, tc.in)
	}
}
