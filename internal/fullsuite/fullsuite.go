// Package fullsuite says whether the whole test suite runs. The tests that
// are for CI (the PostgreSQL and nginx runs, the largest matrices) run
// whole only with RXDELIVERY_FULL=1, which .ci/run sets; the README's test
// command, a newcomer's first run, leaves them out and says so in each
// skip message.
package fullsuite

import (
	"os"
	"testing"
)

// Env names the variable that turns the whole suite on.
const Env = "RXDELIVERY_FULL"

// On reports whether the whole suite runs: RXDELIVERY_FULL=1.
func On() bool { return os.Getenv(Env) == "1" }

// Require skips t unless the whole suite runs, naming what it leaves to
// CI. Under CI=true without RXDELIVERY_FULL=1 it fails t instead, so that
// a CI run that forgot the variable cannot pass by skipping.
func Require(t testing.TB, what string) {
	t.Helper()
	if On() {
		return
	}
	msg := what + " run in CI only: .ci/run sets " + Env + "=1; set it to run them here"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + " (CI=true without " + Env + "=1)")
		return
	}
	t.Skip(msg)
}
