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
