package rxdelivery_test

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/doc"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// The package pages on pkg.go.dev are the SDK's first guide: the checks
// below read every public package of every module of the repository as
// go/doc (which pkgsite is built on) reads it.

// docPackage is one directory's package as go/doc sees it, its examples
// attached where pkgsite shows them.
type docPackage struct {
	dir      string // slash-separated, relative to the repository root
	pkg      *doc.Package
	examples []*doc.Example // every Example function of the directory's test files
	fset     *token.FileSet
}

// publicDocPackages parses every package of every module under root
// except those under internal, testdata and examples directories (a user
// imports none of them; an example program is read as its main.go).
func publicDocPackages(t *testing.T, root string) []docPackage {
	t.Helper()
	var out []docPackage
	modules := map[string]string{} // module directory -> module path
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root && (name == "internal" || name == "testdata" || name == "examples" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if mp := modulePath(t, filepath.Join(p, "go.mod")); mp != "" {
			modules[rel] = mp
		}
		dp, ok := parseDocPackage(t, p, importPathOf(modules, rel))
		if ok {
			dp.dir = rel
			out = append(out, dp)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// modulePath returns the module path a go.mod declares, or "" when there
// is no go.mod.
func modulePath(t *testing.T, gomod string) string {
	t.Helper()
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(s.Text()), "module "); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

// importPathOf returns the import path of the package in directory rel:
// the innermost module holding it, and the path below that module.
func importPathOf(modules map[string]string, rel string) string {
	for dir := rel; ; dir = path.Dir(dir) {
		if mp, ok := modules[dir]; ok {
			below := strings.TrimPrefix(strings.TrimPrefix(rel, dir), "/")
			if dir == "." {
				below = rel
			}
			if below == "." || below == "" {
				return mp
			}
			return mp + "/" + below
		}
		if dir == "." {
			return rel
		}
	}
}

// parseDocPackage reads the Go files of dir: the package's own files for
// its documentation, its test files for the examples.
func parseDocPackage(t *testing.T, dir, importPath string) (docPackage, bool) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files, tests []*ast.File
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if ignoredByDefaultBuild(f) {
			continue
		}
		if strings.HasSuffix(e.Name(), "_test.go") {
			tests = append(tests, f)
		} else {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return docPackage{}, false
	}
	// The test files of the package itself and of its _test package both
	// hold examples; NewFromFiles attaches each to the name it is for and
	// drops the ones whose name is not in the package, as pkgsite does.
	var all []*ast.File
	all = append(all, files...)
	for _, f := range tests {
		if f.Name.Name == files[0].Name.Name || f.Name.Name == files[0].Name.Name+"_test" {
			all = append(all, f)
		}
	}
	pkg, err := doc.NewFromFiles(fset, all, importPath)
	if err != nil {
		t.Fatal(err)
	}
	return docPackage{pkg: pkg, examples: doc.Examples(tests...), fset: fset}, true
}

// ignoredByDefaultBuild reports whether a file's build constraint leaves
// it out of a default build (a //go:build line naming a tag, such as the
// conformance build's files or ignore).
func ignoredByDefaultBuild(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() >= f.Package {
			break
		}
		for _, c := range cg.List {
			if rest, ok := strings.CutPrefix(c.Text, "//go:build "); ok {
				expr := strings.TrimSpace(rest)
				return !strings.HasPrefix(expr, "!")
			}
		}
	}
	return false
}

// shownExamples returns every example go/doc attached to a name of the
// package, which is what pkgsite shows.
func shownExamples(p *doc.Package) []*doc.Example {
	out := append([]*doc.Example(nil), p.Examples...)
	for _, f := range p.Funcs {
		out = append(out, f.Examples...)
	}
	for _, t := range p.Types {
		out = append(out, t.Examples...)
		for _, f := range t.Funcs {
			out = append(out, f.Examples...)
		}
		for _, m := range t.Methods {
			out = append(out, m.Examples...)
		}
	}
	return out
}

// undocumented lists the exported identifiers of p with no doc comment:
// constants and variables (a group's comment documents its members),
// functions, types, methods, exported fields of structs and methods of
// interfaces.
func undocumented(p *doc.Package) []string {
	var out []string
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			if strings.TrimSpace(v.Doc) != "" {
				continue
			}
			for _, spec := range v.Decl.Specs {
				vs := spec.(*ast.ValueSpec)
				if vs.Doc != nil || vs.Comment != nil {
					continue
				}
				for _, n := range vs.Names {
					if n.IsExported() {
						out = append(out, n.Name)
					}
				}
			}
		}
	}
	funcs := func(prefix string, fs []*doc.Func) {
		for _, f := range fs {
			if strings.TrimSpace(f.Doc) == "" {
				out = append(out, prefix+f.Name)
			}
		}
	}
	values(p.Consts)
	values(p.Vars)
	funcs("", p.Funcs)
	for _, t := range p.Types {
		if strings.TrimSpace(t.Doc) == "" {
			out = append(out, t.Name)
		}
		values(t.Consts)
		values(t.Vars)
		funcs("", t.Funcs)
		funcs(t.Name+".", t.Methods)
		for _, spec := range t.Decl.Specs {
			ts, ok := spec.(*ast.TypeSpec)
			if !ok || ts.Name.Name != t.Name {
				continue
			}
			var fields *ast.FieldList
			switch typ := ts.Type.(type) {
			case *ast.StructType:
				fields = typ.Fields
			case *ast.InterfaceType:
				fields = typ.Methods
			}
			if fields == nil {
				continue
			}
			for _, fld := range fields.List {
				if fld.Doc != nil || fld.Comment != nil {
					continue
				}
				for _, n := range fld.Names {
					if n.IsExported() {
						out = append(out, t.Name+"."+n.Name)
					}
				}
			}
		}
	}
	return out
}

