//go:build !go1.27 || !goexperiment.jsonv2

package jsonx

import (
	"encoding/json"
	"errors"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// decoderName names the decoder this build runs on, for the tests and the
// benchmarks.
const decoderName = "github.com/go-json-experiment/json"

// v1 are the options that make the v2 decoder behave as encoding/json:
// case-insensitive names, duplicate names allowed (the last wins),
// invalid UTF-8 replaced, UnmarshalJSON methods called with null, and
// encoding/json's handling of null and of values of the wrong type.
var v1 = jsonv1.DefaultOptionsV1()

// Unmarshal decodes data into v as encoding/json's Unmarshal does.
//
// When the input does not decode, encoding/json decodes it again to report
// the failure: errors keep encoding/json's types (*json.SyntaxError,
// *json.UnmarshalTypeError) and messages, which callers may inspect. A
// failure is rare (a malformed answer), so the second pass costs nothing on
// the common path. A panic inside the v2 decoder is handled the same way,
// so a fault of the pinned module cannot take a call down where
// encoding/json would not.
//
// A type error's Struct and Field are then the ones the v2 decoder found,
// as Go 1.27's encoding/json reports them: the root type and the full
// path with array indexes and map keys.
func Unmarshal(data []byte, v any) error {
	derr := decodeSafe(data, v)
	if derr == nil {
		return nil
	}
	err := json.Unmarshal(data, v)
	indexPath(err, derr)
	return err
}

// errPanicked stands for a panic of the v2 decoder.
var errPanicked = errors.New("jsonx: the v2 decoder panicked")

// decodeSafe runs the v2 decoder, with errPanicked for a panic.
func decodeSafe(data []byte, v any) (err error) {
	defer func() {
		if recover() != nil {
			err = errPanicked
		}
	}()
	return decode(data, v)
}

// decode is the v2 decoder alone, with encoding/json's semantics.
func decode(data []byte, v any) error { return jsonv2.Unmarshal(data, v, v1) }

// indexPath gives err, encoding/json's type error, the root type and the
// indexed path of derr, the v2 decoder's, when both name the same value:
// the same Go type, and err's path is derr's without some of its steps
// (encoding/json before Go 1.27 leaves out array indexes and map keys, and
// names members as the struct tags spell them rather than as the input
// does). Any other error is left as it is.
func indexPath(err, derr error) {
	te, ok := err.(*json.UnmarshalTypeError)
	if !ok {
		return
	}
	de, ok := derr.(*jsonv1.UnmarshalTypeError)
	if !ok || te.Type != de.Type || !subpath(te.Field, de.Field) {
		return
	}
	te.Struct, te.Field = de.Struct, de.Field
}

// subpath reports whether the dotted path short is long with some of its
// steps left out, names compared as encoding/json matches them (without
// regard to case).
func subpath(short, long string) bool {
	if short == "" {
		return true
	}
	want := strings.Split(short, ".")
	for _, step := range strings.Split(long, ".") {
		if len(want) > 0 && strings.EqualFold(step, want[0]) {
			want = want[1:]
		}
	}
	return len(want) == 0
}
