package rxdeliverytest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// Values planted, beside testutil's patient values, in the patient fields
// of the order's prescriber, payer, other items and notes, and in the
// simulator's pharmacy (which its answers show).
const (
	plantedPrescriberFirst = "Ottoline"
	plantedPrescriberLast  = "Brackenbury"
	plantedNotes           = "Knock twice for Wrenfield"
	plantedItem            = "Thistlewick tonic"
	plantedRx2             = "RX-e2e-55017"
	plantedPharmacyName    = "Quimbleton Apothecary"
	plantedPharmacyStreet  = "88 Gallowmere Road"
	plantedPharmacyCity    = "Fennimore"
	plantedPharmacyPhone   = "2125558841"
)

func planted() []string {
	return append(testutil.PatientValues(), testutil.RxNumber,
		plantedPrescriberFirst, plantedPrescriberLast, plantedNotes, plantedItem, plantedRx2,
		plantedPharmacyName, plantedPharmacyStreet, plantedPharmacyCity, plantedPharmacyPhone,
		rxdeliverytest.DefaultKey, rxdeliverytest.DefaultSecret)
}

// plantedForms returns every form a planted value could take in a file:
// as it is, in lower and upper case, each word of at least four letters,
// each group of at least three digits, and JSON, URL and HTML escapes of
// the value.
func plantedForms() []string {
	var out []string
	digits := regexp.MustCompile(`[0-9]{3,}`)
	for _, v := range planted() {
		out = append(out, v, strings.ToLower(v), strings.ToUpper(v), url.QueryEscape(v), url.PathEscape(v), html.EscapeString(v))
		j, _ := json.Marshal(v)
		out = append(out, strings.Trim(string(j), `"`))
		for _, w := range strings.FieldsFunc(v, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') }) {
			if len(w) >= 4 && !commonWord[strings.ToLower(w)] {
				out = append(out, strings.ToLower(w))
			}
		}
		out = append(out, digits.FindAllString(v, -1)...)
	}
	// A phone number's groups as people write them: 614-555-7291.
	for _, p := range []string{testutil.PatientPhone, plantedPharmacyPhone} {
		out = append(out, p[:3]+"-"+p[3:6]+"-"+p[6:], p[6:])
	}
	return out
}

// commonWord are words of the planted values that are also words of the
// cassette format or of the platform's documented values.
var commonWord = map[string]bool{"lane": true, "road": true, "https": true, "hooks": true, "example": true, "twice": true, "knock": true, "listener": true, "token": true}

// flowPharmacy is the simulator's pharmacy of the flow, its name, address
// and phone planted.
func flowPharmacy() rxdeliverytest.Pharmacy {
	return rxdeliverytest.Pharmacy{NPI: "1234567893", NCPDP: "5550001", Name: plantedPharmacyName, Preferred: true,
		PhoneNumber: plantedPharmacyPhone, FaxNumber: "2125558842",
		Street1: plantedPharmacyStreet, City: plantedPharmacyCity, State: "NY", Zipcode: "10001"}
}

// flowOrder returns the order of the flow: testutil's patient order with
// further values planted.
func flowOrder(t testing.TB) *orders.CreateParams {
	p := testutil.PatientOrder(t, "1234567893", "5550001")
	p.DeliveryNotes = plantedNotes
	rx := &p.Prescriptions[0]
	rx.Prescriber.FirstName, rx.Prescriber.LastName = plantedPrescriberFirst, plantedPrescriberLast
	rx.Prescriber.Address.Street = testutil.PatientStreet2 + " " + plantedPharmacyStreet
	p.OtherItems[0].Description = plantedItem
	return p
}

