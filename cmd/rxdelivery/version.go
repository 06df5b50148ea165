package main

import (
	_ "embed" // the module's go.mod, for the version
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// sdkModule is the path of the SDK's module, which every module of the
// repository requires at the version they are all released under.
const sdkModule = "github.com/rxdelivery/rxdelivery-go"

// goMod is this module's go.mod. Its requirement of the SDK names the
// version the modules are released under: the release's, or between
// releases the next one's (docs/RELEASING.md: .ci/modules.sh set-version
// keeps it at CHANGELOG.md's "Next release:" line).
//
//go:embed go.mod
var goMod string

// buildVersion is what 'rxdelivery version' reports: the version the
// command is released under, and the commit it was built from when the
// build recorded one.
type buildVersion struct {
	// Version is the release, without its "v": 0.2.0.
	Version string `json:"version"`
	// Revision is the commit the command was built from ("" when the build
	// did not record one, as a build from the module cache does not).
	Revision string `json:"revision,omitempty"`
	// Modified reports a build from a work tree with uncommitted changes.
	Modified bool `json:"modified,omitempty"`
	// Go is the Go release that built it.
	Go string `json:"go"`
}

// version returns the command's version. A build of a released module (go
// install .../cmd/rxdelivery@vX.Y.Z) reports the version the build info
// gives it; any other build (from the repository, whose build info says
// "(devel)" or a pseudo-version) reports its go.mod's requirement of the
// SDK, which is the version it will be released under.
func version() buildVersion {
	v := buildVersion{Version: requiredSDKVersion(goMod), Go: runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if m := info.Main.Version; released(m) {
		v.Version = strings.TrimPrefix(m, "v")
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// released reports whether a module version is a release, vX.Y.Z: not
// "(devel)", not a pseudo-version or a pre-release, not "+dirty".
func released(v string) bool {
	if !strings.HasPrefix(v, "v") || strings.ContainsAny(v, "-+") {
		return false
	}
	parts := strings.Split(v[1:], ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// requiredSDKVersion returns the version, without its "v", at which the
// go.mod text mod requires the SDK's module; "unknown" when it does not.
func requiredSDKVersion(mod string) string {
	for _, line := range strings.Split(mod, "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == sdkModule && released(f[1]) {
			return strings.TrimPrefix(f[1], "v")
		}
	}
	return "unknown"
}

// String is the line --version and 'rxdelivery version' print:
// "0.2.0 (revision 0123456789ab, modified)".
func (v buildVersion) String() string {
	if v.Revision == "" {
		return v.Version
	}
	rev := v.Revision
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if v.Modified {
		return fmt.Sprintf("%s (revision %s, modified)", v.Version, rev)
	}
	return fmt.Sprintf("%s (revision %s)", v.Version, rev)
}

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the command's version, and the commit it was built from",
		Long: `Print the version the command is released under (the version of every module
of the SDK it is released with) and, when the build recorded it, the commit it
was built from. --json prints {"version", "revision", "modified", "go"}.`,
		Example: "  rxdelivery version --json",
		RunE: func(*cobra.Command, []string) error {
			v := version()
			if a.jsonOut {
				return a.printJSON(v)
			}
			_, err := fmt.Fprintln(a.stdout, "rxdelivery version "+v.String())
			return err
		},
	}
}