// docLinks returns the doc links ([Name], [pkg.Name]) of a doc comment.
func docLinks(p *doc.Package, text string) []*comment.DocLink {
	var links []*comment.DocLink
	var inline func([]comment.Text)
	inline = func(ts []comment.Text) {
		for _, t := range ts {
			switch t := t.(type) {
			case *comment.DocLink:
				links = append(links, t)
			case *comment.Link:
				inline(t.Text)
			case *comment.Italic, comment.Plain:
			}
		}
	}
	for _, b := range p.Parser().Parse(text).Content {
		switch b := b.(type) {
		case *comment.Paragraph:
			inline(b.Text)
		case *comment.Heading:
			inline(b.Text)
		case *comment.List:
			for _, item := range b.Items {
				for _, ib := range item.Content {
					if para, ok := ib.(*comment.Paragraph); ok {
						inline(para.Text)
					}
				}
			}
		}
	}
	return links
}

// exportedNames returns the package-level exported names of p: its
// constants, variables, functions and types.
func exportedNames(p *doc.Package) map[string]bool {
	names := map[string]bool{}
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			for _, n := range v.Names {
				names[n] = true
			}
		}
	}
	values(p.Consts)
	values(p.Vars)
	for _, f := range p.Funcs {
		names[f.Name] = true
	}
	for _, t := range p.Types {
		names[t.Name] = true
		values(t.Consts)
		values(t.Vars)
		for _, f := range t.Funcs {
			names[f.Name] = true
		}
	}
	return names
}

