package main

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// shippingOrder is a conforming shipping order create, as a map a planted
// case changes one rule of.
func shippingOrder(shipping map[string]any) []byte {
	body := map[string]any{
		"service_level": "shipping",
		"service_date":  "2025-01-06",
		"pharmacy":      map[string]any{"npi": "1234567890", "ncpdp": "1234567"},
		"recipient": map[string]any{
			"description": "PATIENT-SECRET",
			"address":     map[string]any{"street": "1 Main St", "city": "Boston", "state": "MA", "zipcode": "02108"},
		},
		"patient": map[string]any{
			"first_name": "PATIENT-SECRET", "last_name": "Doe", "gender": "female",
			"date_of_birth": "1970-01-01", "mobile_phone_number": "5555550100",
		},
		"shipping": shipping,
		"prescriptions": []any{map[string]any{
			"number": "PATIENT-SECRET", "ndc": "00002143380", "refrigeration": "none",
			"days_supply": 90, "fill_quantity": 90, "fill_number": 2, "patient_pay": 0,
			"prescriber": map[string]any{
				"first_name": "John", "last_name": "Smith", "npi": "1987654320",
				"address": map[string]any{"street": "2 Elm St", "city": "Boston", "state": "MA", "zipcode": "02109"},
			},
			"payers": []any{},
		}},
	}
	b, _ := json.Marshal(body)
	return b
}

// shipment returns a shipping input of carrier and service with the
// signature, a weight and dimensions, changed by the extra members.
func shipment(carrier, service string, extra map[string]any) map[string]any {
	sh := map[string]any{
		"carrier": carrier, "carrier_service": service, "signature": "none",
		"weight":     map[string]any{"unit": "ounce", "value": 8},
		"dimensions": map[string]any{"unit": "inch", "length": 10, "width": 6, "height": 4},
	}
	for k, v := range extra {
		if v == nil {
			delete(sh, k)
			continue
		}
		sh[k] = v
	}
	return sh
}

// created is a conforming answer of a create, for the accepted plants.
var created = []byte(`{"order":{"id":"o-1","status":"new","pickup":null,"delivery":null,"return":null,"cancellation":null,"eta":null}}`)

