package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// TestTables prints orders and requests in the states the transcripts do
// not reach: an estimate with and without its type, a shipping order's
// carrier, a request's status with its detail and its order's courier, a
// cell holding a tab or a line break (shown escaped). Each row stays one
// line under the header, its cells in their columns, an empty cell shown
// as "-".
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
		`^ord_3 +shipped +rx\\t3\\nb +- +PARCELA +9400$`)

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

// TestPrintable: what the command prints of a value holds no control or
// format character and no byte that is not UTF-8, each shown by its
// escape; text of any script is kept as is.
func TestPrintable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"rx-2026-0001", "rx-2026-0001"},
		{"", ""},
		{"\x1b[2J\x1b[Hrx-1", `\x1b[2J\x1b[Hrx-1`},
		{"a\tb\nc\rd", `a\tb\nc\rd`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{"c1\u009b31m", `c1\u009b31m`},
		{"rx-\u202e1000", `rx-\u202e1000`},
		{"zero\u200bwidth", `zero\u200bwidth`},
		{"line\u2028sep", `line\u2028sep`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"山田 太郎", "山田 太郎"},
		{"José Müller", "José Müller"},
		{"Jose\u0301", "Jose\u0301"},
		{`back\slash`, `back\slash`},
	} {
		if got := printable(tc.in); got != tc.want {
			t.Errorf("printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTableEscapesEveryCell: a cell holding an escape sequence, in any
// column of any table (a reference, a platform's status text, a journal's
// note), is printed escaped: the output holds no ESC byte.
func TestTableEscapesEveryCell(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	orderTable.print(&b, []orders.Order{{ID: "ord_1\x1b[2J", Status: "new\x1b[31m", ExternalReferenceNumber: "rx\x1b]0;owned\x07"}})
	requestTable.print(&b, []requests.Request{{ID: "req_1", Status: &requests.Status{Name: "request_received", Detail: "x\x1b[H"}}})
	subscriptionTable.print(&b, []tracking.Subscription{{TrackingNumber: "9400", StatusReason: "bad\x1b[2Jreason", ReferenceID: "\u202eref"}})
	table(&b, "NOTE", [][]string{{"Leave\x1b[2J with neighbour"}})
	out := b.String()
	if strings.ContainsAny(out, "\x1b\x07\u202e") {
		t.Errorf("a table printed a control character:\n%q", out)
	}
	for _, want := range []string{`ord_1\x1b[2J`, `new\x1b[31m`, `rx\x1b]0;owned\a`, `(x\x1b[H)`, `bad\x1b[2Jreason`, `\u202eref`, `Leave\x1b[2J with neighbour`} {
		if !strings.Contains(out, want) {
			t.Errorf("tables do not show %s:\n%s", want, out)
		}
	}
}

// TestTableWidth: columns line up by the width a terminal gives a cell:
// a CJK or fullwidth character takes two columns, a combining mark none.
// Each column below starts at the same terminal column on every line.
func TestTableWidth(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	table(&b, "NAME\tCITY\tSTATE", [][]string{
		{"東京薬局", "新宿", "TK"},
		{"Jose\u0301 Pharmacy", "Columbus", "OH"},
		{"ＡＢＣ", "Boston", "MA"},
		{"Plain", "Springfield", "IL"},
	})
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	var starts [][]int
	for _, l := range lines {
		// The terminal column where each cell begins: after a run of two
		// spaces or more.
		var cols []int
		col, spaces := 0, 0
		for _, r := range l {
			if r == ' ' {
				spaces++
			} else {
				if spaces >= 2 {
					cols = append(cols, col)
				}
				spaces = 0
			}
			col += termWidth(r)
		}
		starts = append(starts, cols)
	}
	for i, s := range starts {
		if fmt.Sprint(s) != fmt.Sprint(starts[0]) {
			t.Errorf("line %d: columns start at %v, header's at %v:\n%s", i+1, s, starts[0], b.String())
		}
	}
	if got := displayWidth("東京ＡＢＣ e\u0301"); got != 12 {
		t.Errorf("displayWidth = %d, want 12", got)
	}
}

// termWidth is the columns a terminal gives r, for the tests to measure the
// tables by: 2 for the wide and fullwidth characters of the test's cells,
// 0 for a combining acute accent.
func termWidth(r rune) int {
	switch {
	case r == '\u0301':
		return 0
	case r >= 0x3000 && r <= 0x9fff, r >= 0xff01 && r <= 0xff60:
		return 2
	}
	return 1
}

// TestPrintersEscape: the command's other printers escape what they
// print of a value: an error's message and a validation problem's path
// (root), a write's line of text (done), a watch's line (watched), a
// received notification (listen). None prints an ESC byte.
func TestPrintersEscape(t *testing.T) {
	t.Parallel()
	const esc = "\x1b[2J"
	var out, errOut bytes.Buffer
	a := &app{stdout: &out, stderr: &errOut}
	a.printError(errors.New("the platform said "+esc), exitFailure)
	a.printError(&rxdelivery.ValidationError{Problems: []rxtypes.Problem{{Path: "recipient." + esc, Message: "unknown field"}}}, exitInvalid)
	a.next = "runbook: rxdelivery journal resolve delivery 'rx" + esc + "' ORDER_ID\n"
	a.printError(&rxdelivery.APIError{StatusCode: 500, Method: "POST", UnknownOutcome: true, Message: esc}, exitUnknownOutcome)
	if err := a.done(nil, "%s %s cancelled\n", "order", "ord_1"+esc); err != nil {
		t.Fatal(err)
	}
	a.printNotification(&tracking.Notification{TrackingNumber: "9400" + esc, Carrier: "POSTAL", Status: tracking.TrackingStatus("delivered" + esc),
		StatusText: "Left at door" + esc, ReferenceID: "ref" + esc})
	id, status := orderKind.watched(&orders.Order{ID: "ord_1" + esc, Status: "new" + esc})
	rid, rstatus := requestKind.watched(&requests.Request{ID: "req_1" + esc, Status: &requests.Status{Name: "request_received", Detail: esc}})
	all := out.String() + errOut.String() + id + status + rid + rstatus
	if strings.Contains(all, "\x1b") {
		t.Errorf("an ESC byte was printed:\n%q", all)
	}
	if n := strings.Count(all, `\x1b[2J`); n != 13 {
		t.Errorf("%d escaped sequences shown, want 13:\n%s", n, all)
	}
}

// TestPrintableJSON: --json output holds no character a terminal acts on
// (DEL, C1, format characters, which encoding/json leaves raw), and
// decodes to the same values.
func TestPrintableJSON(t *testing.T) {
	t.Parallel()
	in := map[string]string{"status_text": "a\x7fb\u009b31m\u202ec\U000E0001d", "plain": "東京 José"}
	b, err := json.MarshalIndent(in, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got := printableJSON(b)
	if bytes.IndexFunc(got, escapedInJSON) >= 0 {
		t.Errorf("printableJSON left a control or format character: %q", got)
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatalf("not JSON: %v: %s", err, got)
	}
	if back["status_text"] != in["status_text"] || back["plain"] != in["plain"] {
		t.Errorf("decoded %q, want %q", back, in)
	}
	if !bytes.Contains(got, []byte(`a\u007fb\u009b31m\u202ec\udb40\udc01d`)) || !bytes.Contains(got, []byte("東京 José")) {
		t.Errorf("printableJSON = %s", got)
	}
	var out bytes.Buffer
	a := &app{stdout: &out}
	if err := a.printJSON(in); err != nil {
		t.Fatal(err)
	}
	if err := a.printJSONLine(in); err != nil {
		t.Fatal(err)
	}
	if bytes.IndexFunc(out.Bytes(), func(r rune) bool { return r != '\n' && escaped(r) }) >= 0 {
		t.Errorf("--json printed a control or format character: %q", out.String())
	}
}

// TestPrintableLines: text passed on whole (the --dump - transcript) keeps
// its lines and has every other control character escaped.
func TestPrintableLines(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	in := "< 502 Bad Gateway\n<\n< <html>\x1b[2J\r\x9b</html>\n"
	n, err := printableLines{&b}.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if want := "< 502 Bad Gateway\n<\n< <html>\\x1b[2J\\r\\x9b</html>\n"; b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
}
