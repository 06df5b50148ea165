package jsonx

import (
	"bytes"
	"encoding/json"
)

// Unquote returns the text of a JSON string literal. It takes a fast path
// when the literal has no escapes and falls back to encoding/json otherwise,
// so "\/" and "\u00e9" are read as JSON defines them.
func Unquote(b []byte) (string, bool) {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return "", false
	}
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b[1 : len(b)-1]), true
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return "", false
	}
	return s, true
}

// EnumText returns the text of a JSON enum value: a string's content, or
// the literal of any other value, so that an odd value is kept rather than
// failing the call. It reports false for null, which leaves the field as it
// was.
func EnumText(b []byte) (string, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return "", false
	}
	if b[0] == '"' {
		if s, ok := Unquote(b); ok {
			return s, true
		}
	}
	return string(b), true
}

// Enum is the UnmarshalJSON of a string enum the SDK reads tolerantly: it
// sets *v to the EnumText of b, and leaves it as it was for null. It never
// fails.
func Enum[T ~string](b []byte, v *T) error {
	if s, ok := EnumText(b); ok {
		*v = T(s)
	}
	return nil
}