// TestPlantedConditionalRules plants, for each conditional or per-value
// rule the documents express in the schema language, a request that breaks
// it and that the simulator (as planted) accepted: the check rejects each,
// naming the field and the rule and not the values. The same bodies with
// the rule kept pass. The rules: an omni create names its item by ndc or by
// name_of_pickup; Saturday delivery only on PARCELA 2nd Day Air and Next
// Day Air; each carrier's services, signatures and package codes; POSTAL
// First Class Mail under 1 pound; dimensions without a package code; a
// same-day order's delivery fee and copay; a shipping order's shipping
// input and patient phone; no shipping input on an on-demand order.
func TestPlantedConditionalRules(t *testing.T) {
	t.Parallel()
	order := func(body []byte) exchange {
		return exchange{
			Method: http.MethodPost, Path: "/delivery/api/v1/orders", RequestHeader: authed(jsonHeader),
			RequestBody: body, Status: 200, ResponseHeader: jsonHeader, ResponseBody: created,
		}
	}
	omni := func(item string) exchange {
		return exchange{
			Method: http.MethodPost, Path: "/omni/api/v1/requests", RequestHeader: authed(jsonHeader),
			RequestBody: []byte(`{"identifier":"program-1","external_reference_number":"rx-1",` + item +
				`"pharmacy":{"ncpdp":"0000001"},` +
				`"dropoff":{"name":"PATIENT-SECRET","phone_number":"2125550100","address":{"place_id":"place-1"}},` +
				`"patient":{"first_name":"PATIENT-SECRET","last_name":"Example","date_of_birth":"1970-01-01"}}`),
			Status: 200, ResponseHeader: jsonHeader,
			ResponseBody: []byte(`{"request":{"id":"req_1","external_reference_number":"rx-1","created_at":"2025-01-06T14:00:00.000Z","order":null}}`),
		}
	}
	sameday := strings.Replace(string(shippingOrder(nil)), `"service_level":"shipping",`, `"delivery_fee":5,`, 1)
	sameday = strings.Replace(sameday, `,"shipping":null`, "", 1)
	cases := []struct {
		rule string
		ex   exchange
		want string // "" for a conforming exchange
	}{
		{"item by ndc", omni(`"ndc":"00000000000",`), ""},
		{"item by name", omni(`"name_of_pickup":"PATIENT-SECRET",`), ""},
		{"item neither by ndc nor by name", omni(""), "requests.Create: request: body /: anyOf"},

		{"Saturday on PARCELA Next Day Air", order(shippingOrder(shipment("PARCELA", "PARCELA Next Day Air", map[string]any{"saturday_delivery": true}))), ""},
		{"Saturday on PARCELA Ground", order(shippingOrder(shipment("PARCELA", "PARCELA Ground", map[string]any{"saturday_delivery": true}))),
			"orders.Create: request: body /shipping/carrier_service: enum"},
		{"Saturday declined on PARCELA Ground", order(shippingOrder(shipment("PARCELA", "PARCELA Ground", map[string]any{"saturday_delivery": false}))), ""},

		{"patient signature on PARCELB", order(shippingOrder(shipment("PARCELB", "PARCELB 2 Day", map[string]any{"signature": "patient_signature"}))), ""},
		{"patient signature on PARCELA", order(shippingOrder(shipment("PARCELA", "PARCELA Ground", map[string]any{"signature": "patient_signature"}))),
			"orders.Create: request: body /shipping/signature: enum"},
		{"another carrier's service", order(shippingOrder(shipment("POSTAL", "PARCELB Ground", nil))),
			"orders.Create: request: body /shipping/carrier_service: enum"},
		{"another carrier's package", order(shippingOrder(shipment("PARCELB", "PARCELB Ground", map[string]any{"package_code": "postal_small_flat_rate_box"}))),
			"orders.Create: request: body /shipping/package_code: enum"},
		{"a package code on PARCELA", order(shippingOrder(shipment("PARCELA", "PARCELA Ground", map[string]any{"package_code": "parcelb_envelope_onerate"}))),
			"orders.Create: request: body /shipping:  (not as the schema says)"},

		{"First Class at 15.9 ounces", order(shippingOrder(shipment("POSTAL", "POSTAL First Class Mail", map[string]any{"weight": map[string]any{"unit": "ounce", "value": 15.9}}))), ""},
		{"First Class at 16 ounces", order(shippingOrder(shipment("POSTAL", "POSTAL First Class Mail", map[string]any{"weight": map[string]any{"unit": "ounce", "value": 16}}))),
			"/shipping/weight/value: exclusiveMaximum"},
		{"First Class at 1 pound", order(shippingOrder(shipment("POSTAL", "POSTAL First Class Mail", map[string]any{"weight": map[string]any{"unit": "pound", "value": 1}}))),
			"/shipping/weight/value: exclusiveMaximum"},
		{"Priority Mail at 1 pound", order(shippingOrder(shipment("POSTAL", "POSTAL Priority Mail", map[string]any{"weight": map[string]any{"unit": "pound", "value": 1}}))), ""},

		{"neither dimensions nor a package code", order(shippingOrder(shipment("POSTAL", "POSTAL Priority Mail", map[string]any{"dimensions": nil}))),
			"orders.Create: request: body /shipping: required (missing dimensions)"},
		{"a shipping order without its shipping input", order(shippingOrder(nil)),
			"orders.Create: request: body /shipping: type"},
		{"a same-day order without its copay", order([]byte(sameday)),
			"orders.Create: request: body /: required (missing rx_amount_due)"},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			t.Parallel()
			res, err := CheckDir("../../api", record(t, c.ex), nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if len(res.Violations) != 0 {
					t.Fatalf("a conforming exchange: violations %q", res.Violations)
				}
				return
			}
			if len(res.Violations) != 1 {
				t.Fatalf("violations %q, want the one rule broken", res.Violations)
			}
			sayAndHide(t, res.Violations, []string{c.want}, "PATIENT-SECRET")
		})
	}
}

