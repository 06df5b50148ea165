package requests_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// createScenario creates a request running scenario, one step a minute.
func createScenario(t *testing.T, c *rxdelivery.Client, scenario requests.Scenario) *requests.Request {
	t.Helper()
	p := exampleParams()
	p.TestMeta = &requests.TestMeta{Scenario: scenario, DurationBetween: 60}
	r, err := c.Requests.Create(context.Background(), p)
	require.NoError(t, err)
	return r
}

// describe names a request's state as the watch judges it.
func describe(r *requests.Request) string {
	s := "no order"
	if r.Order != nil {
		s = string(r.Order.Status)
	}
	if r.Status != nil {
		s += "/" + string(r.Status.Name)
	}
	return s
}

func TestWatch_FollowsEveryStepOfAScenarioWithReadsOnly(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		scenario requests.Scenario
		want     []string
	}{
		{requests.ScenarioSuccessfulDelivery, []string{"no order", "new/request_received", "submitted_to_courier/request_received", "picked_up/request_received", "delivered/request_received"}},
		{requests.ScenarioUnsuccessfulDelivery, []string{"no order", "new/request_received", "submitted_to_courier/request_received", "picked_up/request_received", "delivery_attempted/request_received", "returned_to_pharmacy/request_received"}},
		{requests.ScenarioIncompleteRequest, []string{"no order", "new/request_received", "cancelled/request_incomplete"}},
	} {
		t.Run(string(tc.scenario), func(t *testing.T) {
			t.Parallel()
			srv := rxdeliverytest.Start(t)
			c := srv.Client()
			r := createScenario(t, c, tc.scenario)
			srv.ResetCalls()
			var got []string
			var last *requests.Request
			for req, err := range c.Requests.Watch(context.Background(), r.ID) {
				require.NoError(t, err)
				got = append(got, describe(req))
				last = req
			}
			assert.Equal(t, tc.want, got)
			assert.True(t, last.Final())
			for _, call := range srv.Calls() {
				assert.Equal(t, rxdeliverytest.RequestsGet, call.Operation)
			}
		})
	}
}

func TestFinal(t *testing.T) {
	t.Parallel()
	order := func(s rxtypes.OrderStatus) *requests.Order { return &requests.Order{Status: s} }
	for _, tc := range []struct {
		name string
		r    *requests.Request
		want bool
	}{
		{"nil", nil, false},
		{"no order yet", &requests.Request{}, false},
		{"received, no order", &requests.Request{Status: &requests.Status{Name: requests.StatusRequestReceived}}, false},
		{"incomplete, no order", &requests.Request{Status: &requests.Status{Name: requests.StatusRequestIncomplete}}, true},
		{"new", &requests.Request{Order: order(rxtypes.OrderStatusNew)}, false},
		{"submitted", &requests.Request{Order: order(rxtypes.OrderStatusSubmittedToCourier)}, false},
		{"picked up", &requests.Request{Order: order(rxtypes.OrderStatusPickedUp)}, false},
		{"attempted", &requests.Request{Order: order(rxtypes.OrderStatusDeliveryAttempted)}, false},
		{"delivered", &requests.Request{Order: order(rxtypes.OrderStatusDelivered)}, true},
		{"returned", &requests.Request{Order: order(rxtypes.OrderStatusReturnedToPharmacy)}, true},
		{"cancelled", &requests.Request{Order: order(rxtypes.OrderStatusCancelled)}, true},
		{"unknown", &requests.Request{Order: order("lost")}, false},
	} {
		assert.Equal(t, tc.want, tc.r.Final(), tc.name)
	}
}

func TestWait_Until(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	c := srv.Client()
	r := createScenario(t, c, requests.ScenarioSuccessfulDelivery)
	got, err := c.Requests.Wait(context.Background(), r.ID, requests.Until(func(r *requests.Request) bool {
		return r.Order != nil
	}))
	require.NoError(t, err)
	assert.Equal(t, rxtypes.OrderStatusNew, got.Order.Status)
}

func TestWait_OrdersUntilIsRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	_, err := srv.Client().Requests.Wait(context.Background(), "req_1", orders.Until(func(*orders.Order) bool { return true }))
	var ce *rxdelivery.ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Empty(t, srv.Calls())
}

func TestWatch_NotFoundEnds(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	got, err := srv.Client().Requests.Wait(context.Background(), "req_nope")
	assert.Nil(t, got)
	assert.ErrorIs(t, err, rxdelivery.ErrNotFound)
	assert.Len(t, srv.Calls(), 1)
}

func TestWatch_UnknownOrderStatusEndsWithATypedError(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	env.Mock.RegisterResponder(http.MethodGet, testutil.OmniURL+"/api/v1/requests/req_1",
		httpmock.NewStringResponder(200, `{"request":{"id":"req_1","external_reference_number":"r","created_at":"2026-03-02T09:00:00Z",
			"order":{"id":"ord_1","status":"lost_in_space"},"status":{"name":"request_received","detail":null},"delivery_eta":null}}`))
	got, err := env.Client.Requests.Wait(context.Background(), "req_1")
	assert.ErrorIs(t, err, rxdelivery.ErrUnknownStatus)
	var we *rxdelivery.WatchError
	require.ErrorAs(t, err, &we)
	assert.Equal(t, rxdelivery.WatchError{Op: "requests.Watch", ID: "req_1", Status: "lost_in_space", Attempts: 1}, *we)
	require.NotNil(t, got)
	assert.Equal(t, 1, env.Mock.GetTotalCallCount())
}

// A request status name the document does not list is followed, not
// refused: the document says its list is not complete.
func TestWatch_UnlistedRequestStatusNameIsFollowed(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	env.Mock.RegisterResponder(http.MethodGet, testutil.OmniURL+"/api/v1/requests/req_1",
		httpmock.NewStringResponder(200, `{"request":{"id":"req_1","external_reference_number":"r","created_at":"2026-03-02T09:00:00Z",
			"order":{"id":"ord_1","status":"delivered"},"status":{"name":"request_fulfilled","detail":null},"delivery_eta":null}}`))
	got, err := env.Client.Requests.Wait(context.Background(), "req_1")
	require.NoError(t, err)
	assert.Equal(t, requests.StatusName("request_fulfilled"), got.Status.Name)
}

func TestWatchMany_ReadsInBatchesWithTheGetManyEndpoint(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	c := srv.Client()
	var ids []string
	for range 3 {
		ids = append(ids, createScenario(t, c, requests.ScenarioSuccessfulDelivery).ID)
	}
	srv.ResetCalls()
	final := map[string]string{}
	for r, err := range c.Requests.WatchMany(context.Background(), ids, rxdelivery.WithPollBatchSize(2)) {
		require.NoError(t, err)
		if r.Final() {
			final[r.ID] = describe(r)
		}
	}
	assert.Equal(t, map[string]string{ids[0]: "delivered/request_received", ids[1]: "delivered/request_received", ids[2]: "delivered/request_received"}, final)
	assert.Empty(t, srv.CallsTo(rxdeliverytest.RequestsGet))
	calls := srv.Calls()
	require.GreaterOrEqual(t, len(calls), 2)
	assert.Equal(t, ids[:2], calls[0].Query["ids[]"])
	assert.Equal(t, ids[2:], calls[1].Query["ids[]"])
	for _, call := range calls {
		assert.Equal(t, rxdeliverytest.RequestsGetMany, call.Operation)
	}
}
