package rxdeliverytest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// controlCall sends one control request with the server's credentials and
// returns the status and the decoded answer.
func controlCall(t *testing.T, srv *rxdeliverytest.Server, method, path, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL()+rxdeliverytest.ControlPrefix+path, strings.NewReader(body))
	require.NoError(t, err)
	key, secret := srv.Credentials()
	req.SetBasicAuth(key, secret)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

func TestControlFaultKinds(t *testing.T) {
	t.Parallel()
	cases := []struct {
		body   string
		status int
		check  func(t *testing.T, res *http.Response)
	}{
		{`{"kind":"rate_limit","retry_after_seconds":3}`, 429, func(t *testing.T, res *http.Response) {
			assert.Equal(t, "3", res.Header.Get("Retry-After"))
		}},
		{`{"kind":"rate_limit_date","retry_after_seconds":3600}`, 429, func(t *testing.T, res *http.Response) {
			at, err := http.ParseTime(res.Header.Get("Retry-After"))
			require.NoError(t, err)
			assert.WithinDuration(t, time.Now().Add(time.Hour), at, time.Minute)
		}},
		{`{"kind":"unavailable","retry_after_seconds":5}`, 503, func(t *testing.T, res *http.Response) {
			assert.Equal(t, "5", res.Header.Get("Retry-After"))
		}},
		{`{"kind":"server_error"}`, 500, nil},
		{`{"kind":"status","status":502}`, 502, nil},
		{`{"kind":"malformed"}`, 200, func(t *testing.T, res *http.Response) {
			var v any
			assert.Error(t, json.NewDecoder(res.Body).Decode(&v))
		}},
		{`{"kind":"stall","stall_seconds":0.05}`, 200, nil},
		{`{"kind":"server_error","committed":true}`, 500, nil},
	}
	for _, tc := range cases {
		t.Run(tc.body, func(t *testing.T) {
			srv := rxdeliverytest.Start(t)
			status, _ := controlCall(t, srv, "POST", "/faults", strings.Replace(tc.body, "{", `{"operation":"pharmacies.Get",`, 1))
			require.Equal(t, http.StatusCreated, status)
			req, _ := http.NewRequest("GET", srv.OmniURL()+"/api/v1/pharmacies/5550001", nil)
			req.SetBasicAuth(srv.Credentials())
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer res.Body.Close()
			assert.Equal(t, tc.status, res.StatusCode)
			if tc.check != nil {
				tc.check(t, res)
			}
			// The record names the fault by the kind it was injected as.
			var in struct {
				Kind      string `json:"kind"`
				Committed bool   `json:"committed"`
			}
			require.NoError(t, json.Unmarshal([]byte(tc.body), &in))
			want := in.Kind
			if in.Committed {
				want = "committed, then " + want
			}
			_, got := controlCall(t, srv, "GET", "/calls?operation=pharmacies.Get", "")
			calls, _ := got["calls"].([]any)
			require.Len(t, calls, 1)
			assert.Equal(t, want, calls[0].(map[string]any)["fault"])
		})
	}
	srv := rxdeliverytest.Start(t)
	for _, bad := range []string{`{"kind":"status","status":200}`, `{"kind":"cut","times":0}`, `{"kind":"cut","extra":1}`, `not json`} {
		status, _ := controlCall(t, srv, "POST", "/faults", bad)
		assert.Contains(t, []int{400, 422}, status, bad)
	}
	// An unknown operation is refused with the list of the valid ones.
	status, got := controlCall(t, srv, "POST", "/faults", `{"operation":"orders.Make","kind":"cut"}`)
	assert.Equal(t, http.StatusUnprocessableEntity, status)
	msg, _ := got["error"].(map[string]any)["message"].(string)
	for _, op := range rxdeliverytest.Operations() {
		assert.Contains(t, msg, string(op))
	}
}

