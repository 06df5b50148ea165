package core_test

import (
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/sandbox"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// TestEndpointsMatchTheREADME holds the descriptors against the
// README's Operations table (service, method, HTTP method and path) and
// against the test kit's operation names.
func TestEndpointsMatchTheREADME(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../docs/endpoints.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `(\\w+)` \\| `(\\w+)`[^|]*\\| `(GET|POST|DELETE) ([^`?]+)[^`]*` \\| (\\w+) \\|$")
	want := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(string(readme), -1) {
		name := strings.ToLower(m[1]) + "." + m[2]
		route := regexp.MustCompile(`:(\w+)`).ReplaceAllString(m[4], "{$1}")
		if name == "pharmacies.All" {
			continue // an iterator over pharmacies.Search
		}
		want[name] = m[3] + " " + route + " " + m[5]
	}
	if len(want) != len(core.Endpoints) {
		t.Errorf("the README's Operations table has %d endpoints, the descriptors %d", len(want), len(core.Endpoints))
	}
	if len(sandbox.Operations) != len(core.Endpoints) {
		t.Fatalf("the test kit has %d operations, the descriptors %d", len(sandbox.Operations), len(core.Endpoints))
	}
	for _, e := range core.Endpoints {
		got := e.Method + " " + e.Route + " " + e.Interface.String()
		if want[e.Name] != got {
			t.Errorf("%s: descriptor %q, README %q", e.Name, got, want[e.Name])
		}
	}
	for i, op := range sandbox.Operations {
		if core.Endpoints[i].Name != op {
			t.Errorf("descriptor %d is %s, the test kit's operation %s", i, core.Endpoints[i].Name, op)
		}
	}
}

func TestEndpointPaths(t *testing.T) {
	t.Parallel()
	path, shown, err := core.OrdersRemovePrescription.Paths("o/1", "RX 7")
	if err != nil || path != "/api/v1/orders/o%2F1/prescriptions/RX%207" || shown != "/api/v1/orders/o%2F1/prescriptions/:rx_number" {
		t.Errorf("Paths = %q, %q, %v", path, shown, err)
	}
	path, shown, err = core.OrdersCreate.Paths()
	if err != nil || path != "/api/v1/orders" || shown != path {
		t.Errorf("Paths() = %q, %q, %v", path, shown, err)
	}
	// A count of values the route does not have is the SDK's mistake: a
	// ConfigError, never a panic, and the route as both paths.
	for _, bad := range [][]string{{}, {"a", "b"}} {
		path, shown, err := core.OrdersGet.Paths(bad...)
		var ce *rxtypes.ConfigError
		if !errors.As(err, &ce) || path != core.OrdersGet.Route || shown != path {
			t.Errorf("Paths(%q) of a route with one placeholder = %q, %q, %v; want the route and a ConfigError", bad, path, shown, err)
		}
	}
}

// TestEveryEndpointDescriptor catches a descriptor's mistake at test time:
// every route parses, its Hidden names are placeholders of it, and its
// placeholders are named as the README's path shows them.
func TestEveryEndpointDescriptor(t *testing.T) {
	t.Parallel()
	for _, e := range core.Endpoints {
		if err := e.Check(); err != nil {
			t.Errorf("%s: %v", e.Name, err)
		}
		values := make([]string, len(e.Placeholders()))
		for i := range values {
			values[i] = "v" + strconv.Itoa(i)
		}
		if _, _, err := e.Paths(values...); err != nil {
			t.Errorf("%s: %v", e.Name, err)
		}
		if n := strings.Count(e.Route, "{"); n != len(values) {
			t.Errorf("%s: %d placeholders parsed, %d in %s", e.Name, len(values), n, e.Route)
		}
	}
	for _, bad := range []*core.Endpoint{
		{Name: "x.Open", Route: "/a/{id"},
		{Name: "x.Close", Route: "/a/id}"},
		{Name: "x.Empty", Route: "/a/{}"},
		{Name: "x.Nested", Route: "/a/{{id}}"},
		{Name: "x.Hidden", Route: "/a/{id}", Hidden: []string{"rx_number"}},
	} {
		if bad.Check() == nil {
			t.Errorf("%s: route %q (hidden %q) passes Check", bad.Name, bad.Route, bad.Hidden)
		}
		if _, _, err := bad.Paths("1"); err == nil {
			t.Errorf("%s: Paths of a malformed descriptor did not fail", bad.Name)
		}
	}
}
