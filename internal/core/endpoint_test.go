package core_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/sandbox"
)

// TestEndpointsMatchTheREADME holds the sixteen descriptors against the
// README's Operations table (service, method, HTTP method and path) and
// against the test kit's operation names.
func TestEndpointsMatchTheREADME(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
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
	if len(want) != 16 {
		t.Fatalf("the README's Operations table has %d endpoints, want 16", len(want))
	}
	if len(core.Endpoints) != 16 {
		t.Fatalf("%d descriptors, want 16", len(core.Endpoints))
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
	path, shown := core.OrdersRemovePrescription.Paths("o/1", "RX 7")
	if path != "/api/v1/orders/o%2F1/prescriptions/RX%207" || shown != "/api/v1/orders/o%2F1/prescriptions/:rx_number" {
		t.Errorf("Paths = %q, %q", path, shown)
	}
	path, shown = core.OrdersCreate.Paths()
	if path != "/api/v1/orders" || shown != path {
		t.Errorf("Paths() = %q, %q", path, shown)
	}
	for _, bad := range [][]string{{}, {"a", "b"}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Paths(%q) of a route with one placeholder did not panic", bad)
				}
			}()
			core.OrdersGet.Paths(bad...)
		}()
	}
}
