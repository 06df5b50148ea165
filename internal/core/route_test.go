package core

import (
	"context"
	"net/http"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// TestOneRouteParsePerDescriptor: a descriptor's route is parsed once and
// kept; calls fill it without parsing it again. Not parallel: it counts
// the parses of the whole process.
func TestOneRouteParsePerDescriptor(t *testing.T) {
	b, mock := newTestBackend(t, Config{})
	mock.RegisterResponder(http.MethodGet, "=~^"+testBase+"/api/v1/orders/", httpmock.NewStringResponder(200, `{}`))
	ep := &Endpoint{Name: "test.Get", Interface: rxtypes.InterfaceOmni, Method: http.MethodGet,
		Route: "/api/v1/orders/{id}/prescriptions/{rx_number}", Hidden: []string{"rx_number"}}
	before := routeParses.Load()
	for i := 0; i < 5; i++ {
		var out map[string]any
		require.NoError(t, b.Execute(context.Background(), Request{Endpoint: ep, PathValues: []string{"ord_1", "RX 1"}, Out: &out}))
	}
	assert.Equal(t, int64(1), routeParses.Load()-before, "route parses for 5 calls")
}

// TestPathCountMismatchIsAConfigError: a call whose values do not match
// its route's placeholders fails before sending with a ConfigError, never
// a panic, and sends nothing.
func TestPathCountMismatchIsAConfigError(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{})
	for _, values := range [][]string{nil, {"ord_1", "RX 1"}} {
		err := b.Execute(context.Background(), Request{Endpoint: OrdersGet, PathValues: values})
		var ce *rxtypes.ConfigError
		require.ErrorAs(t, err, &ce, "%q", values)
		assert.Contains(t, ce.Message, "placeholders")
	}
	assert.Zero(t, mock.GetTotalCallCount())
}

// TestCustomRouteParsedOnce: Do's route is parsed once, by the parse the
// SDK's own descriptors use: the descriptor it builds comes back holding
// that parse (so Execute parses nothing again), with every placeholder
// but the Visible ones hidden. Not parallel: it counts the parses of the
// whole process.
func TestCustomRouteParsedOnce(t *testing.T) {
	cu := Custom{Method: http.MethodGet, Route: "/api/v1/orders/{id}/prescriptions/{rx_number}",
		Params: map[string]string{"id": "ord_1", "rx_number": "RX 1"}, Visible: []string{"id"}}
	before := routeParses.Load()
	ep, values, err := cu.endpoint(rxtypes.InterfaceOmni)
	require.NoError(t, err)
	assert.Equal(t, int64(1), routeParses.Load()-before, "route parses")
	r := ep.rt.Load()
	require.NotNil(t, r, "the descriptor holds its parse")
	assert.Equal(t, []string{"id", "rx_number"}, r.names)
	assert.Equal(t, []bool{false, true}, r.hidden)
	assert.Equal(t, []string{"rx_number"}, ep.Hidden)
	assert.Equal(t, []string{"ord_1", "RX 1"}, values)
	assert.NoError(t, ep.Check())
	assert.Equal(t, int64(1), routeParses.Load()-before, "route parses")

	b, mock := newTestBackend(t, Config{})
	mock.RegisterNoResponder(httpmock.NewStringResponder(200, `{}`))
	before = routeParses.Load()
	require.NoError(t, b.ExecuteCustom(context.Background(), cu))
	assert.Equal(t, int64(1), routeParses.Load()-before, "route parses for one Do call")
}