// TestPlantedAnswers checks the answers' side: a body where the document
// declares none (a cancel answered 204 with a body), an answer whose body
// the document declares coming without one's required members (the
// unable_to_cancel error without its type and id; an order, a quote and a
// pharmacy each without a member every response carries), are reported;
// the conforming answers pass.
func TestPlantedAnswers(t *testing.T) {
	t.Parallel()
	ex := func(method, path string, status int, body string) exchange {
		return exchange{Method: method, Path: path, RequestHeader: authed(nil), Status: status, ResponseHeader: jsonHeader, ResponseBody: []byte(body)}
	}
	quoteReq := []byte(`{"pickup":{"address":{"zipcode":"10001"}},"dropoff":{"address":{"zipcode":"94105"}},` +
		`"package_dimensions":{"length_in":10,"width_in":6,"height_in":4,"weight_oz":12.5}}`)
	quote := func(body string) exchange {
		e := ex(http.MethodPost, "/pricing/pricing/v1/quotes", 200, body)
		e.RequestHeader, e.RequestBody = authed(jsonHeader), quoteReq
		return e
	}
	pharmacy := `"ncpdp":"0000001","name":"Example Pharmacy","preferred":false,"phone_number":null,"fax_number":null,` +
		`"address":{"street1":"2 Example Street","street2":null,"city":"New York","state":"NY","zipcode":"10001"}`
	cases := []struct {
		what string
		ex   exchange
		want string
	}{
		{"unable_to_cancel with its type and id",
			ex(http.MethodDelete, "/omni/api/v1/requests/req_1", 422, `{"error":{"id":"req_1","type":"unable_to_cancel","message":"Orders are not in a cancellable status"}}`), ""},
		{"unable_to_cancel without its type and id",
			ex(http.MethodDelete, "/omni/api/v1/requests/req_1", 422, `{"error":{"message":"PATIENT-SECRET"}}`),
			"requests.Cancel: response 422: body /error: required (missing id, type)"},
		{"a cancel answered 204 with a body",
			ex(http.MethodDelete, "/delivery/api/v1/orders/o-1", 204, `{"order":{"id":"PATIENT-SECRET"}}`),
			"orders.Cancel: response 204: a body the document does not declare"},
		{"an order without its status",
			ex(http.MethodGet, "/delivery/api/v1/orders/o-1", 200, `{"order":{"id":"o-1","external_reference_number":null,"pickup":null,"delivery":null,"return":null,"shipping":null,"cancellation":null,"eta":null}}`),
			"orders.Get: response 200: body /order/status: required (missing status)"},
		{"a quote without its price", quote(`{"quotes":[{"provider":"postal","service":"ground_service"}]}`),
			"pricing.Quote: response 200: body /quotes/0/price_usd: required (missing price_usd)"},
		{"a pharmacy", ex(http.MethodGet, "/omni/api/v1/pharmacies/0000001", 200, `{"npi":"1000000001",`+pharmacy+`}`), ""},
		{"a pharmacy without its npi", ex(http.MethodGet, "/omni/api/v1/pharmacies/0000001", 200, `{`+pharmacy+`}`),
			"pharmacies.Get: response 200: body /npi: required (missing npi)"},
	}
	for _, c := range cases {
		t.Run(c.what, func(t *testing.T) {
			t.Parallel()
			res, err := CheckDir("../../api", record(t, c.ex), nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if len(res.Violations) != 0 {
					t.Fatalf("a conforming exchange: violations %q", res.Violations)
				}
				return
			}
			if len(res.Violations) != 1 {
				t.Fatalf("violations %q, want one", res.Violations)
			}
			sayAndHide(t, res.Violations, []string{c.want}, "PATIENT-SECRET")
		})
	}
}

// TestPlantedCallRecordBody checks that the control API's call record
// holds an accepted call's body to its operation's request schema: a quote
// the record shows accepted without its package is reported; the same
// refused (400), or answered with a planted fault, is not held to it.
func TestPlantedCallRecordBody(t *testing.T) {
	t.Parallel()
	call := func(status int, fault, body string) exchange {
		return exchange{
			Method: http.MethodGet, Path: "/_control/calls", RequestHeader: authed(nil),
			Status: 200, ResponseHeader: jsonHeader,
			ResponseBody: []byte(`{"calls":[{"operation":"pricing.Quote","method":"POST","path":"/pricing/v1/quotes","query":null,` +
				`"body":` + body + `,"status":` + strconv.Itoa(status) + `,"fault":"` + fault + `",` +
				`"received_at":"2026-11-29T02:00:00Z","simulated_at":"2026-01-05T09:00:00Z"}],"counts":{"pricing.Quote":1}}`),
		}
	}
	full := `{"pickup":{"address":{"zipcode":"10001"}},"dropoff":{"address":{"zipcode":"94105"}},` +
		`"package_dimensions":{"length_in":10,"width_in":6,"height_in":4,"weight_oz":12.5}}`
	partial := `{"pickup":{"address":{"zipcode":"PATIENT-SECRET"}},"dropoff":{"address":{"zipcode":"94105"}}}`
	for _, c := range []struct {
		what string
		ex   exchange
		want string
	}{
		{"an accepted quote", call(200, "", full), ""},
		{"a refused quote", call(400, "", partial), ""},
		{"a quote answered with a fault", call(200, "malformed", partial), ""},
		{"an accepted quote without its package", call(200, "", partial),
			"control.Calls: response 200: body /calls/0/body: required (missing package_dimensions)"},
	} {
		res, err := CheckDir("../../api", record(t, c.ex), nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.want == "" {
			if len(res.Violations) != 0 {
				t.Errorf("%s: violations %q", c.what, res.Violations)
			}
			continue
		}
		if len(res.Violations) != 1 {
			t.Errorf("%s: violations %q, want one", c.what, res.Violations)
			continue
		}
		sayAndHide(t, res.Violations, []string{c.want}, "PATIENT-SECRET")
	}
}
