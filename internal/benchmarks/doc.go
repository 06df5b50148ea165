// Package benchmarks measures what the SDK costs next to hand-written
// net/http code doing the same calls: the same loopback httptest server
// answers both with the same fixture bodies from testdata/, and the
// baseline uses a tuned keep-alive transport, encoding/json and the SDK's
// own model structs, so the only difference is the SDK's layers
// (validation, request building, the retrying transport, bounded reads and
// typed errors).
//
// The package holds only tests and benchmarks. Run the benchmarks with
//
//	go test -run '^$' -bench . -benchmem -count 10 ./internal/benchmarks/
//
// and compare the baseline and sdk variants of each with benchstat. Its
// tests (run by go test ./...) check that both sides decode the same
// values, that concurrent calls share keep-alive connections (no more
// connections than goroutines) and that the pharmacy iterator fetches pages
// lazily and holds at most one page at a time. The figures are in
// BENCHMARKS.md at the module root.
package benchmarks
