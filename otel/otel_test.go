package rxotel_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	rxotel "github.com/rxdelivery/rxdelivery-go/otel"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// server answers each request, through an httpmock transport, with the
// next status of a script (then 200 with a body every decoder accepts) and
// records the trace headers.
type server struct {
	mock        *httpmock.MockTransport
	mu          sync.Mutex
	script      []int
	traceparent []string
	// echo makes an error response repeat the request's body in its
	// message, raw, upper-cased and with its digits regrouped, and a
	// request id made of the patient's name, as a careless platform does.
	echo bool
}

// platformURL is the base URL of every interface the harness's client
// calls; the mock transport answers it.
const platformURL = "https://platform.rxdelivery.test"

// telemetry returns every string the harness's spans (names, statuses,
// attributes, events) and metrics (names, attributes) hold, failing when
// there is too little to check.
func telemetry(t *testing.T, h *harness) []string {
	t.Helper()
	var seen []string
	for _, s := range h.spans.Ended() {
		seen = append(seen, s.Name(), s.Status().Description)
		for _, kv := range s.Attributes() {
			seen = append(seen, string(kv.Key), kv.Value.Emit())
		}
		for _, e := range s.Events() {
			seen = append(seen, e.Name)
			for _, kv := range e.Attributes {
				seen = append(seen, string(kv.Key), kv.Value.Emit())
			}
		}
	}
	rm := collect(t, h)
	nMetricAttrs := 0
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			seen = append(seen, m.Name)
			for _, set := range dataSets(m.Data) {
				for _, kv := range set.ToSlice() {
					nMetricAttrs++
					seen = append(seen, string(kv.Key), kv.Value.Emit())
				}
			}
		}
	}
	if len(h.spans.Ended()) < 10 || nMetricAttrs < 20 {
		t.Fatalf("too little telemetry to check: %d spans, %d metric attributes", len(h.spans.Ended()), nMetricAttrs)
	}
	return seen
}

const anyBody = `{"order":{"id":"ord_1"},"request":{"id":"req_1"},"pharmacies":[]}`

func newServer() *server {
	s := &server{mock: httpmock.NewMockTransport()}
	s.mock.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		s.mu.Lock()
		status := http.StatusOK
		if len(s.script) > 0 {
			status, s.script = s.script[0], s.script[1:]
		}
		s.traceparent = append(s.traceparent, r.Header.Get("Traceparent"))
		s.mu.Unlock()
		requestID := "req-8f3a9c21"
		if status != http.StatusOK {
			msg := "failed"
			if s.echo {
				var body []byte
				if r.Body != nil {
					body, _ = io.ReadAll(r.Body)
				}
				msg = "Invalid " + string(body) + " " + strings.ToUpper(string(body)) +
					" phone (614) 555-0177, born 11/23/1975, Roe, Jane"
				requestID = "Jane-Roe-1975"
			}
			b, _ := json.Marshal(map[string]any{"error": map[string]string{"message": msg, "type": msg, "code": msg, "id": msg}})
			res := httpmock.NewBytesResponse(status, b)
			res.Header.Set("X-Request-Id", requestID)
			return res, nil
		}
		res := httpmock.NewStringResponse(status, anyBody)
		res.Header.Set("X-Request-Id", requestID)
		res.Header.Set("Content-Type", "application/json")
		return res, nil
	})
	return s
}

func (s *server) push(statuses ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, statuses...)
}

type harness struct {
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	client *rxdelivery.Client
	srv    *server
	logs   *bytes.Buffer
}

const (
	key    = "key-ABCDEF123"
	secret = "secret-XYZ789"
)

func newHarness(t *testing.T) *harness {
	h := &harness{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader(), srv: newServer(), logs: &bytes.Buffer{}}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(h.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(h.reader))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) })
	var err error
	h.client, err = rxdelivery.NewClient(key, secret,
		rxdelivery.WithOmniURL(platformURL), rxdelivery.WithDeliveryURL(platformURL),
		rxdelivery.WithHTTPClient(&http.Client{Transport: h.srv.mock}),
		rxdelivery.WithRetryWaitMin(5*time.Millisecond), rxdelivery.WithRetryWaitMax(20*time.Millisecond),
		// Every call is sent, so that every value reaches the wire.
		rxdelivery.WithoutValidation(),
		// The line's time is left out: its digits are the clock's, and a
		// search for an echoed value's digits would find them by chance.
		rxdelivery.WithLogger(slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: dropTime}))),
		rxotel.New(rxotel.WithTracerProvider(tp), rxotel.WithMeterProvider(mp),
			rxotel.WithPropagators(propagation.TraceContext{})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.client.CloseIdleConnections)
	return h
}