// plainIdentifiers returns the exported names of p that its overview
// writes as plain text and never as a doc link. A name counts when it is
// written as code is (a mixed-case word such as NewClient or
// ErrUnknownOutcome); a word that is also plain English (Client, Date) is
// left out.
func plainIdentifiers(p *doc.Package) []string {
	names := exportedNames(p)
	linked := map[string]bool{}
	for _, l := range docLinks(p, p.Doc) {
		if l.ImportPath == "" {
			linked[l.Name] = true
			if l.Recv != "" {
				linked[l.Recv] = true
			}
		}
	}
	var plain []string
	seen := map[string]bool{}
	inline := func(ts []comment.Text) {
		for _, t := range ts {
			s, ok := t.(comment.Plain)
			if !ok {
				continue
			}
			for _, w := range strings.FieldsFunc(string(s), func(r rune) bool {
				return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
			}) {
				if names[w] && codeLike(w) && !linked[w] && !seen[w] {
					seen[w] = true
					plain = append(plain, w)
				}
			}
		}
	}
	for _, b := range p.Parser().Parse(p.Doc).Content {
		switch b := b.(type) {
		case *comment.Paragraph:
			inline(b.Text)
		case *comment.List:
			for _, item := range b.Items {
				for _, ib := range item.Content {
					if para, ok := ib.(*comment.Paragraph); ok {
						inline(para.Text)
					}
				}
			}
		}
	}
	sort.Strings(plain)
	return plain
}

