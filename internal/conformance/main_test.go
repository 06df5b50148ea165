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

// TestPlantedViolations checks that the check reports a response without a
// required field, a response body with a field of the wrong type and a
// request with a value outside its enum, names the
// operation, and leaves the offending values out; a conforming exchange
// and a nonconforming request the simulator refused pass.
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
			Status:      200, ResponseHeader: jsonHeader, ResponseBody: []byte(`{}`),
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
	)
	res, err := CheckDir("../../api", dir)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 5 || res.Responses != 5 {
		t.Errorf("validated %d requests and %d responses, want 5 and 5", res.Requests, res.Responses)
	}
	if len(res.Violations) != 3 {
		t.Fatalf("violations %q, want 3", res.Violations)
	}
	all := strings.Join(res.Violations, "\n")
	for _, want := range []string{
		"orders.Cancel: response 400:", "message", "control.OrderStatus: request:", "enum",
		"pricing.Quote: response 200: body /quotes/0/price_usd: type",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("violations %q do not say %q", all, want)
		}
	}
	if strings.Contains(all, "PATIENT-SECRET") {
		t.Errorf("violations show a value the exchange carried: %q", all)
	}
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
	res, err := CheckDir("../../api", dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Violations) != 4 {
		t.Fatalf("violations %q, want 4", res.Violations)
	}
	all := strings.Join(res.Violations, "\n")
	for _, want := range []string{
		"requests.Create: request: body /patient: required",
		`requests.Create: request: body /dropoff/address: properties (property "place_id" is unsupported)`,
		`requests.Create: request: body /: properties (property "ndc_code" is unsupported)`,
		"pricing.Quote: request: body /signature_requirement: type",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("violations %q do not say %q", all, want)
		}
	}
	if strings.Contains(all, "PATIENT-SECRET") || strings.Contains(all, "adult") {
		t.Errorf("violations show a value the exchange carried: %q", all)
	}
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
	res, err := CheckDir("../../api", dir)
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
			Status:      200, ResponseHeader: jsonHeader, ResponseBody: []byte(`{}`),
		},
		exchange{
			Method: http.MethodPut, Path: "/_control/orders/o-1/status", RequestHeader: authed(nil),
			RequestBody: []byte(`{"status":"lost"}`),
			Status:      200, ResponseHeader: jsonHeader, ResponseBody: []byte(`{}`),
		},
	)
	res, err := CheckDir("../../api", dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Violations) != 1 || !strings.Contains(res.Violations[0], "enum") {
		t.Errorf("violations %q, want the one enum violation", res.Violations)
	}
}
