package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// TestTables prints orders and requests in the states the transcripts do
// not reach: an estimate with and without its type, a shipping order's
// carrier, a request's status with its detail and its order's courier, a
// cell holding a tab or a line break. Each row stays one line under the
// header, its cells in their columns, an empty cell shown as "-".
func TestTables(t *testing.T) {
	t.Parallel()
	at := rxtypes.NewTime(time.Date(2026, 3, 2, 14, 30, 0, 0, time.FixedZone("EST", -5*3600)))
	var b bytes.Buffer
	orderTable.print(&b, []orders.Order{
		{ID: "ord_1", Status: "in_transit", ExternalReferenceNumber: "rx-1", ETA: &orders.ETA{Type: "delivery", ArrivalAt: at}},
		{ID: "ord_2", Status: "new", ETA: &orders.ETA{ArrivalAt: at}},
		{ID: "ord_4", Status: "new", ETA: &orders.ETA{ArrivalAt: rxtypes.Time{Raw: "tomorrow 2pm"}}},
		{ID: "ord_3", Status: "shipped", ExternalReferenceNumber: "rx\t3\nb", Shipping: &orders.Shipping{TrackingNumber: "9400", Carrier: "PARCELA"}},
	})
	wantLines(t, b.String(),
		`^ID +STATUS +REFERENCE +ETA +CARRIER +TRACKING NUMBER$`,
		`^ord_1 +in_transit +rx-1 +delivery 2026-03-02T19:30:00Z +- +-$`,
		`^ord_2 +new +- +2026-03-02T19:30:00Z +- +-$`,
		`^ord_4 +new +- +tomorrow 2pm +- +-$`,
		`^ord_3 +shipped +rx 3 b +- +PARCELA +9400$`)

	b.Reset()
	requestTable.print(&b, []requests.Request{
		{ID: "req_1", ExternalReferenceNumber: "req-1", Status: &requests.Status{Name: "request_incomplete", Detail: "no_courier"},
			Order: &requests.Order{ID: "ord_9", Status: "cancelled", CourierCompany: "Quick Couriers"}, DeliveryETA: requests.ETA{Raw: "2026-03-02 14:00-16:00"}},
		{ID: "req_2", Status: &requests.Status{Name: "request_received"}},
	})
	wantLines(t, b.String(),
		`^ID +REFERENCE +STATUS +ORDER +ORDER STATUS +COURIER +DELIVERY ETA$`,
		`^req_1 +req-1 +request_incomplete \(no_courier\) +ord_9 +cancelled +Quick Couriers +2026-03-02 14:00-16:00$`,
		`^req_2 +- +request_received +- +- +- +-$`)
}

// wantLines checks that out has one line per pattern, each matching its
// pattern, in order.
func wantLines(t *testing.T, out string, patterns ...string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(patterns) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(patterns), out)
	}
	for i, p := range patterns {
		if !regexp.MustCompile(p).MatchString(lines[i]) {
			t.Errorf("line %d = %q, want %s", i+1, lines[i], p)
		}
	}
}
