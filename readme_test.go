package rxdelivery_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```")

// squash trims every line and drops blank ones, so that a README block
// matches its copy inside an indented function body.
func squash(s string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// TestReadmeBlocksAreCompiled checks that every Go block of the README
// stands verbatim in example_test.go, or in the journal module's
// example_test.go for its section, where it compiles and runs with its
// output checked.
func TestReadmeBlocksAreCompiled(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	examples, err := os.ReadFile("example_test.go")
	require.NoError(t, err)
	journalExamples, err := os.ReadFile("journal/example_test.go")
	require.NoError(t, err)
	examples = append(examples, journalExamples...)
	blocks := goBlock.FindAllStringSubmatch(string(readme), -1)
	require.NotEmpty(t, blocks)
	code := squash(string(examples))
	for _, b := range blocks {
		block := squash(b[1])
		assert.True(t, strings.Contains(code, block), "this README block is not in example_test.go or journal/example_test.go:\n%s", block)
	}
}
