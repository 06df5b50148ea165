// Package reliability holds the suites that check the SDK keeps its
// promises when the network misbehaves:
//
//   - the fault suite: 429 storms with Retry-After, 503 windows, answers
//     slower than the context allows, connections cut mid-body, malformed
//     and truncated JSON and bodies of many megabytes, each ending in the
//     documented error type and sentinels, naming the endpoint and status,
//     with bounded memory and every wait ended by the context;
//   - the duplicate-delivery suite: a thousand creates through a server that
//     creates and then fails on a seeded fifth of them, where no retry may
//     create an order twice;
//   - the load-balancer suite: writes through a real HTTP/2 proxy (nginx,
//     started by the test) that recycles its connections, and a
//     frame-level server that refuses streams, where a write HTTP proves
//     unprocessed is sent again and one it does not stays unknown;
//   - the leak check: no goroutine is left once the calls have returned and
//     the idle connections are closed (the whole package runs under
//     goleak);
//   - the end-to-end redaction suite against the sandbox simulator: no
//     credential or patient value in any log line or error string;
//   - fuzz targets of the tracking subscription decoder, of its params'
//     Validate, and of error bodies.
//
// Its only code outside tests is the set of helpers the fuzz targets of
// the service packages share (Fixtures, StringFields, SetStrings,
// CheckValidated, CheckDecoded, ...), so that every decoder and every
// Validate is held to the same promises.
package reliability
