package rxdelivery_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

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
	readme := readmeAndGuides(t)
	var examples []byte
	for _, name := range []string{"example_test.go", "example_calloptions_test.go", "rxtypes/example_platform_test.go", "decimal_example_test.go", "journal/example_test.go", "otel/example_test.go", "rxdeliverytest/example_cassette_test.go"} {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		examples = append(examples, b...)
	}
	blocks := goBlock.FindAllStringSubmatch(readme, -1)
	require.NotEmpty(t, blocks)
	code := squash(string(examples))
	for _, b := range blocks {
		block := squash(b[1])
		assert.True(t, strings.Contains(code, block), "this README block is in no example file:\n%s", block)
	}
}

// readmeAndGuides returns the README and every guide under docs/, the
// documentation a newcomer reads, as one text.
func readmeAndGuides(t *testing.T) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("docs", "*.md"))
	require.NoError(t, err)
	var all strings.Builder
	for _, name := range append([]string{"README.md"}, files...) {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		all.Write(b)
		all.WriteString("\n")
	}
	return all.String()
}

// markdownLink is a link of a Markdown file: [text](target).
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// headingAnchor is the anchor a Markdown heading gets where the files are
// read (lower case, punctuation other than '-' and '_' dropped, spaces as
// '-').
func headingAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestDocumentationLinksResolve: every relative link of the README, the
// guides under docs/ and the other top-level documents names a file of the
// repository and, with a #fragment, a heading of that file; and the
// README links every guide, so a newcomer finds each from it.
func TestDocumentationLinksResolve(t *testing.T) {
	t.Parallel()
	guides, err := filepath.Glob(filepath.Join("docs", "*.md"))
	require.NoError(t, err)
	files := append([]string{"README.md", "SECURITY.md", "CONTRIBUTING.md", "BENCHMARKS.md", "CHANGELOG.md"}, guides...)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(name string) map[string]bool {
		if a, ok := anchors[name]; ok {
			return a
		}
		a := map[string]bool{}
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		fenced := false
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "```") {
				fenced = !fenced
			}
			if h, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && !fenced && strings.HasPrefix(line, "#") {
				a[headingAnchor(h)] = true
			}
		}
		anchors[name] = a
		return a
	}
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	for _, g := range guides {
		assert.Contains(t, string(readme), "]("+filepath.ToSlash(g), "the README does not link %s", g)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		for _, m := range markdownLink.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			file := name
			if path != "" {
				file = filepath.Join(filepath.Dir(name), path)
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s: link %q: no such file", name, target)
					continue
				}
			}
			if frag != "" && strings.HasSuffix(file, ".md") && !anchorsOf(file)[frag] {
				t.Errorf("%s: link %q: %s has no heading #%s", name, target, file, frag)
			}
		}
	}
}
