package core

import (
	"encoding/json"
	"errors"

	"github.com/rxdelivery/rxdelivery-go/types"
)

// Checks of a 2xx answer's shape, beyond being valid JSON: every endpoint
// documents an object, and an answer that is not one (JSON null, an array,
// a bare string or number) would otherwise decode to a zero value without
// an error.

// checkShape refuses a body that is valid JSON but not an object. A body
// that is not valid JSON is left to the decoder, which names the fault.
// A *json.RawMessage out (an answer the SDK keeps whole) only refuses null.
func checkShape(data []byte, out any) error {
	i := 0
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	if i == len(data) || data[i] == '{' || !json.Valid(data) {
		return nil
	}
	kind := "a JSON " + map[byte]string{'n': "null", '[': "array", '"': "string", 't': "boolean", 'f': "boolean"}[data[i]]
	if kind == "a JSON " {
		kind = "a JSON number"
	}
	if _, raw := out.(*json.RawMessage); raw && data[i] != 'n' {
		return nil
	}
	return errors.New("the body is " + kind + ", not an object")
}

// Unusable is the error for a 2xx answer that is well-formed JSON the
// caller cannot use, such as an order without an id; msg says what is
// wrong. For a write the outcome is unknown: the platform accepted the
// call, but its answer does not say what it did.
func Unusable(c Call, resp *Response, msg string) error {
	return &types.DecodeError{
		StatusCode:     resp.StatusCode,
		Method:         c.Method,
		Path:           c.shown(),
		Err:            errors.New(msg),
		UnknownOutcome: c.Write,
	}
}
