// Command conformance validates the exchanges a simulator built with the
// conformance tag recorded (internal/sandbox's Observe) against the OpenAPI
// documents in api/: each request against its operation's parameters,
// security and body, each response against the operation's responses. It
// prints one line per violation (the operation, request or response, and
// the validator's reason with the offending value left out) and the counts
// of requests and responses validated, and exits 1 when any violation was
// found. A request the simulator refused with a 4xx status is not held to
// the documents (the tests send such requests to see them refused); its
// response is. A response the simulator planted malformed (a fault a test
// injected to see the client cope) is not held to them either; its request
// is. A response that carries a body where its operation's document
// declares none for its status is a violation too. A tracking notification the simulator sent is validated against its
// webhook's body (the listener's answer is a test's, and is not).
//
// It then lists, for every operation of the documents (the four
// interfaces' and the control API's) and every webhook, how many requests
// and responses were validated (of the responses, how many were a
// success), names the operations not reached, and fails on them: an
// operation without a validated request or a validated success response,
// or a webhook without a validated notification, is one whose bodies the
// check never held to the documents.
//
// Usage: conformance API_DIR RECORD_DIR [DOCUMENT=OVERLAY ...]
//
// Each DOCUMENT=OVERLAY, such as
// omni.yaml=rxdeliverytest/testdata/walk/widgets.yaml, merges the paths of
// the overlay file into the document's before validating (the overlay's
// references are the document's components), and every operation it adds
// must have been exercised by at least one recorded exchange: the
// endpoint walk's test-only endpoint is validated as a real one is, and
// the walk not reaching the simulator is a violation.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"go.yaml.in/yaml/v3"
)

// exchange is internal/sandbox.Exchange as recorded.
type exchange struct {
	Method         string      `json:"method"`
	Path           string      `json:"path"`
	RawQuery       string      `json:"raw_query"`
	RequestHeader  http.Header `json:"request_header"`
	RequestBody    []byte      `json:"request_body"`
	Status         int         `json:"status"`
	ResponseHeader http.Header `json:"response_header"`
	ResponseBody   []byte      `json:"response_body"`
	Fault          string      `json:"fault,omitempty"`
	Webhook        string      `json:"webhook,omitempty"`
}

// prefixes maps the simulator's path prefix of each interface to its
// document; the control API's paths keep their prefix.
var prefixes = []struct{ prefix, doc string }{
	{"/omni", "omni.yaml"},
	{"/delivery", "delivery.yaml"},
	{"/tracking", "tracking.yaml"},
	{"/pricing", "pricing.yaml"},
	{"", "sandbox.yaml"},
}

// Result counts what Check validated and lists the violations found:
// Skipped counts the exchanges outside the documents' servers.
type Result struct {
	Requests, Responses, Skipped int
	// Planted counts the responses not validated because the simulator
	// planted them malformed.
	Planted    int
	Violations []string
	// Coverage lists every operation of the documents and every webhook,
	// document by document in the order of prefixes, each document's
	// operations by path and method.
	Coverage []Coverage
	// Unreached names the operations without a validated request or
	// success response and the webhooks without a validated notification:
	// the check fails on them.
	Unreached []string
}

// Coverage counts what was validated of one operation or webhook.
// Requests counts the requests held to the documents (not those the
// simulator refused with a 4xx, which are not); Responses counts the
// responses validated, Successes those of them with a 2xx status. A
// webhook's Requests counts the notifications validated; it has no
// responses.
type Coverage struct {
	// Doc is the document's file name, Operation the operation's
	// x-rxdelivery-operation (else its method and path, or the
	// webhook's name).
	Doc, Operation string
	// Method and Path are the operation's route in its document; a
	// webhook's Path is its name.
	Method, Path                   string
	Webhook                        bool
	Requests, Responses, Successes int
}

