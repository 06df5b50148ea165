package jsonx_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
)

func TestEnumText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{`"new"`: "new", `"a\u00e9"`: "aé", `6`: "6", ` true `: "true", `{"x":1}`: `{"x":1}`} {
		got, ok := jsonx.EnumText([]byte(in))
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{`null`, ``, `  `} {
		_, ok := jsonx.EnumText([]byte(in))
		assert.False(t, ok, in)
	}
}
