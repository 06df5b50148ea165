package sandbox

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
)

// maxBody bounds a request body the sandbox reads.
const maxBody = 1 << 20

// handlerFunc serves one method of one route.
type handlerFunc func(c *call)

// Route is one operation's route, as the documents in api/ give it:
// Routes (operations_gen.go) lists the platform's, generated.
type Route struct {
	// Interface is the interface that serves it.
	Interface Interface
	// Method is the HTTP method.
	Method string
	// Path is the path template below the interface's prefix, with a
	// {name} segment for each path parameter, such as
	// "/api/v1/orders/{id}". One trailing slash is ignored.
	Path string
	// Operation is the operation's name, such as "orders.Get".
	Operation string
}

// Handler serves a test-only operation added by Config.ExtraRoutes: it
// is given the path parameters unescaped by name, after the checks every
// operation shares (credentials, route, method, Accept).
type Handler func(w http.ResponseWriter, r *http.Request, params map[string]string)

// op is one operation: a method of a route, with its name.
type op struct {
	name string
	h    handlerFunc
}

// route is one path template of one interface with its methods.
type route struct {
	iface   Interface
	name    string // template such as "/api/v1/orders/{id}"
	segs    []string
	methods map[string]op
	allow   string
}

// call is one request being served.
type call struct {
	w      http.ResponseWriter
	r      *http.Request
	iface  Interface
	params map[string]string
}

// buildRoutes groups routes by interface and path template (one trailing
// slash ignored), each method served by its operation's handler. Every
// route needs a handler and every handler a route; a method is served once
// per template.
func buildRoutes(routes []Route, handlers map[string]handlerFunc) ([]*route, error) {
	var out []*route
	byTmpl := map[string]*route{}
	used := map[string]bool{}
	for _, r := range routes {
		h := handlers[r.Operation]
		if h == nil {
			return nil, fmt.Errorf("sandbox: operation %s (%s %s) has no handler", r.Operation, r.Method, r.Path)
		}
		if used[r.Operation] {
			return nil, fmt.Errorf("sandbox: operation %s has two routes", r.Operation)
		}
		used[r.Operation] = true
		tmpl := strings.TrimSuffix(r.Path, "/")
		key := string(r.Interface) + " " + tmpl
		rt := byTmpl[key]
		if rt == nil {
			rt = &route{iface: r.Interface, name: tmpl, segs: strings.Split(strings.Trim(tmpl, "/"), "/"), methods: map[string]op{}}
			byTmpl[key] = rt
			out = append(out, rt)
		}
		if o, ok := rt.methods[r.Method]; ok {
			return nil, fmt.Errorf("sandbox: %s %s%s is served by both %s and %s", r.Method, r.Interface.Prefix(), tmpl, o.name, r.Operation)
		}
		rt.methods[r.Method] = op{name: r.Operation, h: h}
	}
	for name := range handlers {
		if !used[name] {
			return nil, fmt.Errorf("sandbox: handler of %s serves no route", name)
		}
	}
	for _, rt := range out {
		names := make([]string, 0, len(rt.methods))
		for m := range rt.methods {
			names = append(names, m)
		}
		sort.Strings(names)
		rt.allow = strings.Join(names, ", ")
	}
	return out, nil
}

// param returns the name of a {name} segment, or false for a literal one.
func param(seg string) (string, bool) {
	if len(seg) > 2 && seg[0] == '{' && seg[len(seg)-1] == '}' {
		return seg[1 : len(seg)-1], true
	}
	return "", false
}

// splitInterface returns the interface an escaped path belongs to and the
// rest of the path after its prefix.
func splitInterface(escaped string) (Interface, string, bool) {
	for _, i := range Interfaces {
		p := i.Prefix()
		if escaped == p || strings.HasPrefix(escaped, p+"/") {
			return i, escaped[len(p):], true
		}
	}
	return "", "", false
}

