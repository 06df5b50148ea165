package sandbox

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreateOrderAnswersDocumentedSubset(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	r := h.do("POST", "/delivery/api/v1/orders", orderBody(""))
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	o := r.obj(t)["order"].(map[string]any)
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	assert.ElementsMatch(t, []string{"id", "status", "pickup", "delivery", "return", "cancellation", "eta"}, keys)
	assert.Equal(t, "new", o["status"])
	assert.Nil(t, o["pickup"])
	assert.Equal(t, "pickup", at(o, "eta.type"))
	assert.Equal(t, "2025-01-06T09:01:00-05:00", at(o, "eta.arrival_at"))
	assert.Equal(t, 1, h.srv.Stats().OrdersCreated)
}

func TestCourierOrderProgression(t *testing.T) {
	t.Parallel()
	for _, level := range []string{"", "ondemand"} {
		t.Run("level="+level, func(t *testing.T) {
			h := newHarness(t, Config{OrderCadence: cadence})
			id := h.createOrder(orderBody(level))
			get := func() map[string]any {
				return h.do("GET", "/delivery/api/v1/orders/"+id, nil).obj(t)["order"].(map[string]any)
			}
			o := get()
			assert.True(t, has(o, "shipping"))
			assert.Nil(t, o["shipping"])
			h.clock.Advance(cadence)
			assert.Equal(t, "submitted to courier", get()["status"], "written with spaces as the sample does")
			h.clock.Advance(cadence)
			o = get()
			assert.Equal(t, "picked_up", o["status"])
			assert.Equal(t, "2025-01-06T14:01:00Z", at(o, "pickup.occurred_at"))
			assert.Equal(t, "delivery", at(o, "eta.type"))
			eta := at(o, "eta.arrival_at")
			h.clock.Advance(cadence)
			o = get()
			assert.Equal(t, "delivered", o["status"])
			assert.Equal(t, "2025-01-06T14:01:30Z", at(o, "delivery.occurred_at"))
			assert.Equal(t, eta, at(o, "eta.arrival_at"), "the last ETA stays after delivery")
			assert.NotEmpty(t, at(o, "delivery.signature_url"))
			if level == "" {
				assert.Equal(t, "Other", at(o, "delivery.relationship"))
				assert.Equal(t, "Neighbor", at(o, "delivery.other_relationship_description"))
				assert.NotNil(t, at(o, "delivery.recipient_identification"), "photo_id_required")
			} else {
				assert.Nil(t, at(o, "delivery.relationship"), "relationship only for same-day")
				assert.Nil(t, at(o, "delivery.recipient_identification"))
			}
		})
	}
}

func TestShippingOrder(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{OrderCadence: cadence})
	r := h.do("POST", "/delivery/api/v1/orders", orderBody("shipping"))
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	created := r.obj(t)["order"].(map[string]any)
	assert.Nil(t, created["eta"], "shipping orders carry no ETA")
	assert.False(t, has(created, "shipping"), "the create answer is the documented subset")
	id := created["id"].(string)

	r = h.do("GET", "/delivery/api/v1/orders/"+id, nil)
	assert.Contains(t, string(r.body), `"cost":10.89`, "cost is a JSON number with two decimals")
	o := r.obj(t)["order"].(map[string]any)
	assert.Nil(t, o["pickup"])
	assert.Nil(t, o["delivery"])
	assert.Nil(t, o["eta"])
	sh := o["shipping"].(map[string]any)
	tn := sh["tracking_number"].(string)
	assert.Len(t, tn, 22)
	assert.True(t, strings.HasPrefix(tn, "9400"))
	assert.Equal(t, "POSTAL", sh["carrier"])
	assert.Equal(t, "POSTAL Priority Mail", sh["carrier_service"])
	assert.Equal(t, false, sh["saturday_delivery"])
	assert.Contains(t, sh["tracking_url"], tn)
	assert.Contains(t, sh["label_pdf"], ".pdf")
	assert.True(t, has(sh, "delivery"))
	assert.Nil(t, sh["delivery"])
	got, ok := h.srv.OrderTrackingNumber(id)
	assert.True(t, ok)
	assert.Equal(t, tn, got)

	h.clock.Advance(cadence)
	assert.Equal(t, "picked_up", at(h.do("GET", "/delivery/api/v1/orders/"+id, nil).obj(t), "order.status"))
	assert.Nil(t, at(h.do("GET", "/delivery/api/v1/orders/"+id, nil).obj(t), "order.pickup"))
	h.clock.Advance(3 * cadence)
	o = h.do("GET", "/delivery/api/v1/orders/"+id, nil).obj(t)["order"].(map[string]any)
	assert.Equal(t, "delivered", o["status"])
	assert.Equal(t, "2025-01-06T14:02:00Z", at(o, "shipping.delivery.occurred_at"))

	// Carriers give different tracking number forms.
	for carrier, service := range map[string]string{"PARCELA": "PARCELA Ground", "PARCELB": "PARCELB Ground"} {
		b := orderBody("shipping")
		b["shipping"] = with(b["shipping"].(map[string]any), "carrier", carrier, "carrier_service", service)
		id := h.createOrder(b)
		tn, _ := h.srv.OrderTrackingNumber(id)
		if carrier == "PARCELA" {
			assert.True(t, strings.HasPrefix(tn, "1Z"), tn)
		} else {
			assert.Len(t, tn, 12)
		}
	}
	_, ok = h.srv.OrderTrackingNumber(h.createOrder(orderBody("")))
	assert.False(t, ok)
}

