package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBracketListEncodesAsBrackets checks that a BracketList field writes
// the same query as a []string field with the brackets option, for an
// empty, a nil and a populated list, among other fields.
func TestBracketListEncodesAsBrackets(t *testing.T) {
	t.Parallel()
	type sliceQuery struct {
		Before string   `url:"before,omitempty"`
		IDs    []string `url:"ids,brackets"`
		After  int      `url:"after,omitempty"`
	}
	type listQuery struct {
		Before string      `url:"before,omitempty"`
		IDs    BracketList `url:"ids"`
		After  int         `url:"after,omitempty"`
	}
	for _, ids := range [][]string{nil, {}, {"a"}, {"z", "a&b", "m", "é é", ""}} {
		want, err := Query(sliceQuery{Before: "x", IDs: ids, After: 2})
		require.NoError(t, err)
		got, err := Query(listQuery{Before: "x", IDs: ids, After: 2})
		require.NoError(t, err)
		assert.Equal(t, want, got, "%q", ids)
	}
}
