package sandbox

import (
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
)

// TestEveryOperationHasOneHandler holds the hand-written route table to
// the generated one: each endpoint's operation is served once, by its
// method on its route (a ":name" segment read as "{name}").
func TestEveryOperationHasOneHandler(t *testing.T) {
	t.Parallel()
	served := map[string]string{}
	for _, rt := range (&Sandbox{}).buildRoutes() {
		for method, o := range rt.methods {
			if o.h == nil {
				t.Errorf("%s has no handler", o.name)
			}
			if _, ok := served[o.name]; ok {
				t.Errorf("%s is served twice", o.name)
			}
			segs := strings.Split(rt.name, "/")
			for i, s := range segs {
				if strings.HasPrefix(s, ":") {
					segs[i] = "{" + s[1:] + "}"
				}
			}
			served[o.name] = method + " " + strings.TrimSuffix(strings.Join(segs, "/"), "/")
		}
	}
	for _, e := range core.Endpoints {
		want := e.Method + " " + strings.TrimSuffix(e.Route, "/")
		if got, ok := served[e.Name]; !ok {
			t.Errorf("%s has no handler", e.Name)
		} else if got != want {
			t.Errorf("%s is served at %s, the documents say %s", e.Name, got, want)
		}
		delete(served, e.Name)
	}
	for name := range served {
		t.Errorf("%s is served but is no endpoint", name)
	}
}