func TestProgressionOffWithNegativeCadence(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{OrderCadence: -1})
	id := h.createOrder(orderBody(""))
	h.clock.Advance(time.Hour)
	st, _ := h.srv.OrderStatus(id)
	assert.Equal(t, "new", st)
}

func TestCreateOrderValidation(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	shipping := func(kv ...any) map[string]any {
		b := orderBody("shipping")
		b["shipping"] = with(b["shipping"].(map[string]any), kv...)
		return b
	}
	cases := []struct {
		name string
		body map[string]any
		want []string // empty: accepted
	}{
		{"empty", map[string]any{}, []string{
			"delivery_fee: is required", "rx_amount_due: is required", "pharmacy: is required",
			"recipient: is required", "patient: is required", "prescriptions: is required",
		}},
		{"sameday explicit refused", with(orderBody(""), "service_level", "sameday"), []string{"service_level: must be absent"}},
		{"sameday-only fields on ondemand", with(orderBody("ondemand"), "other_items_amount_due", 1, "photo_id_required", true), []string{
			"other_items_amount_due: is only accepted for same-day orders", "photo_id_required: is only accepted for same-day orders",
		}},
		// "only for sameday" in the Required column: required there,
		// allowed elsewhere (DESIGN.md's reading, shared with the SDK).
		{"fees on ondemand", with(orderBody("ondemand"), "delivery_fee", 1, "rx_amount_due", 0), nil},
		{"fees on shipping", with(orderBody("shipping"), "delivery_fee", 2.5), nil},
		{"negative fee on ondemand", with(orderBody("ondemand"), "rx_amount_due", -1), []string{"rx_amount_due: must not be negative"}},
		{"fee as string", with(orderBody(""), "delivery_fee", "5.00"), []string{"delivery_fee: must be a JSON number"}},
		{"bad dates", with(orderBody("ondemand"), "ready_at", "2025-01-06 10:00", "service_date", "tomorrow"), []string{
			"ready_at: must be an ISO 8601 timestamp", "service_date: must be an ISO 8601 date",
		}},
		{"initiator", with(orderBody(""), "initiator", "patient"), []string{"initiator: must be one of pharmacy"}},
		{"limits", with(orderBody(""), "delivery_notes", strings.Repeat("n", 281), "pharmacy", map[string]any{"npi": "1", "ncpdp": "1"}), []string{
			"delivery_notes: must be at most 280 characters", "pharmacy.npi: must be exactly 10 characters", "pharmacy.ncpdp: must be exactly 7 characters",
		}},
		{"recipient", with(orderBody(""), "recipient", map[string]any{"description": strings.Repeat("d", 72), "home_phone_number": "12",
			"address": deliveryAddress()}), []string{
			"recipient.description: must be at most 71", "recipient.home_phone_number: must be exactly 10 digits",
		}},
		{"omni address key refused", with(orderBody(""), "recipient", map[string]any{"description": "Pat",
			"address": map[string]any{"street1": "wrong key"}}), []string{`unknown field "street1"`}},
		{"recipient address", with(orderBody(""), "recipient", map[string]any{"description": "Pat", "address": map[string]any{"city": "NYC"}}), []string{
			"recipient.address.street: is required", "recipient.address.state: is required", "recipient.address.zipcode: is required",
		}},
		{"patient gender required", with(orderBody(""), "patient", map[string]any{"first_name": "A", "last_name": "B", "date_of_birth": "1980-01-01"}), []string{
			"patient.gender: is required",
		}},
		{"shipping needs patient phone", with(orderBody("shipping"), "patient", map[string]any{"first_name": "A", "last_name": "B", "gender": "male", "date_of_birth": "1980-01-01"}), []string{
			"patient: mobile_phone_number or home_phone_number is required for shipping orders",
		}},
		{"prescription rules", with(orderBody(""), "prescriptions", []any{map[string]any{"ndc": "1", "refrigeration": "cold", "days_supply": 1.5, "payers": []any{map[string]any{"coverage_type": "quaternary"}}}}), []string{
			"prescriptions[0].number: is required", "prescriptions[0].ndc: must be exactly 11", "prescriptions[0].refrigeration: must be one of none, fridge, frozen",
			"prescriptions[0].days_supply: must be a JSON integer", "prescriptions[0].fill_quantity: is required", "prescriptions[0].prescriber: is required",
			"prescriptions[0].payers[0].bin: is required", "prescriptions[0].payers[0].coverage_type: must be one of", "prescriptions[0].payers[0].government_plan_indicator: is required",
		}},
		// A wrong JSON kind inside a list names the element, as the
		// rules above do, on every Go release.
		{"wrong kind in a later prescription", with(orderBody(""), "prescriptions", []any{prescription("RX1"), with(prescription("RX2"), "number", 7)}), []string{
			"prescriptions[1].number: must be a string",
		}},
		{"wrong kind in a payer", with(orderBody(""), "prescriptions", []any{with(prescription("RX1"), "payers", []any{map[string]any{"bin": 610014}})}), []string{
			"prescriptions[0].payers[0].bin: must be a string",
		}},
		{"prescription not an object", with(orderBody(""), "prescriptions", []any{prescription("RX1"), "RX2"}), []string{
			"prescriptions[1]: must be an object",
		}},
		{"other items", with(orderBody(""), "other_items", []any{map[string]any{"upc": "1"}}), []string{
			"other_items[0].sku: is required", "other_items[0].quantity: is required", "other_items[0].description: is required",
		}},
		{"shipping missing", with(orderBody("shipping"), "shipping", nil), []string{"shipping: is required for shipping orders"}},
		{"shipping on sameday", with(orderBody(""), "shipping", map[string]any{}), []string{"shipping: is only accepted for shipping orders"}},
		{"carrier service mismatch", shipping("carrier_service", "PARCELA Ground"), []string{"shipping.carrier_service: must be one of POSTAL Priority Mail"}},
		{"signature per carrier", shipping("carrier", "PARCELA", "carrier_service", "PARCELA Ground", "signature", "patient_signature"), []string{
			"shipping.signature: must be one of none, required, adult_required",
		}},
		{"parcelb patient signature", shipping("carrier", "PARCELB", "carrier_service", "PARCELB 2 Day", "signature", "patient_signature"), nil},
		{"saturday on 2nd day air", shipping("carrier", "PARCELA", "carrier_service", "PARCELA 2nd Day Air", "saturday_delivery", true), nil},
		{"first class under a pound", shipping("carrier_service", "POSTAL First Class Mail", "weight", map[string]any{"unit": "ounce", "value": 15.9}), nil},
		{"first class a pound", shipping("carrier_service", "POSTAL First Class Mail", "weight", map[string]any{"unit": "pound", "value": 1}), []string{
			"shipping.weight.value: must be under 1 pound for POSTAL First Class Mail",
		}},
		{"weight rules", shipping("weight", map[string]any{"unit": "gram", "value": 0}), []string{
			"shipping.weight.unit: must be one of ounce, pound", "shipping.weight.value: must be greater than 0",
		}},
		{"package code of carrier", shipping("package_code", "postal_small_flat_rate_box", "dimensions", nil), nil},
		{"package code of other carrier", shipping("package_code", "parcelb_envelope_onerate"), []string{"shipping.package_code: must be one of postal_small"}},
		{"parcela has no package codes", shipping("carrier", "PARCELA", "carrier_service", "PARCELA Ground", "package_code", "postal_small_flat_rate_box"), []string{
			"shipping.package_code: is not available for this carrier",
		}},
		{"dimensions required", shipping("dimensions", nil), []string{"shipping.dimensions: is required when package_code is not set"}},
		{"dimensions in inch", shipping("dimensions", map[string]any{"unit": "cm", "length": 1, "width": -1}), []string{
			"shipping.dimensions.unit: must be one of inch", "shipping.dimensions.width: must be greater than 0", "shipping.dimensions.height: is required",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do("POST", "/delivery/api/v1/orders", tc.body)
			if len(tc.want) == 0 {
				assert.Equal(t, http.StatusOK, r.status, "%s", r.body)
				return
			}
			require.Equal(t, http.StatusBadRequest, r.status, "%s", r.body)
			e := r.obj(t)["error"].(map[string]any)
			assert.Len(t, e, 1, "delivery errors carry only a message")
			for _, w := range tc.want {
				assert.Contains(t, e["message"], w)
			}
		})
	}
}

