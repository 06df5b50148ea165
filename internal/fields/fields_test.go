package fields

import (
	"strings"
	"testing"
)

// TestKinds: the decisions the documents make per parent, the strictest
// kind for a shared name, and Patient for a name the table does not hold.
func TestKinds(t *testing.T) {
	t.Parallel()
	cases := []struct {
		parent, key string
		want        Kind
	}{
		{"", "id", ID}, {"error", "id", ID}, {"orders", "status", Enum},
		{"", "name", Patient}, {"status", "name", Enum}, {"pharmacies", "name", Patient},
		{"", "detail", Patient}, {"status", "detail", Enum},
		{"recipient_identification", "type", Patient}, {"eta", "type", Enum}, {"error", "type", Enum},
		{"", "code", Patient}, {"error", "code", Enum}, {"error", "message", Message},
		{"address", "state", Patient}, {"", "tracking_number", Patient}, {"", "number", Patient},
		{"", "gender", Patient}, {"delivery", "relationship", Patient}, {"", "cancelled_by", Patient},
		{"weight", "value", Count}, {"", "value", Patient}, {"", "refrigeration", Enum},
		{"", "created_at", Time}, {"", "date_of_birth", Patient}, {"", "no_such_field", Patient},
	}
	for _, c := range cases {
		if got := OfIn(c.parent, c.key); got != c.want {
			t.Errorf("OfIn(%q, %q) = %v, want %v", c.parent, c.key, got, c.want)
		}
	}
	if Safe("type") || Safe("message") || Safe("order") || !Safe("status") || Known("no_such_field") || !Known("POD") {
		t.Error("Safe or Known")
	}
	for _, n := range Names() {
		if !Known(n) || len(n) == 0 {
			t.Errorf("Names: %q", n)
		}
	}
}

// TestDocumented: values made of the documents' enum words are, names,
// numbers, addresses and sentences of other words are not.
func TestDocumented(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"new", "submitted to courier", "SUBMITTED_TO_COURIER", "PARCELB Priority Overnight",
		"Wait Time Exceeded at Pickup", "06", "unable_to_cancel", "rate_limit_exceeded", "ground_service", "out_for_delivery"} {
		if !Documented(v) {
			t.Errorf("Documented(%q) = false", v)
		}
	}
	for _, v := range []string{"", "Dubois", "Marguerite Dubois", "new 1937", "43210", "42 Elm Avenue", "D1234567",
		"delivered to Jane", "https://x.test", "Acme Courier", "new" + string(make([]byte, 64))} {
		if Documented(v) {
			t.Errorf("Documented(%q) = true", v)
		}
	}
}

// strictness orders the kinds as the documents' decisions are merged:
// patient data, then a message, then an object, then the safe kinds.
func strictness(k Kind) int {
	switch k {
	case Patient:
		return 0
	case Message:
		return 1
	case Object:
		return 2
	}
	return 3
}

// TestTableKeepsTheDocuments checks the hand-written table against the
// decisions the documents in api/ make (documented, generated from each
// property's x-rxdelivery-privacy): a name both hold is stricter in the
// table (a name the SDK or the simulator also uses elsewhere), never
// looser nor a repeat. A field the documents add needs no line in
// table.go: its decision is the document's.
func TestTableKeepsTheDocuments(t *testing.T) {
	t.Parallel()
	if len(documented) < 100 {
		t.Fatalf("the documents decide %d names: documents_gen.go lost its way", len(documented))
	}
	for name, doc := range documented {
		tab, ok := table[name]
		if !ok {
			continue
		}
		switch {
		case strictness(tab) > strictness(doc):
			t.Errorf("%q: the documents say %v, table.go %v, which is looser", name, doc, tab)
		case strictness(tab) == strictness(doc):
			t.Errorf("%q: the documents say %v, table.go %v: the document's decision is the one, remove the line", name, doc, tab)
		}
	}
	for q, k := range qualified {
		_, name, _ := strings.Cut(q, ".")
		if d, ok := documented[name]; ok && strictness(d) == 3 && d != k {
			t.Errorf("%q: the documents say %v of %q, the qualified entry %v", q, d, name, k)
		}
	}
}