// runFlow makes the flow's calls and returns what a test of them would
// assert: each step's status, ids and the statuses a watch saw, in order.
func runFlow(t testing.TB, client *rxdelivery.Client) []string {
	ctx := context.Background()
	var out []string
	step := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	fail := func(what string, err error) {
		var apiErr *rxdelivery.APIError
		if errors.As(err, &apiErr) {
			step("%s: status %d", what, apiErr.StatusCode)
			return
		}
		t.Fatalf("%s: %v", what, err)
	}

	req, err := client.Requests.Create(ctx, testutil.PatientRequest(t, "5550001"))
	if err != nil {
		fail("requests.Create", err)
	} else {
		step("request %s", req.ID)
		for r, err := range client.Requests.Watch(ctx, req.ID) {
			if err != nil {
				fail("requests.Watch", err)
				break
			}
			if r.Order != nil {
				step("request order %s status %s", r.Order.ID, r.Order.Status)
			} else {
				step("request without order")
			}
		}
	}

	order, err := client.Orders.Create(ctx, flowOrder(t))
	if err != nil {
		t.Fatalf("orders.Create: %v", err)
	}
	step("order %s %s", order.ID, order.Status)
	rx := flowOrder(t).Prescriptions[0]
	rx.Number = plantedRx2
	if _, err := client.Orders.AddPrescription(ctx, order.ID, &rx); err != nil {
		fail("orders.AddPrescription", err)
	} else {
		step("prescription added")
	}
	if err := client.Orders.RemovePrescription(ctx, order.ID, testutil.RxNumber); err != nil {
		fail("orders.RemovePrescription", err)
	} else {
		step("prescription removed")
	}
	for o, err := range client.Orders.Watch(ctx, order.ID) {
		if err != nil {
			fail("orders.Watch", err)
			break
		}
		step("order status %s", o.Status)
	}
	second, err := client.Orders.Create(ctx, flowOrder(t))
	if err != nil {
		t.Fatalf("orders.Create: %v", err)
	}
	if err := client.Orders.Cancel(ctx, second.ID); err != nil {
		fail("orders.Cancel", err)
	} else {
		step("order %s cancelled", second.ID)
	}
	if err := client.Orders.Cancel(ctx, order.ID); err != nil {
		fail("orders.Cancel delivered", err)
	}

	ph, err := client.Pharmacies.Get(ctx, "5550001")
	if err != nil {
		fail("pharmacies.Get", err)
	} else {
		step("pharmacy %s", ph.NCPDP)
	}
	page, err := client.Pharmacies.Search(ctx, &pharmacies.SearchParams{OriginAddress: testutil.PatientStreet + ", " + testutil.PatientCity + ", OH 43210"})
	if err != nil {
		fail("pharmacies.Search", err)
	} else {
		step("pharmacies found %d", len(page.Pharmacies))
	}
	sub, err := client.Tracking.Subscribe(ctx, &tracking.SubscribeParams{TrackingNumber: testutil.TrackingNumber, ListenerURL: testutil.Listener, ReferenceID: testutil.ReferralID})
	if err != nil {
		fail("tracking.Subscribe", err)
	} else {
		step("subscription %s", sub.Status)
	}
	info, err := client.Pharmacies.DeliveryInfo(ctx, "5550001", &pharmacies.DeliveryInfoParams{Address: rxtypes.Address{
		Street: testutil.PatientStreet, Street2: testutil.PatientStreet2, City: testutil.PatientCity, State: "OH", Zipcode: "43210",
	}})
	if err != nil {
		fail("pharmacies.DeliveryInfo", err)
	} else {
		step("deliverable %v", info != nil)
	}
	if quotes, err := client.Pricing.Quote(ctx, testutil.Quote()); err != nil {
		fail("pricing.Quote", err)
	} else {
		step("quotes %d", len(quotes))
	}
	if _, err := client.Orders.Get(ctx, "ord_999999"); err != nil {
		fail("orders.Get unknown", err)
	}
	return out
}

