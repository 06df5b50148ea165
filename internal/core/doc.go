// Package core is the SDK's call path, shared by every service package.
//
// A service method builds a Request for one of the Endpoints and
// hands it to Backend.Execute (execute.go), which reads top to bottom:
// settings, checks, encoding, the call hooks, go-retryablehttp's loop
// (with the call's retry policy as methods of the call, call.go), each
// attempt through the one RoundTripper of the SDK (attempt.go), the
// response read and decoded or turned into a typed error (response.go),
// then the metadata and the end's log line.
package core
