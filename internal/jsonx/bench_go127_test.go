//go:build go1.27 && goexperiment.jsonv2

package jsonx_test

import (
	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// moduleV1 are the pinned module's options for encoding/json's semantics.
var moduleV1 = jsonv1.DefaultOptionsV1()

// On this Go release jsonx runs on encoding/json/v2; the pinned module,
// which older releases build jsonx on, is benchmarked beside it.
func init() {
	decoders = append(decoders, struct {
		name string
		fn   func([]byte, any) error
	}{"module", func(data []byte, v any) error { return jsonv2.Unmarshal(data, v, moduleV1) }})
}
