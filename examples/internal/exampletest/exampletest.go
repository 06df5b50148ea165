// Package exampletest holds what the tests of the example programs share:
// an offline environment on a fresh simulator, a bounded context, and a
// check that no goroutine outlives the tests.
package exampletest

import (
	"context"
	"io"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampleenv"
)

// Main runs the tests of a package and then fails when a goroutine they
// started is still running (a simulator, a listener or a connection left
// open). Call it from TestMain.
func Main(m *testing.M) { goleak.VerifyTestMain(m) }

// Offline clears every RXDELIVERY_* variable for the duration of the test,
// so the test never reaches a real environment, connects to a newly
// started simulator with o (its banner discarded unless o.Log is set), and
// closes it when the test ends.
func Offline(t testing.TB, o exampleenv.ConnectOptions) *exampleenv.Env {
	t.Helper()
	ClearVars(t)
	if o.Log == nil {
		o.Log = io.Discard
	}
	env, err := exampleenv.ConnectWith(context.Background(), o)
	if err != nil {
		t.Fatalf("connecting to the simulator: %v", err)
	}
	t.Cleanup(env.Close)
	if !env.Offline || env.Sim == nil {
		t.Fatal("expected the offline simulator")
	}
	return env
}

// ClearVars unsets every RXDELIVERY_* variable the examples read for the
// duration of the test, so that an example's main runs offline.
func ClearVars(t testing.TB) {
	t.Helper()
	for _, v := range exampleenv.Vars {
		t.Setenv(v, "")
	}
}

// Context returns a context that ends after d or when the test ends.
func Context(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
