package rxdelivery

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// modulePath is the import path of this module.
const modulePath = "github.com/rxdelivery/rxdelivery-go"

// TestAliasDocsShowTheirTarget checks every exported type alias of the
// public packages whose target lives under internal/: go doc shows only an
// alias's own comment, and a user cannot read internal/ with go doc, so the
// comment must name every exported field and method of the target. The
// test fails when a field or method is added to an internal type without
// being described where users read it.
func TestAliasDocsShowTheirTarget(t *testing.T) {
	for _, dir := range []string{".", "orders", "requests", "pharmacies", "tracking", "pricing"} {
		for _, a := range aliasesIn(t, dir) {
			members := exportedMembers(t, a.targetDir, a.targetName)
			var missing []string
			for _, m := range members {
				if !regexp.MustCompile(`\b` + regexp.QuoteMeta(m) + `\b`).MatchString(a.doc) {
					missing = append(missing, m)
				}
			}
			if len(missing) > 0 {
				t.Errorf("%s: the doc comment of %s (= %s.%s) does not name %s",
					dir, a.name, a.targetDir, a.targetName, strings.Join(missing, ", "))
			}
		}
	}
}

// TestAliasDocCheckerFindsMembers keeps the check above honest: it must
// see the members of a type known to have some.
func TestAliasDocCheckerFindsMembers(t *testing.T) {
	got := exportedMembers(t, "types", "Decimal")
	for _, want := range []string{"Add", "Cents", "Round", "Format", "MarshalJSON"} {
		if !contains(got, want) {
			t.Errorf("members of types.Decimal: %v, missing %s", got, want)
		}
	}
	got = exportedMembers(t, "types", "Time")
	if !contains(got, "Raw") || !contains(got, "Time") || !contains(got, "Valid") {
		t.Errorf("members of types.Time: %v", got)
	}
	if len(aliasesIn(t, ".")) < 5 {
		t.Error("the root package's aliases were not found")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

type alias struct {
	name, doc             string
	targetDir, targetName string
}

// aliasesIn returns the exported aliases in dir whose target is in an
// internal package of this module.
func aliasesIn(t *testing.T, dir string) []alias {
	t.Helper()
	var out []alias
	for _, f := range parseDir(t, dir) {
		imports := map[string]string{}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			name := filepath.Base(p)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imports[name] = p
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				if !ts.Assign.IsValid() || !ts.Name.IsExported() {
					continue
				}
				sel, ok := ts.Type.(*ast.SelectorExpr)
				if !ok {
					continue
				}
				x, _ := sel.X.(*ast.Ident)
				if x == nil {
					continue
				}
				path := imports[x.Name]
				if !strings.HasPrefix(path, modulePath+"/internal/") {
					continue
				}
				doc := ts.Doc.Text()
				if len(g.Specs) == 1 {
					doc = g.Doc.Text() + doc
				}
				out = append(out, alias{
					name: ts.Name.Name, doc: doc,
					targetDir: strings.TrimPrefix(path, modulePath+"/"), targetName: sel.Sel.Name,
				})
			}
		}
	}
	return out
}

// exportedMembers returns the exported fields (embedded ones by their type
// name) and the exported methods declared on type name in dir.
func exportedMembers(t *testing.T, dir, name string) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, f := range parseDir(t, dir) {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok || ts.Name.Name != name {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, fld := range st.Fields.List {
						for _, n := range fld.Names {
							if n.IsExported() {
								seen[n.Name] = true
							}
						}
						if len(fld.Names) == 0 {
							if n := embeddedName(fld.Type); ast.IsExported(n) {
								seen[n] = true
							}
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) != 1 || !d.Name.IsExported() {
					continue
				}
				if embeddedName(d.Recv.List[0].Type) == name {
					seen[d.Name.Name] = true
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// embeddedName returns the type name of an embedded field or a receiver:
// T, *T and pkg.T all give T.
func embeddedName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return embeddedName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return embeddedName(e.X)
	}
	return ""
}

// parseDir parses the non-test Go files of dir, relative to the module
// root, with comments.
func parseDir(t *testing.T, dir string) []*ast.File {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
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