// codeLike reports whether a word reads as an identifier rather than an
// English word: an upper case letter after its first letter.
func codeLike(w string) bool {
	for i, r := range w {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// TestPackagePages checks what pkgsite shows of every public package of
// every module: every exported identifier documented, every example shown
// (its name names something of its package) and described, an overview
// with doc links that links the identifiers it names, and at the root
// each alias saying what it is with a link to its definition.
func TestPackagePages(t *testing.T) {
	t.Parallel()
	pkgs := publicDocPackages(t, ".")
	if len(pkgs) < 12 {
		t.Fatalf("the walk found %d packages, want every public package of every module", len(pkgs))
	}
	for _, dp := range pkgs {
		p := dp.pkg
		t.Run(dp.dir, func(t *testing.T) {
			if strings.TrimSpace(p.Doc) == "" {
				t.Errorf("package %s has no overview", p.ImportPath)
			}
			if p.Name == "main" {
				return // a command's page is its overview
			}
			for _, name := range undocumented(p) {
				t.Errorf("%s.%s has no doc comment", p.Name, name)
			}
			shown := map[*doc.Example]bool{}
			for _, ex := range shownExamples(p) {
				shown[ex] = true
			}
			for _, ex := range dp.examples {
				name := "Example" + ex.Name
				if !showsExample(shown, ex) {
					t.Errorf("%s: pkgsite drops %s, named after nothing of package %s", dp.dir, name, p.Name)
					continue
				}
				if desc := strings.TrimSpace(ex.Doc); desc == "" {
					t.Errorf("%s: %s has no description (its doc comment)", dp.dir, name)
				} else if strings.HasPrefix(desc, "Example") {
					t.Errorf("%s: %s's description starts with a function name: %q", dp.dir, name, firstLine(desc))
				}
			}
			if len(docLinks(p, p.Doc)) == 0 {
				t.Errorf("package %s's overview has no doc link ([Name] or [pkg.Name])", p.Name)
			}
			for _, l := range docLinks(p, p.Doc) {
				if l.ImportPath == "" && !resolves(p, l) {
					t.Errorf("package %s's overview links [%s], which is nothing of the package (shown as plain text)", p.Name, linkName(l))
				}
			}
			if plain := plainIdentifiers(p); len(plain) > 0 {
				t.Errorf("package %s's overview names %s without a doc link to any of them", p.Name, strings.Join(plain, ", "))
			}
			for _, typ := range p.Types {
				for _, spec := range typ.Decl.Specs {
					ts := spec.(*ast.TypeSpec)
					if ts.Name.Name != typ.Name || !ts.Assign.IsValid() {
						continue
					}
					doc := typ.Doc
					if ts.Doc != nil {
						doc = ts.Doc.Text()
					}
					if !hasForeignLink(p, doc) {
						t.Errorf("alias %s.%s: its doc has no link to the type it names (%q)", p.Name, typ.Name, firstLine(doc))
					}
				}
			}
		})
	}
}

// showsExample reports whether go/doc attached ex (the same function:
// the same position) to a name of the package.
func showsExample(shown map[*doc.Example]bool, ex *doc.Example) bool {
	for s := range shown {
		if s.Code != nil && ex.Code != nil && s.Code.Pos() == ex.Code.Pos() {
			return true
		}
	}
	return false
}

// resolves reports whether a doc link to a name of p itself names one of
// its identifiers: a package-level name, or a method or field of one of
// its types.
func resolves(p *doc.Package, l *comment.DocLink) bool {
	if l.Recv == "" {
		return exportedNames(p)[l.Name]
	}
	for _, t := range p.Types {
		if t.Name != l.Recv {
			continue
		}
		for _, m := range t.Methods {
			if m.Name == l.Name {
				return true
			}
		}
		for _, spec := range t.Decl.Specs {
			ts, ok := spec.(*ast.TypeSpec)
			if !ok || ts.Name.Name != t.Name {
				continue
			}
			if st, ok := ts.Type.(*ast.StructType); ok {
				for _, f := range st.Fields.List {
					for _, n := range f.Names {
						if n.Name == l.Name {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// linkName is a doc link as written.
func linkName(l *comment.DocLink) string {
	name := l.Name
	if l.Recv != "" {
		name = l.Recv + "." + name
	}
	if l.ImportPath != "" {
		name = l.ImportPath + "." + name
	}
	return name
}

// hasForeignLink reports whether text holds a doc link to another
// package's name.
func hasForeignLink(p *doc.Package, text string) bool {
	for _, l := range docLinks(p, text) {
		if l.ImportPath != "" {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestPackagePagesCheckCatches runs the checks of TestPackagePages on a
// package made to break each of them once.
func TestPackagePagesCheckCatches(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/demo\n\ngo 1.22\n")
	write("demo.go", `// Package demo calls NewThing and [Thing.Run].
package demo

import "example.com/demo/inner"

// Thing is a thing.
type Thing struct {
	Name string
	// Size is documented.
	Size int
}

func (Thing) Run() {}

// NewThing returns a Thing.
func NewThing() Thing { return Thing{} }

// Alias is inner.Value.
type Alias = inner.Value
`)
	write("demo_test.go", `package demo_test

func ExampleThing_Missing() {}

func ExampleNewThing() {}

// ExampleThing_Run shows Run.
func ExampleThing_Run() {}
`)
	p, ok := parseDocPackage(t, dir, "example.com/demo")
	if !ok {
		t.Fatal("no package parsed")
	}
	got := fmt.Sprint(undocumented(p.pkg))
	if got != "[Thing.Run Thing.Name]" && got != "[Thing.Name Thing.Run]" {
		t.Errorf("undocumented = %s, want Thing.Run and Thing.Name", got)
	}
	shown := map[*doc.Example]bool{}
	for _, ex := range shownExamples(p.pkg) {
		shown[ex] = true
	}
	dropped := 0
	for _, ex := range p.examples {
		if !showsExample(shown, ex) {
			dropped++
			if ex.Name != "Thing_Missing" {
				t.Errorf("dropped %s, want only Thing_Missing dropped", ex.Name)
			}
		}
	}
	if dropped != 1 {
		t.Errorf("%d examples dropped, want 1", dropped)
	}
	for _, l := range docLinks(p.pkg, p.pkg.Doc) {
		if !resolves(p.pkg, l) {
			t.Errorf("[%s] does not resolve, want it to", linkName(l))
		}
	}
	if resolves(p.pkg, &comment.DocLink{Name: "Walk", Recv: "Thing"}) {
		t.Error("[Thing.Walk] resolves, though Thing has no Walk")
	}
	if plain := plainIdentifiers(p.pkg); fmt.Sprint(plain) != "[NewThing]" {
		t.Errorf("plain identifiers = %v, want [NewThing]", plain)
	}
	for _, typ := range p.pkg.Types {
		if typ.Name == "Alias" && hasForeignLink(p.pkg, typ.Doc) {
			t.Error("an alias doc without a link counted as linked")
		}
	}
}
