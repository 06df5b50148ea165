package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
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