func attrs(kvs []attribute.KeyValue) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

func mustEqual[T comparable](t *testing.T, what string, want, got T) {
	t.Helper()
	if want != got {
		t.Errorf("%s: want %v, got %v", what, want, got)
	}
}

func TestSpanTreeOfARetriedRead(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.push(503, 429)
	if _, err := h.client.Orders.Get(context.Background(), "ord_1"); err != nil {
		t.Fatal(err)
	}
	spans := h.spans.Ended()
	if len(spans) != 4 {
		t.Fatalf("want 3 attempt spans and 1 call span, got %d", len(spans))
	}
	call := spans[3]
	mustEqual(t, "call span name", "orders.Get /api/v1/orders/{id}", call.Name())
	ca := attrs(call.Attributes())
	mustEqual(t, "operation", "orders.Get", ca[rxotel.KeyOperation].AsString())
	mustEqual(t, "route", "/api/v1/orders/{id}", ca[rxotel.KeyRoute].AsString())
	mustEqual(t, "class", "safe", ca[rxotel.KeyClass].AsString())
	mustEqual(t, "attempts", int64(3), ca[rxotel.KeyAttempts].AsInt64())
	mustEqual(t, "outcome", rxotel.OutcomeOK, ca[rxotel.KeyOutcome].AsString())
	mustEqual(t, "outcome known", true, ca[rxotel.KeyOutcomeKnown].AsBool())
	mustEqual(t, "status", int64(200), ca[rxotel.KeyStatus].AsInt64())
	mustEqual(t, "request id", "req-8f3a9c21", ca[rxotel.KeyRequestID].AsString())
	mustEqual(t, "call status", codes.Unset, call.Status().Code)

	wantStatus := []int64{503, 429, 200}
	for i, a := range spans[:3] {
		mustEqual(t, "attempt span name", "orders.Get /api/v1/orders/{id} attempt", a.Name())
		mustEqual(t, "parent", call.SpanContext().SpanID(), a.Parent().SpanID())
		mustEqual(t, "trace", call.SpanContext().TraceID(), a.SpanContext().TraceID())
		aa := attrs(a.Attributes())
		mustEqual(t, "attempt number", int64(i+1), aa[rxotel.KeyAttempt].AsInt64())
		mustEqual(t, "attempt status", wantStatus[i], aa[rxotel.KeyStatus].AsInt64())
	}
	mustEqual(t, "failed attempt is an error", codes.Error, spans[0].Status().Code)

	var names []string
	for _, e := range call.Events() {
		names = append(names, e.Name)
	}
	mustEqual(t, "events", "rxdelivery.wait rxdelivery.retry rxdelivery.wait rxdelivery.retry", strings.Join(names, " "))
	retry := attrs(call.Events()[1].Attributes)
	mustEqual(t, "retry's attempt", int64(2), retry[rxotel.KeyAttempt].AsInt64())
	mustEqual(t, "retry after status", int64(503), retry[rxotel.KeyStatus].AsInt64())
	if w := attrs(call.Events()[0].Attributes)[rxotel.KeyWait].AsFloat64(); w <= 0 {
		t.Errorf("wait event: %v seconds", w)
	}

	// Each attempt carried its own span's trace context.
	h.srv.mu.Lock()
	for i, tp := range h.srv.traceparent {
		want := fmt.Sprintf("00-%s-%s-01", spans[i].SpanContext().TraceID(), spans[i].SpanContext().SpanID())
		mustEqual(t, "traceparent", want, tp)
	}
	h.srv.mu.Unlock()

	rm := collect(t, h)
	mustEqual(t, "calls", int64(1), sum(rm, "rxdelivery.client.calls", nil))
	mustEqual(t, "attempts", int64(3), sum(rm, "rxdelivery.client.attempts", nil))
	mustEqual(t, "503 attempts", int64(1), sum(rm, "rxdelivery.client.attempts", map[attribute.Key]string{rxotel.KeyStatus: "503"}))
	mustEqual(t, "retries", int64(2), sum(rm, "rxdelivery.client.retries", nil))
	mustEqual(t, "unknown outcomes", int64(0), sum(rm, "rxdelivery.client.unknown_outcomes", nil))
	mustEqual(t, "latency samples", uint64(1), histCount(rm, "rxdelivery.client.call.duration"))
}

