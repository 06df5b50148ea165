//go:build go1.27 && goexperiment.jsonv2

package jsonx

import (
	"encoding/json"
	jsonv2 "encoding/json/v2"
)

// decoderName names the decoder this build runs on, for the tests and the
// benchmarks.
const decoderName = "encoding/json/v2"

// v1 are the options that make the v2 decoder behave as encoding/json:
// they are the ones encoding/json's own Unmarshal passes.
var v1 = json.DefaultOptionsV1()

// Unmarshal decodes data into v as encoding/json's Unmarshal does, with
// its errors (*json.SyntaxError, *json.UnmarshalTypeError with the indexed
// path). It is encoding/json's Unmarshal, without building the options on
// every call: that function is this very call on this Go release, so no
// second pass is needed to report a failure and no panic can happen here
// that encoding/json would not have.
func Unmarshal(data []byte, v any) error { return jsonv2.Unmarshal(data, v, v1) }

// decode is the v2 decoder alone, with encoding/json's semantics.
func decode(data []byte, v any) error { return jsonv2.Unmarshal(data, v, v1) }
