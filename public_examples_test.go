package rxdelivery_test

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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// internalImport reports whether an import path is one a user cannot
// import: a package under an internal directory.
func internalImport(path string) bool {
	return strings.Contains(path, "/internal/") || strings.HasSuffix(path, "/internal")
}

// testPackage is the test files of one directory that share a package
// name, parsed.
type testPackage struct {
	files []*ast.File
	decls map[string]declInFile // top-level functions, variables, constants and types by name
}

type declInFile struct {
	node ast.Node
	file *ast.File
}

// exampleImports returns, for every Example function of every package of
// the module outside internal directories, the import paths it needs: the
// imports its body uses, and those of the top-level declarations of its
// test package it uses, followed transitively.
func exampleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs := map[string]*testPackage{} // dir + " " + package name
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "internal" || name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		key := rel + " " + f.Name.Name
		p := pkgs[key]
		if p == nil {
			p = &testPackage{decls: map[string]declInFile{}}
			pkgs[key] = p
		}
		p.files = append(p.files, f)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					p.decls[d.Name.Name] = declInFile{d, f}
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							p.decls[n.Name] = declInFile{s, f}
						}
					case *ast.TypeSpec:
						p.decls[s.Name.Name] = declInFile{s, f}
					}
				}
			}
		}
		return nil
	})
	require.NoError(t, err)

	out := map[string][]string{}
	for key, p := range pkgs {
		for _, f := range p.files {
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Example") {
					continue
				}
				paths := map[string]bool{}
				seen := map[ast.Node]bool{}
				var visit func(n ast.Node, file *ast.File)
				visit = func(n ast.Node, file *ast.File) {
					if seen[n] {
						return
					}
					seen[n] = true
					imports := importNames(file)
					ast.Inspect(n, func(n ast.Node) bool {
						switch n := n.(type) {
						case *ast.SelectorExpr:
							if id, ok := n.X.(*ast.Ident); ok {
								if path, ok := imports[id.Name]; ok {
									paths[path] = true
								}
							}
						case *ast.Ident:
							if dd, ok := p.decls[n.Name]; ok && dd.node != fn {
								visit(dd.node, dd.file)
							}
						}
						return true
					})
				}
				visit(fn, f)
				list := make([]string, 0, len(paths))
				for path := range paths {
					list = append(list, path)
				}
				sort.Strings(list)
				out[strings.Fields(key)[0]+"."+fn.Name.Name] = list
			}
		}
	}
	return out
}

// importNames maps the names a file refers to its imports by to their
// paths.
func importNames(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		m[name] = path
	}
	return m
}

// TestExamplesUsePublicAPIOnly checks that every Example function of the
// public packages and the example programs, with the test helpers it
// calls, imports no internal package, so a user can copy it as is.
func TestExamplesUsePublicAPIOnly(t *testing.T) {
	t.Parallel()
	examples := exampleImports(t, ".")
	require.Greater(t, len(examples), 30, "the walk found the examples")
	sawKit := false
	for name, paths := range examples {
		for _, p := range paths {
			assert.False(t, internalImport(p), "%s uses %s", name, p)
			sawKit = sawKit || strings.HasSuffix(p, "/rxdeliverytest")
		}
	}
	assert.True(t, sawKit, "the examples run against the public test kit")
}

// TestExampleImportWalkSeesHelpers checks the walk itself: an Example that
// reaches an internal package only through a helper of its package is
// caught.
func TestExampleImportWalkSeesHelpers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := `package demo_test

import "example.com/demo/internal/secret"

func helper() string { return secret.Value }

func Example() { _ = helper() }
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "demo_test.go"), []byte(src), 0o600))
	got := exampleImports(t, dir)
	assert.Equal(t, []string{"example.com/demo/internal/secret"}, got["..Example"])
}

// TestDocSnippetsUsePublicAPIOnly checks the README's Go blocks and the
// package documentation of the public packages: no snippet imports or
// calls an internal package.
func TestDocSnippetsUsePublicAPIOnly(t *testing.T) {
	t.Parallel()
	for _, b := range goBlock.FindAllStringSubmatch(readmeAndGuides(t), -1) {
		assert.NotContains(t, b[1], "/internal", "README block:\n%s", b[1])
	}
	fset := token.NewFileSet()
	for _, dir := range []string{".", "requests", "orders", "pharmacies", "tracking", "pricing", "rxdeliverytest"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.PackageClauseOnly)
			require.NoError(t, err)
			if f.Doc == nil {
				continue
			}
			for _, line := range strings.Split(f.Doc.Text(), "\n") {
				code := strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "    ")
				if code && (strings.Contains(line, "rxdelivery-go/internal") || strings.Contains(line, "testutil.") || strings.Contains(line, "sandbox.")) {
					t.Errorf("%s: package doc snippet uses an internal package: %s", name, strings.TrimSpace(line))
				}
			}
		}
	}
}

// TestUserCodeExampleUsesPublicAPIOnly checks that the example of user code
// tested through the kit (examples/desk) imports, in its code and its
// tests, only what a project outside this module can import.
func TestUserCodeExampleUsesPublicAPIOnly(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join("examples", "desk", "*.go"))
	require.NoError(t, err)
	require.Len(t, files, 2)
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, path := range importNames(f) {
			assert.False(t, internalImport(path), "%s imports %s", name, path)
		}
	}
}
