package core

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/google/go-querystring/query"
	"github.com/rxdelivery/rxdelivery-go/internal/validate"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

//go:generate go run ../cmd/endpointgen -root ../..

// Endpoint describes one operation of the platform. Those in Endpoints,
// generated from the documents in api/, are the SDK's whole surface on the
// wire: a service method is its validation
// plus one call on its Endpoint.
type Endpoint struct {
	// Name is the operation as hooks, logs, spans and the test kit name
	// it: the service package and method, "orders.Create".
	Name string
	// Interface is the platform interface that serves it.
	Interface rxtypes.Interface
	// Method is the HTTP method.
	Method string
	// Route is the path below the interface's base URL with a placeholder
	// for each value: "/api/v1/orders/{id}/prescriptions/{rx_number}".
	// Hooks, spans and metrics see the route only.
	Route string
	// Hidden names the placeholders whose values errors and log lines
	// never show (a prescription number identifies a patient's
	// prescription); they show the placeholder instead.
	Hidden []string
	// Write marks a side-effecting write: it is sent again only where the
	// platform provably did not act, and any other failure leaves its
	// outcome unknown.
	Write bool

	// rt is Route parsed, on first use (parsed).
	rt atomic.Pointer[route]
}

// route is an Endpoint's Route parsed once: the literal text around each
// placeholder and the placeholders' names. A call fills it without parsing
// the template again.
type route struct {
	// lits are the literal parts: lits[i] comes before names[i], and the
	// last one ends the route.
	lits  []string
	names []string
	// hidden[i] is set when names[i] is one of the Endpoint's Hidden.
	hidden []bool
	// err is a malformed template: a brace without its pair, a placeholder
	// without a name, or a Hidden name the route does not have.
	err error
}

// routeParses counts the templates parsed, for the test that a call parses
// none of its own.
var routeParses atomic.Int64

// parsed returns the Endpoint's parsed route, parsing it on first use and
// keeping it in the descriptor.
func (e *Endpoint) parsed() *route {
	if r := e.rt.Load(); r != nil {
		return r
	}
	routeParses.Add(1)
	r := &route{}
	rest := e.Route
	for {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(rest[open:], '}') + open
		if end < open || end == open+1 || strings.IndexByte(rest[open+1:end], '{') >= 0 {
			r.err = errors.New(e.Name + ": malformed route template " + e.Route)
			break
		}
		name := rest[open+1 : end]
		r.lits = append(r.lits, rest[:open])
		r.names = append(r.names, name)
		r.hidden = append(r.hidden, e.hides(name))
		rest = rest[end+1:]
	}
	if r.err == nil && strings.IndexByte(rest, '}') >= 0 {
		r.err = errors.New(e.Name + ": malformed route template " + e.Route)
	}
	r.lits = append(r.lits, rest)
	for _, h := range e.Hidden {
		if r.err == nil && !slices.Contains(r.names, h) {
			r.err = errors.New(e.Name + ": hidden placeholder {" + h + "} is not in the route")
		}
	}
	if !e.rt.CompareAndSwap(nil, r) {
		return e.rt.Load()
	}
	return r
}

// Check reports a mistake in the descriptor: a malformed route template or
// a Hidden name the route does not have. A test runs it over every
// descriptor; a call on a descriptor that fails it fails with a
// *rxtypes.ConfigError before sending.
func (e *Endpoint) Check() error { return e.parsed().err }

// Placeholders returns the names of the route's placeholders, in order.
func (e *Endpoint) Placeholders() []string { return slices.Clone(e.parsed().names) }

// Paths fills the route's placeholders, in order, with values escaped as
// path segments. It returns the path to send and the path errors and logs
// show, in which the Hidden placeholders stay as they are (":rx_number").
// A number of values that differs from the number of placeholders, or a
// malformed descriptor, is a mistake in the SDK, not in a call: Paths
// returns a *rxtypes.ConfigError, and the route as both paths.
func (e *Endpoint) Paths(values ...string) (path, shown string, err error) {
	r := e.parsed()
	if r.err != nil {
		return e.Route, e.Route, &rxtypes.ConfigError{Message: r.err.Error()}
	}
	if len(values) != len(r.names) {
		return e.Route, e.Route, e.countError(len(values))
	}
	if len(values) == 0 {
		return e.Route, e.Route, nil
	}
	hidden := false
	for i, v := range values {
		escaped := url.PathEscape(v)
		path += r.lits[i] + escaped
		if r.hidden[i] {
			shown += r.lits[i] + ":" + r.names[i]
			hidden = true
		} else {
			shown += r.lits[i] + escaped
		}
	}
	last := r.lits[len(values)]
	path += last
	if !hidden {
		// The common case: nothing hidden, one string for both.
		return path, path, nil
	}
	return path, shown + last, nil
}

// countError is the error of n values for the route's placeholders.
func (e *Endpoint) countError(n int) error {
	return &rxtypes.ConfigError{Message: e.Name + ": " + strconv.Itoa(n) + " path values for " + strconv.Itoa(len(e.parsed().names)) + " placeholders"}
}

func (e *Endpoint) hides(name string) bool {
	for _, h := range e.Hidden {
		if h == name {
			return true
		}
	}
	return false
}

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
