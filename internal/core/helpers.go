package core

import (
	"github.com/google/go-querystring/query"

	"github.com/rxdelivery/rxdelivery-go/internal/validate"
	"github.com/rxdelivery/rxdelivery-go/types"
)

// Check validates p with fn unless the client turned validation off. A nil
// p is refused whatever the setting, so a call never sends an empty body by
// mistake. Services pass a method expression, such as
// core.Check(s.b, p, (*CreateParams).validate).
func Check[P any](b *Backend, p *P, fn func(*P, validate.Options) error) error {
	if p == nil {
		return &types.ValidationError{Problems: []types.Problem{{Message: "params are required"}}}
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

// CheckID refuses an identifier that would not name one resource in a
// path: empty, blank, "." or "..". Services run it whatever the validation
// setting, since a request with such an id would address another endpoint.
// path is the JSON path reported, such as "id" or "ids[2]".
func CheckID(path, id string) error {
	var c validate.Collector
	checkID(&c, path, id)
	return c.Err()
}

// CheckIDs refuses an empty list of identifiers, and every identifier in it
// that CheckID refuses, at "ids[i]". Like CheckID it applies whatever the
// validation setting.
func CheckIDs(ids []string) error {
	var c validate.Collector
	if len(ids) == 0 {
		c.Add("ids", "is required (at least one id)")
	}
	validate.Each(&c, "ids", ids, func(id *string, c *validate.Collector) { checkID(c, "", *id) })
	return c.Err()
}

func checkID(c *validate.Collector, path, id string) {
	if c.Required(path, id) && (id == "." || id == "..") {
		c.Add(path, "must be an identifier")
	}
}

// Missing is the error for a 2xx answer that lacks the member the
// document promises; what names it, such as `"order" object`, and the
// message reads `the response has no "order" object`. For a write the
// outcome is unknown: the platform accepted the call, but its answer
// cannot be read.
func Missing(c Call, resp *Response, what string) error {
	return Unusable(c, resp, "the response has no "+what)
}
