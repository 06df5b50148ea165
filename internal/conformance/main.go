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
// is.
//
// Usage: conformance API_DIR RECORD_DIR
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
	Fault          string      `json:"fault"`
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

// Result counts what Check validated and lists the violations found.
type Result struct {
	Requests, Responses, Skipped int
	// Planted counts the responses not validated because the simulator
	// planted them malformed.
	Planted    int
	Violations []string
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: conformance API_DIR RECORD_DIR")
		os.Exit(2)
	}
	res, err := CheckDir(os.Args[1], os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(2)
	}
	for _, v := range res.Violations {
		fmt.Println(v)
	}
	fmt.Printf("conformance: %d requests and %d responses validated (%d exchanges outside the documents' servers skipped, %d planted malformed responses not validated), %d violations\n",
		res.Requests, res.Responses, res.Skipped, res.Planted, len(res.Violations))
	if len(res.Violations) > 0 {
		os.Exit(1)
	}
}

// checker validates exchanges against the loaded documents.
type checker struct {
	routers map[string]routers.Router
}

func newChecker(apiDir string) (*checker, error) {
	c := &checker{routers: map[string]routers.Router{}}
	for _, p := range prefixes {
		loader := openapi3.NewLoader()
		loader.IsExternalRefsAllowed = true
		doc, err := loader.LoadFromFile(filepath.Join(apiDir, p.doc))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.doc, err)
		}
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
	}
	return c, nil
}

// CheckDir validates every exchange recorded in the files of recordDir.
func CheckDir(apiDir, recordDir string) (Result, error) {
	c, err := newChecker(apiDir)
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
	sort.Strings(res.Violations)
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
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{
			MultiError:         true,
			AuthenticationFunc: basicAuth,
		},
	}
	res.Requests++
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
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		res.Violations = append(res.Violations, fmt.Sprintf("%s: response %d: %s", op, ex.Status, reason(err)))
	}
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
		return fmt.Sprintf("body /%s: %s (%s)", strings.Join(se.JSONPointer(), "/"), se.SchemaField, se.Reason)
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
