package core

import (
	"github.com/google/go-querystring/query"

	"github.com/rxdelivery/rxdelivery-go/internal/validate"
)

// Check validates p with fn unless the client turned validation off. A nil
// p is refused whatever the setting, so a call never sends an empty body by
// mistake. Services pass a method expression, such as
// core.Check(s.b, p, (*CreateParams).validate).
func Check[P any](b *Backend, p *P, fn func(*P, validate.Options) error) error {
	if p == nil {
		return &validate.ValidationError{Problems: []validate.Problem{{Message: "params are required"}}}
	}
	o, on := b.Validation()
	if !on {
		return nil
	}
	return fn(p, o)
}

// Query encodes v (a struct with `url` tags) with go-querystring. Slices
// tagged `url:"ids,brackets"` give repeated ids[] keys; nested structs give
// bracket-nested keys such as delivery[address][street].
func Query(v any) (string, error) {
	vals, err := query.Values(v)
	if err != nil {
		return "", err
	}
	return vals.Encode(), nil
}