// TestControlSetsStatuses puts statuses on an order and a request: each
// answers the order or request as its GET does, 404 for an unknown id, 422
// for a status of neither, and 400 for a body that is not the documented
// {"status": ...}. A GET of an unknown order is 404 too.
func TestControlSetsStatuses(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	ctx := context.Background()
	order, err := srv.Client().Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	require.NoError(t, err)
	req, err := srv.Client().Requests.Create(ctx, omniParams("", 0))
	require.NoError(t, err)

	status, got := controlCall(t, srv, "PUT", "/orders/"+order.ID+"/status", `{"status":"delivered"}`)
	require.Equal(t, 200, status)
	assert.Equal(t, map[string]any{"id": order.ID, "status": "delivered", "tracking_number": nil}, got)
	status, got = controlCall(t, srv, "PUT", "/orders/"+order.ID+"/status", `{"status":"lost"}`)
	assert.Equal(t, 422, status)
	assert.Equal(t, map[string]any{"error": map[string]any{"message": "status: not an order status of the documents"}}, got)
	status, got = controlCall(t, srv, "PUT", "/orders/ord_none/status", `{"status":"delivered"}`)
	assert.Equal(t, 404, status)
	assert.Equal(t, map[string]any{"error": map[string]any{"message": "no such order"}}, got)
	status, _ = controlCall(t, srv, "PUT", "/orders/"+order.ID+"/status", `{"state":"delivered"}`)
	assert.Equal(t, 400, status)
	status, got = controlCall(t, srv, "GET", "/orders/"+order.ID, "")
	require.Equal(t, 200, status)
	assert.Equal(t, map[string]any{"id": order.ID, "status": "delivered", "tracking_number": nil}, got, "unchanged by the refused PUTs")
	status, got = controlCall(t, srv, "GET", "/orders/ord_none", "")
	assert.Equal(t, 404, status)
	assert.Equal(t, map[string]any{"error": map[string]any{"message": "no such order"}}, got)

	// request_incomplete cancels the request's order (SetRequestIncomplete).
	status, got = controlCall(t, srv, "PUT", "/requests/"+req.ID+"/status", `{"status":"request_incomplete"}`)
	require.Equal(t, 200, status)
	assert.Equal(t, map[string]any{"id": req.ID, "order_status": "cancelled"}, got)
	status, got = controlCall(t, srv, "PUT", "/requests/req_none/status", `{"status":"delivered"}`)
	assert.Equal(t, 404, status)
	assert.Equal(t, map[string]any{"error": map[string]any{"message": "no such request"}}, got)
	status, got = controlCall(t, srv, "PUT", "/requests/"+req.ID+"/status", `{"status":"lost"}`)
	assert.Equal(t, 422, status)
	assert.Equal(t, map[string]any{"error": map[string]any{"message": "status: not an order status of the documents, nor request_incomplete"}}, got)
	status, _ = controlCall(t, srv, "PUT", "/requests/"+req.ID+"/status", `not json`)
	assert.Equal(t, 400, status)
}

func TestControlReadsAndSetsState(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	ctx := context.Background()
	req, err := srv.Client().Requests.Create(ctx, omniParams("", 0))
	require.NoError(t, err)

	status, got := controlCall(t, srv, "GET", "/requests/"+req.ID, "")
	require.Equal(t, 200, status)
	assert.Nil(t, got["order_status"], "no order yet")
	status, got = controlCall(t, srv, "PUT", "/requests/"+req.ID+"/status", `{"status":"delivered"}`)
	require.Equal(t, 200, status)
	assert.Equal(t, "delivered", got["order_status"])
	status, _ = controlCall(t, srv, "PUT", "/requests/"+req.ID+"/status", `{"status":"lost"}`)
	assert.Equal(t, 422, status)
	status, _ = controlCall(t, srv, "GET", "/requests/req_none", "")
	assert.Equal(t, 404, status)

	status, _ = controlCall(t, srv, "PUT", "/pharmacies", `{"pharmacies":[{"name":"No ids"}]}`)
	assert.Equal(t, 422, status)
	status, got = controlCall(t, srv, "GET", "/pharmacies", "")
	require.Equal(t, 200, status)
	assert.Len(t, got["pharmacies"], 12, "unchanged by the refused PUT")

	status, _ = controlCall(t, srv, "PUT", "/quotes", `{}`)
	assert.Equal(t, 422, status)
	status, _ = controlCall(t, srv, "POST", "/tracking", `{"status":"Accepted"}`)
	assert.Equal(t, 422, status)
	status, _ = controlCall(t, srv, "POST", "/clock/advance", `{"seconds":1,"duration":"1s"}`)
	assert.Equal(t, 400, status)
	status, _ = controlCall(t, srv, "POST", "/clock/advance", `{"duration":"soon"}`)
	assert.Equal(t, 400, status)
	status, _ = controlCall(t, srv, "GET", "/clock/advance", "")
	assert.Equal(t, 405, status)
}

