package core

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Custom is a call of an endpoint the SDK does not model (rxdelivery.Do):
// the descriptor a modelled endpoint has in its service, given by the
// caller, and checked before anything is sent.
type Custom struct {
	// Name names the operation in hooks, logs and spans; "" for
	// DefaultCustomName.
	Name string
	// Method is the HTTP method: GET and HEAD are reads, POST, PUT, PATCH
	// and DELETE writes.
	Method string
	// Route is the path below the interface's base URL, with a {name}
	// placeholder for each path parameter.
	Route string
	// Params holds the value of each placeholder.
	Params map[string]string
	// Visible names the placeholders whose values errors, logs and
	// transcripts may show; every other one is hidden.
	Visible []string
	// Query is sent as the query string.
	Query url.Values
	// Body, when not nil, is encoded as the JSON request body.
	Body any
	// Out, when not nil, receives the decoded 2xx response.
	Out any
	// Opts are the call's options.
	Opts []option.CallOption
}

// DefaultCustomName is the operation name of a Custom call without one.
const DefaultCustomName = "rxdelivery.Do"

// ExecuteCustom makes the call cu describes as Execute makes a modelled
// one: the same settings, checks, transport, retry policy, errors and
// metadata. A descriptor that cannot be sent (an unknown method, a route
// that is not a path, a placeholder without its value) is refused with a
// *rxtypes.ConfigError before anything is sent, and fills the call's
// Metadata as any refusal does.
func (b *Backend) ExecuteCustom(ctx context.Context, cu Custom) error {
	ep, values, err := cu.endpoint(b.iface)
	if err != nil {
		// The call's own end: its metadata filled, nothing sent.
		return b.Execute(ctx, Request{Endpoint: &Endpoint{Name: DefaultCustomName, Interface: b.iface, Method: http.MethodGet, Route: "/"},
			Check: func(Checks) error { return err }, Opts: cu.Opts})
	}
	out := cu.Out
	if cu.Method == http.MethodHead {
		// A response to HEAD has no body to decode.
		out = nil
	}
	return b.Execute(ctx, Request{Endpoint: ep, PathValues: values, Query: queryOrNil(cu.Query), Body: cu.Body, Out: out, Opts: cu.Opts})
}

// queryOrNil is q, or nil (no query) when q is empty.
func queryOrNil(q url.Values) any {
	if len(q) == 0 {
		return nil
	}
	return q
}

// customWrite tells the methods a Custom call may use, and which of them
// are writes.
var customWrite = map[string]bool{
	http.MethodGet: false, http.MethodHead: false,
	http.MethodPost: true, http.MethodPut: true, http.MethodPatch: true, http.MethodDelete: true,
}

// endpoint checks cu and returns its Endpoint and the values of its
// route's placeholders, in order.
func (cu *Custom) endpoint(iface rxtypes.Interface) (*Endpoint, []string, error) {
	name := cu.Name
	if name == "" {
		name = DefaultCustomName
	}
	refuse := func(what string) error {
		return &rxtypes.ConfigError{Message: "Do: " + what}
	}
	if !operationName(name) {
		return nil, nil, refuse("the operation name must be at most 64 letters, digits, '.' and '_'")
	}
	write, ok := customWrite[cu.Method]
	if !ok {
		return nil, nil, refuse("the method must be GET, HEAD, POST, PUT, PATCH or DELETE")
	}
	// The route is parsed once, into the descriptor the call then fills:
	// the same parse as the SDK's own descriptors, with a custom route's
	// further checks on what it found.
	ep := &Endpoint{Name: name, Interface: iface, Method: cu.Method, Route: cu.Route, Write: write}
	r := ep.parsed()
	if err := checkCustomRoute(cu.Route, r); err != nil {
		return nil, nil, refuse(err.Error())
	}
	names := r.names
	values := make([]string, len(names))
	for i, n := range names {
		v, ok := cu.Params[n]
		if !ok {
			return nil, nil, refuse("no value for the path parameter {" + n + "}")
		}
		values[i] = v
	}
	for k := range cu.Params {
		if !slices.Contains(names, k) {
			return nil, nil, refuse("the path has no parameter {" + safeName(k) + "}")
		}
	}
	for _, v := range cu.Visible {
		if !slices.Contains(names, v) {
			return nil, nil, refuse("Visible names {" + safeName(v) + "}, which the path does not have")
		}
	}
	// Every placeholder is hidden but those Visible names. The descriptor
	// is this call's own, not yet shared, so its parse takes the flags
	// here.
	for i, n := range names {
		if !slices.Contains(cu.Visible, n) {
			ep.Hidden = append(ep.Hidden, n)
			r.hidden[i] = true
		}
	}
	return ep, values, nil
}

// checkCustomRoute refuses a custom route, given its parse r, that is not
// a path below a base URL: one that does not start with "/", whose braces
// do not pair, whose placeholder names are not letters, digits and '_' or
// repeat, or whose literal part needs escaping, has a query, a fragment or
// a dot segment.
func checkCustomRoute(route string, r *route) error {
	if !strings.HasPrefix(route, "/") {
		return errText("the path must start with \"/\"")
	}
	if r.err != nil {
		switch opens, closes := strings.Count(route, "{"), strings.Count(route, "}"); {
		case opens > closes:
			return errText("the path has a \"{\" without its \"}\"")
		case opens < closes:
			return errText("the path has a \"}\" without its \"{\"")
		}
		return errText("a path parameter's name must be letters, digits and '_'")
	}
	for i, n := range r.names {
		if !placeholderName(n) {
			return errText("a path parameter's name must be letters, digits and '_'")
		}
		if slices.Contains(r.names[:i], n) {
			return errText("the path names {" + n + "} twice")
		}
	}
	lit := strings.Join(r.lits, "/x/")
	if (&url.URL{Path: lit}).EscapedPath() != lit || strings.ContainsAny(lit, "?#%") {
		return errText("the path has a character that needs escaping, a query or a fragment (pass Query)")
	}
	for _, seg := range strings.Split(lit, "/") {
		if seg == "." || seg == ".." {
			return errText("the path has a dot segment")
		}
	}
	return nil
}

type errText string

func (e errText) Error() string { return string(e) }

// operationName reports whether s is a name of the form the SDK's own
// operations have ("orders.Create"): it reaches logs, spans and metrics.
func operationName(s string) bool {
	if len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '.' || ch == '_') {
			return false
		}
	}
	return s != ""
}

// placeholderName reports whether s may name a path parameter.
func placeholderName(s string) bool {
	return s != "" && len(s) <= 64 && operationName(s) && !strings.Contains(s, ".")
}

// safeName is s for an error message when it has a placeholder's form,
// else a mark: a caller's key may be anything.
func safeName(s string) string {
	if placeholderName(s) {
		return s
	}
	return "?"
}
