package rxdelivery_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// TestE2EEveryReadByID calls, against the simulator, every endpoint that
// reads an order or a request by its id alone (GET /api/v1/orders/{id},
// /api/v1/requests/{id} and any GET below them, such as an order's proof
// of delivery), through its service method, on a delivered same-day order
// and a request: each answers 2xx. A new read of this kind is reached here
// with no test of its own, so that the conformance run (.ci/conformance.sh)
// validates its request and answer against its document.
func TestE2EEveryReadByID(t *testing.T) {
	t.Parallel()
	sb := testutil.StartSandbox()
	defer sb.Close()
	c, ctx := sb.Client, context.Background()

	order, err := c.Orders.Create(ctx, testutil.SamedayOrder())
	require.NoError(t, err)
	sb.Clock.Advance(3 * 30 * time.Second)
	got, err := c.Orders.Get(ctx, order.ID)
	require.NoError(t, err)
	require.Equal(t, rxtypes.OrderStatusDelivered, got.Status)
	request, err := c.Requests.Create(ctx, testutil.PatientRequest(t, "5550001"))
	require.NoError(t, err)

	ids := map[string]string{"/api/v1/orders/{id}": order.ID, "/api/v1/requests/{id}": request.ID}
	one := regexp.MustCompile(`^[^{]*\{[^}]+\}[^{]*$`)
	reached := 0
	for _, ep := range core.Endpoints {
		if ep.Method != http.MethodGet || !one.MatchString(ep.Route) {
			continue
		}
		for prefix, id := range ids {
			if ep.Route != prefix && !strings.HasPrefix(ep.Route, prefix+"/") {
				continue
			}
			call, why := testutil.DerivedCall(ep, id)
			require.Empty(t, why, ep.Name)
			require.NoError(t, call(ctx, c), "%s of %s", ep.Name, id)
			reached++
		}
	}
	require.GreaterOrEqual(t, reached, 2, "orders.Get and requests.Get at least")
}
