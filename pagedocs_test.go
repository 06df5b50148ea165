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
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
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
	imports  map[string]map[string]string // file name -> name the file uses a package by -> its import path
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
	imports := map[string]map[string]string{}
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
			imports[fset.Position(f.Package).Filename] = fileImports(f)
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
	return docPackage{pkg: pkg, examples: doc.Examples(tests...), fset: fset, imports: imports}, true
}

// fileImports returns the packages a file imports by the name the file
// uses each by: the name the import gives, else its path's last element
// (the one before a major version suffix such as v5). Blank and dot
// imports give no name.
func fileImports(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, spec := range f.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		name := path.Base(p)
		if v := strings.TrimPrefix(name, "v"); v != name && v != "" && strings.Trim(v, "0123456789") == "" {
			name = path.Base(path.Dir(p))
		}
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if name != "_" && name != "." {
			out[name] = p
		}
	}
	return out
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

// A declDoc is one comment of an exported declaration: its doc comment,
// or the comment of one of its constants, fields or interface methods.
type declDoc struct {
	pos  token.Pos // the declaration's
	name string    // what it documents: Client, Client.Do, Client.Transport
	own  []string  // the names it documents, which it need not link
	recv string    // the type whose methods it may name bare, or ""
	text string
}

// declDocs returns the comments of the exported declarations of p:
// constants, variables, functions, types, methods, and the comments of
// the exported fields of structs and the methods of interfaces.
func declDocs(p *doc.Package) []declDoc {
	var out []declDoc
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			out = append(out, declDoc{pos: v.Decl.Pos(), name: v.Names[0], own: v.Names, text: v.Doc})
			for _, spec := range v.Decl.Specs {
				vs := spec.(*ast.ValueSpec)
				if !vs.Names[0].IsExported() {
					continue
				}
				for _, cg := range []*ast.CommentGroup{vs.Doc, vs.Comment} {
					if cg != nil {
						out = append(out, declDoc{pos: vs.Pos(), name: vs.Names[0].Name, own: v.Names, text: cg.Text()})
					}
				}
			}
		}
	}
	funcs := func(recv string, fs []*doc.Func) {
		for _, f := range fs {
			d := declDoc{pos: f.Decl.Pos(), name: f.Name, own: []string{f.Name}, text: f.Doc}
			if recv != "" {
				d.name, d.recv = recv+"."+f.Name, recv
				d.own = append(d.own, d.name, recv)
			}
			out = append(out, d)
		}
	}
	values(p.Consts)
	values(p.Vars)
	funcs("", p.Funcs)
	for _, t := range p.Types {
		out = append(out, declDoc{pos: t.Decl.Pos(), name: t.Name, own: []string{t.Name}, recv: t.Name, text: t.Doc})
		values(t.Consts)
		values(t.Vars)
		funcs("", t.Funcs)
		funcs(t.Name, t.Methods)
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
				var name string
				switch {
				case len(fld.Names) > 0:
					name = fld.Names[0].Name
				case embeddedName(fld.Type) != "":
					name = embeddedName(fld.Type)
				}
				if !token.IsExported(name) {
					continue
				}
				for _, cg := range []*ast.CommentGroup{fld.Doc, fld.Comment} {
					if cg != nil {
						out = append(out, declDoc{pos: fld.Pos(), name: t.Name + "." + name, own: []string{name, t.Name + "." + name, t.Name}, recv: t.Name, text: cg.Text()})
					}
				}
			}
		}
	}
	return out
}

// embeddedName is the name of an embedded field's type: T, *T, pkg.T.
func embeddedName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return embeddedName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.IndexExpr:
		return embeddedName(e.X)
	case *ast.IndexListExpr:
		return embeddedName(e.X)
	}
	return ""
}

// A plainMention is a name a comment writes in plain text where a doc
// link could stand.
type plainMention struct {
	link string         // the doc link that names it: Client, Client.Do, rxtypes.Money
	text []comment.Text // the paragraph it is in
	i    int            // the comment.Plain of text it is in
	at   int            // where in that Plain it starts
	word string         // as written: Do for Client.Do in a method of Client
}

// excerpt is the mention in its paragraph's words.
func (m plainMention) excerpt() string {
	s := string(m.text[m.i].(comment.Plain))
	from, to := max(0, m.at-30), min(len(s), m.at+len(m.word)+30)
	for from > 0 && !utf8.RuneStart(s[from]) {
		from--
	}
	for to < len(s) && !utf8.RuneStart(s[to]) {
		to++
	}
	return strings.Join(strings.Fields(s[from:to]), " ")
}

