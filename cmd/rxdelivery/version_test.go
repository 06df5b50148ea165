package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVersionIsTheModulesRelease: the version the command reports is the
// one its modules are released under: CHANGELOG.md's next release (or,
// right after a release, its latest), which is also the version at which
// the command's go.mod requires the SDK. --version, 'version' and the
// User-Agent say the same.
func TestVersionIsTheModulesRelease(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^Next release: (\d+\.\d+\.\d+)$`).FindSubmatch(b)
	if m == nil {
		m = regexp.MustCompile(`(?m)^## \[(\d+\.\d+\.\d+)\]`).FindSubmatch(b)
	}
	if m == nil {
		t.Fatal("CHANGELOG.md names no version")
	}
	want(t, version().Version, string(m[1]), "version")
	want(t, requiredSDKVersion(goMod), string(m[1]), "go.mod's requirement of the SDK")
	for _, args := range [][]string{{"--version"}, {"version"}} {
		var out bytes.Buffer
		want(t, run(context.Background(), args, strings.NewReader(""), &out, &bytes.Buffer{}), exitOK, "exit code")
		if !strings.HasPrefix(out.String(), "rxdelivery version "+string(m[1])) {
			t.Errorf("%q printed %q", args, out.String())
		}
	}
}

// TestVersionOfABuild: a release's build info gives its version; a
// development build's does not, and its revision is shown short.
func TestVersionOfABuild(t *testing.T) {
	t.Parallel()
	for v, ok := range map[string]bool{"v0.2.0": true, "v10.20.30": true, "(devel)": false, "v0.0.0-20261128174600-035d1ca11111": false,
		"v0.2.0+dirty": false, "v0.2.0-rc.1": false, "v0.2": false, "": false} {
		want(t, released(v), ok, "released("+v+")")
	}
	want(t, requiredSDKVersion("module x\n\nrequire (\n\tgithub.com/rxdelivery/rxdelivery-go v1.2.3\n)\n"), "1.2.3", "requirement")
	want(t, requiredSDKVersion("module x\nrequire github.com/rxdelivery/rxdelivery-go v1.2.4\n"), "1.2.4", "one-line requirement")
	want(t, buildVersion{Version: "0.2.0", Revision: "035d1ca0123456789", Modified: true}.String(), "0.2.0 (revision 035d1ca01234, modified)", "String")
}