// reached reports whether the operation had a validated request and a
// validated success response (a webhook, a validated notification).
func (c Coverage) reached() bool {
	return c.Requests > 0 && (c.Webhook || c.Successes > 0)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run checks the record (args: API_DIR RECORD_DIR [DOCUMENT=OVERLAY ...]),
// prints the violations, the coverage of each operation, the operations
// not reached and the counts to stdout, and returns the exit status: 2
// when the check could not run, 1 on a violation or an operation not
// reached, else 0.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 {
		fmt.Fprintln(stderr, "usage: conformance API_DIR RECORD_DIR [DOCUMENT=OVERLAY ...]")
		return 2
	}
	overlays := map[string]string{}
	for _, a := range args[2:] {
		doc, file, ok := strings.Cut(a, "=")
		if !ok {
			fmt.Fprintln(stderr, "conformance: an overlay is DOCUMENT=FILE, such as omni.yaml=widgets.yaml")
			return 2
		}
		overlays[doc] = file
	}
	res, err := CheckDir(args[0], args[1], overlays)
	if err != nil {
		fmt.Fprintln(stderr, "conformance:", err)
		return 2
	}
	for _, v := range res.Violations {
		fmt.Fprintln(stdout, v)
	}
	for _, c := range res.Coverage {
		what := fmt.Sprintf("%d requests, %d responses (%d successes)", c.Requests, c.Responses, c.Successes)
		if c.Webhook {
			what = fmt.Sprintf("%d notifications (webhook)", c.Requests)
		}
		fmt.Fprintf(stdout, "conformance: %s %s: %s\n", c.Doc, c.Operation, what)
	}
	for _, op := range res.Unreached {
		fmt.Fprintf(stdout, "conformance: not reached (no validated request, success response or notification): %s\n", op)
	}
	fmt.Fprintf(stdout, "conformance: %d requests and %d responses validated (%d exchanges outside the documents' servers skipped, %d planted malformed responses not validated), %d violations, %d operations not reached\n",
		res.Requests, res.Responses, res.Skipped, res.Planted, len(res.Violations), len(res.Unreached))
	if len(res.Violations) > 0 || len(res.Unreached) > 0 {
		return 1
	}
	return 0
}

// checker validates exchanges against the loaded documents.
type checker struct {
	routers map[string]routers.Router
	// webhooks holds each document's webhooks by name, with the document.
	webhooks map[string]webhook
	// added counts the exchanges of each operation an overlay added.
	added map[string]int
	// coverage holds the counts of every operation and webhook, in the
	// order Result.Coverage lists them; index finds one by name.
	coverage []Coverage
	index    map[string]int
}

// count returns the counts of the operation or webhook name.
func (c *checker) count(name string) *Coverage {
	i, ok := c.index[name]
	if !ok {
		return &Coverage{}
	}
	return &c.coverage[i]
}

// webhook is a webhook's operation (the platform's POST to a listener) and
// the document that declares it.
type webhook struct {
	doc string
	op  *openapi3.Operation
}

// newChecker loads the documents of apiDir, each with the paths of its
// overlay file (by document name) merged in.
func newChecker(apiDir string, overlays map[string]string) (*checker, error) {
	c := &checker{routers: map[string]routers.Router{}, webhooks: map[string]webhook{}, added: map[string]int{}, index: map[string]int{}}
	for name := range overlays {
		known := false
		for _, p := range prefixes {
			known = known || p.doc == name
		}
		if !known {
			return nil, fmt.Errorf("overlay of %s: no such document", name)
		}
	}
	for _, p := range prefixes {
		loader := openapi3.NewLoader()
		loader.IsExternalRefsAllowed = true
		path := filepath.Join(apiDir, p.doc)
		var doc *openapi3.T
		var err error
		if o, ok := overlays[p.doc]; ok {
			var b []byte
			var added []string
			if b, added, err = merge(path, o); err == nil {
				doc, err = loader.LoadFromDataWithPath(b, &url.URL{Path: path})
			}
			for _, name := range added {
				c.added[name] = 0
			}
		} else {
			doc, err = loader.LoadFromFile(path)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.doc, err)
		}
		// The control document refers to the platform documents' schemas
		// (an accepted call's body in the call record): copied into its
		// components, the JSON Schema validator sees them as it sees the
		// document's own (an external reference it cannot follow would
		// leave the rule unchecked).
		doc.InternalizeRefs(context.Background(), nil)
		if err := doc.Validate(context.Background()); err != nil {
			return nil, fmt.Errorf("%s: %w", p.doc, err)
		}
		// Route against the path alone: the server is wherever the
		// simulator listens.
		doc.Servers = openapi3.Servers{{URL: "/"}}
		r, err := gorillamux.NewRouter(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.doc, err)
		}
		c.routers[p.doc] = r
		paths := doc.Paths.InMatchingOrder()
		sort.Strings(paths)
		for _, path := range paths {
			ops := doc.Paths.Value(path).Operations()
			methods := make([]string, 0, len(ops))
			for m := range ops {
				methods = append(methods, m)
			}
			sort.Strings(methods)
			for _, m := range methods {
				c.add(Coverage{Doc: p.doc, Method: m, Path: path, Operation: operationName(&routers.Route{Method: m, Path: path, Operation: ops[m]})})
			}
		}
		names := make([]string, 0, len(doc.Webhooks))
		for name, item := range doc.Webhooks {
			if item != nil && item.Post != nil {
				c.webhooks[name] = webhook{doc: p.doc, op: item.Post}
				names = append(names, name)
			}
		}
		sort.Strings(names)
		for _, name := range names {
			c.add(Coverage{Doc: p.doc, Method: http.MethodPost, Path: name, Operation: webhookName(name, c.webhooks[name]), Webhook: true})
		}
	}
	return c, nil
}

