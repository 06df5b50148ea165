package validate

import (
	"testing"
)

// checkRefusal fails when err is not one of known: every refusal is a fixed
// message, so none can carry the input.
func checkRefusal(t *testing.T, err error, known ...error) {
	t.Helper()
	for _, k := range known {
		if err == k {
			return
		}
	}
	t.Fatalf("unexpected error %q", err)
}

func FuzzNormalizeNDC(f *testing.F) {
	for _, tc := range ndcCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := NormalizeNDC(s)
		if err != nil {
			checkRefusal(t, err, errNDCChars, errNDCLength, errNDCSegments, errNDCAmbiguous)
			if got != "" {
				t.Fatalf("refusal came with output %q", got)
			}
			return
		}
		if !Digits(got, 11) {
			t.Fatalf("NormalizeNDC(%q) = %q, not 11 digits", s, got)
		}
		if again, err := NormalizeNDC(got); err != nil || again != got {
			t.Fatalf("NormalizeNDC(%q) = %q, %v; want it unchanged", got, again, err)
		}
		var c Collector
		c.NDC("ndc", got)
		if c.Len() != 0 {
			t.Fatalf("Collector.NDC refuses the output %q", got)
		}
	})
}

func FuzzNormalizePhone(f *testing.F) {
	for _, tc := range phoneCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := NormalizePhone(s)
		if err != nil {
			checkRefusal(t, err, errPhoneChars, errPhoneCountry, errPhoneLength, errPhoneLayout, errPhoneArea, errPhoneExchange)
			if got != "" {
				t.Fatalf("refusal came with output %q", got)
			}
			return
		}
		if !Digits(got, 10) {
			t.Fatalf("NormalizePhone(%q) = %q, not 10 digits", s, got)
		}
		if got[0] < '2' || got[3] < '2' {
			t.Fatalf("NormalizePhone(%q) = %q, outside the numbering plan", s, got)
		}
		if again, err := NormalizePhone(got); err != nil || again != got {
			t.Fatalf("NormalizePhone(%q) = %q, %v; want it unchanged", got, again, err)
		}
		var c Collector
		c.Phone("phone_number", got)
		if c.Len() != 0 {
			t.Fatalf("Collector.Phone refuses the output %q", got)
		}
	})
}
