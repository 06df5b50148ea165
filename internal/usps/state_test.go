package usps

import (
	"strings"
	"testing"
)

func TestIsState(t *testing.T) {
	t.Parallel()
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

func TestNormalizeState(t *testing.T) {
	t.Parallel()
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
