//go:build go1.27 && goexperiment.jsonv2

package jsonx

import (
	"encoding/json"
	jsonv2 "encoding/json/v2"
)

// DecoderName names the decoder this build runs on, for the tests and the
// benchmarks.
const DecoderName = "encoding/json/v2"

// v1 are the options that make the v2 decoder read values as encoding/json
// does (the ones encoding/json's own Unmarshal passes), without its way of
// reporting errors, which Unmarshal has already (see there).
var v1 = jsonv2.JoinOptions(json.DefaultOptionsV1(), json.ReportErrorsWithLegacySemantics(false))

// decodeSafe runs the v2 decoder. A panic is not recovered: it is the
// standard library's, and encoding/json, which runs the same code, would
// panic too.
func decodeSafe(data []byte, v any) error { return Decode(data, v) }

// Decode is the v2 decoder alone, with encoding/json's semantics and
// without the encoding/json pass that reports a failure: for the
// differential tests and the benchmarks.
func Decode(data []byte, v any) error { return jsonv2.Unmarshal(data, v, v1) }

// semanticError is the v2 decoder's error about a value (see semantic).
type semanticError = jsonv2.SemanticError