func TestSpanTreeOfAWriteWithAnUnknownOutcome(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.push(500)
	_, err := h.client.Orders.Create(context.Background(), sameday())
	if err == nil {
		t.Fatal("want an error")
	}
	spans := h.spans.Ended()
	if len(spans) != 2 {
		t.Fatalf("want 1 attempt span and 1 call span, got %d", len(spans))
	}
	attempt, call := spans[0], spans[1]
	mustEqual(t, "call span name", "orders.Create /api/v1/orders", call.Name())
	mustEqual(t, "parent", call.SpanContext().SpanID(), attempt.Parent().SpanID())
	ca := attrs(call.Attributes())
	mustEqual(t, "class", "write", ca[rxotel.KeyClass].AsString())
	mustEqual(t, "outcome", rxotel.OutcomeUnknown, ca[rxotel.KeyOutcome].AsString())
	mustEqual(t, "outcome known", false, ca[rxotel.KeyOutcomeKnown].AsBool())
	mustEqual(t, "error type", "unknown_outcome", ca[rxotel.KeyErrorType].AsString())
	mustEqual(t, "attempts", int64(1), ca[rxotel.KeyAttempts].AsInt64())
	mustEqual(t, "status", codes.Error, call.Status().Code)
	mustEqual(t, "status description", "unknown_outcome", call.Status().Description)
	mustEqual(t, "no retry", 0, len(call.Events()))

	rm := collect(t, h)
	mustEqual(t, "unknown outcomes", int64(1), sum(rm, "rxdelivery.client.unknown_outcomes",
		map[attribute.Key]string{rxotel.KeyOperation: "orders.Create"}))
	mustEqual(t, "calls unknown", int64(1), sum(rm, "rxdelivery.client.calls",
		map[attribute.Key]string{rxotel.KeyOutcome: rxotel.OutcomeUnknown, rxotel.KeyErrorType: "unknown_outcome"}))

	// A refused write has a known outcome and is typed by its sentinel.
	h.srv.push(404)
	if err := h.client.Orders.Cancel(context.Background(), "ord_1"); err == nil {
		t.Fatal("want an error")
	}
	spans = h.spans.Ended()
	ca = attrs(spans[len(spans)-1].Attributes())
	mustEqual(t, "outcome", rxotel.OutcomeFailed, ca[rxotel.KeyOutcome].AsString())
	mustEqual(t, "error type", "not_found", ca[rxotel.KeyErrorType].AsString())
}

// TestNothingSensitiveInTelemetry runs calls that carry patient data in
// their bodies, queries and paths, with retries, failures and an unknown
// outcome, and checks every span name, attribute, event, status, metric
// attribute and log line for each value sent and for the credentials.
func TestNothingSensitiveInTelemetry(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	h.srv.push(503)
	_, _ = h.client.Pharmacies.Search(ctx, &pharmacies.SearchParams{OriginAddress: "77 Sycamore Lane, Dayton, OH 45402"})
	h.srv.push(500)
	_, _ = h.client.Orders.Create(ctx, sameday())
	h.srv.push(429)
	_, _ = h.client.Requests.Create(ctx, omni())
	h.srv.push(502)
	_ = h.client.Orders.RemovePrescription(ctx, "ord_SECRETID", "RX-SECRET-4242")
	h.srv.push(400)
	_, _ = h.client.Orders.AddPrescription(ctx, "ord_SECRETID", &sameday().Prescriptions[0])

	seen := telemetry(t, h)
	creds := base64.URLEncoding.EncodeToString([]byte(key + ":" + secret))
	forbidden := []string{
		// query
		"Sycamore", "Dayton", "45402", "origin_address", "?",
		// bodies
		"Jane", "Roe", "6145550177", "1975", "Maple", "Columbus", "43215", "00002143380",
		"ext-ref-31", "1234567893",
		// path values
		"ord_SECRETID", "RX-SECRET-4242",
		// credentials
		key, secret, creds, "Basic",
	}
	for _, s := range seen {
		for _, f := range forbidden {
			if strings.Contains(s, f) {
				t.Errorf("telemetry carries %q: %q", f, s)
			}
		}
	}
	// Log lines show the path as error strings do: the platform's order id
	// stays, the prescription number is a placeholder.
	lines := strings.Split(strings.TrimSpace(h.logs.String()), "\n")
	if len(lines) < 10 {
		t.Fatalf("too few log lines to check: %d", len(lines))
	}
	for _, line := range lines {
		for _, f := range forbidden {
			if f != "ord_SECRETID" && f != "?" && strings.Contains(line, f) {
				t.Errorf("log line carries %q: %q", f, line)
			}
		}
	}
}

