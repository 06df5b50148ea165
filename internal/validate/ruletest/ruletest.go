// Package ruletest checks a package's validation against the rule table of
// docs/validation.md: each row of the table names a rule by its id and the
// JSON path it refuses, and each row has a test case with a value the
// rule allows and a value it rules out.
package ruletest

import (
	"errors"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Case is the test of one row of the rule table.
type Case[T any] struct {
	// ID is the row's id, such as "DL-09".
	ID string
	// Base returns a valid value to start from.
	Base func() *T
	// OK changes the base to a value the rule allows; nil keeps the base.
	OK func(*T)
	// Bad changes the base to a value the rule rules out.
	Bad func(*T)
}

// Row is one row of the rule table.
type Row struct {
	ID, Path string
}

// Rows reads the rows of the table in file whose ids start with prefix.
func Rows(t testing.TB, file, prefix string) map[string]Row {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]Row{}
	re := regexp.MustCompile("^\\| (" + regexp.QuoteMeta(prefix) + "-[0-9]+) \\| `([^`]*)` \\|")
	for _, line := range strings.Split(string(b), "\n") {
		m := re.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if _, dup := rows[m[1]]; dup {
			t.Errorf("%s: rule %s appears twice", file, m[1])
		}
		rows[m[1]] = Row{ID: m[1], Path: m[2]}
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no rows with the prefix %s", file, prefix)
	}
	return rows
}

// index matches an array index in a path, for comparing "payers[1].bin"
// with the table's "payers[].bin".
var index = regexp.MustCompile(`\[[0-9]+\]`)

// Run checks every case against its row: the allowed value passes
// validation, and the ruled-out value is refused with a problem at the
// row's JSON path. It fails for a row without a case and a case without a
// row.
func Run[T any](t *testing.T, file, prefix string, check func(*T) error, cases []Case[T]) {
	t.Helper()
	rows := Rows(t, file, prefix)
	seen := map[string]bool{}
	for _, c := range cases {
		row, ok := rows[c.ID]
		if !ok {
			t.Errorf("case %s has no row in %s", c.ID, file)
			continue
		}
		seen[c.ID] = true
		t.Run(c.ID, func(t *testing.T) {
			good := c.Base()
			if c.OK != nil {
				c.OK(good)
			}
			if err := check(good); err != nil {
				t.Errorf("%s (%s): a value the rule allows is refused: %v", c.ID, row.Path, err)
			}
			bad := c.Base()
			c.Bad(bad)
			err := check(bad)
			var ve *rxtypes.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("%s (%s): a value the rule rules out is accepted (err %v)", c.ID, row.Path, err)
			}
			var paths []string
			for _, p := range ve.Problems {
				paths = append(paths, index.ReplaceAllString(p.Path, "[]"))
			}
			found := false
			for _, p := range paths {
				found = found || p == row.Path
			}
			if !found {
				t.Errorf("%s: refused at %v, want %s", c.ID, paths, row.Path)
			}
		})
	}
	var missing []string
	for id := range rows {
		if !seen[id] {
			missing = append(missing, id)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("rows of %s without a test case: %s", file, strings.Join(missing, ", "))
	}
}