// add lists an operation or webhook to count.
func (c *checker) add(cov Coverage) {
	c.index[cov.Operation] = len(c.coverage)
	c.coverage = append(c.coverage, cov)
}

// merge returns the document at path with the paths of the overlay file
// added, and the x-rxdelivery-operation names of the operations added. A
// path the document has already is refused.
func merge(path, overlay string) ([]byte, []string, error) {
	var base, extra yaml.Node
	for _, f := range []struct {
		name string
		n    *yaml.Node
	}{{path, &base}, {overlay, &extra}} {
		b, err := os.ReadFile(f.name)
		if err != nil {
			return nil, nil, err
		}
		if err := yaml.Unmarshal(b, f.n); err != nil || len(f.n.Content) == 0 {
			return nil, nil, fmt.Errorf("%s: not a YAML document: %v", f.name, err)
		}
	}
	paths, more := mapping(base.Content[0], "paths"), mapping(extra.Content[0], "paths")
	if paths == nil || more == nil {
		return nil, nil, fmt.Errorf("%s or %s: no paths", path, overlay)
	}
	var added []string
	for i := 0; i+1 < len(more.Content); i += 2 {
		if mapping(paths, more.Content[i].Value) != nil {
			return nil, nil, fmt.Errorf("%s: the document has %s already", overlay, more.Content[i].Value)
		}
		item := more.Content[i+1]
		for j := 0; j+1 < len(item.Content); j += 2 {
			if n := mapping(item.Content[j+1], "x-rxdelivery-operation"); n != nil {
				added = append(added, n.Value)
			}
		}
	}
	paths.Content = append(paths.Content, more.Content...)
	b, err := yaml.Marshal(&base)
	return b, added, err
}

// mapping returns the value of key in the mapping node n, or nil.
func mapping(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// CheckDir validates every exchange recorded in the files of recordDir
// against the documents of apiDir, each merged with its overlay in
// overlays (file by document name, such as "omni.yaml"); an operation an
// overlay added with no exchange recorded is a violation. It lists what it
// validated of each operation.
func CheckDir(apiDir, recordDir string, overlays map[string]string) (Result, error) {
	c, err := newChecker(apiDir, overlays)
	if err != nil {
		return Result{}, err
	}
	files, err := filepath.Glob(filepath.Join(recordDir, "*.jsonl"))
	if err != nil {
		return Result{}, err
	}
	var res Result
	for _, name := range files {
		if err := c.checkFile(name, &res); err != nil {
			return res, err
		}
	}
	for name, n := range c.added {
		if n == 0 {
			res.Violations = append(res.Violations, name+": no exchange recorded of this operation an overlay added")
		}
	}
	sort.Strings(res.Violations)
	res.Coverage = c.coverage
	for _, cov := range c.coverage {
		if !cov.reached() {
			res.Unreached = append(res.Unreached, cov.Operation)
		}
	}
	return res, nil
}

func (c *checker) checkFile(name string, res *Result) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var ex exchange
		if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		c.check(ex, res)
	}
	return sc.Err()
}

