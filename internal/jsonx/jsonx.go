// Package jsonx is the SDK's one seam to its JSON decoder. Every response
// body the transport decodes goes through Unmarshal, which has exactly the
// semantics of encoding/json's Unmarshal (the v1 semantics every model's
// tolerant decoding was written and tested against) but runs on a v2
// decoder: one pass over the input, no separate validation scan, fewer
// allocations.
//
// Which v2 decoder depends on the Go release the SDK is built with, and
// nothing outside this package names it:
//
//   - Go 1.27 and later ship encoding/json/v2 in the standard library, and
//     build encoding/json itself on it (decode_std.go).
//   - Older releases, and Go 1.27 built with GOEXPERIMENT=nojsonv2, run the
//     same code from github.com/go-json-experiment/json, pinned to the last
//     version whose go directive is 1.23 (decode_module.go).
//
// On every Go release a type error's path is the one Go 1.27's
// encoding/json reports: the full path with the index of each array
// element and the key of each map entry (tracking_events.0.status), where
// the encoding/json of older releases leaves them out
// (tracking_events.status). Path writes such a path in the SDK's notation
// for the paths users see (tracking_events[0].status).
package jsonx

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// Unmarshal decodes data into v as encoding/json's Unmarshal does.
//
// The v2 decoder runs without encoding/json's way of reporting errors,
// which begins each decode with a syntax scan of the whole input so that a
// malformed input leaves the target untouched: that scan is a second pass
// over every byte (a fifth of the cost of decoding a page of 50 orders).
// Instead, when the input does not decode, encoding/json decodes it again
// to report the failure: errors keep encoding/json's types
// (*json.SyntaxError, *json.UnmarshalTypeError) and messages, which
// callers may inspect. A failure is rare (a malformed response), so the
// second pass costs nothing on the common path. Where the decoder is the
// pinned module, a panic inside it is handled the same way, so a fault of
// the module cannot take a call down where encoding/json would not.
//
// A type error's Struct and Field are then the ones the v2 decoder found,
// as Go 1.27's encoding/json reports them on every release: the root type,
// and the full path with array indexes and map keys.
//
// After a failure v may hold part of the input (the first pass stops where
// it fails): callers decode into a fresh value and drop it on error.
func Unmarshal(data []byte, v any) error {
	derr := decodeSafe(data, v)
	if derr == nil {
		return nil
	}
	err := json.Unmarshal(data, v)
	indexPath(err, derr, data, v)
	return err
}

// indexPath gives err, encoding/json's type error for data, the root type
// of v and the indexed path of derr, the v2 decoder's error, when both name
// the same value: the same Go type, and either err's offset falls within
// the value derr points at, or err's path is derr's without some of its
// steps. (encoding/json before Go 1.27 leaves out array indexes and map
// keys, adds the names of embedded structs, and names members as the
// struct tags spell them rather than as the input does.) Any other error
// is left as it is.
func indexPath(err, derr error, data []byte, v any) {
	te, ok := err.(*json.UnmarshalTypeError)
	if !ok {
		return
	}
	pointer, goType, start, ok := semantic(derr)
	if !ok || te.Type != goType {
		return
	}
	// As Go 1.27's encoding/json turns a JSON Pointer into a Field.
	field := strings.ReplaceAll(strings.TrimPrefix(pointer, "/"), "/", ".")
	if !within(data, start, te.Offset) && !subpath(te.Field, field) {
		return
	}
	te.Struct, te.Field = "", field
	if t := reflect.TypeOf(v); t != nil && pointer != "" {
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		te.Struct = t.Name()
	}
}

// within reports whether offset, where encoding/json reports a type error
// (after the value's first byte, at most at its end), falls within the
// JSON value of data that starts at start, where the v2 decoder reports it.
func within(data []byte, start, offset int64) bool {
	if start < 0 || start >= int64(len(data)) || offset <= start {
		return false
	}
	var value json.RawMessage
	if json.NewDecoder(bytes.NewReader(data[start:])).Decode(&value) != nil {
		return false
	}
	// The decoder skips white space before the value.
	lead := len(data[start:]) - len(bytes.TrimLeft(data[start:], " \t\r\n"))
	return offset <= start+int64(lead+len(value))
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