// typeFields returns the exported fields of the struct type named
// typeName in p, or the methods of the interface type so named; an
// embedded type is left out, its name being the type's.
func typeFields(p *doc.Package, typeName string) map[string]bool {
	out := map[string]bool{}
	for _, t := range p.Types {
		if t.Name != typeName {
			continue
		}
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
			for _, f := range fields.List {
				for _, n := range f.Names {
					if n.IsExported() {
						out[n.Name] = true
					}
				}
			}
		}
	}
	return out
}

// soleMethods returns the methods of p that name nothing else in it,
// each with its type: a method of one type only that is no
// package-level name and no field of a struct (or method of an
// interface) of p.
func soleMethods(p *doc.Package) map[string]string {
	count := map[string]int{}
	out := map[string]string{}
	for _, t := range p.Types {
		for _, m := range t.Methods {
			count[m.Name]++
			out[m.Name] = t.Name
		}
		for f := range typeFields(p, t.Name) {
			count[f] += 2
		}
	}
	names := exportedNames(p)
	for m, n := range count {
		if n != 1 || names[m] {
			delete(out, m)
		}
	}
	return out
}

// inCall reports whether a word between before and after is code
// written inline: a call (the word followed by its arguments) or inside
// the parentheses of one.
func inCall(before, after string) bool {
	if strings.HasPrefix(after, "(") {
		return true
	}
	depth := 0
	for i := len(before) - 1; i >= 0; i-- {
		switch before[i] {
		case ')':
			depth++
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			if i == 0 {
				return false
			}
			r, _ := utf8.DecodeLastRuneInString(before[:i])
			return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
		}
	}
	return false
}

// mentionWord is a word of plain text that may name an identifier:
// letters, digits and underscores, dotted (Client.Do, rxtypes.Money).
var mentionWord = regexp.MustCompile(`[\pL_][\pL\pN_]*(?:\.[\pL_][\pL\pN_]*)*`)

// stdOnly parses doc links with no package of its own: a link to a
// package resolves only when it is a one-element path of the standard
// library ([io.Reader]).
var stdOnly = &comment.Parser{}

