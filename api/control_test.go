package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// schemaEnum returns the enum of a schema of sandbox.yaml's components, or
// of one of its properties when property is not "": written inline
// (`enum: [a, b]`) or as a list (`- a` lines). The document keeps one
// layout: a schema at four spaces of indent, its fields at six, a
// property at eight and the property's fields at ten or deeper (in an
// anyOf's branch).
func schemaEnum(t *testing.T, schema, property string) []string {
	t.Helper()
	lines := readLines(t, "sandbox.yaml")
	inSchemas, inSchema, inProperty := false, false, property == ""
	fields := 6
	if property != "" {
		fields = 10
	}
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		switch {
		case trimmed == "":
			continue
		case indent == 2:
			inSchemas = trimmed == "schemas:"
			inSchema = false
		case !inSchemas:
		case indent == 4:
			inSchema = trimmed == schema+":"
			inProperty = property == ""
		case !inSchema:
		case indent == 8 && property != "":
			inProperty = trimmed == property+":"
		case indent >= fields && inProperty && strings.HasPrefix(trimmed, "enum:"):
			v := strings.TrimSpace(strings.TrimPrefix(trimmed, "enum:"))
			if v != "" {
				var out []string
				for _, e := range strings.Split(strings.Trim(v, "[]"), ",") {
					out = append(out, unquote(strings.TrimSpace(e)))
				}
				return out
			}
			var out []string
			for _, l := range lines[i+1:] {
				item, ok := strings.CutPrefix(strings.TrimSpace(l), "- ")
				if !ok || len(l)-len(strings.TrimLeft(l, " ")) != indent+2 {
					break
				}
				out = append(out, unquote(item))
			}
			return out
		}
	}
	t.Fatalf("sandbox.yaml: no enum in schema %s %s", schema, property)
	return nil
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// TestControlOperationEnum checks that the control API's operation enum
// (a fault's operation, the call record's, the calls' filter) is ""
// followed by the simulator's operations, in their order.
func TestControlOperationEnum(t *testing.T) {
	t.Parallel()
	want := []string{string(rxdeliverytest.AnyOperation)}
	for _, op := range rxdeliverytest.Operations() {
		want = append(want, string(op))
	}
	if got := schemaEnum(t, "Operation", ""); !slices.Equal(got, want) {
		t.Errorf("sandbox.yaml's Operation enum is\n%q\nthe simulator's operations are\n%q", got, want)
	}
}

// TestControlRequestStatusEnum checks that the one request status the
// control API takes besides the order statuses is the SDK's.
func TestControlRequestStatusEnum(t *testing.T) {
	t.Parallel()
	got := schemaEnum(t, "RequestStatusSet", "status")
	if want := []string{string(requests.StatusRequestIncomplete)}; !slices.Equal(got, want) {
		t.Errorf("sandbox.yaml's RequestStatusSet status enum is %q, want %q", got, want)
	}
}

// TestControlFaultKindEnum checks the fault kinds of sandbox.yaml against
// the simulator: it plants a fault of every kind of the enum (each is
// accepted) and reads the kinds it lists when refusing an unknown one
// (they are the enum's, in its order).
func TestControlFaultKindEnum(t *testing.T) {
	t.Parallel()
	s := rxdeliverytest.Start(t)
	post := func(body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, s.URL()+rxdeliverytest.ControlPrefix+"/faults", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.SetBasicAuth(s.Credentials())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			Error struct{ Message string }
		}
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out.Error.Message
	}
	kinds := schemaEnum(t, "FaultKind", "")
	for _, kind := range kinds {
		body, _ := json.Marshal(map[string]any{"operation": "orders.Get", "kind": kind, "status": 418})
		if code, msg := post(string(body)); code != http.StatusCreated {
			t.Errorf("kind %s: %d %s, want 201", kind, code, msg)
		}
	}
	code, msg := post(`{"kind":"no_such_kind"}`)
	listed, ok := strings.CutPrefix(msg, "kind must be one of ")
	if code != http.StatusUnprocessableEntity || !ok {
		t.Fatalf("an unknown kind: %d %q, want 422 listing the kinds", code, msg)
	}
	if got := strings.Split(listed, ", "); !slices.Equal(got, kinds) {
		t.Errorf("the simulator's kinds are\n%q\nsandbox.yaml's FaultKind enum is\n%q", got, kinds)
	}
}

