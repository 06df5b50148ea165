//go:build !go1.27 || !goexperiment.jsonv2

package jsonx

import (
	"errors"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// DecoderName names the decoder this build runs on, for the tests and the
// benchmarks.
const DecoderName = "github.com/go-json-experiment/json"

// v1 are the options that make the v2 decoder read values as encoding/json
// does: case-insensitive names, duplicate names allowed (the last wins),
// invalid UTF-8 replaced, UnmarshalJSON methods called with null, and
// encoding/json's handling of null and of values of the wrong type. One
// legacy behaviour is left out, encoding/json's way of reporting errors,
// because Unmarshal has it already (see there).
var v1 = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsonv1.ReportErrorsWithLegacySemantics(false))

// errPanicked stands for a panic of the v2 decoder.
var errPanicked = errors.New("jsonx: the v2 decoder panicked")

// decodeSafe runs the v2 decoder, with errPanicked for a panic: a fault of
// the pinned module, which encoding/json then decides on.
func decodeSafe(data []byte, v any) (err error) {
	defer func() {
		if recover() != nil {
			err = errPanicked
		}
	}()
	return Decode(data, v)
}

// Decode is the v2 decoder alone, with encoding/json's semantics and
// without the encoding/json pass that reports a failure: for the
// differential tests and the benchmarks.
func Decode(data []byte, v any) error { return jsonv2.Unmarshal(data, v, v1) }

// semanticError is the v2 decoder's error about a value (see semantic).
type semanticError = jsonv2.SemanticError
