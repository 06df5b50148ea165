//go:build !conformance

package sandbox

import "net/http"

// Observe returns h itself. Built with the conformance tag it records each
// exchange h serves for the OpenAPI conformance check (conformance_on.go).
func Observe(h http.Handler) http.Handler { return h }

// markInjected does nothing: only the conformance record tells an injected
// fault's answer from the simulator's.
func markInjected(*http.Request) {}

// observeNotification does nothing: only the conformance record keeps the
// notifications sent.
func observeNotification(*http.Request, []byte, int) {}
