// Command apicompat narrows a module's API comparison (apidiff run with
// -allow-internal) to what a user's code compiles against.
//
// The public API of this SDK is declared largely in internal packages and
// exposed by alias (rxdelivery.APIError = core.APIError) or through fields,
// parameters and results. apidiff without -allow-internal skips internal
// packages, so a changed field of an aliased error type would go unseen;
// with it, every change to an internal helper would count. This command
// keeps the changes of public packages and those of the internal types the
// public API exposes, and drops those of commands (package main).
//
//	apicompat exposed > FILE
//		run in a module's directory: one line per exposed internal type
//		("exposed ./internal/core.APIError") and per command package
//		("command ./examples/quickstart"), named as apidiff names them.
//	apicompat filter FILE... < REPORT
//		prints the lines of apidiff's REPORT that concern the public API,
//		given the exposed lists of the old and the new tree, under the
//		report's own section headings.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
)

type listedPackage struct {
	ImportPath string
	Name       string
	Export     string
	Standard   bool
	DepOnly    bool
	Module     *struct{ Path string }
}

func main() {
	var err error
	switch {
	case len(os.Args) == 2 && os.Args[1] == "exposed":
		err = exposed()
	case len(os.Args) >= 2 && os.Args[1] == "filter":
		err = filter(os.Args[2:], os.Stdin, os.Stdout)
	default:
		err = fmt.Errorf("usage: apicompat exposed | apicompat filter FILE... < REPORT")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "apicompat:", err)
		os.Exit(1)
	}
}

// filter copies the report's lines that concern the public API.
func filter(files []string, in io.Reader, out io.Writer) error {
	exposedTypes := map[string]bool{}
	commands := map[string]bool{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(data), "\n") {
			if name, ok := strings.CutPrefix(line, "exposed "); ok {
				exposedTypes[name] = true
			} else if name, ok := strings.CutPrefix(line, "command "); ok {
				commands[name] = true
			}
		}
	}
	report, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	heading := ""
	for _, line := range strings.Split(string(report), "\n") {
		entry, ok := strings.CutPrefix(line, "- ")
		if !ok {
			if strings.HasSuffix(line, ":") {
				heading = line
			}
			continue
		}
		if !public(entry, exposedTypes, commands) {
			continue
		}
		if heading != "" {
			fmt.Fprintln(out, heading)
			heading = ""
		}
		fmt.Fprintln(out, line)
	}
	return nil
}

// public reports whether an entry of apidiff's module report concerns the
// public API. Entries of the root package carry no package ("Client.Foo:
// added"); the others start with the package's path in the module
// ("./internal/core.(*APIError).Foo: added").
func public(entry string, exposedTypes, commands map[string]bool) bool {
	rest, ok := strings.CutPrefix(entry, "./")
	if !ok {
		return true
	}
	pkg, object, ok := strings.Cut(rest, ".")
	if !ok {
		return true
	}
	pkg = "./" + pkg
	if commands[pkg] {
		return false
	}
	isInternal := strings.HasPrefix(pkg, "./internal/") || strings.Contains(pkg, "/internal/") || strings.HasSuffix(pkg, "/internal")
	if !isInternal {
		return true
	}
	// The object's name: "(*APIError).Foo: added" gives "APIError".
	object = strings.TrimLeft(object, "(*")
	if i := strings.IndexAny(object, ").:[ "); i >= 0 {
		object = object[:i]
	}
	return exposedTypes[pkg+"."+object]
}

// exposed prints the internal types the public API exposes and the
// command packages, for filter.
func exposed() error {
	out, err := exec.Command("go", "list", "-e", "-export", "-deps", "-json=ImportPath,Name,Export,Standard,DepOnly,Module", "./...").Output()
	if err != nil {
		return fmt.Errorf("go list: %w", err)
	}
	exports := map[string]string{}
	var roots []listedPackage
	modPath := ""
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
		exports[p.ImportPath] = p.Export
		// A directory of tests only (api/, which tests the OpenAPI
		// documents) is no package of the API: it has no export data.
		if p.DepOnly || p.Standard || p.Export == "" {
			continue
		}
		if p.Module != nil && modPath == "" {
			modPath = p.Module.Path
		}
		roots = append(roots, p)
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file := exports[path]
		if file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	w := walker{modPath: modPath, seen: map[types.Type]bool{}, exposed: map[string]bool{}}
	for _, p := range roots {
		if p.Name == "main" {
			fmt.Println("command ./" + strings.TrimPrefix(p.ImportPath, modPath+"/"))
			continue
		}
		if w.internal(p.ImportPath) {
			continue
		}
		pkg, err := imp.Import(p.ImportPath)
		if err != nil {
			return fmt.Errorf("import %s: %w", p.ImportPath, err)
		}
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			if obj := scope.Lookup(name); obj.Exported() {
				w.walk(obj.Type())
			}
		}
	}
	names := make([]string, 0, len(w.exposed))
	for name := range w.exposed {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Println("exposed " + name)
	}
	return nil
}

type walker struct {
	modPath string
	seen    map[types.Type]bool
	exposed map[string]bool
}

// internal reports whether path is an internal package of the module.
func (w *walker) internal(path string) bool {
	rel, ok := strings.CutPrefix(path, w.modPath)
	if !ok {
		return false
	}
	return strings.HasPrefix(rel, "/internal/") || strings.Contains(rel, "/internal/") || strings.HasSuffix(rel, "/internal")
}

func (w *walker) walk(t types.Type) {
	if t == nil || w.seen[t] {
		return
	}
	w.seen[t] = true
	switch t := t.(type) {
	case *types.Alias:
		w.walk(types.Unalias(t))
	case *types.Named:
		obj := t.Obj()
		if obj.Pkg() == nil {
			return
		}
		path := obj.Pkg().Path()
		if path != w.modPath && !strings.HasPrefix(path, w.modPath+"/") {
			return // another module's type: its own module answers for it
		}
		if w.internal(path) {
			w.exposed["./"+strings.TrimPrefix(path, w.modPath+"/")+"."+obj.Name()] = true
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			w.walk(t.TypeArgs().At(i))
		}
		for i := 0; i < t.NumMethods(); i++ {
			if m := t.Method(i); m.Exported() {
				w.walk(m.Type())
			}
		}
		w.walk(t.Underlying())
	case *types.Pointer:
		w.walk(t.Elem())
	case *types.Slice:
		w.walk(t.Elem())
	case *types.Array:
		w.walk(t.Elem())
	case *types.Chan:
		w.walk(t.Elem())
	case *types.Map:
		w.walk(t.Key())
		w.walk(t.Elem())
	case *types.Signature:
		w.walk(t.Params())
		w.walk(t.Results())
	case *types.Tuple:
		for i := 0; i < t.Len(); i++ {
			w.walk(t.At(i).Type())
		}
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if f := t.Field(i); f.Exported() || f.Embedded() {
				w.walk(f.Type())
			}
		}
	case *types.Interface:
		for i := 0; i < t.NumMethods(); i++ {
			if m := t.Method(i); m.Exported() {
				w.walk(m.Type())
			}
		}
		for i := 0; i < t.NumEmbeddeds(); i++ {
			w.walk(t.EmbeddedType(i))
		}
	case *types.TypeParam:
		w.walk(t.Constraint())
	case *types.Union:
		for i := 0; i < t.Len(); i++ {
			w.walk(t.Term(i).Type())
		}
	}
}