func TestSaturdayMessageIsVerbatim(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	b := orderBody("shipping")
	b["shipping"] = with(b["shipping"].(map[string]any), "saturday_delivery", true)
	r := h.do("POST", "/delivery/api/v1/orders", b)
	assert.Equal(t, http.StatusBadRequest, r.status)
	assert.JSONEq(t, `{"error":{"message":"Carrier service level does not offer saturday delivery."}}`, string(r.body))
}

func TestCancelOrder(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{OrderCadence: cadence})
	id := h.createOrder(orderBody(""))
	h.clock.Advance(cadence) // submitted to courier
	r := h.do("DELETE", "/delivery/api/v1/orders/"+id, nil)
	assert.Equal(t, http.StatusNoContent, r.status)
	h.clock.Advance(time.Hour)
	o := h.do("GET", "/delivery/api/v1/orders/"+id, nil).obj(t)["order"]
	assert.Equal(t, "cancelled", at(o, "status"))
	assert.Equal(t, "Order Canceled", at(o, "cancellation.reason"))
	assert.Equal(t, "2025-01-06T14:00:30Z", at(o, "cancellation.occurred_at"))

	r = h.do("DELETE", "/delivery/api/v1/orders/"+id, nil)
	assert.Equal(t, http.StatusBadRequest, r.status)
	assert.JSONEq(t, `{"error":{"message":"Order is not in a cancellable status"}}`, string(r.body))

	id = h.createOrder(orderBody(""))
	require.NoError(t, h.srv.SetOrderStatus(id, "picked_up"))
	assert.Equal(t, http.StatusBadRequest, h.do("DELETE", "/delivery/api/v1/orders/"+id, nil).status)
	assert.Equal(t, http.StatusNotFound, h.do("DELETE", "/delivery/api/v1/orders/nope", nil).status)
	assert.Equal(t, 1, h.srv.Stats().OrdersCancelled)
}

