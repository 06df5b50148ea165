package rxdeliverytest

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/endpointgen"
	"github.com/rxdelivery/rxdelivery-go/internal/sandbox"
)

// withRoutes serves extra routes beside the documents', each with its
// handler, through sandbox.Config.ExtraRoutes: the path New serves every
// generated route by.
func withRoutes(routes []sandbox.Route, handlers map[string]sandbox.Handler) Option {
	return func(c *config) { c.extraRoutes, c.extraHandlers = routes, handlers }
}

// TestEndpointWalk proves CONTRIBUTING's "Adding an endpoint" on a
// test-only endpoint, widgets.Get (GET /api/v1/widgets/{id} on the omni
// interface, in testdata/walk/widgets.yaml): the generator, run as go
// generate runs it on the documents with the overlay added, lists it in
// every file it writes; the simulator serves it from its generated route
// and a handler; the SDK calls it through Client.Do; the kit's call record
// holds the call. Under the conformance tag the exchange is recorded, and
// .ci/conformance.sh validates it against api/omni.yaml with the overlay
// merged (and fails when no exchange of it was recorded). A layer that
// drops the endpoint fails the walk.
func TestEndpointWalk(t *testing.T) {
	t.Parallel()
	ops, err := endpointgen.Read("../api", endpointgen.Documents)
	require.NoError(t, err)
	overlay, err := endpointgen.Read("testdata/walk", []endpointgen.Document{{File: "widgets.yaml", Interface: "omni"}})
	require.NoError(t, err)
	require.Len(t, overlay, 1)
	w := overlay[0]

	// Generated and listed: a descriptor, an operation name and route for
	// the simulator, a constant of the kit (with its required query), a
	// row of docs/endpoints.md.
	files, err := endpointgen.Generate(append(ops, w))
	require.NoError(t, err)
	for path, want := range map[string][]string{
		"internal/core/endpoints_gen.go": {
			`WidgetsGet\s+= &Endpoint\{Name: "widgets.Get", Interface: rxtypes.InterfaceOmni, Method: http.MethodGet, Route: "/api/v1/widgets/\{id\}"\}`,
			`\n\tWidgetsGet,\n`,
		},
		"internal/sandbox/operations_gen.go": {
			`OpWidgetsGet\s+= "widgets.Get"`,
			`\n\tOpWidgetsGet,\n`,
			`\{Omni, "GET", "/api/v1/widgets/\{id\}", OpWidgetsGet\},`,
		},
		"rxdeliverytest/operations_gen.go": {
			`WidgetsGet\s+Operation = "widgets.Get"\s+// GET /api/v1/widgets/\{id\}\?colour= \(omni\)`,
		},
		"docs/endpoints.md": {
			"\\| `widgets.Get` \\| omni \\| GET \\| `/api/v1/widgets/\\{id\\}` \\|  \\|\n",
		},
	} {
		for _, re := range want {
			assert.Regexp(t, regexp.MustCompile(re), string(files[path]), "%s does not list widgets.Get", path)
		}
	}

	// Served: the generated row, as Routes holds it, with its handler.
	route := sandbox.Route{Interface: sandbox.Interface(w.Interface), Method: w.Method, Path: w.Route, Operation: w.Name}
	srv := Start(t, withRoutes([]sandbox.Route{route}, map[string]sandbox.Handler{
		w.Name: func(rw http.ResponseWriter, r *http.Request, params map[string]string) {
			rw.Header().Set("Content-Type", "application/json")
			rw.WriteHeader(http.StatusOK)
			_, _ = rw.Write([]byte(`{"id":` + strconv.Quote(params["id"]) + `,"colour":` + strconv.Quote(r.URL.Query().Get("colour")) + `}`))
		},
	}))

	// Called through the SDK's escape hatch.
	var got struct{ ID, Colour string }
	err = srv.Client().Do(context.Background(), rxdelivery.Request{
		Interface: rxdelivery.Omni, Method: w.Method, Path: w.Route, Name: w.Name,
		PathParams: map[string]string{"id": "wid/1"}, Visible: []string{"id"},
		Query: url.Values{"colour": {"blue"}},
	}, &got)
	require.NoError(t, err)
	assert.Equal(t, "wid/1", got.ID)
	assert.Equal(t, "blue", got.Colour)

	// Recorded by the kit under its operation.
	calls := srv.CallsTo(Operation(w.Name))
	require.Len(t, calls, 1)
	assert.Equal(t, http.StatusOK, calls[0].Status)
	assert.Equal(t, "/api/v1/widgets/wid/1", calls[0].Path) // the path unescaped, as the kit records every call's
	assert.Equal(t, url.Values{"colour": {"blue"}}, calls[0].Query)
	assert.Equal(t, 1, srv.CallCounts()[Operation(w.Name)])
}
