package rxdelivery_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/fields"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// plantForms are the forms a planted value takes, each holding its
// marker Qx<n> (what the test looks for): a name, a URL with a token, a
// street, a reference, a note, an ID number, a date and a phone number.
var plantForms = []string{
	"Marguerite %s Dubois",
	"https://files.example.test/sig/%[1]s.png?token=%[1]stok",
	"42 %s Elm Avenue",
	"MRN-%s-1937",
	"Leave with neighbour %s",
	"D12%s67",
	"11/23/1937 %s",
	"(614) 555-7319 %s",
}

// readCase is one read endpoint answering with fixture.
type readCase struct {
	endpoint, fixture string
	call              func(context.Context, *rxdelivery.Client) error
}

func readCases() []readCase {
	get := func(name string, f func(context.Context, *rxdelivery.Client) error) func(string) readCase {
		return func(fixture string) readCase { return readCase{name, fixture, f} }
	}
	reqGet := get("requests.Get", func(ctx context.Context, c *rxdelivery.Client) error {
		_, err := c.Requests.Get(ctx, "req_01HZX5A7K3M9")
		return err
	})
	ordGet := get("orders.Get", func(ctx context.Context, c *rxdelivery.Client) error {
		_, err := c.Orders.Get(ctx, "ord_01HXZ3K9V2M4Q7R8S9T0W1Y2Z3")
		return err
	})
	reqMany := get("requests.GetMany", func(ctx context.Context, c *rxdelivery.Client) error {
		_, err := c.Requests.GetMany(ctx, []string{"req_1", "req_2"})
		return err
	})
	ordMany := get("orders.GetMany", func(ctx context.Context, c *rxdelivery.Client) error {
		_, err := c.Orders.GetMany(ctx, []string{"ord_1", "ord_2"})
		return err
	})
	search := get("pharmacies.Search", func(ctx context.Context, c *rxdelivery.Client) error {
		_, err := c.Pharmacies.Search(ctx, &pharmacies.SearchParams{OriginAddress: "42 Elm Ave, Columbus, OH 43210"})
		return err
	})
	pharmacy := get("pharmacies.Get", func(ctx context.Context, c *rxdelivery.Client) error {
		_, err := c.Pharmacies.Get(ctx, "1234567")
		return err
	})
	info := get("pharmacies.DeliveryInfo", func(ctx context.Context, c *rxdelivery.Client) error {
		_, err := c.Pharmacies.DeliveryInfo(ctx, "1234567", &pharmacies.DeliveryInfoParams{})
		return err
	})
	sub := get("tracking.GetSubscription", func(ctx context.Context, c *rxdelivery.Client) error {
		_, err := c.Tracking.GetSubscription(ctx, "9400100000000000000000")
		return err
	})
	quote := get("pricing.Quote", func(ctx context.Context, c *rxdelivery.Client) error {
		_, err := c.Pricing.Quote(ctx, &pricing.QuoteParams{})
		return err
	})
	var cases []readCase
	for _, f := range []string{"request_order_delivered", "request_order_returned", "request_order_cancelled",
		"request_order_delivery_attempted", "request_order_new", "request_order_submitted", "request_incomplete",
		"request_tolerant", "request_create_response"} {
		cases = append(cases, reqGet("omni/"+f))
	}
	for _, f := range []string{"order_delivered_identification", "order_delivered", "order_shipping_delivered",
		"order_cancelled", "order_cancelled_cancellation_reason", "order_returned", "order_delivery_attempted",
		"order_picked_up", "order_new_shipping", "order_submitted_to_courier"} {
		cases = append(cases, ordGet("delivery/"+f))
	}
	cases = append(cases, reqMany("omni/requests_get_many"), ordMany("delivery/orders_get_many"),
		ordMany("delivery/orders_get_many_objects"), search("omni/pharmacies_search_page1"),
		pharmacy("omni/pharmacy"), pharmacy("omni/pharmacy_not_preferred"), info("delivery/pharmacy_delivery_info"),
		sub("tracking/subscription_suspended"), sub("tracking/subscription_enabled"),
		sub("tracking/subscription_unknown_values"), quote("pricing/quotes"), quote("pricing/quotes_multiple"))
	return cases
}

