package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// record writes exchanges to a record directory as the simulator does.
func record(t *testing.T, exs ...exchange) string {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	for _, ex := range exs {
		line, err := json.Marshal(ex)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "exchanges-1.jsonl"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func authed(h http.Header) http.Header {
	r, _ := http.NewRequest(http.MethodGet, "/", nil)
	r.SetBasicAuth("key", "secret")
	for k, v := range h {
		r.Header[k] = v
	}
	return r.Header
}

var jsonHeader = http.Header{"Content-Type": {"application/json"}}

// controlOrder is a conforming answer of the control API's order status PUT.
var controlOrder = []byte(`{"id":"o-1","status":"delivered","tracking_number":null}`)

// TestPlantedViolations checks that the check reports a response without a
// required field, a response body with a field of the wrong type and a
// request with a value outside its enum, names the
// operation, and leaves the offending values out; a conforming exchange
// and a nonconforming request the simulator refused pass. Each body
// described is checked: an order answered with a status outside the
// documents' enum is caught.
func TestPlantedViolations(t *testing.T) {
	t.Parallel()
	dir := record(t,
		exchange{ // conforming: an order cancel refused with the delivery error shape
			Method: http.MethodDelete, Path: "/delivery/api/v1/orders/o-1", RequestHeader: authed(nil),
			Status: 400, ResponseHeader: jsonHeader, ResponseBody: []byte(`{"error":{"message":"not cancellable"}}`),
		},
		exchange{ // response: the error's required message missing
			Method: http.MethodDelete, Path: "/delivery/api/v1/orders/o-2", RequestHeader: authed(nil),
			Status: 400, ResponseHeader: jsonHeader, ResponseBody: []byte(`{"error":{"note":"PATIENT-SECRET"}}`),
		},
		exchange{ // request: a status outside the documents' enum, accepted
			Method: http.MethodPut, Path: "/_control/orders/o-3/status", RequestHeader: authed(jsonHeader),
			RequestBody: []byte(`{"status":"PATIENT-SECRET"}`),
			Status:      200, ResponseHeader: jsonHeader, ResponseBody: controlOrder,
		},
		exchange{ // response: a quote's price written as a string, not a number
			Method: http.MethodPost, Path: "/pricing/pricing/v1/quotes", RequestHeader: authed(jsonHeader),
			RequestBody: []byte(`{"pickup":{"address":{"zipcode":"10001"}},"dropoff":{"address":{"zipcode":"94105"}},` +
				`"package_dimensions":{"length_in":10,"width_in":6,"height_in":4,"weight_oz":12.5}}`),
			Status: 200, ResponseHeader: jsonHeader,
			ResponseBody: []byte(`{"quotes":[{"provider":"postal","service":"ground_service","price_usd":"PATIENT-SECRET"}]}`),
		},
		exchange{ // request: the same refused, as it should be: no violation
			Method: http.MethodPut, Path: "/_control/orders/o-3/status", RequestHeader: authed(jsonHeader),
			RequestBody: []byte(`{"status":"PATIENT-SECRET"}`),
			Status:      422, ResponseHeader: jsonHeader, ResponseBody: []byte(`{"error":{"message":"status: not an order status of the documents"}}`),
		},
		exchange{ // response body: an order whose status is outside the documents' enum
			Method: http.MethodGet, Path: "/delivery/api/v1/orders/o-4", RequestHeader: authed(nil),
			Status: 200, ResponseHeader: jsonHeader, ResponseBody: []byte(`{"order":{"id":"o-4","status":"PATIENT-SECRET","shipping":null}}`),
		},
	)
	res, err := CheckDir("../../api", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 6 || res.Responses != 6 {
		t.Errorf("validated %d requests and %d responses, want 6 and 6", res.Requests, res.Responses)
	}
	if len(res.Violations) != 4 {
		t.Fatalf("violations %q, want 4", res.Violations)
	}
	sayAndHide(t, res.Violations, []string{
		"orders.Cancel: response 400:", "message", "control.OrderStatus: request:", "enum",
		"orders.Get: response 200: body /order/status: enum",
		"pricing.Quote: response 200: body /quotes/0/price_usd: type",
	}, "PATIENT-SECRET")
}

// TestPlantedBodyViolations checks that the bodies the omni and pricing
// documents describe are validated: a create accepted without a required
// member, with a dropoff given both as a street address and a place, or
// with a member the document does not list, and a quote that supplies a
// member deferred from version 1 are reported (a deferred member written
// null is its absence), by field and rule and without their
// values; a conforming create and quote pass. (TestPlantedViolations holds
// a response body of the wrong type.)
func TestPlantedBodyViolations(t *testing.T) {
	t.Parallel()
	create := func(dropoffAddress string, withPatient bool) []byte {
		patient := `,"patient":{"first_name":"PATIENT-SECRET","last_name":"Example","date_of_birth":"1970-01-01"}`
		if !withPatient {
			patient = ""
		}
		return []byte(`{"identifier":"program-1","external_reference_number":"rx-1","ndc":"00000000000",` +
			`"pharmacy":{"ncpdp":"0000001"},` +
			`"dropoff":{"name":"PATIENT-SECRET","phone_number":"2125550100","address":` + dropoffAddress + `}` +
			patient + `,"remittance":{"contact":{"mobile_phone_number":"2125550100"},"payments":[{"fee":5.00,"kind":"copay"}]}}`)
	}
	street := `{"street1":"PATIENT-SECRET","city":"New York","state":"NY","zipcode":"10001"}`
	created := []byte(`{"request":{"id":"req_1","external_reference_number":"rx-1","created_at":"2025-01-06T14:00:00.000Z","order":null}}`)
	quote := []byte(`{"pickup":{"address":{"zipcode":"10001"}},"dropoff":{"address":{"zipcode":"94105"}},` +
		`"package_dimensions":{"length_in":10,"width_in":6,"height_in":4,"weight_oz":12.5}}`)
	dir := record(t,
		exchange{ // conforming create, by street address and by place
			Method: http.MethodPost, Path: "/omni/api/v1/requests", RequestHeader: authed(jsonHeader),
			RequestBody: create(street, true), Status: 200, ResponseHeader: jsonHeader, ResponseBody: created,
		},
		exchange{
			Method: http.MethodPost, Path: "/omni/api/v1/requests", RequestHeader: authed(jsonHeader),
			RequestBody: create(`{"place_id":"place-1"}`, true), Status: 200, ResponseHeader: jsonHeader, ResponseBody: created,
		},
		exchange{ // request: the patient missing, accepted
			Method: http.MethodPost, Path: "/omni/api/v1/requests", RequestHeader: authed(jsonHeader),
			RequestBody: create(street, false), Status: 200, ResponseHeader: jsonHeader, ResponseBody: created,
		},
		exchange{ // request: a dropoff both a street address and a place, accepted
			Method: http.MethodPost, Path: "/omni/api/v1/requests", RequestHeader: authed(jsonHeader),
			RequestBody: create(`{"street1":"PATIENT-SECRET","city":"New York","state":"NY","zipcode":"10001","place_id":"place-1"}`, true),
			Status:      200, ResponseHeader: jsonHeader, ResponseBody: created,
		},
		exchange{ // request: a member the document does not list, accepted
			Method: http.MethodPost, Path: "/omni/api/v1/requests", RequestHeader: authed(jsonHeader),
			RequestBody: append(create(street, true)[:len(create(street, true))-1], `,"ndc_code":"PATIENT-SECRET"}`...),
			Status:      200, ResponseHeader: jsonHeader, ResponseBody: created,
		},
		exchange{ // conforming quote
			Method: http.MethodPost, Path: "/pricing/pricing/v1/quotes", RequestHeader: authed(jsonHeader),
			RequestBody: quote, Status: 200, ResponseHeader: jsonHeader,
			ResponseBody: []byte(`{"quotes":[{"provider":"postal","service":"ground_service","price_usd":9.45}]}`),
		},
		exchange{ // conforming: a deferred member written null
			Method: http.MethodPost, Path: "/pricing/pricing/v1/quotes", RequestHeader: authed(jsonHeader),
			RequestBody: append(quote[:len(quote)-1], `,"package_code":null}`...), Status: 200, ResponseHeader: jsonHeader,
			ResponseBody: []byte(`{"quotes":[]}`),
		},
		exchange{ // request: a deferred member supplied, accepted
			Method: http.MethodPost, Path: "/pricing/pricing/v1/quotes", RequestHeader: authed(jsonHeader),
			RequestBody: append(quote[:len(quote)-1], `,"signature_requirement":"adult"}`...), Status: 200, ResponseHeader: jsonHeader,
			ResponseBody: []byte(`{"quotes":[]}`),
		},
	)
	res, err := CheckDir("../../api", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Violations) != 4 {
		t.Fatalf("violations %q, want 4", res.Violations)
	}
	sayAndHide(t, res.Violations, []string{
		"requests.Create: request: body /patient: required",
		// The name of a member the schema does not list comes from the
		// exchange, so it is left out like a value.
		"requests.Create: request: body /dropoff/address: properties (not as the schema says)",
		"requests.Create: request: body /: properties (not as the schema says)",
		"pricing.Quote: request: body /signature_requirement: type",
	}, "PATIENT-SECRET", "adult", "ndc_code")
}

// TestPlantedMalformedResponse checks that a response the simulator
// planted malformed is counted, not validated, while its request still is,
// and that the same body unmarked is a violation.
func TestPlantedMalformedResponse(t *testing.T) {
	t.Parallel()
	malformed := exchange{
		Method: http.MethodGet, Path: "/omni/api/v1/pharmacies/0000001", RequestHeader: authed(nil),
		Status: 200, ResponseHeader: jsonHeader, ResponseBody: []byte(`{"sandbox": "this body is malformed`),
	}
	planted := malformed
	planted.Fault = "malformed"
	unauthenticated := planted
	unauthenticated.RequestHeader = nil
	dir := record(t, planted, malformed, unauthenticated)
	res, err := CheckDir("../../api", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 3 || res.Responses != 1 || res.Planted != 2 {
		t.Errorf("validated %d requests and %d responses, %d planted; want 3, 1 and 2", res.Requests, res.Responses, res.Planted)
	}
	if len(res.Violations) != 2 ||
		!strings.Contains(res.Violations[0], "pharmacies.Get: request: security") ||
		!strings.Contains(res.Violations[1], "pharmacies.Get: response 200:") {
		t.Errorf("violations %q, want the unauthenticated request and the unmarked response", res.Violations)
	}
}

// TestControlBodyWithoutContentType checks that a control API body sent
// without a Content-Type is read as JSON, as the simulator reads it, and
// still validated: a platform request without one is a violation.
func TestControlBodyWithoutContentType(t *testing.T) {
	t.Parallel()
	dir := record(t,
		exchange{
			Method: http.MethodPut, Path: "/_control/orders/o-1/status", RequestHeader: authed(nil),
			RequestBody: []byte(`{"status":"delivered"}`),
			Status:      200, ResponseHeader: jsonHeader, ResponseBody: controlOrder,
		},
		exchange{
			Method: http.MethodPut, Path: "/_control/orders/o-1/status", RequestHeader: authed(nil),
			RequestBody: []byte(`{"status":"lost"}`),
			Status:      200, ResponseHeader: jsonHeader, ResponseBody: controlOrder,
		},
	)
	res, err := CheckDir("../../api", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Violations) != 1 || !strings.Contains(res.Violations[0], "enum") {
		t.Errorf("violations %q, want the one enum violation", res.Violations)
	}
}

// walkOverlay is the endpoint walk's test-only document
// (rxdeliverytest's TestEndpointWalk).
var walkOverlay = map[string]string{"omni.yaml": "../../rxdeliverytest/testdata/walk/widgets.yaml"}

// TestOverlayIsValidated checks that an overlay's operation is validated
// as the documents' own are (a response value outside its enum and an
// accepted request without its required query are violations, a
// conforming exchange is not), that without the overlay it is no
// operation at all, and that an overlay operation no exchange reached is
// a violation.
func TestOverlayIsValidated(t *testing.T) {
	t.Parallel()
	widget := func(query, body string) exchange {
		return exchange{
			Method: http.MethodGet, Path: "/omni/api/v1/widgets/w-1", RawQuery: query, RequestHeader: authed(nil),
			Status: 200, ResponseHeader: jsonHeader, ResponseBody: []byte(body),
		}
	}
	dir := record(t,
		widget("colour=red", `{"id":"w-1","colour":"red"}`),
		widget("colour=red", `{"id":"w-1","colour":"PATIENT-SECRET"}`),
		widget("", `{"id":"w-1","colour":"blue"}`),
	)
	res, err := CheckDir("../../api", dir, walkOverlay)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Violations) != 2 || !strings.HasPrefix(res.Violations[0], "widgets.Get: request: ") || !strings.HasPrefix(res.Violations[1], "widgets.Get: response 200: ") {
		t.Errorf("violations %q, want widgets.Get's request and response", res.Violations)
	}
	for _, v := range res.Violations {
		if strings.Contains(v, "PATIENT-SECRET") {
			t.Errorf("violation %q shows the value", v)
		}
	}

	res, err = CheckDir("../../api", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Violations) != 3 || !strings.Contains(res.Violations[0], "no operation of omni.yaml") {
		t.Errorf("without the overlay: violations %q, want no operation thrice", res.Violations)
	}

	res, err = CheckDir("../../api", record(t), walkOverlay)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Violations) != 1 || res.Violations[0] != "widgets.Get: no exchange recorded of this operation an overlay added" {
		t.Errorf("no exchange: violations %q", res.Violations)
	}

	if _, err := CheckDir("../../api", record(t), map[string]string{"widgets.yaml": walkOverlay["omni.yaml"]}); err == nil {
		t.Error("an overlay of no document was accepted")
	}
}

// TestNotificationChecked checks that a notification the simulator sent is
// validated against the webhook's payload: one without a required field is
// a violation named by the webhook's operation, without the values it
// carried; a conforming one, whatever the listener answered, passes.
func TestNotificationChecked(t *testing.T) {
	t.Parallel()
	sent := http.Header{"Content-Type": {"application/json"}}
	dir := record(t,
		exchange{
			Method: http.MethodPost, Webhook: "trackingNotification", RequestHeader: sent, Status: 500,
			RequestBody: []byte(`{"tracking_number":"9400100000000000000000","timestamp":"2025-01-06T15:00:00.000Z","carrier":"POSTAL","status":"Accepted","status_occurred_at":"2025-01-06T15:00:00.000Z","tracking_events":[]}`),
		},
		exchange{ // status_occurred_at missing
			Method: http.MethodPost, Webhook: "trackingNotification", RequestHeader: sent, Status: 200,
			RequestBody: []byte(`{"tracking_number":"PATIENT-SECRET","timestamp":"2025-01-06T15:00:00.000Z","carrier":"POSTAL","status":"Accepted"}`),
		},
	)
	res, err := CheckDir("../../api", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 2 || res.Responses != 0 {
		t.Errorf("validated %d requests and %d responses, want 2 and 0", res.Requests, res.Responses)
	}
	if len(res.Violations) != 1 || !strings.Contains(res.Violations[0], "tracking.Notification: request:") || !strings.Contains(res.Violations[0], "status_occurred_at") {
		t.Fatalf("violations %q, want the notification's missing status_occurred_at", res.Violations)
	}
	if strings.Contains(res.Violations[0], "PATIENT-SECRET") {
		t.Errorf("violation shows a value the notification carried: %q", res.Violations[0])
	}
}

// TestInjectedAnswerNotHeld checks that a malformed body an injected fault
// wrote in place of the simulator's answer is not a violation (the fault is
// the test), while its request is still validated; the same body from the
// simulator is one.
func TestInjectedAnswerNotHeld(t *testing.T) {
	t.Parallel()
	malformed := exchange{
		Method: http.MethodGet, Path: "/delivery/api/v1/orders/o-1", RequestHeader: authed(nil),
		Status: 200, ResponseHeader: jsonHeader, ResponseBody: []byte(`{"sandbox": "this body is malformed`),
	}
	injected := malformed
	injected.Fault = "malformed"
	unauthenticated := injected
	unauthenticated.RequestHeader = nil
	dir := record(t, injected, unauthenticated, malformed)
	res, err := CheckDir("../../api", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 3 || res.Responses != 1 || res.Planted != 2 {
		t.Errorf("validated %d requests and %d responses with %d planted, want 3, 1 and 2", res.Requests, res.Responses, res.Planted)
	}
	if len(res.Violations) != 2 {
		t.Fatalf("violations %q, want the unauthenticated request and the simulator's malformed body", res.Violations)
	}
	if !strings.Contains(res.Violations[0], "orders.Get: request: security") || !strings.Contains(res.Violations[1], "orders.Get: response 200:") {
		t.Errorf("violations %q, want the request's security and the response's body", res.Violations)
	}
}

// TestViolationsHideValues checks that a violation of each kind of rule (a
// format, a pattern, a length, a type, an enum, a oneOf's branches, an
// if/then's requirement) names the field and the rule without the value
// the body carried, nested or not.
func TestViolationsHideValues(t *testing.T) {
	t.Parallel()
	create := `{"rx_amount_due":"PATIENT-SECRET-1","pharmacy":{"npi":"1234567890","ncpdp":"1234567"},` +
		`"recipient":{"description":"PATIENT-SECRET-2 PATIENT-SECRET-2 PATIENT-SECRET-2 PATIENT-SECRET-2 PATIENT-SECRET-2","address":{"street":"1 Main St","city":"Boston","state":"MA","zipcode":"PATIENT-SECRET-3"}},` +
		`"patient":{"first_name":"Jane","last_name":"Doe","gender":"PATIENT-SECRET-4","date_of_birth":"PATIENT-SECRET-5"},"prescriptions":[]}`
	order := `{"order":{"id":"o-1","status":"new","shipping":{"cost":"PATIENT-SECRET-6"},"eta":{"arrival_at":"PATIENT-SECRET-7","type":"pickup"}}}`
	dir := record(t, exchange{
		Method: http.MethodPost, Path: "/delivery/api/v1/orders", RequestHeader: authed(jsonHeader), RequestBody: []byte(create),
		Status: 200, ResponseHeader: jsonHeader, ResponseBody: []byte(order),
	})
	res, err := CheckDir("../../api", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	sayAndHide(t, res.Violations, []string{
		"/rx_amount_due: type", "/recipient/description: maxLength", "/recipient/address/zipcode: pattern",
		"/patient/gender: enum", "/patient/date_of_birth: format", "missing delivery_fee",
		"/order/shipping/cost", "/order/eta/arrival_at: format",
	}, "PATIENT-SECRET")
}

// TestPlantedControlViolations checks that the control API's bodies are
// validated: a fault of a kind outside the enum accepted, a call record
// whose entry lacks a required member and a clock that is not a time are
// reported by operation, field and rule, without their values; conforming
// ones pass.
func TestPlantedControlViolations(t *testing.T) {
	t.Parallel()
	call := `{"operation":"orders.Get","method":"GET","path":"/api/v1/orders/o-1","query":null,"body":null,"status":200,"fault":"",` +
		`"received_at":"2026-11-29T02:00:00Z","simulated_at":"2026-01-05T09:00:00Z"}`
	dir := record(t,
		exchange{ // conforming
			Method: http.MethodPost, Path: "/_control/faults", RequestHeader: authed(jsonHeader),
			RequestBody: []byte(`{"operation":"orders.Get","kind":"cut"}`),
			Status:      201, ResponseHeader: jsonHeader, ResponseBody: []byte(`{"operation":"orders.Get","times":1,"fault":"cut"}`),
		},
		exchange{ // request: a kind outside the enum, accepted
			Method: http.MethodPost, Path: "/_control/faults", RequestHeader: authed(jsonHeader),
			RequestBody: []byte(`{"operation":"orders.Get","kind":"PATIENT-SECRET"}`),
			Status:      201, ResponseHeader: jsonHeader, ResponseBody: []byte(`{"operation":"orders.Get","times":1,"fault":"cut"}`),
		},
		exchange{ // conforming
			Method: http.MethodGet, Path: "/_control/calls", RequestHeader: authed(nil),
			Status: 200, ResponseHeader: jsonHeader, ResponseBody: []byte(`{"calls":[` + call + `],"counts":{"orders.Get":1}}`),
		},
		exchange{ // response: a call without simulated_at
			Method: http.MethodGet, Path: "/_control/calls", RequestHeader: authed(nil),
			Status: 200, ResponseHeader: jsonHeader,
			ResponseBody: []byte(`{"calls":[` + strings.Replace(call, `,"simulated_at":"2026-01-05T09:00:00Z"`, "", 1) + `],"counts":{}}`),
		},
		exchange{ // response: a clock that is not a time
			Method: http.MethodGet, Path: "/_control/clock", RequestHeader: authed(nil),
			Status: 200, ResponseHeader: jsonHeader, ResponseBody: []byte(`{"now":"PATIENT-SECRET"}`),
		},
	)
	res, err := CheckDir("../../api", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Violations) != 3 {
		t.Fatalf("violations %q, want 3", res.Violations)
	}
	sayAndHide(t, res.Violations, []string{
		"control.FaultsAdd: request: body /kind: enum",
		"control.Calls: response 200: body /calls/0: required (missing simulated_at)",
		"control.Clock: response 200: body /now: format (format date-time)",
	}, "PATIENT-SECRET")
}

// sayAndHide checks that the violations say each of want and show none of
// hidden, the values the planted exchanges carried.
func sayAndHide(t *testing.T, violations, want []string, hidden ...string) {
	t.Helper()
	all := strings.Join(violations, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("violations do not say %q:\n%s", w, all)
		}
	}
	for _, h := range hidden {
		if strings.Contains(all, h) {
			t.Errorf("violations show %q, a value the exchange carried:\n%s", h, all)
		}
	}
}
