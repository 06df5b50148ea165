package rxdelivery_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// TestE2EEveryReadByID calls, against the simulator, every endpoint that
// reads or deletes an order or a request by its id alone (GET or DELETE
// /api/v1/orders/{id}, /api/v1/requests/{id} and any below them with no
// other placeholder, such as an order's proof of delivery), through its
// service method: a read on a delivered same-day order and on a request, a
// delete on a new one of its own. Each answers 2xx. A new read of this kind is reached here
// with no test of its own, so that the conformance run (.ci/conformance.sh)
// validates its request and answer against its document.
func TestE2EEveryReadByID(t *testing.T) {
	t.Parallel()
	// The test kit's simulator: under the conformance tag it records the
	// exchanges for the conformance run.
	sb := rxdeliverytest.Start(t)
	c, ctx := sb.Client(), context.Background()

	order, err := c.Orders.Create(ctx, testutil.SamedayOrder())
	require.NoError(t, err)
	sb.Advance(3 * rxdeliverytest.DefaultOrderCadence)
	got, err := c.Orders.Get(ctx, order.ID)
	require.NoError(t, err)
	require.Equal(t, rxtypes.OrderStatusDelivered, got.Status)
	params := testutil.PatientRequest(t, "5550001")
	params.TestMeta = nil
	request, err := c.Requests.Create(ctx, params)
	require.NoError(t, err)

	// A delete is called on a resource of its own, new and so
	// cancellable.
	fresh := map[string]func() string{
		"/api/v1/orders/{id}": func() string {
			o, err := c.Orders.Create(ctx, testutil.SamedayOrder())
			require.NoError(t, err)
			return o.ID
		},
		"/api/v1/requests/{id}": func() string {
			r, err := c.Requests.Create(ctx, params)
			require.NoError(t, err)
			return r.ID
		},
	}
	ids := map[string]string{"/api/v1/orders/{id}": order.ID, "/api/v1/requests/{id}": request.ID}
	one := regexp.MustCompile(`^[^{]*\{[^}]+\}[^{]*$`)
	reached := 0
	for _, ep := range core.Endpoints {
		if (ep.Method != http.MethodGet && ep.Method != http.MethodDelete) || !one.MatchString(ep.Route) {
			continue
		}
		for prefix, id := range ids {
			if ep.Route != prefix && !strings.HasPrefix(ep.Route, prefix+"/") {
				continue
			}
			if ep.Method == http.MethodDelete {
				id = fresh[prefix]()
			}
			call, why := testutil.DerivedCall(ep, id)
			require.Empty(t, why, ep.Name)
			require.NoError(t, call(ctx, c), "%s of %s", ep.Name, id)
			reached++
		}
	}
	require.GreaterOrEqual(t, reached, 4, "orders.Get, orders.Cancel, requests.Get and requests.Cancel at least")
}