// planted is what plantFixture put in a document and what must stay.
type planted struct {
	markers []string // one per planted value
	visible []string // safe values the transcript must show
}

// plantFixture replaces, in the decoded document v, every string or null
// of a field whose kind is not safe (every scalar string of any field,
// when hostile) with a planted value, adds a planted field and a planted
// key to every object, and records the safe values left.
func plantFixture(v any, hostile bool, p *planted) any {
	var walk func(parent, key string, v any) any
	nextOf := func(kind fields.Kind) string {
		m := fmt.Sprintf("Qx%02d", len(p.markers))
		p.markers = append(p.markers, m)
		for i := len(p.markers); ; i++ {
			v := fmt.Sprintf(plantForms[i%len(plantForms)], m)
			// An id field shows a value of one token whatever it is (a
			// reference the platform put there is not told from an id):
			// hostile values of id fields are of the other forms.
			if kind != fields.ID || strings.ContainsAny(v, " /?,()") {
				return v
			}
		}
	}
	next := func() string { return nextOf(fields.Patient) }
	walk = func(parent, key string, v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				x[k] = walk(key, k, e)
			}
			note, name := next(), next()
			x["delivery_window_note"] = note
			x[name] = "x"
			return x
		case []any:
			for i := range x {
				x[i] = walk(parent, key, x[i])
			}
			return x
		case json.Number:
			if k := fields.OfIn(parent, key); (k == fields.Money || k == fields.Count) && !hostile {
				p.visible = append(p.visible, x.String())
			}
		case string, nil:
			kind := fields.OfIn(parent, key)
			if _, isString := v.(string); isString && kind.Safe() && !hostile {
				switch s := x.(string); kind {
				case fields.ID:
					p.visible = append(p.visible, strconv.Quote(s))
				case fields.Time:
					if _, ok := rxtypes.ParseTime(s); ok {
						p.visible = append(p.visible, strconv.Quote(s))
					}
				case fields.Enum, fields.Carrier:
					if fields.Documented(s) {
						p.visible = append(p.visible, strconv.Quote(s))
					}
				}
				return v
			}
			if v == nil && (kind.Safe() || kind == fields.Object) {
				return nil
			}
			return nextOf(kind)
		}
		return v
	}
	return walk("", "", v)
}

