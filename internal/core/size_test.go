package core

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSmallFilesAndFunctions: no file of the engine (tests aside) is over
// 400 lines and no function over 80, so that each decision of a call
// reads in one screenful of one file.
func TestSmallFilesAndFunctions(t *testing.T) {
	t.Parallel()
	const maxFileLines, maxFuncLines = 400, 80
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(src), "\n"); n > maxFileLines {
			t.Errorf("%s has %d lines, more than %d", p, n, maxFileLines)
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFuncLines {
					t.Errorf("%s: %s has %d lines, more than %d", p, fd.Name.Name, n, maxFuncLines)
				}
			}
		}
	}
}

// TestRetryAfterIsReadOnce: a response's Retry-After is read in one place,
// call.retryAfter, on the client's clock; the retry decision, the pause,
// the attempt log and the APIError all take that one reading.
func TestRetryAfterIsReadOnce(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var readers []string
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				// A reading calls the parser, or looks the header up: by
				// index or by a method (Get, Values). A transcript naming
				// it among the headers it shows reads no wait.
				isHeader := func(e ast.Expr) bool {
					l, ok := e.(*ast.BasicLit)
					return ok && l.Kind == token.STRING && strings.EqualFold(strings.Trim(l.Value, "\"`"), "Retry-After")
				}
				switch n := n.(type) {
				case *ast.CallExpr:
					if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "parseRetryAfter" {
						readers = append(readers, fd.Name.Name+" calls parseRetryAfter")
					}
					if _, ok := n.Fun.(*ast.SelectorExpr); ok && len(n.Args) == 1 && isHeader(n.Args[0]) {
						readers = append(readers, fd.Name.Name+" looks the header up")
					}
				case *ast.IndexExpr:
					if isHeader(n.Index) {
						readers = append(readers, fd.Name.Name+" looks the header up")
					}
				}
				return true
			})
		}
	}
	want := []string{"retryAfter looks the header up", "retryAfter calls parseRetryAfter"}
	if strings.Join(readers, "; ") != strings.Join(want, "; ") {
		t.Errorf("Retry-After is read by %q; want only call.retryAfter", readers)
	}
}
