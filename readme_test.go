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
// stands verbatim in one of the example files (the journal's and the
// OpenTelemetry module's among them), where it compiles and runs with its
// output checked.
func TestReadmeBlocksAreCompiled(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	var examples []byte
	for _, name := range []string{"example_test.go", "example_calloptions_test.go", "decimal_example_test.go", "journal/example_test.go", "otel/example_test.go"} {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		examples = append(examples, b...)
	}
	blocks := goBlock.FindAllStringSubmatch(string(readme), -1)
	require.NotEmpty(t, blocks)
	code := squash(string(examples))
	for _, b := range blocks {
		block := squash(b[1])
		assert.True(t, strings.Contains(code, block), "this README block is in no example file:\n%s", block)
	}
}
