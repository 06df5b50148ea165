package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreateRequestAnswersDocumentedShape(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	r := h.do("POST", "/omni/api/v1/requests", omniBody())
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	assert.Equal(t, "application/json", r.header.Get("Content-Type"))
	req := at(r.obj(t), "request").(map[string]any)
	assert.Equal(t, "req_000001", req["id"])
	assert.Equal(t, "ext-1", req["external_reference_number"])
	assert.Equal(t, "2025-01-06T14:00:00.000Z", req["created_at"])
	assert.True(t, has(req, "order"))
	assert.Nil(t, req["order"])
	assert.False(t, has(req, "status"), "status is absent without order")
	assert.False(t, has(req, "delivery_eta"))
	assert.Equal(t, 1, h.srv.Stats().RequestsCreated)

	// Without test_meta the request stays without order.
	h.clock.Advance(time.Hour)
	got := h.do("GET", "/omni/api/v1/requests/req_000001", nil).obj(t)
	assert.Nil(t, at(got, "request.order"))
}

func TestCreateRequestValidation(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	cases := []struct {
		name   string
		body   map[string]any
		status int
		want   []string
	}{
		{"missing everything", map[string]any{}, 422, []string{
			"identifier: is required", "external_reference_number: is required", "name_of_pickup: is required when ndc is not provided",
			"pharmacy: is required", "dropoff: is required", "patient: is required",
		}},
		{"ndc length", with(omniBody(), "ndc", "123"), 422, []string{"ndc: must be exactly 11 characters"}},
		{"name_of_pickup suffices without ndc", with(omniBody(), "ndc", nil, "name_of_pickup", "Item"), 200, nil},
		{"empty ndc is no ndc", with(omniBody(), "ndc", ""), 422, []string{"name_of_pickup: is required when ndc is not provided"}},
		{"ext ref too long", with(omniBody(), "external_reference_number", strings.Repeat("x", 256)), 422, []string{"external_reference_number: must be at most 255 characters"}},
		{"ncpdp length", with(omniBody(), "pharmacy", map[string]any{"ncpdp": "123"}), 422, []string{"pharmacy.ncpdp: must be exactly 7 characters",
			"pickup: is required when pharmacy.ncpdp is not a pharmacy the sandbox knows"}},
		{"unknown pharmacy needs pickup", with(omniBody(), "pharmacy", map[string]any{"ncpdp": "9999999"}), 422, []string{"pickup: is required"}},
		{"unknown pharmacy with pickup", with(omniBody(), "pharmacy", map[string]any{"ncpdp": "9999999"}, "pickup", map[string]any{
			"name": "Store", "phone_number": "2125550100",
			"address": map[string]any{"street1": "2 Main St", "city": "Albany", "state": "NY", "zipcode": "122070001"},
		}), 200, nil},
		{"pickup place_id refused", with(omniBody(), "pickup", map[string]any{
			"name": "Store", "phone_number": "2125550100", "address": map[string]any{"place_id": "abc"},
		}), 422, []string{"pickup.address.place_id: is only accepted for the dropoff address"}},
		{"dropoff place_id only", with(omniBody(), "dropoff", map[string]any{
			"name": "Pat", "phone_number": "2125550199", "address": map[string]any{"place_id": "ChIJ-abc_123"},
		}), 200, nil},
		{"dropoff place_id mixed", with(omniBody(), "dropoff", map[string]any{
			"name": "Pat", "phone_number": "2125550199", "address": map[string]any{"place_id": "x", "city": "NYC"},
		}), 422, []string{"dropoff.address: must be either a full address or an object with only place_id"}},
		{"dropoff limits", with(omniBody(), "dropoff", map[string]any{
			"name": strings.Repeat("n", 72), "phone_number": "212555019",
			"address": map[string]any{"street1": "", "city": "NYC", "state": "NYC", "zipcode": "1234"},
		}), 422, []string{
			"dropoff.name: must be at most 71 characters", "dropoff.phone_number: must be exactly 10 digits",
			"dropoff.address.street1: is required", "dropoff.address.state: must be at most 2 characters",
			"dropoff.address.zipcode: must be 5 or 9 digits",
		}},
		{"patient rules", with(omniBody(), "patient", map[string]any{
			"first_name": strings.Repeat("a", 31), "last_name": strings.Repeat("b", 41), "gender": "other", "date_of_birth": "02/29/1980",
		}), 422, []string{
			"patient.first_name: must be at most 30 characters", "patient.last_name: must be at most 40 characters",
			"patient.gender: must be one of male, female, unspecified", "patient.date_of_birth: must be an ISO 8601 date",
		}},
		{"remittance needs both", with(omniBody(), "remittance", map[string]any{}), 422, []string{
			"remittance.contact: is required when remittance is present", "remittance.payments: is required when remittance is present",
		}},
		{"payment rules", with(omniBody(), "remittance", map[string]any{
			"contact":  map[string]any{"mobile_phone_number": "2125550198"},
			"payments": []any{map[string]any{"fee": 0, "kind": "tip"}, map[string]any{"kind": "copay"}},
		}), 422, []string{
			"remittance.payments[0].fee: must be greater than 0", "remittance.payments[0].kind: must be one of delivery_fee, copay",
			"remittance.payments[1].fee: is required",
		}},
		{"fee as string is malformed", with(omniBody(), "remittance", map[string]any{
			"contact":  map[string]any{"mobile_phone_number": "2125550198"},
			"payments": []any{map[string]any{"fee": "5.00", "kind": "copay"}},
		}), 422, []string{"remittance.payments[0].fee: must be a JSON number"}},
		{"test_meta rules", with(omniBody(), "test_meta", map[string]any{"scenario": "lost", "duration_between": 901}), 422, []string{
			"test_meta.scenario: must be one of successful_delivery", "test_meta.duration_between: must be between 1 and 900",
		}},
		{"test_meta integer", with(omniBody(), "test_meta", map[string]any{"scenario": "successful_delivery", "duration_between": 1.5}), 422, []string{
			"test_meta.duration_between: must be a JSON integer",
		}},
		{"wrong JSON kind", with(omniBody(), "patient", "Pat"), 400, []string{"patient: must be an object"}},
		{"nested wrong kind", with(omniBody(), "pharmacy", map[string]any{"ncpdp": 5550001}), 400, []string{"pharmacy.ncpdp: must be a string"}},
		{"unknown field", with(omniBody(), "ncdp", "x"), 400, []string{`unknown field "ncdp"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do("POST", "/omni/api/v1/requests", tc.body)
			require.Equal(t, tc.status, r.status, "%s", r.body)
			if tc.status == 200 {
				return
			}
			e := r.obj(t)["error"].(map[string]any)
			assert.NotEmpty(t, e["id"])
			assert.Equal(t, map[int]string{400: "invalid_request", 422: "validation_error"}[tc.status], e["type"])
			for _, w := range tc.want {
				assert.Contains(t, e["message"], w)
			}
			assert.NotContains(t, e["message"], "Pat", "messages never quote patient data")
		})
	}
}

func TestCreateRequestMalformedBodies(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	for name, tc := range map[string]struct {
		body, contentType, want string
	}{
		"not json":   {`{"identifier":`, "application/json", "body is not valid JSON"},
		"empty":      {"", "application/json", "body is required"},
		"two values": {`{} {}`, "application/json", "single JSON value"},
		"array":      {`[]`, "application/json", "body: must be an object"},
		"wrong kind, then a second value": {`{"identifier":"x","remittance":{"payments":[{},{"kind":["copay"]}]}} {}`, "application/json",
			"remittance.payments[1].kind: must be a string"},
		"wrong type header": {`{}`, "text/plain", "Content-Type must be application/json"},
		"charset accepted":  {`{}`, "application/json; charset=utf-8", "identifier: is required"},
	} {
		t.Run(name, func(t *testing.T) {
			r := h.do("POST", "/omni/api/v1/requests", tc.body, "Content-Type", tc.contentType)
			assert.Contains(t, []int{400, 422}, r.status)
			assert.Contains(t, at(r.obj(t), "error.message"), tc.want)
		})
	}
}

func TestUnknownFieldsAllowedWhenConfigured(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{AllowUnknownFields: true})
	r := h.do("POST", "/omni/api/v1/requests", with(omniBody(), "extra", 1))
	assert.Equal(t, http.StatusOK, r.status, "%s", r.body)
}

func TestSuccessfulDeliveryScenario(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id := h.createRequest(with(omniBody(), "test_meta", map[string]any{"scenario": "successful_delivery", "duration_between": 10}))
	get := func() map[string]any {
		return h.do("GET", "/omni/api/v1/requests/"+id, nil).obj(t)["request"].(map[string]any)
	}
	h.clock.Advance(9 * time.Second)
	assert.Nil(t, get()["order"])

	h.clock.Advance(time.Second)
	req := get()
	assert.Equal(t, "new", at(req, "order.status"))
	assert.Equal(t, "request_received", at(req, "status.name"))
	assert.True(t, has(req["status"].(map[string]any), "detail"))
	assert.Nil(t, at(req, "status.detail"))
	assert.Equal(t, "Sandbox Courier Co.", at(req, "order.courier_company"))
	assert.True(t, has(req["order"].(map[string]any), "external_reference_number"))
	assert.Contains(t, req["delivery_eta"], " between ")
	assert.Contains(t, req["delivery_eta"], " EST")

	h.clock.Advance(10 * time.Second)
	req = get()
	assert.Equal(t, "submitted_to_courier", at(req, "order.status"))
	assert.Equal(t, "Courier assigned", at(req, "order.status_note"))
	assert.Equal(t, "2025-01-06T14:00:20.000000Z", at(req, "order.status_note_updated_at"))

	h.clock.Advance(10 * time.Second)
	req = get()
	assert.Equal(t, "picked_up", at(req, "order.status"))
	assert.Equal(t, "2025-01-06T09:00:30-05:00", at(req, "order.pickup.occurred_at"))
	assert.Nil(t, at(req, "order.delivery"))

	h.clock.Advance(10 * time.Second)
	req = get()
	assert.Equal(t, "delivered", at(req, "order.status"))
	assert.Equal(t, "2025-01-06T09:00:40-05:00", at(req, "order.delivery.occurred_at"))
	assert.Equal(t, "Sandbox Recipient", at(req, "order.delivery.signed_by"))
	assert.Equal(t, "Other", at(req, "order.delivery.relationship"))
	assert.Equal(t, "06", at(req, "order.delivery.recipient_identification.qualifier"))
	assert.Nil(t, at(req, "order.delivery.failure_reason"))
	first := at(req, "order.delivery.signature_url")
	assert.NotEqual(t, first, at(get(), "order.delivery.signature_url"), "a new signature URL per retrieval")

	h.clock.Advance(time.Hour)
	assert.Equal(t, "delivered", at(get(), "order.status"))
	status, ok := h.srv.RequestOrderStatus(id)
	assert.True(t, ok)
	assert.Equal(t, "delivered", status)
}

func TestAdvancePastSeveralStepsAppliesThemInOrder(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id := h.createRequest(with(omniBody(), "test_meta", map[string]any{"scenario": "successful_delivery"}))
	h.clock.Advance(2 * time.Hour) // default cadence 30 s: all four steps at once
	req := h.do("GET", "/omni/api/v1/requests/"+id, nil).obj(t)
	assert.Equal(t, "delivered", at(req, "request.order.status"))
	// The timestamps are the steps' due times, not the final clock time.
	assert.Equal(t, "2025-01-06T09:01:30-05:00", at(req, "request.order.pickup.occurred_at"))
	assert.Equal(t, "2025-01-06T09:02:00-05:00", at(req, "request.order.delivery.occurred_at"))
}

func TestUnsuccessfulDeliveryScenario(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id := h.createRequest(with(omniBody(), "test_meta", map[string]any{"scenario": "unsuccessful_delivery", "duration_between": 1}))
	h.clock.Advance(4 * time.Second)
	req := h.do("GET", "/omni/api/v1/requests/"+id, nil).obj(t)["request"]
	assert.Equal(t, "delivery_attempted", at(req, "order.status"))
	assert.Equal(t, "Recipient unavailable", at(req, "order.delivery.failure_reason"))
	assert.Nil(t, at(req, "order.delivery.signed_by"))
	assert.Nil(t, at(req, "order.delivery.signature_url"))
	_, err := time.Parse(time.RFC3339, at(req, "delivery_eta").(string))
	assert.NoError(t, err, "unsuccessful_delivery gives an ISO 8601 delivery_eta")

	h.clock.Advance(time.Second)
	req = h.do("GET", "/omni/api/v1/requests/"+id, nil).obj(t)["request"]
	assert.Equal(t, "returned_to_pharmacy", at(req, "order.status"))
	assert.NotEmpty(t, at(req, "order.return.occurred_at"))
	assert.Equal(t, "Recipient unavailable", at(req, "order.delivery.failure_reason"))
}

func TestIncompleteRequestScenario(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id := h.createRequest(with(omniBody(), "test_meta", map[string]any{"scenario": "incomplete_request", "duration_between": 5}))
	h.clock.Advance(5 * time.Second)
	req := h.do("GET", "/omni/api/v1/requests/"+id, nil).obj(t)["request"]
	assert.Equal(t, "request_received", at(req, "status.name"))
	h.clock.Advance(5 * time.Second)
	req = h.do("GET", "/omni/api/v1/requests/"+id, nil).obj(t)["request"]
	assert.Equal(t, "request_incomplete", at(req, "status.name"))
	assert.Equal(t, "pharmacy_out_of_stock", at(req, "status.detail"))
	assert.Equal(t, "cancelled", at(req, "order.status"))
	assert.Equal(t, "Out of Stock", at(req, "order.cancellation_reason"))
}

func TestCancelRequest(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})

	// No order yet: 204, and the scenario stops.
	id := h.createRequest(with(omniBody(), "test_meta", map[string]any{"scenario": "successful_delivery"}))
	r := h.do("DELETE", "/omni/api/v1/requests/"+id, nil)
	assert.Equal(t, http.StatusNoContent, r.status)
	assert.Empty(t, r.body)
	h.clock.Advance(time.Hour)
	assert.Nil(t, at(h.do("GET", "/omni/api/v1/requests/"+id, nil).obj(t), "request.order"))

	// Order submitted to courier: cancelled.
	id = h.createRequest(with(omniBody(), "test_meta", map[string]any{"scenario": "successful_delivery", "duration_between": 10}))
	h.clock.Advance(20 * time.Second)
	assert.Equal(t, http.StatusNoContent, h.do("DELETE", "/omni/api/v1/requests/"+id, nil).status)
	h.clock.Advance(time.Hour)
	req := h.do("GET", "/omni/api/v1/requests/"+id, nil).obj(t)["request"]
	assert.Equal(t, "cancelled", at(req, "order.status"))
	assert.Equal(t, "requester", at(req, "order.cancelled_by"))
	assert.Equal(t, "Order Canceled", at(req, "order.cancellation_reason"))

	// Picked up: unable_to_cancel with the request id.
	id = h.createRequest(omniBody())
	require.NoError(t, h.srv.SetRequestOrderStatus(id, "picked_up"))
	r = h.do("DELETE", "/omni/api/v1/requests/"+id, nil)
	assert.Equal(t, http.StatusUnprocessableEntity, r.status)
	e := r.obj(t)["error"]
	assert.Equal(t, id, at(e, "id"))
	assert.Equal(t, "unable_to_cancel", at(e, "type"))
	assert.Contains(t, at(e, "message"), "not in a cancellable status")

	// Already cancelled: not cancellable again.
	require.NoError(t, h.srv.SetRequestOrderStatus(id, "cancelled"))
	assert.Equal(t, http.StatusUnprocessableEntity, h.do("DELETE", "/omni/api/v1/requests/"+id, nil).status)

	assert.Equal(t, http.StatusNotFound, h.do("DELETE", "/omni/api/v1/requests/nope", nil).status)
	assert.Equal(t, 2, h.srv.Stats().RequestsCancelled)
}

func TestSetRequestOrderStatus(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id := h.createRequest(omniBody())
	assert.Error(t, h.srv.SetRequestOrderStatus(id, "lost"))
	assert.Error(t, h.srv.SetRequestOrderStatus("nope", "new"))
	status, ok := h.srv.RequestOrderStatus(id)
	assert.True(t, ok)
	assert.Equal(t, "", status)
	_, ok = h.srv.RequestOrderStatus("nope")
	assert.False(t, ok)
	for _, st := range []string{"new", "submitted_to_courier", "picked_up", "delivered", "delivery_attempted", "returned_to_pharmacy"} {
		require.NoError(t, h.srv.SetRequestOrderStatus(id, st))
		assert.Equal(t, st, at(h.do("GET", "/omni/api/v1/requests/"+id, nil).obj(t), "request.order.status"))
	}
	req := h.do("GET", "/omni/api/v1/requests/"+id, nil).obj(t)["request"]
	assert.NotNil(t, at(req, "order.pickup.occurred_at"))
	assert.NotNil(t, at(req, "order.return.occurred_at"))
}

func TestGetRequests(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	a := h.createRequest(omniBody())
	b := h.createRequest(with(omniBody(), "external_reference_number", "ext-2"))
	for _, path := range []string{"/omni/api/v1/requests/", "/omni/api/v1/requests"} {
		r := h.do("GET", path+"?ids[]="+b+"&ids[]="+a+"&ids[]=missing&ids[]="+a, nil)
		require.Equal(t, http.StatusOK, r.status, "%s", r.body)
		list := r.obj(t)["requests"].([]any)
		require.Len(t, list, 2)
		assert.Equal(t, b, at(list[0], "request.id"))
		assert.Equal(t, a, at(list[1], "request.id"))
	}
	// Escaped brackets are the same key.
	r := h.do("GET", "/omni/api/v1/requests/?ids%5B%5D="+a, nil)
	assert.Len(t, r.obj(t)["requests"], 1)

	r = h.do("GET", "/omni/api/v1/requests/?ids="+a, nil)
	assert.Equal(t, http.StatusBadRequest, r.status)
	assert.Contains(t, at(r.obj(t), "error.message"), `unknown query parameter "ids"`)
	assert.Equal(t, http.StatusBadRequest, h.do("GET", "/omni/api/v1/requests/", nil).status)

	r = h.do("GET", "/omni/api/v1/requests/missing", nil)
	assert.Equal(t, http.StatusNotFound, r.status)
	assert.Equal(t, "not_found", at(r.obj(t), "error.type"))
}

func TestDuplicateCreateIsCounted(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	body, err := json.Marshal(omniBody())
	require.NoError(t, err)
	h.do("POST", "/omni/api/v1/requests", body)
	st := h.srv.Stats()
	assert.Equal(t, 0, st.DuplicateCreates)
	h.do("POST", "/omni/api/v1/requests", body)
	st = h.srv.Stats()
	assert.Equal(t, 1, st.DuplicateCreates)
	require.Len(t, st.CreateBodies, 1)
	for k, n := range st.CreateBodies {
		assert.True(t, strings.HasPrefix(k, "omni "))
		assert.Equal(t, 2, n)
	}
	h.srv.ResetStats()
	assert.Empty(t, h.srv.Stats().CreateBodies)
}