// recordFlow records the flow against a simulator and returns the
// cassette's path and the flow's results.
func recordFlow(t *testing.T) (string, []string) {
	path := filepath.Join(t.TempDir(), "flow.json")
	rec := rxdeliverytest.NewRecorder(nil)
	srv := rxdeliverytest.Start(t, rxdeliverytest.WithPharmacies(flowPharmacy()),
		rxdeliverytest.WithClientOptions(rec.ClientOptions()...))
	got := runFlow(t, srv.Client())
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	if rec.Len() == 0 {
		t.Fatal("nothing recorded")
	}
	return path, got
}

func TestCassetteHoldsNoPlantedValue(t *testing.T) {
	t.Parallel()
	path, results := recordFlow(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lower := strings.ToLower(string(data))
	for _, f := range plantedForms() {
		if strings.Contains(lower, strings.ToLower(f)) {
			t.Errorf("the cassette holds a form of a planted value (%d bytes)", len(f))
		}
	}
	// The same in every string of the file once its escapes are decoded
	// (JSON's \u, percent and HTML escapes).
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	walkStrings(doc, func(s string) {
		decoded := []string{s, html.UnescapeString(s)}
		if u, err := url.QueryUnescape(s); err == nil {
			decoded = append(decoded, u)
		}
		for _, d := range decoded {
			for _, f := range plantedForms() {
				if strings.Contains(strings.ToLower(d), strings.ToLower(f)) {
					t.Errorf("a string of the cassette holds a planted value once decoded (%d bytes)", len(f))
				}
			}
		}
	})
	// The simulator did echo them: the flow's answers carried them.
	if !strings.Contains(string(data), "<patient.last_name#1>") || !strings.Contains(string(data), "<credential.authorization#") {
		t.Errorf("no typed placeholder in the cassette")
	}
	if err := rxdeliverytest.CheckCassette(data); err != nil {
		t.Errorf("CheckCassette of a recorded cassette: %v", err)
	}
	if len(results) < 8 {
		t.Fatalf("flow too short: %v", results)
	}
	// Nothing else beside the cassette was left in its directory.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("%d files beside the cassette, want none", len(entries)-1)
	}
}

// walkStrings calls f with every key and string of a decoded JSON value.
func walkStrings(v any, f func(string)) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			f(k)
			walkStrings(e, f)
		}
	case []any:
		for _, e := range x {
			walkStrings(e, f)
		}
	case string:
		f(x)
	}
}

func TestCassetteReplaysTheFlow(t *testing.T) {
	t.Parallel()
	path, recorded := recordFlow(t)
	rp := rxdeliverytest.Replay(t, path)
	replayed := runFlow(t, rp.Client())
	if strings.Join(replayed, "\n") != strings.Join(recorded, "\n") {
		t.Fatalf("replayed:\n%s\nrecorded:\n%s", strings.Join(replayed, "\n"), strings.Join(recorded, "\n"))
	}
	if !containsPrefix(recorded, "order status delivered") || !containsPrefix(recorded, "request order ") {
		t.Errorf("the flow saw no delivery: %v", recorded)
	}
}