// TestReadTranscriptsShowNoPatientValue answers every read endpoint with
// each of its fixtures from testdata/, every patient field planted with a
// value of a patient's form (a name, a URL with its token, a street, a
// reference, a note, an ID number, a date, a phone number), and a planted
// unknown field and key in every object: no planted value is in any
// transcript, while the ids, statuses and timestamps are. Hostile, every
// string of every field is planted, the safe kinds' too ("status": a
// name): none is shown either.
func TestReadTranscriptsShowNoPatientValue(t *testing.T) {
	t.Parallel()
	for _, hostile := range []bool{false, true} {
		var mu sync.Mutex
		var answer []byte
		var transcript bytes.Buffer
		env := testutil.Setup(t, rxdelivery.WithoutValidation(), rxdelivery.WithRetryMax(0),
			rxdelivery.WithSandbox(false), rxdelivery.WithTranscript(&transcript))
		env.Mock.RegisterNoResponder(func(*http.Request) (*http.Response, error) {
			mu.Lock()
			defer mu.Unlock()
			resp := httpmock.NewBytesResponse(http.StatusOK, answer)
			resp.Header.Set("Content-Type", "application/json")
			resp.Header.Set("X-Request-Id", "req-7f3a")
			resp.Header.Set("X-Patient", "Marguerite Qx99 Dubois")
			return resp, nil
		})
		client := env.Client
		total, survived, transcripts, leaking := 0, 0, 0, 0
		for _, rc := range readCases() {
			raw, err := os.ReadFile(filepath.Join("testdata", rc.fixture+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var doc any
			d := json.NewDecoder(bytes.NewReader(raw))
			d.UseNumber()
			if err := d.Decode(&doc); err != nil {
				t.Fatalf("%s: %v", rc.fixture, err)
			}
			var p planted
			doc = plantFixture(doc, hostile, &p)
			body, _ := json.Marshal(doc)
			mu.Lock()
			answer = body
			mu.Unlock()
			transcript.Reset()
			_ = rc.call(context.Background(), client)
			out := transcript.String()
			transcripts++
			p.markers = append(p.markers, "Qx99")
			total += len(p.markers)
			leaked := 0
			for _, m := range p.markers {
				if strings.Contains(out, m) {
					leaked++
					t.Errorf("%s %s (hostile %v): the transcript holds planted %s:\n%s", rc.endpoint, rc.fixture, hostile, m, out)
				}
			}
			survived += leaked
			if leaked > 0 {
				leaking++
			}
			if !strings.Contains(out, "request id: req-7f3a") {
				t.Errorf("%s %s: no request id:\n%s", rc.endpoint, rc.fixture, out)
			}
			for _, v := range p.visible {
				if !strings.Contains(out, v) {
					t.Errorf("%s %s: the transcript does not show %q:\n%s", rc.endpoint, rc.fixture, v, out)
				}
			}
			if !hostile && len(p.visible) == 0 && !strings.HasSuffix(rc.fixture, "unknown_values") {
				t.Errorf("%s %s: the fixture has no safe value to show", rc.endpoint, rc.fixture)
			}
		}
		t.Logf("hostile %v: %d read transcripts, %d planted values, %d survived, %d transcripts with a planted value",
			hostile, transcripts, total, survived, leaking)
	}
}

// TestTranscriptErrorMessages answers reads and writes with every error
// fixture of testdata/: the message is shown through the scrubber (the
// documented words stay readable, a value the call sent does not), never
// dropped whole, and the error's type and code are shown.
func TestTranscriptErrorMessages(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var answer []byte
	var transcript bytes.Buffer
	env := testutil.Setup(t, rxdelivery.WithoutValidation(), rxdelivery.WithRetryMax(0),
		rxdelivery.WithSandbox(false), rxdelivery.WithTranscript(&transcript))
	env.Mock.RegisterNoResponder(func(*http.Request) (*http.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		resp := httpmock.NewBytesResponse(http.StatusBadRequest, answer)
		resp.Header.Set("Content-Type", "application/json")
		return resp, nil
	})
	client := env.Client
	matches, _ := filepath.Glob(filepath.Join("testdata", "*", "*error*.json"))
	sort.Strings(matches)
	if len(matches) < 20 {
		t.Fatalf("%d error fixtures", len(matches))
	}
	word := regexp.MustCompile(`[A-Za-z]{4,}`)
	for _, f := range matches {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Error struct{ Message, Type, Code string }
		}
		if err := json.Unmarshal(raw, &body); err != nil || body.Error.Message == "" {
			t.Fatalf("%s: no error message (%v)", f, err)
		}
		mu.Lock()
		answer = raw
		mu.Unlock()
		transcript.Reset()
		_, _ = client.Orders.Get(context.Background(), "ord_1")
		out := transcript.String()
		// The documents' words of the message stay readable.
		for _, w := range word.FindAllString(body.Error.Message, -1) {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the transcript lost %q of the message %q:\n%s", f, w, body.Error.Message, out)
			}
		}
		for _, v := range []string{body.Error.Type, body.Error.Code} {
			if v != "" && !strings.Contains(out, `"`+v+`"`) {
				t.Errorf("%s: the transcript does not show %q:\n%s", f, v, out)
			}
		}
	}

	// A message that holds a value the call sent loses that value and
	// keeps its other words; it is not dropped whole.
	ref := "9400111899223197428490"
	mu.Lock()
	answer = []byte(`{"error":{"code":"not_found","message":"Order is not in a cancellable status: ` + ref + ` was refused"}}`)
	mu.Unlock()
	transcript.Reset()
	_, _ = client.Tracking.GetSubscription(context.Background(), ref)
	out := transcript.String()
	resp := out[strings.Index(out, "\n< "):]
	if strings.Contains(resp, ref) || !strings.Contains(resp, "Order is not in a cancellable status") ||
		!strings.Contains(resp, "was refused") || strings.Contains(resp, "<string") {
		t.Errorf("the message is not shown through the scrubber:\n%s", out)
	}

	// A body that is not JSON is not shown.
	mu.Lock()
	answer = []byte("<html>Marguerite Qx98 Dubois</html>")
	mu.Unlock()
	transcript.Reset()
	_, _ = client.Orders.Get(context.Background(), "ord_1")
	if out := transcript.String(); strings.Contains(out, "Qx98") || !strings.Contains(out, "<not JSON: 35 bytes>") {
		t.Errorf("a body that is not JSON:\n%s", out)
	}
}

