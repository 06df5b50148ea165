// Package jsonx is the SDK's one seam to its JSON decoder. Every answer
// body the transport decodes goes through Unmarshal, which has exactly the
// semantics of encoding/json's Unmarshal (the v1 semantics every model's
// tolerant decoding was written and tested against) but runs on a v2
// decoder: one pass over the input, no separate validation scan, fewer
// allocations.
//
// Which v2 decoder depends on the Go release the SDK is built with, and
// nothing outside this package names it:
//
//   - Go 1.27 and later ship encoding/json/v2 in the standard library,
//     and build encoding/json itself on it (decode_std.go). Unmarshal is
//     encoding/json's Unmarshal there, called through encoding/json/v2
//     with its v1 options.
//   - Older releases (and Go 1.27 built with GOEXPERIMENT=nojsonv2) run
//     the same code from github.com/go-json-experiment/json, pinned to the
//     last version whose go directive is 1.23 (decode_module.go), with
//     encoding/json deciding every failure.
//
// On every Go release a type error's path is the one Go 1.27's
// encoding/json reports: the full path with the index of each array
// element and the key of each map entry (tracking_events.0.status), where
// the encoding/json of older releases leaves them out
// (tracking_events.status). Path turns such a path into the SDK's own
// notation for the paths users see (tracking_events[0].status).
package jsonx
