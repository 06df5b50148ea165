// Package jsonx is the SDK's one seam to its JSON decoder. Every answer
// body the transport decodes goes through Unmarshal, which has exactly the
// semantics of encoding/json's Unmarshal (the v1 semantics every model's
// tolerant decoding was written and tested against) but runs on the
// v2-class decoder of github.com/go-json-experiment/json: one pass over
// the input, no separate validation scan, fewer allocations.
//
// The decoder module is pinned to the last version whose go directive is
// 1.23, so that the SDK keeps building for users on Go 1.23. The standard
// library's encoding/json/v2 is the same code: when the SDK may require a
// Go release that ships it without an experiment flag, this file is the one
// to change (its imports and the options value below), and nothing outside
// this package names the decoder.
package jsonx

import (
	"encoding/json"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// v1 are the options that make the v2 decoder read values as encoding/json
// does: case-insensitive names, duplicate names allowed (the last wins),
// invalid UTF-8 replaced, UnmarshalJSON methods called with null, and
// encoding/json's handling of null and of values of the wrong type.
//
// One legacy behaviour is left out, because Unmarshal has it already:
// encoding/json's way of reporting errors, which begins each decode with a
// syntax scan of the whole input so that a malformed input leaves the
// target untouched. That scan is a second pass over every byte (a fifth of
// the cost of decoding a page of 50 orders); here the first failure ends
// the decode and encoding/json runs again to report it.
var v1 = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsonv1.ReportErrorsWithLegacySemantics(false))

// Unmarshal decodes data into v as encoding/json's Unmarshal does.
//
// When the input does not decode, encoding/json decodes it again to report
// the failure: errors keep encoding/json's types (*json.SyntaxError,
// *json.UnmarshalTypeError) and messages, which callers may inspect. A
// failure is rare (a malformed answer), so the second pass costs nothing on
// the common path. A panic inside the v2 decoder is handled the same way,
// so a fault of the pinned module cannot take a call down where
// encoding/json would not. After a failure v may hold part of the input
// (the first pass stops where it fails): the caller decodes into a fresh
// value and drops it on error, as the one caller, core's decode, does.
func Unmarshal(data []byte, v any) error {
	if decodeOK(data, v) {
		return nil
	}
	return json.Unmarshal(data, v)
}

// decodeOK reports whether the v2 decoder decoded data into v.
func decodeOK(data []byte, v any) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return decode(data, v) == nil
}

// decode is the v2 decoder alone, with encoding/json's semantics.
func decode(data []byte, v any) error { return jsonv2.Unmarshal(data, v, v1) }
