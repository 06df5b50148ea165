package rxdelivery

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestNoInternalTypeInPublicAPI reads the source of every public package of
// the module (each directory outside internal/, testdata and the examples
// that holds non-test Go files and is not a command) and fails when an
// exported name shows a type from an internal/ package: a field, a
// parameter or result, a method's receiver type, an alias target, a
// variable or constant's type. A user cannot import such a type, and go
// doc cannot show it.
func TestNoInternalTypeInPublicAPI(t *testing.T) {
	t.Parallel()
	var found []string
	for _, dir := range publicPackageDirs(t) {
		for _, f := range parseSources(t, dir) {
			found = append(found, internalUses(f, dir)...)
		}
	}
	sort.Strings(found)
	for _, use := range found {
		t.Errorf("exported API names an internal type: %s", use)
	}
}

// TestInternalUsesFindsThem keeps the check above honest: it must find an
// internal type in each place it looks.
func TestInternalUsesFindsThem(t *testing.T) {
	t.Parallel()
	src := `package p
import "github.com/rxdelivery/rxdelivery-go/internal/core"
type A = core.X
type S struct{ F *core.X; g core.X }
func F(x core.X) {}
func G() []core.X { return nil }
func (S) M(m map[string]core.X) {}
var V core.X
const C = core.Y
type I interface{ M() core.X }
func unexported(x core.X) {}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	got := internalUses(f, "p")
	if len(got) != 8 {
		t.Errorf("found %d uses, want 8: %q", len(got), got)
	}
}

// publicPackageDirs returns the module's public package directories,
// relative to the module root.
func publicPackageDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		switch {
		case path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "internal" || d.Name() == "examples"):
			return filepath.SkipDir
		case path != "." && hasFile(path, "go.mod"):
			return filepath.SkipDir // another module
		}
		if isLibrary(t, path) {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

func hasFile(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

// isLibrary reports whether dir holds a Go package other than main.
func isLibrary(t *testing.T, dir string) bool {
	files := parseSources(t, dir)
	return len(files) > 0 && files[0].Name.Name != "main"
}

// parseSources parses the non-test Go files of dir.
func parseSources(t *testing.T, dir string) []*ast.File {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	fset := token.NewFileSet()
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// internalUses lists the places in f's exported declarations that name a
// type of an internal package, as "dir: Name (internal.Type)".
func internalUses(f *ast.File, dir string) []string {
	internal := map[string]bool{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if !strings.Contains(path, "/internal/") && !strings.HasSuffix(path, "/internal") {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		internal[name] = true
	}
	if len(internal) == 0 {
		return nil
	}
	var out []string
	report := func(where string, n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] {
					out = append(out, dir+": "+where+" ("+id.Name+"."+sel.Sel.Name+")")
				}
			}
			return true
		})
	}
	// exportedFields reports the exported fields (and embedded types) of a
	// struct or the methods of an interface.
	exportedFields := func(where string, e ast.Expr) {
		switch x := e.(type) {
		case *ast.StructType:
			for _, fld := range x.Fields.List {
				if len(fld.Names) == 0 {
					report(where+" embedded", fld.Type)
					continue
				}
				for _, n := range fld.Names {
					if n.IsExported() {
						report(where+"."+n.Name, fld.Type)
					}
				}
			}
		case *ast.InterfaceType:
			for _, m := range x.Methods.List {
				report(where+" method", m.Type)
			}
		default:
			report(where, e)
		}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			name := d.Name.Name
			if d.Recv != nil {
				recv := receiverName(d.Recv.List[0].Type)
				if !ast.IsExported(recv) {
					continue
				}
				name = recv + "." + name
			}
			report(name, d.Type)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						exportedFields(s.Name.Name, s.Type)
					}
				case *ast.ValueSpec:
					// A value's type shows in go doc as its type, or, when it
					// has none written, as the expression it is set to.
					for i, n := range s.Names {
						if !n.IsExported() {
							continue
						}
						if s.Type != nil {
							report(n.Name, s.Type)
						} else if i < len(s.Values) {
							report(n.Name, s.Values[i])
						}
					}
				}
			}
		}
	}
	return out
}

// receiverName returns the type name of a method receiver.
func receiverName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return receiverName(x.X)
	case *ast.IndexExpr:
		return receiverName(x.X)
	case *ast.IndexListExpr:
		return receiverName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return ""
}