// TestEchoedPatientValuesStayOutOfTelemetry: a platform that repeats the
// request's patient values in its error messages, types, codes and ids, in
// other cases and layouts, and in its request id, puts none of them in a
// span, a metric or a log line.
func TestEchoedPatientValuesStayOutOfTelemetry(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.echo = true
	ctx := context.Background()
	for _, status := range []int{400, 422, 500} {
		h.srv.push(status)
		_, _ = h.client.Orders.Create(ctx, sameday())
		h.srv.push(status)
		_, _ = h.client.Requests.Create(ctx, omni())
		h.srv.push(status)
		_, _ = h.client.Orders.AddPrescription(ctx, "ord_1", &sameday().Prescriptions[0])
	}
	seen := append(telemetry(t, h), strings.Split(h.logs.String(), "\n")...)
	forbidden := []string{"jane", "roe", "614", "555", "0177", "6145550177", "1975", "maple", "columbus",
		"43215", "00002143380", "ext-ref-31", "1234567893"}
	for _, s := range seen {
		for _, f := range forbidden {
			if carries(s, f) {
				t.Errorf("telemetry carries %q: %q", f, s)
			}
		}
	}
}

func collect(t *testing.T, h *harness) metricdata.ResourceMetrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := h.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	return rm
}

func dataSets(d metricdata.Aggregation) []attribute.Set {
	var out []attribute.Set
	switch d := d.(type) {
	case metricdata.Sum[int64]:
		for _, p := range d.DataPoints {
			out = append(out, p.Attributes)
		}
	case metricdata.Histogram[float64]:
		for _, p := range d.DataPoints {
			out = append(out, p.Attributes)
		}
	}
	return out
}

// sum adds the points of the counter name whose attributes include want.
func sum(rm metricdata.ResourceMetrics, name string, want map[attribute.Key]string) int64 {
	var n int64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
		points:
			for _, p := range m.Data.(metricdata.Sum[int64]).DataPoints {
				for k, v := range want {
					if got, ok := p.Attributes.Value(k); !ok || got.Emit() != v {
						continue points
					}
				}
				n += p.Value
			}
		}
	}
	return n
}

func histCount(rm metricdata.ResourceMetrics, name string) uint64 {
	var n uint64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == name {
				for _, p := range m.Data.(metricdata.Histogram[float64]).DataPoints {
					n += p.Count
				}
			}
		}
	}
	return n
}

func sameday() *orders.CreateParams {
	addr := rxtypes.Address{Street: "12 Maple Street", City: "Columbus", State: "OH", Zipcode: "43215"}
	return &orders.CreateParams{
		ServiceLevel:            orders.ServiceLevelSameday,
		ExternalReferenceNumber: "ext-ref-31",
		Recipient:               orders.Recipient{Description: "Jane Roe", MobilePhoneNumber: "6145550177", Address: addr},
		Patient: orders.Patient{FirstName: "Jane", LastName: "Roe", MobilePhoneNumber: "6145550177",
			DateOfBirth: rxdelivery.Date{Year: 1975, Month: time.June, Day: 3}},
		Pharmacy:      orders.Pharmacy{NPI: "1234567893"},
		Prescriptions: []orders.Prescription{{Number: "RX-SECRET-4242", NDC: "00002143380"}},
	}
}

func omni() *requests.CreateParams {
	return &requests.CreateParams{
		Identifier: "program-1", ExternalReferenceNumber: "ext-ref-31", NDC: "00002143380",
		Pharmacy: requests.PharmacyParams{NCPDP: "5550001"},
		Dropoff: requests.DropoffParams{Name: "Jane Roe", PhoneNumber: "6145550177",
			Address: requests.NewDropoffAddress(requests.Address{Street1: "12 Maple Street", City: "Columbus", State: "OH", Zipcode: "43215"})},
		Patient: requests.PatientParams{FirstName: "Jane", LastName: "Roe", Gender: rxtypes.GenderFemale,
			DateOfBirth: rxdelivery.Date{Year: 1975, Month: time.June, Day: 3}},
	}
}

// dropTime removes the time of a log line, for tests that search lines
// for digits.
func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}
