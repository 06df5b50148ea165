package validate

import (
	"strings"
	"testing"
)

func TestIsState(t *testing.T) {
	fifty := strings.Fields(`AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD
		MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT
		VA WA WV WI WY`)
	if len(fifty) != 50 {
		t.Fatalf("test lists %d states", len(fifty))
	}
	others := []string{"DC", "AS", "GU", "MP", "PR", "VI", "UM", "FM", "MH", "PW", "AA", "AE", "AP"}
	all := append(fifty, others...)
	for _, s := range all {
		if !IsState(s) {
			t.Errorf("IsState(%q) = false", s)
		}
	}
	if len(states) != len(all) {
		t.Errorf("IsState accepts %d codes, want %d", len(states), len(all))
	}
	for _, s := range []string{"", "O", "OHIO", "XX", "CZ", "CM", "PI", "TT", "oh", "Oh", "oH", " OH", "OH ", "O H", "ıd"} {
		if IsState(s) {
			t.Errorf("IsState(%q) = true", s)
		}
	}
}

func TestCollectorState(t *testing.T) {
	runCollector(t, Options{}, (*Collector).State, []collectorCase{
		{in: "OH"},
		{in: "PR"},
		{in: "", want: "is required"},
		{in: "  ", want: "is required"},
		{in: "oh"},   // sent as OH
		{in: " Pr "}, // sent as PR
		{in: "Ohio", want: "must be a two-letter USPS state, territory or military code"},
		{in: "XX", want: "must be a two-letter USPS state, territory or military code"},
	})
}

func TestNormalizeState(t *testing.T) {
	for in, want := range map[string]string{"oh": "OH", " Oh ": "OH", "OH": "OH", "dc": "DC", "ap": "AP"} {
		got, err := NormalizeState(in)
		if err != nil || got != want {
			t.Errorf("NormalizeState(%q) = %q, %v; want %q", in, got, err, want)
		}
		if w := WireState(in); w != want {
			t.Errorf("WireState(%q) = %q, want %q", in, w, want)
		}
	}
	for _, in := range []string{"", "Ohio", "xx", "O", "ıd", "o h"} {
		if got, err := NormalizeState(in); err == nil || got != "" {
			t.Errorf("NormalizeState(%q) = %q, %v; want a refusal", in, got, err)
		}
		if w := WireState(in); w != in {
			t.Errorf("WireState(%q) = %q, want it as given", in, w)
		}
	}
}

// TestCollectorKeepsEveryProblem checks the checks together on one
// Collector: each problem is recorded at its own path, in call order.
func TestCollectorKeepsEveryProblem(t *testing.T) {
	var c Collector
	c.NDC("prescriptions[0].ndc", "1234-5678-90")
	c.NPI("pharmacy.npi", "12345")
	c.NCPDP("pharmacy.ncpdp", "1234567")
	c.Phone("recipient.mobile_phone_number", "")
	c.OptionalPhone("recipient.home_phone_number", "")
	c.ZIP("recipient.address.zipcode", "43210-12")
	c.State("recipient.address.state", "Ohio")
	err := c.Err()
	want := "rxdelivery: invalid params: " +
		"prescriptions[0].ndc: must be 11 digits without hyphens; NormalizeNDC converts this form; " +
		"pharmacy.npi: must be 10 digits; " +
		"recipient.mobile_phone_number: is required; " +
		"recipient.address.zipcode: must be 5 or 9 digits; " +
		"recipient.address.state: must be a two-letter USPS state, territory or military code"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
