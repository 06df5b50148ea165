package jsonx

import (
	"errors"
	"reflect"
)

// semantic returns the JSON Pointer, the Go type and the input offset of
// the v2 decoder's error, when it is about a value. The decoder is the one
// this build runs on (decode_std.go or decode_module.go).
func semantic(err error) (pointer string, goType reflect.Type, offset int64, ok bool) {
	var se *semanticError
	if !errors.As(err, &se) {
		return "", nil, 0, false
	}
	return string(se.JSONPointer), se.GoType, se.ByteOffset, true
}
