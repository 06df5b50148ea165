package fullsuite

import (
	"testing"
)

// skipRecorder is a testing.TB that records whether it was skipped or
// failed, without ending the test that holds it.
type skipRecorder struct {
	testing.TB
	skipped, failed bool
}

func (r *skipRecorder) Helper()           {}
func (r *skipRecorder) Skip(...any)       { r.skipped = true }
func (r *skipRecorder) Fatal(args ...any) { r.failed = true }

// TestRequire checks the three cases: the whole suite on, off on a
// developer's machine (skip), and off in CI (fail).
func TestRequire(t *testing.T) {
	for _, c := range []struct {
		full, ci        string
		skipped, failed bool
	}{
		{full: "1", ci: "true"},
		{full: "", ci: "", skipped: true},
		{full: "0", ci: "", skipped: true},
		{full: "", ci: "true", failed: true},
	} {
		t.Setenv(Env, c.full)
		t.Setenv("CI", c.ci)
		r := &skipRecorder{TB: t}
		Require(r, "these tests")
		if r.skipped != c.skipped || r.failed != c.failed {
			t.Errorf("%s=%q CI=%q: skipped %t failed %t; want %t %t", Env, c.full, c.ci, r.skipped, r.failed, c.skipped, c.failed)
		}
	}
}
