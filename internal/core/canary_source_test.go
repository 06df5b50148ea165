package core

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestNetHTTPSourceWordsCanary checks every word fateOf matches against
// the string literals of the net/http that compiles the test. The
// connection-level refusals (a connection found unusable, one that closed
// before its first stream, a GOAWAY with an error code, a body that cannot
// be rewound after a connection loss) need a server that misbehaves at a
// precise moment of the transport's state to provoke, so besides the
// provoked canaries each word is found here as net/http writes it: as a
// whole literal, or as the fixed start of the literal it formats. The day
// a release rewords one, or moves it to a file not read here, this test
// fails instead of fateOf silently reading a refused write as unknown.
func TestNetHTTPSourceWordsCanary(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	files := []string{filepath.Join(dir, "h2_bundle.go"), filepath.Join(dir, "transport.go")}
	// From Go 1.27 the HTTP/2 transport lives in an internal package.
	more, _ := filepath.Glob(filepath.Join(dir, "internal", "http2", "*.go"))
	files = append(files, more...)
	var src strings.Builder
	read := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		read++
		src.Write(b)
	}
	if read == 0 {
		t.Skip("net/http's source is not installed with this Go")
	}
	text := src.String()
	minor := goMinor(runtime.Version())
	for _, w := range []struct {
		name, words string
		prefix      bool
		// since is the first Go 1.x release that writes the words; an
		// older one never reports that failure, so it has nothing to find.
		since int
	}{
		{"graceful GOAWAY", h2GracefulGoAway, false, 0},
		{"connection unusable", h2ConnUnusable, false, 0},
		{"connection not established", h2ConnNotEstablished, false, 24},
		{"GOAWAY with an error code", h2ErrorGoAwayPrefix, true, 0},
		{"cannot rewind body", cannotRewind, false, 0},
	} {
		if minor < w.since {
			continue
		}
		lit := strconv.Quote(w.words)
		if w.prefix {
			lit = strings.TrimSuffix(lit, `"`)
		}
		if !strings.Contains(text, lit) {
			t.Errorf("%s: net/http of %s no longer writes %s; fateOf (unsent.go) must follow its new words", w.name, runtime.Version(), lit)
		}
	}
}

// goMinor returns the minor release of a Go version such as "go1.23.2"
// (23); a development build counts as the newest.
func goMinor(v string) int {
	rest, ok := strings.CutPrefix(v, "go1.")
	if !ok {
		return 1 << 30
	}
	if i := strings.IndexByte(rest, '.'); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.IndexAny(rest, "rcbeta"); i >= 0 {
		rest = rest[:i]
	}
	n, err := strconv.Atoi(rest)
	if err != nil {
		return 1 << 30
	}
	return n
}
