package rxtypes

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDecimalRoundEveryPath adds to TestDecimalRound, whose values take
// Round's int64 fast path: the big.Int path (values of more than 18
// digits) in every mode, short of, at and past the halfway point, and on
// both paths a mode that is none of the four, which rounds as
// RoundHalfEven.
func TestDecimalRoundEveryPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in     string
		places int
		mode   RoundingMode
		want   string
	}{
		{"2.345", 2, RoundingMode(9), "2.34"},
		{"2.355", 2, RoundingMode(9), "2.36"},
		{"123456789012345678901234567890.125", 2, RoundHalfUp, "123456789012345678901234567890.13"},
		{"-123456789012345678901234567890.125", 2, RoundHalfUp, "-123456789012345678901234567890.13"},
		{"123456789012345678901234567890.124", 2, RoundHalfUp, "123456789012345678901234567890.12"},
		{"123456789012345678901234567890.125", 2, RoundHalfEven, "123456789012345678901234567890.12"},
		{"-123456789012345678901234567890.135", 2, RoundHalfEven, "-123456789012345678901234567890.14"},
		{"123456789012345678901234567890.1251", 2, RoundHalfEven, "123456789012345678901234567890.13"},
		{"123456789012345678901234567890.129", 2, RoundDown, "123456789012345678901234567890.12"},
		{"-123456789012345678901234567890.129", 2, RoundDown, "-123456789012345678901234567890.12"},
		{"123456789012345678901234567890.121", 2, RoundUp, "123456789012345678901234567890.13"},
		{"-123456789012345678901234567890.121", 2, RoundUp, "-123456789012345678901234567890.13"},
		{"123456789012345678901234567890.125", 2, RoundingMode(9), "123456789012345678901234567890.12"},
		{"123456789012345678901234567890.135", 2, RoundingMode(9), "123456789012345678901234567890.14"},
	} {
		got := MustDecimal(tc.in).Round(tc.places, tc.mode)
		assert.Equal(t, tc.want, got.String(), "%s to %d with %s", tc.in, tc.places, tc.mode)
	}
}
