package rxdelivery_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

// wantWire is the request each endpoint's row in endpoints() sends: its
// method, and its URL on the mock client's base URLs, written out here so
// that a change of route, method or interface in core.Endpoints fails.
var wantWire = map[string][2]string{
	"requests.Create":           {"POST", testutil.OmniURL + "/api/v1/requests"},
	"requests.Cancel":           {"DELETE", testutil.OmniURL + "/api/v1/requests/req_1"},
	"requests.Get":              {"GET", testutil.OmniURL + "/api/v1/requests/req_1"},
	"requests.GetMany":          {"GET", testutil.OmniURL + "/api/v1/requests/?ids%5B%5D=req_1&ids%5B%5D=req_2"},
	"pharmacies.Search":         {"GET", testutil.OmniURL + "/api/v1/pharmacies/?place_id=ChIJ_place"},
	"pharmacies.Get":            {"GET", testutil.OmniURL + "/api/v1/pharmacies/5550001"},
	"pharmacies.DeliveryInfo":   {"GET", testutil.DeliveryURL + "/api/v1/pharmacies/5550001?delivery%5Baddress%5D%5Bcity%5D=&delivery%5Baddress%5D%5Bstate%5D=&delivery%5Baddress%5D%5Bstreet%5D=&delivery%5Baddress%5D%5Bzipcode%5D="},
	"orders.Create":             {"POST", testutil.DeliveryURL + "/api/v1/orders"},
	"orders.Cancel":             {"DELETE", testutil.DeliveryURL + "/api/v1/orders/ord_1"},
	"orders.Get":                {"GET", testutil.DeliveryURL + "/api/v1/orders/ord_1"},
	"orders.GetMany":            {"GET", testutil.DeliveryURL + "/api/v1/orders?ids%5B%5D=ord_1&ids%5B%5D=ord_2"},
	"orders.AddPrescription":    {"POST", testutil.DeliveryURL + "/api/v1/orders/ord_1/prescriptions"},
	"orders.RemovePrescription": {"DELETE", testutil.DeliveryURL + "/api/v1/orders/ord_1/prescriptions/RX-1"},
	"tracking.Subscribe":        {"POST", testutil.TrackingURL + "/tracking/v1/subscriptions"},
	"tracking.GetSubscription":  {"GET", testutil.TrackingURL + "/tracking/v1/subscriptions?tracking_number=1Z999"},
	"pricing.Quote":             {"POST", testutil.PricingURL + "/pricing/v1/quotes"},
}

// rows returns endpoints() keyed by name, failing the test when a name is
// twice in it, when core.Endpoints has an endpoint without a row, or when a
// row names no endpoint of core.Endpoints: a new endpoint joins every
// per-endpoint test by one row in endpoints().
func rows(t *testing.T) map[string]endpoint {
	t.Helper()
	byName := map[string]endpoint{}
	for _, e := range endpoints() {
		_, dup := byName[e.name]
		require.False(t, dup, "%s has two rows", e.name)
		byName[e.name] = e
	}
	known := map[string]bool{}
	for _, ep := range core.Endpoints {
		known[ep.Name] = true
		_, ok := byName[ep.Name]
		assert.True(t, ok, "core.Endpoints has %s: add its row to endpoints()", ep.Name)
		_, ok = wantWire[ep.Name]
		assert.True(t, ok, "core.Endpoints has %s: add its request to wantWire", ep.Name)
	}
	for name := range byName {
		assert.True(t, known[name], "endpoints() has %s, which core.Endpoints does not", name)
	}
	return byName
}

// TestEndpointConformance gives every endpoint of core.Endpoints the same
// four checks over httpmock: its method and path on its interface, its
// body (JSON for a POST, none otherwise, with the headers of every call),
// bad options refused before sending, and a failure of the request (a
// transport error, a 5xx, a malformed 2xx body naming status and
// endpoint, or, for a DELETE that returns no result, a body not read and
// a 204 taken for success).
func TestEndpointConformance(t *testing.T) {
	t.Parallel()
	byName := rows(t)
	for _, ep := range core.Endpoints {
		row, ok := byName[ep.Name]
		if !ok {
			continue
		}
		t.Run(ep.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			lax := []rxdelivery.Option{rxdelivery.WithoutValidation(), rxdelivery.WithRetryMax(0)}

			t.Run("method and path, body", func(t *testing.T) {
				t.Parallel()
				env := testutil.Setup(t, lax...)
				rec := new(testutil.Recorder)
				env.Mock.RegisterNoResponder(rec.Wrap(testutil.BytesResponder(http.StatusNotFound, []byte(`{"error":"not found"}`))))
				err := row.call(ctx, env.Client)
				var apiErr *rxdelivery.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
				reqs := rec.Requests()
				require.Len(t, reqs, 1)
				want, ok := wantWire[ep.Name]
				require.True(t, ok, "wantWire has no request of %s", ep.Name)
				testutil.TestMethod(t, reqs[0], want[0], want[1])
				testutil.TestBody(t, reqs[0], ep.Interface, ep.Method == http.MethodPost)
			})

			t.Run("bad options", func(t *testing.T) {
				t.Parallel()
				env := testutil.Setup(t, lax...)
				rec := new(testutil.Recorder)
				env.Mock.RegisterNoResponder(rec.Wrap(testutil.BytesResponder(http.StatusOK, []byte(`{}`))))
				for _, o := range []rxdelivery.CallOption{
					rxdelivery.WithHeader("X-Line", "a\r\nb"),
					rxdelivery.WithHeader("Bad Name", "v"),
				} {
					assert.Error(t, row.call(ctx, env.Client, o))
				}
				assert.Empty(t, rec.Requests(), "a bad option is refused before sending")
			})

			t.Run("transport error", func(t *testing.T) {
				t.Parallel()
				env := testutil.Setup(t, lax...)
				env.Mock.RegisterNoResponder(testutil.ErrorResponder(errors.New("connection refused")))
				err := row.call(ctx, env.Client)
				var te *rxdelivery.TransportError
				require.ErrorAs(t, err, &te)
			})

			t.Run("5xx", func(t *testing.T) {
				t.Parallel()
				env := testutil.Setup(t, lax...)
				env.Mock.RegisterNoResponder(testutil.BytesResponder(http.StatusServiceUnavailable, []byte(`{"error":"down"}`)))
				err := row.call(ctx, env.Client)
				var apiErr *rxdelivery.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, http.StatusServiceUnavailable, apiErr.StatusCode)
			})

			t.Run("malformed body", func(t *testing.T) {
				t.Parallel()
				env := testutil.Setup(t, lax...)
				env.Mock.RegisterNoResponder(testutil.BytesResponder(http.StatusOK, []byte(`{"id":`)))
				err := row.call(ctx, env.Client)
				if ep.Method == http.MethodDelete {
					// A cancel or removal returns no result: its body is not read,
					// and a 204 without one is its success too.
					assert.NoError(t, err)
					env.Mock.RegisterNoResponder(testutil.BytesResponder(http.StatusNoContent, nil))
					assert.NoError(t, row.call(ctx, env.Client))
					return
				}
				var de *rxdelivery.DecodeError
				require.ErrorAs(t, err, &de)
				assert.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
				assert.Equal(t, http.StatusOK, de.StatusCode)
				assert.Equal(t, ep.Method, de.Method)
				assert.Regexp(t, testutil.RoutePattern(ep.Route), de.Path)
				assert.Contains(t, err.Error(), ep.Method+" ")
				assert.Contains(t, err.Error(), "200")
			})
		})
	}
}
