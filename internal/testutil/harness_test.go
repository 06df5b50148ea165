package testutil_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

// unexplained are the test files that start raw servers (httptest or a
// net listener), or call a helper of another file that starts one, and do
// not yet say why a real socket is needed. The list only shrinks: a file
// leaves it when it moves to Setup's httpmock or to the simulator, or when
// it gains its "// httptest:" line.
var unexplained = map[string]bool{
	"internal/benchmarks/bench_test.go":               true,
	"internal/benchmarks/check_test.go":               true,
	"internal/reliability/duplicate_test.go":          true,
	"internal/reliability/faults_test.go":             true,
	"internal/reliability/hostile_answers_test.go":    true,
	"internal/reliability/hostile_echo_forms_test.go": true,
	"internal/reliability/hostile_echo_test.go":       true,
	"internal/reliability/hostile_limits_test.go":     true,
	"internal/reliability/nginx_helpers_test.go":      true,
	"internal/reliability/nginx_test.go":              true,
	"internal/sandbox/realtime_test.go":               true,
	"journal/bench_test.go":                           true,
	"journal/journal_test.go":                         true,
}

// startsServer matches the start of a raw server, a real socket: an
// httptest server, or a listener of package net or crypto/tls. A handler's
// test with httptest.NewRecorder and NewRequest opens none and needs no
// reason.
var startsServer = regexp.MustCompile(`httptest\.New(TLS|Unstarted)?Server\(|\b(net|tls)\.Listen\(`)

// testFile is what TestRawServersSayWhy reads of one test file.
type testFile struct {
	rel, dir string
	// starts: the file starts a raw server itself; says: it has its
	// "// httptest:" line.
	starts, says bool
	// funcs are the file's top-level functions other than tests,
	// benchmarks, examples and fuzz targets (the helpers it may define),
	// each with the names it calls and whether it starts a server itself.
	funcs map[string]*helperFunc
	// calls are the names of functions the file calls.
	calls map[string]bool
}

type helperFunc struct {
	starts bool
	calls  map[string]bool
}

var entryPoint = regexp.MustCompile(`^(Test|Benchmark|Example|Fuzz)`)

// readTestFile parses the test file at path (rel to the module's root).
func readTestFile(path, rel string) (*testFile, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f := &testFile{
		rel: rel, dir: filepath.Dir(rel),
		starts: startsServer.Match(src),
		says:   strings.Contains("\n"+string(src), "\n// httptest: "),
		funcs:  map[string]*helperFunc{},
		calls:  map[string]bool{},
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	called := func(n ast.Node) map[string]bool {
		names := map[string]bool{}
		ast.Inspect(n, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if id, ok := c.Fun.(*ast.Ident); ok {
					names[id.Name] = true
				}
			}
			return true
		})
		return names
	}
	f.calls = called(file)
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fd.Recv != nil || entryPoint.MatchString(fd.Name.Name) {
			continue
		}
		body := src[fset.Position(fd.Body.Pos()).Offset:fset.Position(fd.Body.End()).Offset]
		f.funcs[fd.Name.Name] = &helperFunc{starts: startsServer.Match(body), calls: called(fd.Body)}
	}
	return f, nil
}

// serverHelpers returns, for each directory, the functions that start a raw
// server, directly or through another such function, and the file
// defining each.
func serverHelpers(files []*testFile) map[string]map[string]string {
	helpers := map[string]map[string]string{}
	for changed := true; changed; {
		changed = false
		for _, f := range files {
			if helpers[f.dir] == nil {
				helpers[f.dir] = map[string]string{}
			}
			for name, fn := range f.funcs {
				if _, known := helpers[f.dir][name]; known {
					continue
				}
				starts := fn.starts
				for c := range fn.calls {
					if _, ok := helpers[f.dir][c]; ok {
						starts = true
					}
				}
				if starts {
					helpers[f.dir][name] = f.rel
					changed = true
				}
			}
		}
	}
	return helpers
}

// borrowed returns a raw server helper f calls that another file of its
// directory defines, and that file; "" when it calls none.
func borrowed(f *testFile, helpers map[string]map[string]string) (name, from string) {
	for c := range f.calls {
		if def, ok := helpers[f.dir][c]; ok && def != f.rel && (name == "" || c < name) {
			name, from = c, def
		}
	}
	return name, from
}

// TestRawServersSayWhy: a test file that starts a raw server (httptest or
// a net listener), or calls a helper of another file that starts one
// (newOptServer and the like), carries a line "// httptest: <why>" saying what real sockets it
// needs (HTTP/2, TLS, connection reuse, a cut connection, a timeout);
// wire-format tests use Setup's httpmock and behaviour tests the simulator
// instead.
func TestRawServersSayWhy(t *testing.T) {
	t.Parallel()
	root := testutil.Root()
	var files []*testFile
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
		rel, _ := filepath.Rel(root, path)
		f, err := readTestFile(path, filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	helpers := serverHelpers(files)
	seen := map[string]bool{}
	for _, f := range files {
		helper, from := borrowed(f, helpers)
		switch {
		case !f.starts && helper == "":
		case unexplained[f.rel]:
			seen[f.rel] = true
			if f.says {
				t.Errorf("%s says why it uses httptest: remove it from unexplained", f.rel)
			}
		case !f.says && f.starts:
			t.Errorf("%s starts a raw server without a \"// httptest: <why>\" line: use testutil.Setup (httpmock) or the simulator, or say which real sockets it needs", f.rel)
		case !f.says:
			t.Errorf("%s starts a raw server through %s of %s without a \"// httptest: <why>\" line: use testutil.Setup (httpmock) or the simulator, or say which real sockets it needs", f.rel, helper, from)
		}
	}
	for rel := range unexplained {
		if !seen[rel] {
			t.Errorf("%s starts no raw server: remove it from unexplained", rel)
		}
	}
}

// TestRawServerHelpersAreFollowed: a file that starts no server itself but
// calls another file's helper that does (an httptest server or a net
// listener), directly or through a helper of a third file, is found by
// TestRawServersSayWhy; a method of the same name is not taken for the
// helper.
func TestRawServerHelpersAreFollowed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srcs := map[string]string{
		"server_test.go": "package p\n\nfunc newRaw() any { return httptest.New" + "Server(nil) }\n",
		"wrap_test.go":   "package p\n\nfunc newWrapped() any { return newRaw() }\n",
		"direct_test.go": "package p\n\nfunc TestA(t *testing.T) { _ = newRaw() }\n",
		"via_test.go":    "package p\n\nfunc TestB(t *testing.T) { _ = newWrapped() }\n",
		"method_test.go": "package p\n\nfunc TestC(t *testing.T) { _ = x.newRaw() }\n",
		"port_test.go":   "package p\n\nfunc freePort() any { return net.Lis" + "ten(\"tcp\", \":0\") }\n",
		"probe_test.go":  "package p\n\nfunc TestD(t *testing.T) { _ = freePort() }\n",
	}
	var files []*testFile
	for name, src := range srcs {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := readTestFile(path, "p/"+name)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	helpers := serverHelpers(files)
	want := map[string]string{
		"p/server_test.go": "",
		"p/wrap_test.go":   "newRaw",
		"p/direct_test.go": "newRaw",
		"p/via_test.go":    "newWrapped",
		"p/method_test.go": "",
		"p/port_test.go":   "",
		"p/probe_test.go":  "freePort",
	}
	for _, f := range files {
		if got, _ := borrowed(f, helpers); got != want[f.rel] {
			t.Errorf("%s borrows %q, want %q", f.rel, got, want[f.rel])
		}
	}
}
