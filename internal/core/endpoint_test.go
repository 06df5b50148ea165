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

// TestEndpointsMatchTheTable holds the descriptors against the operations
// table the README links (docs/endpoints.md: operation, interface, method
// and route) and against the simulator's operation names, row for row.
func TestEndpointsMatchTheTable(t *testing.T) {
	t.Parallel()
	table, err := os.ReadFile("../../docs/endpoints.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `(\\w+\\.\\w+)` \\| (\\w+) \\| (GET|POST|DELETE|PUT|PATCH) \\| `([^`]+)` \\| (yes)? \\|$")
	var got []string
	for _, m := range row.FindAllStringSubmatch(string(table), -1) {
		got = append(got, m[1]+" "+m[3]+" "+m[4]+" "+m[2]+" "+strconv.FormatBool(m[5] == "yes"))
	}
	var want []string
	for _, e := range core.Endpoints {
		want = append(want, e.Name+" "+e.Method+" "+e.Route+" "+e.Interface.String()+" "+strconv.FormatBool(e.Write))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("docs/endpoints.md lists\n%s\nthe descriptors are\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i, op := range sandbox.Operations {
		if i >= len(core.Endpoints) || core.Endpoints[i].Name != op {
			t.Errorf("the simulator's operation %d is %s, not the descriptor's", i, op)
		}
	}
	if len(sandbox.Operations) != len(core.Endpoints) {
		t.Errorf("%d simulator operations, %d descriptors", len(sandbox.Operations), len(core.Endpoints))
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