// plainMentions returns the names that d writes in plain text where
// TestDeclarationCommentsLinkNames wants a doc link: names of p, of a
// package the comment's file imports (imports, as fileImports gives
// them) or of a one-element standard library package. pkgs holds the
// public packages of the repository by import path, whose names a
// qualified mention must name. Only links that resolve in p are asked
// for.
func plainMentions(p *doc.Package, pkgs map[string]*doc.Package, imports map[string]string, d declDoc) []plainMention {
	own := map[string]bool{}
	for _, n := range d.own {
		own[n] = true
	}
	parser := p.Parser()
	// resolve returns the doc link [link] is in d, or nil when it
	// renders as plain text or links another package than importPath.
	resolve := func(link, importPath string) *comment.DocLink {
		para, ok := parser.Parse("[" + link + "]").Content[0].(*comment.Paragraph)
		if !ok || len(para.Text) != 1 {
			return nil
		}
		l, ok := para.Text[0].(*comment.DocLink)
		if !ok || l.ImportPath != importPath {
			return nil
		}
		return l
	}
	fields := typeFields(p, d.recv)
	methodOf := soleMethods(p)
	exported := map[*doc.Package]map[string]bool{}
	// names reports whether q (pkgs' package, or p) has the package-level
	// name n, or the method n.m.
	names := func(q *doc.Package, n, m string) bool {
		if m == "" {
			if exported[q] == nil {
				exported[q] = exportedNames(q)
			}
			return exported[q][n]
		}
		for _, t := range q.Types {
			if t.Name == n {
				for _, f := range t.Methods {
					if f.Name == m {
						return true
					}
				}
			}
		}
		return false
	}
	// classify returns the doc link a word's first n dotted elements
	// would be written as and the package it links to ("" for p), or ""
	// when the word names nothing a link may name.
	classify := func(w string) (link, importPath string, n int) {
		parts := strings.Split(w, ".")
		switch {
		case len(parts) == 1 && d.recv != "" && fields[w]:
			return "", "", 0 // a field of the type, not linked
		case len(parts) == 1 && d.recv != "" && names(p, d.recv, w):
			if strings.ToUpper(w) == w {
				return "", "", 0 // an abbreviation such as URL
			}
			return d.recv + "." + w, "", 1
		case len(parts) == 1 && names(p, w, ""):
			return w, "", 1
		case len(parts) == 1 && methodOf[w] != "" && strings.ToUpper(w) != w:
			return methodOf[w] + "." + w, "", 1
		case len(parts) == 1:
			return "", "", 0
		case names(p, parts[0], parts[1]):
			return parts[0] + "." + parts[1], "", 2
		}
		pkgName, rest := parts[0], parts[1:]
		target := imports[pkgName]
		switch {
		case pkgName == p.Name:
			target = p.ImportPath
		case target == "":
			if _, ok := stdOnly.Parse("[" + w + "]").Content[0].(*comment.Paragraph).Text[0].(*comment.DocLink); !ok {
				return "", "", 0
			}
			target = pkgName
		}
		q := pkgs[target]
		if target == p.ImportPath {
			q = p
		}
		switch {
		case q != nil && len(rest) > 1 && names(q, rest[0], rest[1]):
			rest = rest[:2]
		case q != nil && names(q, rest[0], ""):
			rest = rest[:1]
		case q != nil:
			return "", "", 0
		case strings.Contains(strings.SplitN(target, "/", 2)[0], ".") || !token.IsExported(rest[0]):
			return "", "", 0 // outside the repository and the standard library, or unexported
		default:
			rest = rest[:1] // of the standard library: a method is not told from a field
		}
		link = pkgName + "." + strings.Join(rest, ".")
		if target == p.ImportPath {
			target = ""
		}
		return link, target, 1 + len(rest)
	}
	var out []plainMention
	paragraph := func(text []comment.Text) {
		seen := map[string]bool{}
		var before strings.Builder // the paragraph so far
		for i, t := range text {
			switch t := t.(type) {
			case *comment.DocLink:
				seen[linkName(t)] = true
				before.WriteString("[]")
			case *comment.Link:
				before.WriteString("link")
			case comment.Plain:
				s := string(t)
				for _, loc := range mentionWord.FindAllStringIndex(s, -1) {
					w := s[loc[0]:loc[1]]
					if loc[0] > 0 && strings.ContainsRune("-/_'\"`", rune(s[loc[0]-1])) || loc[1] < len(s) && strings.ContainsRune("-/_\"`", rune(s[loc[1]])) {
						continue // part of a compound, a path or a quoted string
					}
					if inCall(before.String()+s[:loc[0]], s[loc[1]:]) {
						continue // code written inline: NewHandler(fn, WithPathToken(token))
					}
					link, importPath, n := classify(w)
					if link == "" {
						continue
					}
					l := resolve(link, importPath)
					if l == nil || own[linkName(l)] {
						continue
					}
					key := linkName(l)
					if seen[key] {
						continue
					}
					prev := strings.TrimSpace(before.String() + s[:loc[0]])
					if !strings.Contains(w, ".") && !codeLike(w) && (prev == "" || strings.ContainsAny(prev[len(prev)-1:], ".?!")) {
						continue // a plain word opening a sentence
					}
					seen[key] = true
					word := strings.Join(strings.Split(w, ".")[:n], ".")
					out = append(out, plainMention{link: link, text: text, i: i, at: loc[0], word: word})
				}
				before.WriteString(s)
			}
		}
	}
	for _, b := range parser.Parse(d.text).Content {
		switch b := b.(type) {
		case *comment.Paragraph:
			paragraph(b.Text)
		case *comment.List:
			for _, item := range b.Items {
				for _, ib := range item.Content {
					if para, ok := ib.(*comment.Paragraph); ok {
						paragraph(para.Text)
					}
				}
			}
		}
	}
	return out
}

