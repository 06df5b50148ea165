package reliability_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rxdelivery/rxdelivery-go/internal/reliability"
)

type inner struct {
	Name   string
	hidden string
	Kind   kind
}

type kind string

type outer struct {
	ID    string
	Ptr   *inner
	Nil   *inner
	List  []inner
	Count int
}

func TestStringFields(t *testing.T) {
	t.Parallel()
	v := &outer{ID: "a", Ptr: &inner{Name: "b", hidden: "x", Kind: "c"}, List: []inner{{Name: "d"}, {Kind: "e"}}}
	var got []string
	for _, f := range reliability.StringFields(v) {
		got = append(got, f.String())
	}
	assert.Equal(t, []string{"a", "b", "c", "d", "", "", "e"}, got)
	reliability.StringFields(v)[1].SetString("z")
	assert.Equal(t, "z", v.Ptr.Name)
	assert.Empty(t, reliability.StringFields(&struct{ N int }{}))
}
