package fields

import "testing"

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