// TestDeclarationCommentsLinkNames checks the comments of the exported
// declarations of every public package (not a command's): each name of
// an identifier they write in plain text is a doc link, so that pkgsite
// and go doc link it. The comments are the doc comments of constants,
// variables, functions, types and methods, and the comments of exported
// struct fields, interface methods and the constants of a group; code
// blocks and links are not read. A name is
//
//   - a package-level identifier of the package (NewClient);
//   - Type.Method, a method go/doc lists for a type of the package;
//   - in the comments of a type, of its methods and of its fields, a
//     method of that type named bare (Do in Client's, for [Client.Do]);
//   - elsewhere, a method named bare that no other type of the package
//     has and that names nothing else in it (Create in the comments of
//     orders.CreateParams, for [Service.Create]);
//   - pkg.Name or pkg.Type.Method of a package the comment's file
//     imports, or of a one-element standard library path such as time,
//     which a link resolves without an import ([time.Duration]): of a
//     repository's package only a name it has, of the standard library
//     the Name of pkg.Name.
//
// These need no link:
//
//   - the names the comment documents (Client in Client's), and the
//     type in the comments of its methods and fields;
//   - a name mentioned again in a paragraph that already linked or
//     mentioned it: only its first mention in the paragraph links;
//   - a word with no upper case letter after its first, opening a
//     sentence (after ".", "?" or "!", or first in the paragraph), which
//     may be the English word (Open, Store);
//   - a word joined to another by a hyphen, slash, underscore or quote
//     (X-Request-ID, "Client"), and code written inline: a call
//     (Platform().Message) and what is between its parentheses;
//   - in the comments of a type, its methods and fields, a word naming
//     one of its fields (the field, not a type of the same name);
//   - a method named bare in capitals only, which reads as the
//     abbreviation (URL);
//   - a field or an interface method (Type.Field): go/doc links
//     [Type.Field] only from Go 1.26, and go doc of an older Go (the root
//     module supports 1.23) shows the brackets.
func TestDeclarationCommentsLinkNames(t *testing.T) {
	t.Parallel()
	dps := publicDocPackages(t, ".")
	if len(dps) < 12 {
		t.Fatalf("the walk found %d packages, want every public package of every module", len(dps))
	}
	pkgs := map[string]*doc.Package{}
	for _, dp := range dps {
		pkgs[dp.pkg.ImportPath] = dp.pkg
	}
	for _, dp := range dps {
		if dp.pkg.Name == "main" {
			continue
		}
		t.Run(dp.dir, func(t *testing.T) {
			for _, d := range declDocs(dp.pkg) {
				pos := dp.fset.Position(d.pos)
				for _, m := range plainMentions(dp.pkg, pkgs, dp.imports[pos.Filename], d) {
					t.Errorf("%s:%d: %s's comment names %s without a doc link [%s]: %q",
						filepath.ToSlash(pos.Filename), pos.Line, d.name, m.word, m.link, m.excerpt())
				}
			}
		})
	}
}

// TestDeclarationCommentsLinkNamesCheckCatches runs the check of
// TestDeclarationCommentsLinkNames on a package whose comments name
// identifiers in each way it reports, and in each way it lets be.
func TestDeclarationCommentsLinkNamesCheckCatches(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := `// Package demo makes a [Thing].
package demo

import (
	"net/http"
	"time"
)

// Thing is a thing. NewThing makes one, and Thing.Run runs it: Run
// takes its Size, a Thing.Size, and Thing's URL, its own URL. NewThing
// again needs no link in this paragraph, nor "Thing" or X-Thing-Name.
//
// NewThing needs one again in another paragraph; [Open] is linked, so
// Open after it is not.
//
//	t := NewThing(time.Second) // code
type Thing struct {
	// Size is a size, an int as time.Duration is; see Open.
	Size int
}

// Run runs t. Open opens it, and a Thing made by NewThing(time.Minute)
// is read with an http.Client, a strings.Builder and a json.Number.
func (t Thing) Run() {}

// URL returns the thing's URL.
func (Thing) URL() string { return "" }

// Stop stops t.
func (Thing) Stop() {}

// NewThing returns a Thing that lasts d; Run starts it, and Stop ends it.
func NewThing(d time.Duration) Thing { return Thing{} }

// Gadget is another thing; Stop stops it as it stops a Thing.
type Gadget struct{}

// Stop stops g.
func (Gadget) Stop() {}

// Open opens things, as Thing.URL says.
func Open(c *http.Client) {}
`
	if err := os.WriteFile(filepath.Join(dir, "demo.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	dp, ok := parseDocPackage(t, dir, "example.com/demo")
	if !ok {
		t.Fatal("no package parsed")
	}
	var got []string
	for _, d := range declDocs(dp.pkg) {
		imports := dp.imports[dp.fset.Position(d.pos).Filename]
		for _, m := range plainMentions(dp.pkg, nil, imports, d) {
			got = append(got, d.name+": "+m.word+" ["+m.link+"]")
		}
	}
	want := []string{
		"Gadget: Stop [Gadget.Stop]",
		"Gadget: Thing [Thing]",
		"NewThing: Run [Thing.Run]",
		"NewThing: Thing [Thing]",
		"Open: Thing.URL [Thing.URL]",
		"Thing.Run: http.Client [http.Client]",
		"Thing.Run: strings.Builder [strings.Builder]",
		"Thing.Size: Open [Open]",
		"Thing.Size: time.Duration [time.Duration]",
		"Thing: NewThing [NewThing]",
		"Thing: NewThing [NewThing]",
		"Thing: Thing.Run [Thing.Run]",
	}
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("plain mentions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
