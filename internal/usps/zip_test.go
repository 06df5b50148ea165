package usps

import (
	"strings"
	"testing"
)

const msgZIP = "must be a ZIP code of 5 digits or a ZIP+4 of 9 digits, with an optional hyphen after the fifth digit"

// zipCases are the inputs of NormalizeZIP and ZIP5 with their results or
// the exact refusal. The fuzz test seeds from them.
var zipCases = []struct {
	in, want, want5, err string
}{
	{in: "43210", want: "43210", want5: "43210"},
	{in: "43210-1234", want: "432101234", want5: "43210"},
	{in: "432101234", want: "432101234", want5: "43210"},
	{in: " 43210 ", want: "43210", want5: "43210"},
	{in: "\t43210-1234\n", want: "432101234", want5: "43210"},
	{in: "00501", want: "00501", want5: "00501"},

	{in: "", err: msgZIP},
	{in: "  ", err: msgZIP},
	{in: "4321", err: msgZIP},
	{in: "432100", err: msgZIP},
	{in: "4321012345", err: msgZIP},
	{in: "43210-", err: msgZIP},
	{in: "43210-123", err: msgZIP},
	{in: "43210-12345", err: msgZIP},
	{in: "4321-01234", err: msgZIP},
	{in: "43210 1234", err: msgZIP},
	{in: "43210--1234", err: msgZIP},
	{in: "43210-123a", err: msgZIP},
	{in: "4321a", err: msgZIP},
	{in: "K1A 0B1", err: msgZIP},
	{in: "OH 43210", err: msgZIP},
	{in: "４３２１０", err: msgZIP},
}

func TestNormalizeZIP(t *testing.T) {
	t.Parallel()
	for _, tc := range zipCases {
		got, err := NormalizeZIP(tc.in)
		got5, err5 := ZIP5(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err || got != "" {
				t.Errorf("NormalizeZIP(%q) = %q, %v; want error %q", tc.in, got, err, tc.err)
			} else {
				assertNotQuoted(t, err.Error(), tc.in)
			}
			if err5 == nil || err5.Error() != tc.err || got5 != "" {
				t.Errorf("ZIP5(%q) = %q, %v; want error %q", tc.in, got5, err5, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("NormalizeZIP(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
		if err5 != nil || got5 != tc.want5 {
			t.Errorf("ZIP5(%q) = %q, %v; want %q", tc.in, got5, err5, tc.want5)
		}
	}
}

func TestWireZIP(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"43210-1234": "432101234", " 43210 ": "43210", "43210": "43210", "4321": "4321", "": ""} {
		if got := WireZIP(in); got != want {
			t.Errorf("WireZIP(%q) = %q, want %q", in, got, want)
		}
	}
}

// assertNotQuoted fails when msg quotes in (at least four characters of
// it): a refusal never repeats the address it refuses.
func assertNotQuoted(t *testing.T, msg, in string) {
	t.Helper()
	in = strings.TrimSpace(in)
	if len(in) >= 4 && strings.Contains(msg, in) {
		t.Errorf("message %q quotes the input %q", msg, in)
	}
}
