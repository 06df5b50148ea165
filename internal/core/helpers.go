package core

import (
	"net/url"
	"strings"

	"github.com/google/go-querystring/query"

	"github.com/rxdelivery/rxdelivery-go/internal/validate"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Params returns the Check of a request whose params are p: fn validates
// p unless the client turned validation off, and a nil p is refused
// whatever the setting, so a call never sends an empty body by mistake.
// Services pass a method expression, such as
// core.Params(p, (*CreateParams).validate).
func Params[P any](p *P, fn func(*P, validate.Options) error) func(Checks) error {
	return func(c Checks) error {
		if p == nil {
			return errParamsRequired()
		}
		if !c.Validate {
			return nil
		}
		return fn(p, c.Options)
	}
}

// errParamsRequired is the refusal of nil params.
func errParamsRequired() error {
	return &rxtypes.ValidationError{Problems: []rxtypes.Problem{{Message: "params are required"}}}
}

// Query encodes v (a struct with `url` tags) with go-querystring; a
// url.Values is encoded as it is. Slices
// tagged `url:"ids,brackets"` give repeated ids[] keys; nested structs give
// bracket-nested keys such as delivery[address][street].
func Query(v any) (string, error) {
	if vals, ok := v.(url.Values); ok {
		return vals.Encode(), nil
	}
	vals, err := query.Values(v)
	if err != nil {
		return "", err
	}
	return vals.Encode(), nil
}

// CheckID refuses an identifier that would not name one resource in a
// path: empty, blank, "." or "..", or holding a character no text the SDK
// sends may carry (a control character or a bidirectional override:
// validate's text rule; no identifier the platform mints or a pharmacy
// writes holds one). Services run it whatever the validation
// setting, since a request with such an id would address another endpoint.
// path is the JSON path reported, such as "id" or "ids[2]".
func CheckID(path, id string) error {
	var c validate.Collector
	checkID(&c, path, id)
	return c.Err()
}

// IDs returns the Check of a get-many: it refuses an empty list of
// identifiers, and every identifier in it that CheckID refuses, at
// "ids[i]", whatever the validation setting.
func IDs(ids []string) func(Checks) error {
	return func(Checks) error { return checkIDs(ids) }
}

// checkIDs refuses an empty list of identifiers, and every identifier in it
// that CheckID refuses, at "ids[i]". Like CheckID it applies whatever the
// validation setting.
func checkIDs(ids []string) error {
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

// checkPathValues refuses, whatever the validation setting, a path value
// that would not name one resource (CheckID), at the placeholder's name
// ("id", "rx_number"), and a number of values the route does not have.
func checkPathValues(e *Endpoint, values []string) error {
	r := e.parsed()
	if r.err != nil {
		return &rxtypes.ConfigError{Message: r.err.Error()}
	}
	if len(r.names) != len(values) {
		return e.countError(len(values))
	}
	var c *validate.Collector
	for i, v := range values {
		if v == "" || v == "." || v == ".." || strings.TrimSpace(v) == "" || validate.HasControl(v) {
			if c == nil {
				c = new(validate.Collector)
			}
			checkID(c, r.names[i], v)
		}
	}
	if c == nil {
		return nil
	}
	return c.Err()
}