func (c *checker) check(ex exchange, res *Result) {
	if ex.Webhook != "" {
		c.checkWebhook(ex, res)
		return
	}
	doc, path := "", ex.Path
	for _, p := range prefixes {
		if p.prefix == "" {
			if strings.HasPrefix(path, "/_control/") {
				doc = p.doc
			}
			break
		}
		if strings.HasPrefix(path, p.prefix+"/") {
			doc, path = p.doc, strings.TrimPrefix(path, p.prefix)
			break
		}
	}
	if doc == "" {
		res.Skipped++
		return
	}
	u := &url.URL{Path: path, RawQuery: ex.RawQuery}
	if p, err := url.PathUnescape(path); err == nil {
		u.Path, u.RawPath = p, path
	}
	req, _ := http.NewRequest(ex.Method, u.String(), bytes.NewReader(ex.RequestBody))
	req.Header = ex.RequestHeader.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	if doc == "sandbox.yaml" && len(ex.RequestBody) > 0 && req.Header.Get("Content-Type") == "" {
		// The control API reads a JSON body whatever its Content-Type
		// (api/sandbox.yaml says so).
		req.Header.Set("Content-Type", "application/json")
	}
	req.URL = u
	// A request the simulator refused (4xx) was a test of the refusal: a
	// violation of the documents is what it should be. One it accepted
	// must conform.
	refused := ex.Status >= 400 && ex.Status < 500
	route, params, err := c.routers[doc].FindRoute(req)
	if err != nil {
		res.Requests++
		if !refused {
			res.Violations = append(res.Violations, fmt.Sprintf("%s %s (%s): request: no operation of %s", ex.Method, ex.Path, doc, doc))
		}
		return
	}
	op := operationName(route)
	if _, ok := c.added[op]; ok {
		c.added[op]++
	}
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{
			MultiError:         true,
			AuthenticationFunc: basicAuth,
		},
	}
	res.Requests++
	cov := c.count(op)
	if !refused {
		cov.Requests++
	}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil && !refused {
		res.Violations = append(res.Violations, fmt.Sprintf("%s: request: %s", op, reason(err)))
	}
	if ex.Fault == "malformed" {
		res.Planted++
		return
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 ex.Status,
		Header:                 ex.ResponseHeader,
		Body:                   io.NopCloser(bytes.NewReader(ex.ResponseBody)),
		Options:                &openapi3filter.Options{MultiError: true, IncludeResponseStatus: true},
	}
	res.Responses++
	cov.Responses++
	if ex.Status >= 200 && ex.Status < 300 {
		cov.Successes++
	}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		res.Violations = append(res.Violations, fmt.Sprintf("%s: response %d: %s", op, ex.Status, reason(err)))
	}
	if len(bytes.TrimSpace(ex.ResponseBody)) > 0 && !declaresBody(route.Operation, ex.Status) {
		res.Violations = append(res.Violations, fmt.Sprintf("%s: response %d: a body the document does not declare", op, ex.Status))
	}
}

// declaresBody reports whether op's document describes a body for the
// answer of status (the status itself, its range such as 4XX, or the
// default), as the response validation picks it: an answer that carries a
// body must be declared with it, or a client generated from the document
// has no type for what it receives.
func declaresBody(op *openapi3.Operation, status int) bool {
	if op == nil || op.Responses == nil {
		return false
	}
	r := op.Responses.Status(status)
	if r == nil {
		r = op.Responses.Default()
	}
	return r != nil && r.Value != nil && len(r.Value.Content) > 0
}

// checkWebhook validates a notification the simulator sent against its
// webhook's request body (the answer is the listener's, a test's, and is
// not held to the documents). A webhook no document declares is a
// violation.
func (c *checker) checkWebhook(ex exchange, res *Result) {
	res.Requests++
	wh, ok := c.webhooks[ex.Webhook]
	if !ok {
		res.Violations = append(res.Violations, fmt.Sprintf("webhook %s: no webhook of the documents", ex.Webhook))
		return
	}
	name := webhookName(ex.Webhook, wh)
	if wh.op.RequestBody == nil || wh.op.RequestBody.Value == nil {
		res.Violations = append(res.Violations, fmt.Sprintf("%s: request: %s declares no body", name, wh.doc))
		return
	}
	c.count(name).Requests++
	req, _ := http.NewRequest(ex.Method, "/", bytes.NewReader(ex.RequestBody))
	req.Header = ex.RequestHeader.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	in := &openapi3filter.RequestValidationInput{
		Request: req,
		Options: &openapi3filter.Options{MultiError: true},
	}
	if err := openapi3filter.ValidateRequestBody(context.Background(), in, wh.op.RequestBody.Value); err != nil {
		res.Violations = append(res.Violations, fmt.Sprintf("%s: request: %s", name, reason(err)))
	}
}

// webhookName is the webhook's x-rxdelivery-operation, else its name.
func webhookName(name string, wh webhook) string {
	if n, ok := wh.op.Extensions["x-rxdelivery-operation"].(string); ok {
		return n
	}
	return name
}

// operationName is the operation's x-rxdelivery-operation, else its route.
func operationName(r *routers.Route) string {
	if n, ok := r.Operation.Extensions["x-rxdelivery-operation"].(string); ok {
		return n
	}
	return r.Method + " " + r.Path
}