// TestReadTranscriptsAgainstTheSimulator follows a request to its
// delivery on the sandbox simulator, which answers with a signer, a
// recipient identification and a signature URL of its own, and subscribes
// a tracking number with a listener URL holding a token: the transcripts
// of the reads show none of those nor the caller's references, and show
// the ids, the status and the timestamps.
func TestReadTranscriptsAgainstTheSimulator(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	ctx := context.Background()
	client := srv.Client()
	created, err := client.Requests.Create(ctx, &requests.CreateParams{
		Identifier: "program-kit", ExternalReferenceNumber: "MRN-Qx01-1937", NameOfPickup: "Amoxicillin 500 mg",
		Pharmacy: requests.PharmacyParams{NCPDP: "5550001"},
		Dropoff: requests.DropoffParams{Name: "Marguerite Dubois", PhoneNumber: "6145557319",
			Address: requests.NewDropoffPlace("ChIJ_kit")},
		Patient: requests.PatientParams{FirstName: "Marguerite", LastName: "Dubois",
			DateOfBirth: rxdelivery.Date{Year: 1937, Month: time.November, Day: 23}},
		TestMeta: &requests.TestMeta{Scenario: requests.ScenarioSuccessfulDelivery, DurationBetween: 10},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv.Advance(time.Minute)
	var out bytes.Buffer
	got, err := client.Requests.Get(ctx, created.ID, rxdelivery.WithTranscript(&out))
	if err != nil || got.Order == nil || got.Order.Delivery == nil || got.Order.Delivery.SignedBy == "" ||
		got.Order.Delivery.RecipientIdentification == nil || got.Order.Delivery.SignatureURL == "" {
		t.Fatalf("the simulator's delivered request: %+v, %v", got, err)
	}
	d := got.Order.Delivery
	hidden := []string{d.SignedBy, d.RecipientIdentification.Number, d.RecipientIdentification.Type,
		d.SignatureURL, "Qx01", "Marguerite", "Dubois"}
	shown := []string{`"` + created.ID + `"`, `"` + got.Order.ID + `"`, `"delivered"`, `"request_received"`,
		`"` + mustJSONTime(t, out.String(), "occurred_at") + `"`}

	sub, err := client.Tracking.Subscribe(ctx, &tracking.SubscribeParams{TrackingNumber: "9400111899223197428490",
		ListenerURL: "https://hooks.example.test/rx/Qx02tok", ReferenceID: "MRN-Qx03"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Tracking.GetSubscription(ctx, sub.TrackingNumber, rxdelivery.WithTranscript(&out)); err != nil {
		t.Fatal(err)
	}
	hidden = append(hidden, "Qx02", "Qx03", "9400111899223197428490", "hooks.example.test")
	shown = append(shown, `"`+string(sub.Status)+`"`, `"`+string(sub.Carrier)+`"`)
	text := out.String()
	for _, v := range hidden {
		if strings.Contains(text, v) {
			t.Errorf("the transcript shows %q:\n%s", v, text)
		}
	}
	for _, v := range shown {
		if !strings.Contains(text, v) {
			t.Errorf("the transcript does not show %s:\n%s", v, text)
		}
	}
}

// mustJSONTime returns the first value of the field key in a transcript.
func mustJSONTime(t *testing.T, text, key string) string {
	t.Helper()
	m := regexp.MustCompile(`"` + key + `":"([^"]+)"`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %s in:\n%s", key, text)
	}
	return m[1]
}
