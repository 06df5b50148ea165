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
// required field and a request with a value outside its enum, names the
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
	if res.Requests != 4 || res.Responses != 4 {
		t.Errorf("validated %d requests and %d responses, want 4 and 4", res.Requests, res.Responses)
	}
	if len(res.Violations) != 2 {
		t.Fatalf("violations %q, want 2", res.Violations)
	}
	all := strings.Join(res.Violations, "\n")
	for _, want := range []string{"orders.Cancel: response 400:", "message", "control.OrderStatus: request:", "enum"} {
		if !strings.Contains(all, want) {
			t.Errorf("violations %q do not say %q", all, want)
		}
	}
	if strings.Contains(all, "PATIENT-SECRET") {
		t.Errorf("violations show a value the exchange carried: %q", all)
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