func TestSetOrderStatus(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{OrderCadence: cadence})
	id := h.createOrder(orderBody(""))
	assert.Error(t, h.srv.SetOrderStatus(id, "lost"))
	assert.Error(t, h.srv.SetOrderStatus("nope", "new"))
	require.NoError(t, h.srv.SetOrderStatus(id, "submitted_to_courier"))
	st, ok := h.srv.OrderStatus(id)
	assert.True(t, ok)
	assert.Equal(t, "submitted to courier", st)
	require.NoError(t, h.srv.SetOrderStatus(id, "delivery_attempted"))
	h.clock.Advance(time.Hour) // progression stopped
	o := h.do("GET", "/delivery/api/v1/orders/"+id, nil).obj(t)["order"]
	assert.Equal(t, "delivery_attempted", at(o, "status"))
	assert.Equal(t, "Recipient unavailable", at(o, "delivery.failure_reason"))
	require.NoError(t, h.srv.SetOrderStatus(id, "returned_to_pharmacy"))
	o = h.do("GET", "/delivery/api/v1/orders/"+id, nil).obj(t)["order"]
	assert.NotNil(t, at(o, "return.occurred_at"))
	_, ok = h.srv.OrderStatus("nope")
	assert.False(t, ok)

	ship := h.createOrder(orderBody("shipping"))
	require.NoError(t, h.srv.SetOrderStatus(ship, "delivered"))
	o = h.do("GET", "/delivery/api/v1/orders/"+ship, nil).obj(t)["order"]
	assert.NotNil(t, at(o, "shipping.delivery.occurred_at"))
	assert.Nil(t, at(o, "delivery"))
}

