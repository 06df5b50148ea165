package testutil_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

// recordingTB is a testing.TB that records the errors it is told and
// stops CheckCalls at FailNow without ending the test that holds it.
type recordingTB struct {
	testing.TB
	errors []string
}

// stopped is what FailNow panics with.
type stopped struct{}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recordingTB) FailNow() { panic(stopped{}) }

// check runs CheckCalls on rows and returns the errors it reported and
// whether it stopped the test.
func check(t *testing.T, rows []testutil.Call) (errs []string, failed bool) {
	r := &recordingTB{TB: t}
	func() {
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(stopped); !ok {
					panic(v)
				}
				failed = true
			}
		}()
		testutil.CheckCalls(r, rows)
	}()
	return r.errors, failed
}

// TestCallsHaveARowPerEndpoint: Calls has one row per endpoint of
// core.Endpoints, each with its endpoint, its wire request and its path;
// CheckCalls names an endpoint without a row, a row without an endpoint,
// and a name with two rows, and fails the test.
func TestCallsHaveARowPerEndpoint(t *testing.T) {
	t.Parallel()
	rows := testutil.Calls(t)
	if len(rows) != len(core.Endpoints) {
		t.Fatalf("%d rows for %d endpoints", len(rows), len(core.Endpoints))
	}
	for _, r := range rows {
		if r.Endpoint == nil || r.Endpoint.Name != r.Name || r.Endpoint.Interface != r.Interface {
			t.Errorf("%s: endpoint %+v", r.Name, r.Endpoint)
		}
		if r.Call == nil || r.Method != r.Endpoint.Method || r.URL == "" || r.Path == "" {
			t.Errorf("%s: call, method %q, URL %q or path %q missing", r.Name, r.Method, r.URL, r.Path)
		}
	}

	for _, tc := range []struct {
		name string
		rows func([]testutil.Call) []testutil.Call
		want string
	}{
		{"a row dropped", func(r []testutil.Call) []testutil.Call { return r[1:] },
			"core.Endpoints has " + rows[0].Name + ": add its row to testutil.Calls"},
		{"a row of no endpoint", func(r []testutil.Call) []testutil.Call {
			return append(r, testutil.Call{Name: "widgets.Get"})
		}, "testutil.Calls has a row widgets.Get, which core.Endpoints does not"},
		{"a row twice", func(r []testutil.Call) []testutil.Call { return append(r, r[2]) },
			rows[2].Name + " has two rows in testutil.Calls"},
	} {
		errs, failed := check(t, tc.rows(testutil.Calls(t)))
		if !failed || len(errs) != 1 || errs[0] != tc.want {
			t.Errorf("%s: failed %v, errors %q, want %q", tc.name, failed, errs, tc.want)
		}
	}
	if errs, failed := check(t, testutil.Calls(t)); failed || len(errs) != 0 {
		t.Errorf("the whole table: failed %v, errors %q", failed, errs)
	}
}

// TestDerivedRowsMatchWrittenOnes checks DerivedRow against the rows
// written in calls.go for the endpoints it can derive (a read or a delete
// by id): the same request, path as errors show it, and forms of input.
func TestDerivedRowsMatchWrittenOnes(t *testing.T) {
	t.Parallel()
	derived := 0
	for _, row := range testutil.Calls(t) {
		var ep *core.Endpoint
		for _, e := range core.Endpoints {
			if e.Name == row.Name {
				ep = e
			}
		}
		got, why := testutil.DerivedRow(ep)
		if why != "" {
			continue
		}
		derived++
		if got.Method != row.Method || got.Interface != row.Interface || (got.EmptyID == nil) != (row.EmptyID == nil) {
			t.Errorf("%s: derived %s %v (empty id %t), written %s %v (empty id %t)", row.Name,
				got.Method, got.Interface, got.EmptyID != nil, row.Method, row.Interface, row.EmptyID != nil)
		}
	}
	if derived < 3 {
		t.Errorf("derived the rows of %d endpoints, want every read and delete by id", derived)
	}
}

// TestAnyBodyHoldsEveryExample checks that AnyBody, the one success body
// of the tests that answer every endpoint alike, holds the top-level
// members of the documents' examples: the envelopes and the bare models.
func TestAnyBodyHoldsEveryExample(t *testing.T) {
	t.Parallel()
	var body map[string]any
	if err := json.Unmarshal([]byte(testutil.AnyBody()), &body); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"order", "orders", "request", "requests", "pharmacies", "npi", "tracking_number", "quotes"} {
		if _, ok := body[k]; !ok {
			t.Errorf("AnyBody has no %q", k)
		}
	}
}