// match finds the route of an escaped path (relative to the interface
// prefix). One trailing slash is ignored. Parameters are unescaped.
func (s *Sandbox) match(iface Interface, rest string) (*route, map[string]string) {
	rest = strings.TrimPrefix(rest, "/")
	rest = strings.TrimSuffix(rest, "/")
	segs := strings.Split(rest, "/")
next:
	for _, rt := range s.routes {
		if rt.iface != iface || len(rt.segs) != len(segs) {
			continue
		}
		var params map[string]string
		for i, want := range rt.segs {
			got := segs[i]
			if name, ok := param(want); ok {
				v, err := url.PathUnescape(got)
				if err != nil || v == "" {
					continue next
				}
				if params == nil {
					params = map[string]string{}
				}
				params[name] = v
				continue
			}
			if got != want {
				continue next
			}
		}
		return rt, params
	}
	return nil, nil
}

// statusWriter reports the status of an answer once, before any byte of it
// leaves, so that a client never sees an answer its call is not yet
// recorded for.
type statusWriter struct {
	http.ResponseWriter
	done     bool
	onStatus func(status int)
}

// settle reports the status (0 for a dropped connection) the first time.
func (w *statusWriter) settle(status int) {
	if !w.done {
		w.done = true
		w.onStatus(status)
	}
}

func (w *statusWriter) WriteHeader(code int) {
	w.settle(code)
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.settle(http.StatusOK)
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (for the cut
// faults).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// ServeHTTP serves the four interfaces under their prefixes.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	received, simulated := time.Now(), s.now()
	iface, rest, known := splitInterface(r.URL.EscapedPath())
	var rt *route
	var params map[string]string
	if known {
		rt, params = s.match(iface, rest)
	}
	routeName, opName := "(unknown)", ""
	if rt != nil {
		routeName = iface.Prefix() + rt.name
		opName = rt.methods[r.Method].name
	}
	// Keep the body for the call record, and hand the handler a copy.
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err == nil {
			body = b
		}
		r.Body = io.NopCloser(bytes.NewReader(b))
	}
	f := s.takeFault(iface, opName, r)
	// The call is on the record from here on, whatever the fault does with
	// its response; its status follows when it is written.
	rec := s.recordCall(Call{
		Interface: iface, Operation: opName, Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
		Route: routeName, Fault: f.name(), Body: body, ReceivedAt: received, SimulatedAt: simulated,
	})
	s.catchUp(simulated)
	sw := &statusWriter{ResponseWriter: w, onStatus: func(status int) { s.setStatus(rec, status) }}
	defer sw.settle(0) // a handler that wrote nothing (client gone, connection dropped)
	serve := func(w http.ResponseWriter) {
		s.serve(&call{w: w, r: r, iface: iface, params: params}, known, rt)
	}
	if f == nil {
		serve(sw)
		return
	}
	s.applyFault(sw, r, iface, f, serve)
}

// serve runs the checks every interface shares, then the route's handler.
func (s *Sandbox) serve(c *call, known bool, rt *route) {
	if !known {
		writeJSON(c.w, http.StatusNotFound, map[string]any{"error": map[string]string{"message": "Not found"}})
		return
	}
	if status, msg := s.authenticate(c.r, c.iface); status != 0 {
		s.fail(c, status, "", msg)
		return
	}
	if rt == nil {
		s.fail(c, http.StatusNotFound, "", "No such route")
		return
	}
	o, ok := rt.methods[c.r.Method]
	if !ok {
		c.w.Header().Set("Allow", rt.allow)
		s.fail(c, http.StatusMethodNotAllowed, "", "Method not allowed on this route")
		return
	}
	if !acceptsJSON(c.r.Header.Values("Accept")) {
		s.fail(c, http.StatusNotAcceptable, "", "Accept must allow application/json")
		return
	}
	o.h(c)
}