// basicAuth accepts a request that carries Basic credentials: the
// documents say which scheme, and the simulator checks the values. The
// credentials are base64 in the alphabet of the interface's document
// (URL-safe for omni, delivery and pricing: the reading
// basic-auth-alphabet), which net/http's Request.BasicAuth, standard
// only, cannot read; so either alphabet, padded or not, is decoded here.
func basicAuth(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	v, ok := strings.CutPrefix(in.RequestValidationInput.Request.Header.Get("Authorization"), "Basic ")
	if !ok {
		return errors.New("no Basic credentials")
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(v); err == nil && bytes.IndexByte(b, ':') >= 0 {
			return nil
		}
	}
	return errors.New("no Basic credentials")
}

// reason describes a validation error without the values it found (a
// request's values may be patient data): the parameter or the body's field
// and the rule it broke.
func reason(err error) string {
	var me openapi3.MultiError
	if errors.As(err, &me) {
		parts := make([]string, 0, len(me))
		for _, e := range me {
			parts = append(parts, reason(e))
		}
		return strings.Join(parts, "; ")
	}
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		return schemaReason(se)
	}
	var re *openapi3filter.RequestError
	if errors.As(err, &re) {
		where := "body"
		if re.Parameter != nil {
			where = re.Parameter.In + " parameter " + re.Parameter.Name
		}
		if re.Err != nil {
			return where + ": " + reason(re.Err)
		}
		return where + ": " + re.Reason
	}
	var rse *openapi3filter.ResponseError
	if errors.As(err, &rse) {
		if rse.Err != nil {
			return rse.Reason + ": " + reason(rse.Err)
		}
		return rse.Reason
	}
	var sre *openapi3filter.SecurityRequirementsError
	if errors.As(err, &sre) {
		return "security: no Basic credentials"
	}
	var pe *openapi3filter.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("malformed (kind %d)", pe.Kind)
	}
	return fmt.Sprintf("%T", err)
}

// schemaReason describes a schema violation from the schema alone: the
// field's JSON pointer, the keyword it broke and what that keyword asks.
// The validator's own reason is not used: some of its reasons quote the
// value ("'1980-02-30' is not valid date"), and a nested reason quotes
// its inner ones. A violation inside another (a oneOf's branch, a
// property's schema) is described by the innermost one.
func schemaReason(se *openapi3.SchemaError) string {
	pointer := se.JSONPointer()
	for {
		var inner *openapi3.SchemaError
		if se.Origin == nil || !errors.As(se.Origin, &inner) || inner == se {
			break
		}
		se = inner
		if p := se.JSONPointer(); len(p) > len(pointer) {
			pointer = p
		}
	}
	return fmt.Sprintf("body /%s: %s (%s)", strings.Join(pointer, "/"), se.SchemaField, schemaAsks(se))
}

// schemaAsks says what the keyword se broke asks for, from the schema; it
// names no value of the body but the names of missing properties.
func schemaAsks(se *openapi3.SchemaError) string {
	sc := se.Schema
	if sc == nil {
		return "not as the schema says"
	}
	switch se.SchemaField {
	case "enum":
		allowed, _ := json.Marshal(sc.Enum)
		return "one of " + string(allowed)
	case "const":
		return "a constant of the schema"
	case "format":
		return "format " + sc.Format
	case "pattern":
		return "pattern " + sc.Pattern
	case "type":
		if sc.Type == nil {
			return "another type"
		}
		return "type " + strings.Join(sc.Type.Slice(), " or ")
	case "required":
		obj, _ := se.Value.(map[string]any)
		var missing []string
		for _, name := range sc.Required {
			if _, ok := obj[name]; !ok {
				missing = append(missing, name)
			}
		}
		return "missing " + strings.Join(missing, ", ")
	case "maxLength":
		if sc.MaxLength != nil {
			return fmt.Sprintf("at most %d characters", *sc.MaxLength)
		}
	case "minLength":
		return fmt.Sprintf("at least %d characters", sc.MinLength)
	case "maximum", "exclusiveMaximum":
		if sc.Max != nil {
			return fmt.Sprintf("%s %g", se.SchemaField, *sc.Max)
		}
	case "minimum", "exclusiveMinimum":
		if sc.Min != nil {
			return fmt.Sprintf("%s %g", se.SchemaField, *sc.Min)
		}
	case "maxItems":
		if sc.MaxItems != nil {
			return fmt.Sprintf("at most %d items", *sc.MaxItems)
		}
	case "minItems":
		return fmt.Sprintf("at least %d items", sc.MinItems)
	}
	return "not as the schema says"
}
