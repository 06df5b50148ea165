package journal_test

import (
	"net/http/httptest"
	"testing"
)

// httptest: the benchmark measures a create over loopback HTTP, as a program makes it, and the lease test ends a create the platform holds on a real connection.

// newLoopbackPlatform returns a platform served on a loopback server,
// closed when the test ends.
func newLoopbackPlatform(t testing.TB) *platform {
	p := newStandIn()
	srv := httptest.NewServer(p.mux)
	t.Cleanup(srv.Close)
	p.url = srv.URL
	return p
}
