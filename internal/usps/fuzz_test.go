package usps

import "testing"

func FuzzNormalizeZIP(f *testing.F) {
	for _, tc := range zipCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := NormalizeZIP(s)
		got5, err5 := ZIP5(s)
		if err != nil {
			if err != errZIP {
				t.Fatalf("unexpected error %q", err)
			}
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
	})
}
