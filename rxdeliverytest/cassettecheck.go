package rxdeliverytest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/fields"
)

// methodForm is an HTTP method as a cassette holds it.
var methodForm = regexp.MustCompile(`^[A-Z]{3,7}$`)

// endpointNamed returns the endpoint of the SDK named op, or nil.
func endpointNamed(op string) *core.Endpoint {
	for _, ep := range core.Endpoints {
		if ep.Name == op {
			return ep
		}
	}
	return nil
}

// maxProblems bounds the problems a CassetteError lists.
const maxProblems = 50

// CassetteProblem is one value of a cassette outside what its field
// allows.
type CassetteProblem struct {
	// Path is where the value is: "exchanges[2].response.body.dropoff.name",
	// "exchanges[0].request.headers.Authorization".
	Path string
	// Problem says what the field allows and that the value is not that,
	// never the value itself.
	Problem string
}

// CassetteError is the error of a cassette that fails [CheckCassette]: each
// value outside what its field allows, by path.
type CassetteError struct {
	// Problems lists them in the order of the file (at most 50).
	Problems []CassetteProblem
	// More counts the problems past those listed.
	More int
}

// Error lists the problems, one line each, by path.
func (e *CassetteError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cassette holds %d value(s) its fields do not allow:", len(e.Problems)+e.More)
	for _, p := range e.Problems {
		b.WriteString("\n  " + p.Path + ": " + p.Problem)
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "\n  and %d more", e.More)
	}
	return b.String()
}

// CheckCassette proves that the cassette data holds no value outside what
// its schema allows in each field, for CI (and rxdelivery cassette check):
// a field of patient data, a message, a credential or a field the SDK's
// table does not know holds only a placeholder ("<patient.last_name#1>");
// an identifier, status, enum, time, amount, count or flag holds a value
// of its kind's form or a placeholder; a key is a field name or a
// placeholder; only the headers a [Recorder] keeps appear, in their forms.
// It returns an error naming the cassette's version problem (saying how to
// record it again), or a *[CassetteError] listing each value outside by its
// path, never quoting it; nil when the cassette passes.
func CheckCassette(data []byte) error {
	if _, err := parseCassette("", data); err != nil {
		return err
	}
	var raw struct {
		Exchanges []struct {
			Operation string           `json:"operation"`
			Method    string           `json:"method"`
			Route     string           `json:"route"`
			Error     string           `json:"error"`
			Path      map[string]any   `json:"path"`
			Query     map[string][]any `json:"query"`
			Request   json.RawMessage  `json:"request"`
			Response  json.RawMessage  `json:"response"`
		} `json:"exchanges"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("cassette does not decode: %s", rerecordHint)
	}
	c := &checker{}
	for i, ex := range raw.Exchanges {
		at := "exchanges[" + strconv.Itoa(i) + "]"
		ep := endpointNamed(ex.Operation)
		switch {
		case ex.Operation != "" && ep == nil:
			c.add(at+".operation", "not an operation of the SDK")
		case ep != nil && ex.Route != ep.Route:
			c.add(at+".route", "not the operation's route template")
		case ep == nil && ex.Route != unknownRoute:
			c.add(at+".route", "a route of no operation")
		}
		if !methodForm.MatchString(ex.Method) {
			c.add(at+".method", "not an HTTP method")
		}
		if ex.Error != "" && ex.Error != errTransport && ex.Error != errCutShort {
			c.add(at+".error", "not a kind of failure a cassette records")
		}
		for _, k := range sortedKeys(ex.Path) {
			if ep == nil || !slices.Contains(ep.Placeholders(), k) {
				c.add(at+".path.<key>", "not a placeholder of the operation's route")
				continue
			}
			c.scalar(at+".path."+k, "", k, ex.Path[k])
		}
		for _, k := range sortedKeys(ex.Query) {
			parent, key, kept := queryKey(k)
			if !placeholderForm.MatchString(k) && !kept {
				c.add(at+".query", "a query key that is not a field name or a placeholder")
			}
			for j, v := range ex.Query[k] {
				c.scalar(at+".query."+k+"["+strconv.Itoa(j)+"]", parent, key, v)
			}
		}
		c.message(at+".request", ex.Request)
		c.message(at+".response", ex.Response)
	}
	if len(c.problems) == 0 {
		return nil
	}
	return &CassetteError{Problems: c.problems, More: c.more}
}

type checker struct {
	problems []CassetteProblem
	more     int
}

func (c *checker) add(path, problem string) {
	if len(c.problems) >= maxProblems {
		c.more++
		return
	}
	c.problems = append(c.problems, CassetteProblem{Path: path, Problem: problem})
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// message checks a request's or a response's headers and body.
func (c *checker) message(at string, data json.RawMessage) {
	if len(data) == 0 || string(data) == "null" {
		return
	}
	var m struct {
		Headers map[string]string `json:"headers"`
		Body    json.RawMessage   `json:"body"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		c.add(at, "not an object of headers and body")
		return
	}
	for _, k := range sortedKeys(m.Headers) {
		v := m.Headers[k]
		kind, ok := keptHeaders[http.CanonicalHeaderKey(k)]
		path := at + ".headers." + k
		switch {
		case !ok:
			c.add(path, "a header a cassette does not keep")
		case placeholderForm.MatchString(v):
		case kind == "credential":
			c.add(path, "a credential header that holds a value, not a placeholder")
		default:
			if (&redactor{byValue: map[string]string{}, last: map[string]int{}}).header(k, kind, v) != v {
				c.add(path, "a value not of the header's form ("+kind+")")
			}
		}
	}
	if len(m.Body) > 0 && string(m.Body) != "null" {
		v, err := decodeJSON(m.Body)
		if err != nil {
			c.add(at+".body", "not JSON")
			return
		}
		c.value(at+".body", "", "", v)
	}
}

// value checks v, the value of the field key under parent, at path.
func (c *checker) value(path, parent, key string, v any) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			sub := path + "." + k
			if !placeholderForm.MatchString(k) && !keyKept(k) {
				sub = path + ".<key>"
				c.add(sub, "a key that is not a field name or a placeholder")
			}
			c.value(sub, key, k, x[k])
		}
		return
	case []any:
		for i, e := range x {
			c.value(path+"["+strconv.Itoa(i)+"]", parent, key, e)
		}
		return
	}
	c.scalar(path, parent, key, v)
}

// scalar checks a scalar v of the field key under parent.
func (c *checker) scalar(path, parent, key string, v any) {
	kind := fields.OfIn(parent, key)
	if s, ok := v.(string); ok && placeholderForm.MatchString(s) {
		return
	}
	if n, ok := v.(float64); ok {
		v = json.Number(strconv.FormatFloat(n, 'f', -1, 64))
	}
	switch v.(type) {
	case nil, bool:
		return
	}
	if kind.Safe() && keeps(kind, v) {
		return
	}
	switch kind {
	case fields.Patient:
		c.add(path, "a patient field that holds a value, not a placeholder")
	case fields.Message:
		c.add(path, "a message that holds text, not a placeholder")
	default:
		c.add(path, "a "+strings.ToLower(kind.String())+" field that holds a value not of its form, nor a placeholder")
	}
}