// control sends one control API request with the server's credentials and
// returns the status and the answer's members (nil without a body).
func control(t *testing.T, s *rxdeliverytest.Server, method, path, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, s.URL()+rxdeliverytest.ControlPrefix+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(s.Credentials())
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if len(b) > 0 {
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s %s: %d, not a JSON object: %v", method, path, resp.StatusCode, err)
		}
	}
	return resp.StatusCode, out
}

// has checks that v (an answer or one of its members, an object) has the
// members sandbox.yaml marks required.
func has(t *testing.T, what string, v any, members ...string) {
	t.Helper()
	obj, ok := v.(map[string]any)
	if !ok {
		t.Errorf("%s: %T, want an object", what, v)
		return
	}
	for _, m := range members {
		if _, ok := obj[m]; !ok {
			t.Errorf("%s: no %s in %v", what, m, obj)
		}
	}
}

// TestControlBodies walks every operation of the control API through the
// forms of its bodies sandbox.yaml describes (null and present tracking
// numbers and order statuses, a pharmacy with and without an address, a
// notification the listener answered and one it could not, calls with and
// without a query, body or fault, and a call no operation matched), and
// checks the statuses and required members the document gives. Under the
// conformance tag every exchange is also validated against the document
// (.ci/conformance.sh).
func TestControlBodies(t *testing.T) {
	t.Parallel()
	s := rxdeliverytest.Start(t)
	client, ctx := s.Client(), context.Background()
	type step struct {
		method, path, body string
		status             int
		members            []string
	}
	run := func(steps ...step) []map[string]any {
		t.Helper()
		var outs []map[string]any
		for _, st := range steps {
			code, out := control(t, s, st.method, st.path, st.body)
			if code != st.status {
				t.Errorf("%s %s %s: %d %v, want %d", st.method, st.path, st.body, code, out, st.status)
			}
			if st.members != nil {
				has(t, st.method+" "+st.path, out, st.members...)
			}
			outs = append(outs, out)
		}
		return outs
	}

	run(
		step{"GET", "/clock", "", 200, []string{"now"}},
		step{"POST", "/clock/advance", `{"seconds":1.5}`, 200, []string{"now"}},
		step{"POST", "/clock/advance", `{"duration":"1m"}`, 200, []string{"now"}},
		step{"POST", "/clock/advance", `{"seconds":1,"duration":"1m"}`, 400, []string{"error"}},
	)

	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		t.Fatal(err)
	}
	got := run(
		step{"GET", "/orders/" + order.ID, "", 200, []string{"id", "status", "tracking_number"}},
		step{"PUT", "/orders/" + order.ID + "/status", `{"status":"delivered"}`, 200, []string{"id", "status", "tracking_number"}},
		step{"PUT", "/orders/" + order.ID + "/status", `{"status":"lost"}`, 422, []string{"error"}},
		step{"GET", "/orders/no-such-order", "", 404, []string{"error"}},
	)
	if got[1]["status"] != "delivered" {
		t.Errorf("order after the status PUT: %v", got[1])
	}

	req, err := client.Requests.Create(ctx, &requests.CreateParams{
		Identifier: "program-1", ExternalReferenceNumber: "rx-1", NameOfPickup: "Amoxicillin 500 mg",
		Pharmacy: requests.PharmacyParams{NCPDP: "5550001"},
		Dropoff: requests.DropoffParams{
			Name: "Jane Doe", PhoneNumber: "6145550100",
			Address: requests.NewDropoffPlace("ChIJd8BlQ2BZwokRAFUEcm_qrcA"),
		},
		Patient: requests.PatientParams{FirstName: "Jane", LastName: "Doe", DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got = run(
		step{"GET", "/requests/" + req.ID, "", 200, []string{"id", "order_status"}},
		step{"PUT", "/requests/" + req.ID + "/status", `{"status":"picked_up"}`, 200, []string{"id", "order_status"}},
		step{"PUT", "/requests/" + req.ID + "/status", `{"status":"request_incomplete"}`, 200, []string{"id", "order_status"}},
	)
	if got[0]["order_status"] != nil || got[1]["order_status"] != "picked_up" {
		t.Errorf("request before and after the status PUT: %v, %v", got[0], got[1])
	}

	// A listener that cannot be reached: its notification carries an error.
	if _, err := client.Tracking.Subscribe(ctx, &tracking.SubscribeParams{
		TrackingNumber: "9400100000000000000001", ListenerURL: "https://127.0.0.1:1/hook",
	}); err != nil {
		t.Fatal(err)
	}
	run(
		step{"POST", "/tracking", `{"tracking_number":"9400100000000000000001","status":"Accepted"}`, 204, nil},
		step{"POST", "/tracking", `{"tracking_number":"","status":"Accepted"}`, 422, []string{"error"}},
	)
	got = run(step{"GET", "/notifications", "", 200, []string{"notifications"}})
	notes, _ := got[0]["notifications"].([]any)
	if len(notes) != 1 {
		t.Fatalf("notifications %v, want the one sent", got[0])
	}
	has(t, "notification", notes[0], "tracking_number", "status", "listener_url", "status_code", "error", "at")

	pharmacy := `{"npi":"1234567890","ncpdp":"1234567","name":"Main Street Pharmacy","preferred":true,` +
		`"phone_number":"2125550100","fax_number":"2125550101",` +
		`"address":{"street1":"1 Main St","street2":"","city":"New York","state":"NY","zipcode":"10001"}}`
	got = run(
		step{"PUT", "/pharmacies", `{"pharmacies":[` + pharmacy + `,{"npi":"1234567891","ncpdp":"1234568"}]}`, 200, []string{"pharmacies"}},
		step{"PUT", "/pharmacies", `{"pharmacies":[{"npi":"1234567891"}]}`, 422, []string{"error"}},
		step{"GET", "/pharmacies", "", 200, []string{"pharmacies"}},
	)
	list, _ := got[2]["pharmacies"].([]any)
	if len(list) != 2 {
		t.Fatalf("pharmacies %v, want the two set", got[2])
	}
	for _, p := range list {
		has(t, "pharmacy", p, "npi", "ncpdp", "name", "preferred", "phone_number", "fax_number", "address")
		has(t, "pharmacy address", p.(map[string]any)["address"], "street1", "street2", "city", "state", "zipcode")
	}

	run(
		step{"PUT", "/quotes", `{"empty":true}`, 200, []string{"empty"}},
		step{"PUT", "/quotes", `{"empty":false}`, 200, []string{"empty"}},
		step{"PUT", "/quotes", `{}`, 422, []string{"error"}},
		step{"DELETE", "/calls", "", 204, nil},
		step{"POST", "/faults", `{"operation":"orders.Get","times":1,"kind":"server_error","committed":true}`, 201, []string{"operation", "times", "fault"}},
		step{"POST", "/faults", `{"kind":"status","status":418,"times":-1,"operation":"pricing.Quote"}`, 201, []string{"operation", "times", "fault"}},
		step{"POST", "/faults", `{"kind":"status"}`, 422, []string{"error"}},
		step{"DELETE", "/faults", "", 204, nil},
	)

	// Calls: one answered by a fault, one with a query, one with a body,
	// one no operation matched.
	run(step{"POST", "/faults", `{"operation":"orders.Get","kind":"server_error","committed":true}`, 201, nil})
	_, _ = client.Orders.Get(ctx, order.ID)
	for _, path := range []string{"/delivery/api/v1/orders?page=1", "/delivery/api/v1/no-such-endpoint"} {
		r, err := http.NewRequest(http.MethodGet, s.URL()+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.SetBasicAuth(s.Credentials())
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	}
	if _, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams()); err != nil {
		t.Fatal(err)
	}
	got = run(
		step{"GET", "/calls", "", 200, []string{"calls", "counts"}},
		step{"GET", "/calls?operation=orders.Get", "", 200, []string{"calls", "counts"}},
	)
	calls, _ := got[0]["calls"].([]any)
	var faulted, queried, bodied, unmatched bool
	for _, c := range calls {
		has(t, "call", c, "operation", "method", "path", "query", "body", "status", "fault", "received_at", "simulated_at")
		m, _ := c.(map[string]any)
		faulted = faulted || m["fault"] == "committed, then server_error"
		queried = queried || m["query"] != nil
		bodied = bodied || m["body"] != nil
		unmatched = unmatched || m["operation"] == ""
	}
	if !faulted || !queried || !bodied || !unmatched {
		t.Errorf("calls %v: want one with a fault (%v), a query (%v), a body (%v) and one no operation matched (%v)", calls, faulted, queried, bodied, unmatched)
	}
	if only, _ := got[1]["calls"].([]any); len(only) == 0 || len(only) >= len(calls) {
		t.Errorf("the calls of orders.Get: %d of %d", len(only), len(calls))
	}
	run(step{"DELETE", "/faults", "", 204, nil}, step{"DELETE", "/calls", "", 204, nil})
}