func containsPrefix(list []string, p string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func TestCassetteRefusesAChangedRequest(t *testing.T) {
	t.Parallel()
	path, _ := recordFlow(t)
	cases := map[string]struct {
		change func(p *orders.CreateParams)
		path   string
	}{
		"a count":          {func(p *orders.CreateParams) { p.Prescriptions[0].DaysSupply = 7 }, "request.body.prescriptions[0].days_supply"},
		"an enum":          {func(p *orders.CreateParams) { p.Prescriptions[0].Refrigeration = orders.RefrigerationFridge }, "request.body.prescriptions[0].refrigeration"},
		"a missing field":  {func(p *orders.CreateParams) { p.DeliveryNotes = "" }, "request.body.delivery_notes"},
		"two fields alike": {func(p *orders.CreateParams) { p.Patient.LastName = p.Patient.FirstName }, "request.body.patient.last_name"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rp, err := rxdeliverytest.NewReplayer(path)
			if err != nil {
				t.Fatal(err)
			}
			client := rp.Client()
			ctx := context.Background()
			// The flow's calls before its order, as recorded.
			req, err := client.Requests.Create(ctx, testutil.PatientRequest(t, "5550001"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := client.Requests.Wait(ctx, req.ID); err != nil {
				t.Fatal(err)
			}
			p := flowOrder(t)
			tc.change(p)
			_, err = client.Orders.Create(ctx, p)
			var mm *rxdeliverytest.ReplayMismatchError
			if !errors.As(err, &mm) {
				t.Fatalf("got %v, want a replay mismatch", err)
			}
			if mm.Operation != "orders.Create" || mm.Path != tc.path || mm.Kind == "" {
				t.Errorf("mismatch %+v, want at %s", *mm, tc.path)
			}
			msg := rp.Err().Error() + err.Error()
			for _, f := range plantedForms() {
				if strings.Contains(strings.ToLower(msg), strings.ToLower(f)) {
					t.Errorf("the mismatch message holds a planted value: %d bytes", len(f))
				}
			}
			t.Logf("%v", mm)
		})
	}
}

func TestCassetteMatchesOtherPatientValues(t *testing.T) {
	t.Parallel()
	path, _ := recordFlow(t)
	rp, err := rxdeliverytest.NewReplayer(path)
	if err != nil {
		t.Fatal(err)
	}
	p := testutil.PatientRequest(t, "5550001")
	p.Patient.FirstName, p.Patient.LastName = "Agnes", "Other"
	p.Dropoff.Name = "Agnes Other"
	if _, err := rp.Client().Requests.Create(context.Background(), p); err != nil {
		t.Fatalf("a request with other patient values in the same places: %v", err)
	}
}

func TestCheckCassetteFindsAValuePutBack(t *testing.T) {
	t.Parallel()
	path, _ := recordFlow(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), `"<patient.last_name#1>"`, `"`+testutil.PatientLast+`"`, 1)
	if edited == string(data) {
		t.Fatal("no last name placeholder to put a name back in")
	}
	err = rxdeliverytest.CheckCassette([]byte(edited))
	var ce *rxdeliverytest.CassetteError
	if !errors.As(err, &ce) || len(ce.Problems) != 1 {
		t.Fatalf("got %v, want one problem", err)
	}
	if !strings.HasSuffix(ce.Problems[0].Path, ".last_name") || strings.Contains(err.Error(), testutil.PatientLast) {
		t.Errorf("problem %+v", ce.Problems[0])
	}

	for name, edit := range map[string][2]string{
		"a status":      {`"status": "delivered"`, `"status": "Vandersloot"`},
		"a credential":  {`"Authorization": "<credential.authorization#1>"`, `"Authorization": "Basic cnhkZWxpdmVyeXRlc3Rfa2V5OnNlY3JldA=="`},
		"a kept header": {`"Content-Type": "application/json"`, `"X-Patient": "Philomena"`},
	} {
		changed := strings.Replace(string(data), edit[0], edit[1], 1)
		if changed == string(data) {
			t.Errorf("%s: nothing to edit", name)
			continue
		}
		if err := rxdeliverytest.CheckCassette([]byte(changed)); err == nil {
			t.Errorf("%s put back: the check passed", name)
		} else if strings.Contains(err.Error(), "Vandersloot") || strings.Contains(err.Error(), "Philomena") {
			t.Errorf("%s: the check's error quotes the value", name)
		}
	}
}

func TestCassetteOfAnotherVersion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"old.json":  `{"version": 0, "exchanges": []}`,
		"none.json": `{"exchanges": []}`,
		"new.json":  `{"version": 99, "exchanges": []}`,
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := rxdeliverytest.NewReplayer(path)
		if err == nil || !strings.Contains(err.Error(), rxdeliverytest.RecordEnv+"=1 go test") {
			t.Errorf("%s: got %v, want how to record it again", name, err)
		}
		if err := rxdeliverytest.CheckCassette([]byte(body)); err == nil {
			t.Errorf("%s: CheckCassette passed", name)
		}
	}
}

