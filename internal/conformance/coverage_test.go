package main

import (
	"bytes"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// everyOperation returns, for each operation of the documents and each
// webhook, an exchange of it answered 200, keyed by operation name; the
// bodies are left out (the coverage counts validated exchanges, conforming
// or not).
func everyOperation(t *testing.T) map[string]exchange {
	t.Helper()
	c, err := newChecker("../../api", nil)
	if err != nil {
		t.Fatal(err)
	}
	param := regexp.MustCompile(`\{[^}]*\}`)
	out := map[string]exchange{}
	for _, cov := range c.coverage {
		if cov.Webhook {
			out[cov.Operation] = exchange{Method: http.MethodPost, Webhook: cov.Path, RequestHeader: jsonHeader, Status: 200}
			continue
		}
		prefix := ""
		for _, p := range prefixes {
			if p.doc == cov.Doc {
				prefix = p.prefix
			}
		}
		out[cov.Operation] = exchange{
			Method: cov.Method, Path: prefix + param.ReplaceAllString(cov.Path, "p-1"), RequestHeader: authed(nil),
			Status: 200, ResponseHeader: jsonHeader, ResponseBody: []byte(`{}`),
		}
	}
	return out
}

// TestCoverage checks that the check counts what it validated of every
// operation of the five documents and of the webhook, and that a record
// which leaves one out (an operation never called, one whose requests were
// all refused, one never answered with a success, the webhook never sent)
// fails and names it, and only it.
func TestCoverage(t *testing.T) {
	t.Parallel()
	all := everyOperation(t)
	if len(all) < 30 {
		t.Fatalf("%d operations in the documents, want the four interfaces', the control API's and the webhook", len(all))
	}
	for _, name := range []string{"requests.Create", "orders.Cancel", "tracking.Subscribe", "pricing.Quote", "tracking.Notification", "control.Calls", "control.Track"} {
		if _, ok := all[name]; !ok {
			t.Errorf("%s: not among the operations the check counts", name)
		}
	}
	refused := all["orders.Cancel"]
	refused.Status = 400
	failed := all["control.FaultsAdd"]
	failed.Status = 500
	cases := []struct {
		name    string
		replace map[string]*exchange // nil: left out
		want    []string
	}{
		{"complete", nil, nil},
		{"an operation never called", map[string]*exchange{"orders.Cancel": nil}, []string{"orders.Cancel"}},
		{"a control operation never called", map[string]*exchange{"control.Calls": nil}, []string{"control.Calls"}},
		{"the webhook never sent", map[string]*exchange{"tracking.Notification": nil}, []string{"tracking.Notification"}},
		{"requests all refused", map[string]*exchange{"orders.Cancel": &refused}, []string{"orders.Cancel"}},
		{"never a success", map[string]*exchange{"control.FaultsAdd": &failed}, []string{"control.FaultsAdd"}},
	}
	for _, tc := range cases {
		var exs []exchange
		for name, ex := range all {
			if r, ok := tc.replace[name]; ok {
				if r != nil {
					exs = append(exs, *r)
				}
				continue
			}
			exs = append(exs, ex)
		}
		dir := record(t, exs...)
		res, err := CheckDir("../../api", dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Unreached, tc.want) {
			t.Errorf("%s: not reached %q, want %q", tc.name, res.Unreached, tc.want)
		}
		if len(res.Coverage) != len(all) {
			t.Errorf("%s: coverage of %d operations, want %d", tc.name, len(res.Coverage), len(all))
		}
		for _, cov := range res.Coverage {
			want := [3]int{1, 1, 1}
			switch r, replaced := tc.replace[cov.Operation]; {
			case cov.Webhook && !replaced:
				want = [3]int{1, 0, 0}
			case !replaced:
			case r == nil, r.Status == 400:
				want = [3]int{0, 0, 0}
				if r != nil {
					want[1] = 1 // the refusal is validated, its request is not held
				}
			default:
				want = [3]int{1, 1, 0}
			}
			if got := [3]int{cov.Requests, cov.Responses, cov.Successes}; got != want {
				t.Errorf("%s: %s counted (requests, responses, successes) %v, want %v", tc.name, cov.Operation, got, want)
			}
		}
		var stdout, stderr bytes.Buffer
		code := run([]string{"../../api", dir}, &stdout, &stderr)
		wantCode := 1 // the bodies left out are violations
		if code != wantCode {
			t.Errorf("%s: exit %d, want %d (%s)", tc.name, code, wantCode, stderr.String())
		}
		for _, name := range tc.want {
			if !strings.Contains(stdout.String(), "not reached (no validated request, success response or notification): "+name+"\n") {
				t.Errorf("%s: the output does not name %s:\n%s", tc.name, name, stdout.String())
			}
		}
		if !strings.Contains(stdout.String(), "conformance: delivery.yaml orders.Get: 1 requests, 1 responses (1 successes)\n") {
			t.Errorf("%s: the output does not count orders.Get:\n%s", tc.name, stdout.String())
		}
	}
}

// TestUnreachedFails checks that an operation not reached fails the check
// though every exchange recorded conforms.
func TestUnreachedFails(t *testing.T) {
	t.Parallel()
	dir := record(t, exchange{
		Method: http.MethodGet, Path: "/_control/clock", RequestHeader: authed(nil),
		Status: 200, ResponseHeader: jsonHeader, ResponseBody: []byte(`{"now":"2026-01-05T09:00:00Z"}`),
	})
	var stdout, stderr bytes.Buffer
	if code := run([]string{"../../api", dir}, &stdout, &stderr); code != 1 {
		t.Errorf("exit %d, want 1:\n%s%s", code, stdout.String(), stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "0 violations") || !strings.Contains(out, "not reached (no validated request, success response or notification): orders.Create\n") ||
		strings.Contains(out, "not reached (no validated request, success response or notification): control.Clock\n") {
		t.Errorf("output:\n%s", out)
	}
}

// TestOverlayCoverage checks that an operation an overlay adds is counted
// and, unreached, named like the documents' own.
func TestOverlayCoverage(t *testing.T) {
	t.Parallel()
	res, err := CheckDir("../../api", record(t), walkOverlay)
	if err != nil {
		t.Fatal(err)
	}
	listed := false
	for _, c := range res.Coverage {
		listed = listed || (c.Doc == "omni.yaml" && c.Operation == "widgets.Get")
	}
	if !listed || !slices.Contains(res.Unreached, "widgets.Get") {
		t.Errorf("widgets.Get listed %v, not reached %q", listed, res.Unreached)
	}
}