// acceptsJSON reports whether the Accept header values (none means any)
// allow application/json.
func acceptsJSON(values []string) bool {
	if len(values) == 0 {
		return true
	}
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			mt := strings.ToLower(strings.TrimSpace(strings.SplitN(part, ";", 2)[0]))
			switch mt {
			case "application/json", "application/*", "*/*":
				return true
			}
		}
	}
	return false
}

// authenticate checks the Basic credentials for iface. It returns 0 when
// they are accepted, else the status (401 or 403) and the message.
func (s *Sandbox) authenticate(r *http.Request, iface Interface) (int, string) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return http.StatusUnauthorized, "Authorization header is required"
	}
	scheme, encoded, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Basic") {
		return http.StatusUnauthorized, "Authorization scheme must be Basic"
	}
	key, secret, ok := decodeBasic(strings.TrimSpace(encoded), iface)
	if !ok {
		return http.StatusUnauthorized, "Invalid authorization credentials"
	}
	keyKnown, matched, disabled := false, false, false
	for _, c := range s.creds {
		if c.Key != key {
			continue
		}
		keyKnown = true
		if subtle.ConstantTimeCompare([]byte(c.Secret), []byte(secret)) != 1 {
			continue
		}
		if c.Disabled {
			disabled = true
			continue
		}
		matched = true
		if enabledFor(c, iface) {
			return 0, ""
		}
	}
	switch {
	case matched:
		return http.StatusForbidden, "API credentials are not enabled for this interface"
	case disabled:
		return http.StatusUnauthorized, "API credentials are disabled"
	case keyKnown:
		return http.StatusUnauthorized, "API secret is invalid"
	default:
		return http.StatusUnauthorized, "API key is invalid"
	}
}

func enabledFor(c Credentials, iface Interface) bool {
	if len(c.Interfaces) == 0 {
		return true
	}
	for _, i := range c.Interfaces {
		if i == iface {
			return true
		}
	}
	return false
}

// decodeBasic decodes key:secret from base64 in iface's alphabet
// (authAlphabet), with or without padding; credentials in the other
// alphabet do not decode.
func decodeBasic(encoded string, iface Interface) (key, secret string, ok bool) {
	if encoded == "" {
		return "", "", false
	}
	b, err := authAlphabet(iface).DecodeString(strings.TrimRight(encoded, "="))
	if err != nil {
		return "", "", false
	}
	key, secret, ok = strings.Cut(string(b), ":")
	if !ok || key == "" {
		return "", "", false
	}
	return key, secret, true
}

// errSeq numbers the omni error ids.
var errSeq atomic.Uint64

// codeFor is the machine-readable error code (tracking "code", omni "type")
// used for a status when the handler gives none.
func codeFor(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "invalid_request"
	case http.StatusUnauthorized:
		return "unauthorized"
	case http.StatusForbidden:
		return "forbidden"
	case http.StatusNotFound:
		return "not_found"
	case http.StatusMethodNotAllowed:
		return "method_not_allowed"
	case http.StatusNotAcceptable:
		return "not_acceptable"
	case http.StatusUnprocessableEntity:
		return "validation_error"
	case http.StatusTooManyRequests:
		return "rate_limit_exceeded"
	case http.StatusBadGateway:
		return "bad_gateway"
	case http.StatusServiceUnavailable:
		return "service_unavailable"
	default:
		return "internal_error"
	}
}

// errorBody builds the error body of an interface. code defaults to
// codeFor(status); id (omni only) defaults to a fresh error id.
func errorBody(iface Interface, status int, code, message, id string) any {
	if code == "" {
		code = codeFor(status)
	}
	switch iface {
	case Omni:
		if id == "" {
			id = fmt.Sprintf("err_%06d", errSeq.Add(1))
		}
		return map[string]any{"error": map[string]string{"id": id, "type": code, "message": message}}
	case Tracking:
		return map[string]any{"error": map[string]string{"code": code, "message": message}}
	default:
		return map[string]any{"error": map[string]string{"message": message}}
	}
}

// fail writes an error in the call's interface shape.
func (s *Sandbox) fail(c *call, status int, code, message string) {
	writeJSON(c.w, status, errorBody(c.iface, status, code, message, ""))
}

