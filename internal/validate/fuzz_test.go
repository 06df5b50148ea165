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

func FuzzNormalizeZIP(f *testing.F) {
	for _, tc := range zipCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := NormalizeZIP(s)
		got5, err5 := ZIP5(s)
		if err != nil {
			checkRefusal(t, err, errZIP)
			if got != "" || err5 == nil || got5 != "" {
				t.Fatalf("NormalizeZIP refused with output %q; ZIP5 gave %q, %v", got, got5, err5)
			}
			return
		}
		if !Digits(got, 5) && !Digits(got, 9) {
			t.Fatalf("NormalizeZIP(%q) = %q, not 5 or 9 digits", s, got)
		}
		if again, err := NormalizeZIP(got); err != nil || again != got {
			t.Fatalf("NormalizeZIP(%q) = %q, %v; want it unchanged", got, again, err)
		}
		if err5 != nil || got5 != got[:5] {
			t.Fatalf("ZIP5(%q) = %q, %v; want %q", s, got5, err5, got[:5])
		}
		if again, err := ZIP5(got5); err != nil || again != got5 {
			t.Fatalf("ZIP5(%q) = %q, %v; want it unchanged", got5, again, err)
		}
		var c Collector
		c.ZIP("zipcode", got)
		if c.Len() != 0 {
			t.Fatalf("Collector.ZIP refuses the output %q", got)
		}
	})
}
