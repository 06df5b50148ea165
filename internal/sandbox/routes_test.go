package sandbox

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
)

// TestEveryOperationHasOneHandler holds the route table New builds from
// the generated Routes and the handler map (handlers.go) to the
// descriptors: each endpoint's operation is served once, by its method on
// its route.
func TestEveryOperationHasOneHandler(t *testing.T) {
	t.Parallel()
	rts, err := buildRoutes(Routes, (&Sandbox{}).handlers())
	require.NoError(t, err)
	served := map[string]string{}
	for _, rt := range rts {
		for method, o := range rt.methods {
			if o.h == nil {
				t.Errorf("%s has no handler", o.name)
			}
			if _, ok := served[o.name]; ok {
				t.Errorf("%s is served twice", o.name)
			}
			served[o.name] = method + " " + rt.name
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

// TestRouteTableRefusesAGap checks that the route table is not built, and
// New panics rather than answering 404, when an operation has no handler,
// a handler no operation, or a method of a route two operations.
func TestRouteTableRefusesAGap(t *testing.T) {
	t.Parallel()
	without := (&Sandbox{}).handlers()
	delete(without, OpOrdersGet)
	_, err := buildRoutes(Routes, without)
	assert.EqualError(t, err, "sandbox: operation orders.Get (GET /api/v1/orders/{id}) has no handler")

	extra := (&Sandbox{}).handlers()
	extra["widgets.Get"] = func(*call) {}
	_, err = buildRoutes(Routes, extra)
	assert.EqualError(t, err, "sandbox: handler of widgets.Get serves no route")

	twice := append(append([]Route(nil), Routes...), Route{Delivery, http.MethodGet, "/api/v1/orders/{id}/", "widgets.Get"})
	_, err = buildRoutes(twice, extra)
	assert.EqualError(t, err, "sandbox: GET /delivery/api/v1/orders/{id} is served by both orders.Get and widgets.Get")

	widget := Route{Omni, http.MethodGet, "/api/v1/widgets/{id}", "widgets.Get"}
	assert.PanicsWithValue(t, "sandbox: operation widgets.Get (GET /api/v1/widgets/{id}) has no handler", func() {
		New(Config{ExtraRoutes: []Route{widget}}).Close()
	})
	assert.PanicsWithValue(t, "sandbox: handler of widgets.Get serves no route", func() {
		New(Config{ExtraHandlers: map[string]Handler{"widgets.Get": func(http.ResponseWriter, *http.Request, map[string]string) {}}}).Close()
	})
}

// TestExtraRouteIsServedAsTheOthers serves a test-only operation through
// Config.ExtraRoutes: its {name} segment is unescaped, one trailing slash
// ignored, another method answered 405 with Allow, and the call recorded
// under its operation and route.
func TestExtraRouteIsServedAsTheOthers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{
		ExtraRoutes: []Route{{Omni, http.MethodGet, "/api/v1/widgets/{id}", "widgets.Get"}},
		ExtraHandlers: map[string]Handler{"widgets.Get": func(w http.ResponseWriter, _ *http.Request, params map[string]string) {
			writeJSON(w, http.StatusOK, map[string]string{"id": params["id"]})
		}},
	})
	r := h.do(http.MethodGet, "/omni/api/v1/widgets/a%2Fb/", nil)
	assert.Equal(t, http.StatusOK, r.status)
	assert.JSONEq(t, `{"id":"a/b"}`, string(r.body))
	r = h.do(http.MethodDelete, "/omni/api/v1/widgets/a", nil)
	assert.Equal(t, http.StatusMethodNotAllowed, r.status)
	assert.Equal(t, "GET", r.header.Get("Allow"))
	calls := h.srv.Stats().Calls
	require.Len(t, calls, 2)
	assert.Equal(t, "widgets.Get", calls[0].Operation)
	assert.Equal(t, "/omni/api/v1/widgets/{id}", calls[0].Route)
}