func TestReplayFailsOnAnUnrecordedCall(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "empty.json")
	if err := rxdeliverytest.NewRecorder(nil).Save(path); err != nil {
		t.Fatal(err)
	}
	rp, err := rxdeliverytest.NewReplayer(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = rp.Client().Orders.Get(context.Background(), "ord_000001")
	var mm *rxdeliverytest.ReplayMismatchError
	if !errors.As(err, &mm) || mm.Operation != "orders.Get" {
		t.Fatalf("got %v", err)
	}
	if rp.Err() == nil {
		t.Error("Err is nil after a mismatch")
	}
}

// A bad day replays as it was recorded: a create committed and then
// answered 500 (its outcome unknown), a cut connection, a malformed answer,
// a 429 with its Retry-After. (The pause a 429 sets is last: the replaying
// client's clock moves only when the code waits, not when a recording
// test moved the simulator's; see docs/cassettes.md, Time.)
func TestCassetteReplaysFaults(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "faults.json")
	// flow makes the calls; before injects the step's fault when recording.
	flow := func(client *rxdelivery.Client, before func(op rxdeliverytest.Operation, f rxdeliverytest.Fault)) []string {
		ctx := context.Background()
		var out []string
		res := func(what string, err error) {
			var apiErr *rxdelivery.APIError
			status := 0
			if errors.As(err, &apiErr) {
				status = apiErr.StatusCode
			}
			out = append(out, fmt.Sprintf("%s: status %d, unknown %v, rate limited %v, malformed %v", what, status,
				errors.Is(err, rxdelivery.ErrUnknownOutcome), errors.Is(err, rxdelivery.ErrRateLimited), errors.Is(err, rxdelivery.ErrMalformedResponse)))
		}
		o, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, "created "+o.ID)
		before(rxdeliverytest.OrdersCreate, rxdeliverytest.CommittedThenFailed())
		_, err = client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
		res("committed, then 500", err)
		before(rxdeliverytest.OrdersGet, rxdeliverytest.Cut())
		got, err := client.Orders.Get(ctx, o.ID)
		res("cut, then read", err)
		if err == nil {
			out = append(out, "read "+got.ID+" "+string(got.Status))
		}
		before(rxdeliverytest.OrdersGet, rxdeliverytest.Malformed())
		_, err = client.Orders.Get(ctx, o.ID, rxdelivery.WithRetryMax(0))
		res("malformed", err)
		before(rxdeliverytest.OrdersCancel, rxdeliverytest.RateLimited(time.Minute))
		err = client.Orders.Cancel(ctx, o.ID, rxdelivery.WithRetryMax(0))
		res("rate limited", err)
		return out
	}
	rec := rxdeliverytest.NewRecorder(nil)
	srv := rxdeliverytest.Start(t, rxdeliverytest.WithClientOptions(rec.ClientOptions()...))
	recorded := flow(srv.Client(), func(op rxdeliverytest.Operation, f rxdeliverytest.Fault) { srv.FailNext(op, 1, f) })
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	replayed := flow(rxdeliverytest.Replay(t, path).Client(), func(rxdeliverytest.Operation, rxdeliverytest.Fault) {})
	if strings.Join(replayed, "\n") != strings.Join(recorded, "\n") {
		t.Fatalf("replayed:\n%s\nrecorded:\n%s", strings.Join(replayed, "\n"), strings.Join(recorded, "\n"))
	}
	for _, want := range []string{"committed, then 500: status 500, unknown true", "read ord_000001 new", "malformed: status 0, unknown false, rate limited false, malformed true", "rate limited: status 429"} {
		if !strings.Contains(strings.Join(recorded, "\n"), want) {
			t.Errorf("the flow lacks %q:\n%s", want, strings.Join(recorded, "\n"))
		}
	}
}
