package testutil_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

// unexplained are the test files that start raw httptest servers and do not
// yet say why a real socket is needed. The list only shrinks: a file leaves
// it when it moves to Setup's httpmock or to the simulator, or when it
// gains its "// httptest:" line.
var unexplained = map[string]bool{
	"transcript_read_test.go": true,
	"transcript_test.go":      true,
}

// startsServer matches the start of a raw httptest server, a real socket.
// A handler's test with httptest.NewRecorder and NewRequest opens none and
// needs no reason.
var startsServer = regexp.MustCompile(`httptest\.New(TLS|Unstarted)?Server\(`)

// TestRawServersSayWhy: a test file that starts a raw httptest server carries
// a line "// httptest: <why>" saying what real sockets it needs (HTTP/2,
// TLS, connection reuse, a cut connection, a timeout); wire-format tests
// use Setup's httpmock and behaviour tests the simulator instead.
func TestRawServersSayWhy(t *testing.T) {
	t.Parallel()
	root := testutil.Root()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		starts := startsServer.Match(src)
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		says := strings.Contains("\n"+string(src), "\n// httptest: ")
		switch {
		case !starts:
		case unexplained[rel]:
			seen[rel] = true
			if says {
				t.Errorf("%s says why it uses httptest: remove it from unexplained", rel)
			}
		case !says:
			t.Errorf("%s starts an httptest server without a \"// httptest: <why>\" line: use testutil.Setup (httpmock) or the simulator, or say which real sockets it needs", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel := range unexplained {
		if !seen[rel] {
			t.Errorf("%s starts no httptest server: remove it from unexplained", rel)
		}
	}
}