// TestControlCallsCarryReceiveTimes: the control API's call record carries
// received_at and simulated_at, as Call does, and the counts of
// CallCounts, for tests in other languages.
func TestControlCallsCarryReceiveTimes(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	_, err := srv.Client().Orders.Create(context.Background(), rxdeliverytest.SamedayOrderParams())
	require.NoError(t, err)
	status, out := controlCall(t, srv, "GET", "/calls", "")
	require.Equal(t, http.StatusOK, status)
	calls, _ := out["calls"].([]any)
	require.Len(t, calls, 1)
	c, _ := calls[0].(map[string]any)
	rec := srv.Calls()[0]
	assert.Equal(t, rec.ReceivedAt.UTC().Format(time.RFC3339Nano), c["received_at"])
	assert.Equal(t, rxdeliverytest.DefaultStart.Format(time.RFC3339Nano), c["simulated_at"])
	assert.Equal(t, map[string]any{"orders.Create": float64(1)}, out["counts"], "CallCounts")
}

// TestControlTrackingMovesShippingOrder: a tracking status injected
// through the control API moves the shipping order of its number as the
// order's own progression does (docs/lifecycles.md): Accepted to
// picked_up, Delivered to delivered (shipping.delivery.occurred_at set),
// never back, and a cancelled order stays cancelled.
func TestControlTrackingMovesShippingOrder(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	ctx := context.Background()
	create := func() (string, string) {
		p := shippingOrderParams()
		o, err := srv.Client().Orders.Create(ctx, p)
		require.NoError(t, err)
		tn, ok := srv.TrackingNumber(o.ID)
		require.True(t, ok)
		return o.ID, tn
	}
	track := func(tn, status string) {
		code, _ := controlCall(t, srv, "POST", "/tracking", `{"tracking_number":"`+tn+`","status":"`+status+`"}`)
		require.Equal(t, http.StatusNoContent, code)
	}
	orderStatus := func(id string) any {
		_, got := controlCall(t, srv, "GET", "/orders/"+id, "")
		return got["status"]
	}
	id, tn := create()
	track(tn, "Moving Through Network")
	assert.Equal(t, "new", orderStatus(id), "a status that names no move")
	track(tn, "Accepted")
	assert.Equal(t, "picked_up", orderStatus(id))
	track(tn, "Delivered")
	assert.Equal(t, "delivered", orderStatus(id))
	o, err := srv.Client().Orders.Get(ctx, id)
	require.NoError(t, err)
	require.NotNil(t, o.Shipping)
	assert.NotNil(t, o.Shipping.Delivery, "shipping.delivery.occurred_at")
	track(tn, "Accepted")
	assert.Equal(t, "delivered", orderStatus(id), "never back")

	id, tn = create()
	err = srv.Client().Orders.Cancel(ctx, id)
	require.NoError(t, err)
	track(tn, "Delivered")
	assert.Equal(t, "cancelled", orderStatus(id), "a cancelled order stays cancelled")
}
