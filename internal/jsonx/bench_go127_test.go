//go:build go1.27 && goexperiment.jsonv2

package jsonx_test

import (
	"errors"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// moduleV1 are the options the module side of jsonx decodes with
// (decode_module.go).
var moduleV1 = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsonv1.ReportErrorsWithLegacySemantics(false))

// errModulePanicked stands for a panic of the pinned module.
var errModulePanicked = errors.New("the module panicked")

// moduleUnmarshal is what jsonx.Unmarshal runs on a release without
// encoding/json/v2 when the input decodes: the pinned module, under a
// recover().
func moduleUnmarshal(data []byte, v any) (err error) {
	defer func() {
		if recover() != nil {
			err = errModulePanicked
		}
	}()
	return jsonv2.Unmarshal(data, v, moduleV1)
}

// On this Go release jsonx runs on encoding/json/v2; the pinned module,
// which older releases build jsonx on, is benchmarked beside it.
func init() {
	decoders = append(decoders, struct {
		name string
		fn   func([]byte, any) error
	}{"module", moduleUnmarshal})
}