func TestGetOrders(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	a := h.createOrder(orderBody(""))
	b := h.createOrder(orderBody("shipping"))
	for _, path := range []string{"/delivery/api/v1/orders", "/delivery/api/v1/orders/"} {
		r := h.do("GET", path+"?ids[]="+a+"&ids[]="+b+"&ids[]=zzz", nil)
		require.Equal(t, http.StatusOK, r.status, "%s", r.body)
		list := r.obj(t)["orders"].([]any)
		require.Len(t, list, 2)
		assert.Equal(t, a, at(list[0], "id"), "elements carry no order wrapper")
		assert.NotNil(t, at(list[1], "shipping"))
	}
	assert.Equal(t, http.StatusBadRequest, h.do("GET", "/delivery/api/v1/orders", nil).status)
	r := h.do("GET", "/delivery/api/v1/orders/zzz", nil)
	assert.Equal(t, http.StatusNotFound, r.status)
	assert.JSONEq(t, `{"error":{"message":"Order not found"}}`, string(r.body))
}

func TestPrescriptions(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id := h.createOrder(orderBody(""))
	r := h.do("POST", "/delivery/api/v1/orders/"+id+"/prescriptions", prescription("RX/2"))
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	o := r.obj(t)["order"].(map[string]any)
	assert.Len(t, o, 5)
	for _, k := range []string{"id", "status", "pickup", "delivery", "return"} {
		assert.True(t, has(o, k), k)
	}

	r = h.do("POST", "/delivery/api/v1/orders/"+id+"/prescriptions", prescription("RX/2"))
	assert.Equal(t, http.StatusBadRequest, r.status)
	assert.Contains(t, at(r.obj(t), "error.message"), "already on the order")

	r = h.do("POST", "/delivery/api/v1/orders/"+id+"/prescriptions", with(prescription("RX3"), "ndc", nil, "patient_pay", "1"))
	assert.Equal(t, http.StatusBadRequest, r.status)
	msg := at(r.obj(t), "error.message").(string)
	assert.Contains(t, msg, "ndc: is required")
	assert.Contains(t, msg, "patient_pay: must be a JSON number")

	assert.Equal(t, http.StatusNotFound, h.do("POST", "/delivery/api/v1/orders/zzz/prescriptions", prescription("RX9")).status)

	// The number is a path segment: an escaped slash stays in it.
	r = h.do("DELETE", "/delivery/api/v1/orders/"+id+"/prescriptions/"+url.PathEscape("RX/2"), nil)
	assert.Equal(t, http.StatusNoContent, r.status, "%s", r.body)
	assert.Equal(t, http.StatusNotFound, h.do("DELETE", "/delivery/api/v1/orders/"+id+"/prescriptions/RX9", nil).status)
	assert.Equal(t, http.StatusNotFound, h.do("DELETE", "/delivery/api/v1/orders/zzz/prescriptions/RX1", nil).status)

	require.NoError(t, h.srv.SetOrderStatus(id, "picked_up"))
	assert.Equal(t, http.StatusBadRequest, h.do("DELETE", "/delivery/api/v1/orders/"+id+"/prescriptions/RX1", nil).status)
	assert.Equal(t, http.StatusBadRequest, h.do("POST", "/delivery/api/v1/orders/"+id+"/prescriptions", prescription("RX4")).status)
}

func TestMoneyIsNeverAString(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id := h.createOrder(orderBody("shipping"))
	var got struct {
		Order struct {
			Shipping struct {
				Cost json.RawMessage `json:"cost"`
			} `json:"shipping"`
		} `json:"order"`
	}
	require.NoError(t, json.Unmarshal(h.do("GET", "/delivery/api/v1/orders/"+id, nil).body, &got))
	assert.Regexp(t, `^[0-9]+\.[0-9]{2}$`, string(got.Order.Shipping.Cost))
}