// failID writes an omni error carrying a resource id.
func (s *Sandbox) failID(c *call, status int, code, message, id string) {
	writeJSON(c.w, status, errorBody(c.iface, status, code, message, id))
}

// writeJSON writes v as the JSON body with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":{"message":"encoding failed"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// noContent answers 204.
func noContent(w http.ResponseWriter) { w.WriteHeader(http.StatusNoContent) }

// isJSONContentType reports whether a Content-Type is application/json
// (parameters such as charset allowed).
func isJSONContentType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

// readJSONBody checks the Content-Type, reads the body and decodes it into
// v (strictly unless unknown fields are allowed). On failure it answers 400
// in the interface's shape and returns false.
func (s *Sandbox) readJSONBody(c *call, v any) ([]byte, bool) {
	if !isJSONContentType(c.r.Header.Get("Content-Type")) {
		s.fail(c, http.StatusBadRequest, "", "Content-Type must be application/json")
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.w, c.r.Body, maxBody))
	if err != nil {
		s.fail(c, http.StatusBadRequest, "", "body could not be read or is too large")
		return nil, false
	}
	if msg := decodeJSON(body, v, s.strict); msg != "" {
		s.fail(c, http.StatusBadRequest, "", msg)
		return nil, false
	}
	return body, true
}

// decodeJSON decodes one JSON value from body into v and returns a message
// naming what is wrong (never a value from the body), or "".
func decodeJSON(body []byte, v any, strict bool) string {
	if len(bytes.TrimSpace(body)) == 0 {
		return "body is required"
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		var synErr *json.SyntaxError
		switch {
		case errors.As(err, &typeErr):
			field := typeErrorPath(body[:dec.InputOffset()], v, typeErr)
			if field == "" {
				field = "body"
			}
			return field + ": must be " + jsonKind(typeErr.Type)
		case errors.As(err, &synErr), errors.Is(err, io.ErrUnexpectedEOF):
			return "body is not valid JSON"
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return "unknown field " + strings.TrimPrefix(err.Error(), "json: unknown field ")
		default:
			return "body is not valid JSON"
		}
	}
	if _, err := dec.Token(); err != io.EOF {
		return "body must hold a single JSON value"
	}
	return ""
}

// typeErrorPath returns the path of te, the type error decoding value (the
// body's first JSON value) into v gave, written as the sandbox's other
// messages write paths (prescriptions[0].days_supply) and the same on every
// Go release: encoding/json before Go 1.27 leaves array indexes out of
// te.Field, so the value is decoded again by jsonx, whose type errors have
// them.
func typeErrorPath(value []byte, v any, te *json.UnmarshalTypeError) string {
	field := te.Field
	var again *json.UnmarshalTypeError
	if t := reflect.TypeOf(v); t != nil && t.Kind() == reflect.Pointer &&
		errors.As(jsonx.Unmarshal(value, reflect.New(t.Elem()).Interface()), &again) && again.Type == te.Type {
		field = again.Field
	}
	return jsonx.Path(value, field)
}

// jsonKind names the JSON kind a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64, reflect.Float32:
		return "a number"
	default:
		return "an object"
	}
}

// checkQuery answers 400 and returns false when strict decoding is on and
// the query holds a key outside allowed.
func (s *Sandbox) checkQuery(c *call, q url.Values, allowed ...string) bool {
	if !s.strict {
		return true
	}
	var unknown []string
	for k := range q {
		found := false
		for _, a := range allowed {
			if k == a {
				found = true
				break
			}
		}
		if !found {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return true
	}
	sort.Strings(unknown)
	s.fail(c, http.StatusBadRequest, "", "unknown query parameter "+strings.Join(quoteAll(unknown), ", "))
	return false
}

func quoteAll(in []string) []string {
	out := make([]string, len(in))
	for i, v := range in {
		out[i] = strconv.Quote(v)
	}
	return out
}
