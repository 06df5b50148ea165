package jsonx

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEnumText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{`"new"`: "new", `"a\u00e9"`: "aé", `6`: "6", ` true `: "true", `{"x":1}`: `{"x":1}`} {
		got, ok := EnumText([]byte(in))
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{`null`, ``, `  `} {
		_, ok := EnumText([]byte(in))
		assert.False(t, ok, in)
	}
}
