// Package benchmarks measures what the SDK costs next to code doing the
// same calls without it. One loopback httptest server answers every client
// with the same fixture bodies from testdata/. The clients are:
//
//   - handwritten: what an integrator writes without the SDK: net/http
//     with a tuned keep-alive transport, encoding/json, and its own plain
//     structs (strings, float64 amounts, time.Time timestamps). It is the
//     baseline of the performance targets.
//   - nethttp-sdktypes: the same net/http code decoding into the SDK's own
//     model structs and encoding the SDK's params, which measures the SDK's
//     plumbing (validation, request building, the retrying transport,
//     bounded reads, typed errors) apart from its encoding and decoding.
//   - sdk and sdk-novalidate: the SDK with its defaults, and without
//     validation.
//
// The package holds only tests and benchmarks. bench.sh runs them as
// BENCHMARKS.md at the module root reports them: interleaved rounds
// compared with benchstat (`bench.sh time`), and instruction counts per
// call under valgrind's callgrind (`bench.sh instr`). One run by hand:
//
//	go test -run '^$' -bench . -benchmem -count 10 ./internal/benchmarks/
//
// Its tests (run by go test ./...) check that every client decodes the same
// values, that concurrent calls share keep-alive connections (no more
// connections than goroutines) and that the pharmacy iterator fetches pages
// lazily and holds at most one page at a time.
package benchmarks
