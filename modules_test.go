package rxdelivery_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// repoModule is one go.mod of the repository.
type repoModule struct {
	dir      string            // relative to the root, "." for the root
	path     string            // the module path
	requires map[string]string // module path to version
	replaces []string          // replace directives, verbatim
}

// repoModules reads every go.mod of the repository (test data and VCS
// metadata left out), the root first.
func repoModules(t *testing.T) []repoModule {
	t.Helper()
	var mods []repoModule
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != "go.mod" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		m := repoModule{dir: filepath.ToSlash(filepath.Dir(path)), requires: map[string]string{}}
		block := ""
		for _, line := range strings.Split(string(b), "\n") {
			line, _, _ = strings.Cut(line, "//")
			f := strings.Fields(line)
			switch {
			case len(f) == 0:
			case block != "" && f[0] == ")":
				block = ""
			case len(f) == 2 && f[1] == "(":
				block = f[0]
			case f[0] == "module" && len(f) == 2:
				m.path = f[1]
			case block == "require" && len(f) >= 2:
				m.requires[f[0]] = f[1]
			case f[0] == "require" && len(f) >= 3:
				m.requires[f[1]] = f[2]
			case block == "replace":
				m.replaces = append(m.replaces, strings.TrimSpace(line))
			case f[0] == "replace":
				m.replaces = append(m.replaces, strings.Join(f[1:], " "))
			}
		}
		mods = append(mods, m)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].dir == "." || (mods[j].dir != "." && mods[i].dir < mods[j].dir) })
	if len(mods) < 2 || mods[0].dir != "." {
		t.Fatalf("found modules %v: want the root and the modules in its subdirectories", mods)
	}
	return mods
}

// readmeTestCommand is the README's test command: the first `go test` line
// of its first sh block, as CI reads it.
func readmeTestCommand(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)```sh\n(.*?)```").FindSubmatch(b)
	if block == nil {
		t.Fatal("README.md has no sh block")
	}
	for _, line := range strings.Split(string(block[1]), "\n") {
		if strings.HasPrefix(line, "go test ") {
			line, _, _ = strings.Cut(line, "#")
			return strings.Fields(line)
		}
	}
	t.Fatal("README.md's first sh block has no go test line")
	return nil
}

// ciOnlyModules are the modules whose tests the README's test command
// leaves to CI, which runs them with a command of its own: the conformance
// checker, whose OpenAPI validator alone takes a newcomer's first run well
// past its budget to build.
var ciOnlyModules = map[string]bool{"internal/conformance": true}

// TestReadmeTestCommandCoversEveryModule checks that the README's one test
// command runs the tests of every module of the repository but those left
// to CI, which .ci/run tests itself (a module added without its pattern
// there would go untested by CI, which runs exactly that command), and that
// go.work, which lets one command reach them all, uses every module.
func TestReadmeTestCommandCoversEveryModule(t *testing.T) {
	t.Parallel()
	mods := repoModules(t)
	patterns := map[string]bool{}
	for _, arg := range readmeTestCommand(t)[2:] {
		if !strings.HasPrefix(arg, "-") {
			patterns[arg] = true
		}
	}
	work, err := os.ReadFile("go.work")
	if err != nil {
		t.Fatalf("no go.work: %v", err)
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	uses := map[string]bool{}
	inUse := false
	for _, line := range strings.Split(string(work), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "use" && f[1] == "(":
			inUse = true
		case inUse && len(f) == 1 && f[0] == ")":
			inUse = false
		case inUse && len(f) == 1:
			uses[f[0]] = true
		case len(f) == 2 && f[0] == "use":
			uses[f[1]] = true
		}
	}
	for _, m := range mods {
		want, dir := "./...", "."
		if m.dir != "." {
			want, dir = "./"+m.dir+"/...", "./"+m.dir
		}
		switch {
		case ciOnlyModules[m.dir]:
			if patterns[want] {
				t.Errorf("the README's test command runs module %s's tests, which are CI's (ciOnlyModules)", m.path)
			}
			if !strings.Contains(string(ci), "go test "+want+"\n") {
				t.Errorf(".ci/run does not run module %s's tests: add go test %s", m.path, want)
			}
		case !patterns[want]:
			t.Errorf("the README's test command does not run module %s's tests: add %s", m.path, want)
		}
		delete(patterns, want)
		if !uses[dir] {
			t.Errorf("go.work does not use module %s (%s): run .ci/modules.sh work", m.path, dir)
		}
		delete(uses, dir)
	}
	for p := range patterns {
		t.Errorf("the README's test command names %s, which is no module of the repository", p)
	}
	for u := range uses {
		t.Errorf("go.work uses %s, which is no module of the repository", u)
	}
}

// TestModulesRequireEachOtherAtTheNextRelease checks what makes each
// module installable from outside the repository: no go.mod has a replace
// directive (Go ignores a dependency's, so a user would inherit nothing
// from it), and a module requires another of the repository at a real
// version, the one CHANGELOG.md names for the next release (or, in a
// release, the version released), never a placeholder.
func TestModulesRequireEachOtherAtTheNextRelease(t *testing.T) {
	t.Parallel()
	mods := repoModules(t)
	want := "v" + changelogVersion(t)
	paths := map[string]bool{}
	for _, m := range mods {
		paths[m.path] = true
	}
	required := 0
	for _, m := range mods {
		for _, r := range m.replaces {
			t.Errorf("%s/go.mod: replace %s: a user of the module would not inherit it; the workspace (go.work) replaces modules of the repository", m.dir, r)
		}
		for path, version := range m.requires {
			if !paths[path] {
				continue
			}
			required++
			if version != want {
				t.Errorf("%s/go.mod requires %s %s; want %s, the version CHANGELOG.md names (.ci/modules.sh set-version %s)", m.dir, path, version, want, want)
			}
		}
	}
	if required == 0 {
		t.Error("no module requires another module of the repository: is this test still reading the right files?")
	}
}

// changelogVersion is the version CHANGELOG.md names: the "Next release:"
// line of [Unreleased], or the top section's version in a release.
func changelogVersion(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	top := regexp.MustCompile(`(?m)^## \[([^\]]+)\]`).FindSubmatch(b)
	if top == nil {
		t.Fatal("CHANGELOG.md has no version section")
	}
	if string(top[1]) != "Unreleased" {
		return strings.TrimPrefix(string(top[1]), "v")
	}
	next := regexp.MustCompile("(?m)^Next release: [*`]*v?([0-9]+\\.[0-9]+\\.[0-9]+)").FindSubmatch(b)
	if next == nil {
		t.Fatal("CHANGELOG.md's [Unreleased] names no next release")
	}
	return string(next[1])
}
