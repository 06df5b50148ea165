package validate

import "testing"

// npiCheckDigitCases were each verified by hand: the Luhn sum of "80840"
// followed by the 10 digits must be a multiple of 10.
var npiCheckDigitCases = []struct {
	in   string
	want bool
}{
	{"1245319599", true},
	{"1003000126", true},
	{"1003000118", true},
	{"1234567893", true},
	{"1234567890", false}, // a common placeholder: right length, wrong check digit
	{"1245319598", false},
	{"1003000127", false},
	{"0000000000", false},
	{"", false},
	{"124531959", false},
	{"12453195999", false},
	{"124531959a", false},
	{" 1245319599", false},
}

func TestNPICheckDigitValid(t *testing.T) {
	t.Parallel()
	for _, tc := range npiCheckDigitCases {
		if got := NPICheckDigitValid(tc.in); got != tc.want {
			t.Errorf("NPICheckDigitValid(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestNPICheckDigitOneValid checks that, for any 9 leading digits, exactly
// one tenth digit passes: a single mistyped check digit is always caught.
func TestNPICheckDigitOneValid(t *testing.T) {
	t.Parallel()
	for _, base := range []string{"123456789", "124531959", "100300012", "999999999", "000000000"} {
		n := 0
		for d := '0'; d <= '9'; d++ {
			if NPICheckDigitValid(base + string(d)) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: %d valid check digits, want 1", base, n)
		}
	}
}

func TestCheckNPI(t *testing.T) {
	t.Parallel()
	const length = "must be 10 digits"
	const check = "must be 10 digits ending in a valid check digit (Luhn over the prefix 80840 and the first 9 digits)"
	cases := []struct {
		in              string
		plain, withLuhn string
	}{
		{"1245319599", "", ""},
		{"1234567890", "", check},
		{"", length, length},
		{"123456789", length, length},
		{"12345678901", length, length},
		{"12345-67890", length, length},
		{" 1245319599", length, length},
		{"12453195a9", length, length},
	}
	for _, tc := range cases {
		for _, f := range []struct {
			name  string
			check func(string) error
			want  string
		}{
			{"CheckNPI", CheckNPI, tc.plain},
			{"CheckNPIWithCheckDigit", CheckNPIWithCheckDigit, tc.withLuhn},
		} {
			err := f.check(tc.in)
			switch {
			case f.want == "" && err != nil:
				t.Errorf("%s(%q) = %v, want nil", f.name, tc.in, err)
			case f.want != "" && (err == nil || err.Error() != f.want):
				t.Errorf("%s(%q) = %v, want %q", f.name, tc.in, err, f.want)
			case err != nil:
				assertNotQuoted(t, err.Error(), tc.in)
			}
		}
	}
}

func TestCheckNCPDP(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, err string }{
		{"1234567", ""},
		{"0000000", ""},
		{"", "must be 7 digits"},
		{"123456", "must be 7 digits"},
		{"12345678", "must be 7 digits"},
		{"123456a", "must be 7 digits"},
		{" 1234567", "must be 7 digits"},
		{"123-4567", "must be 7 digits"},
	}
	for _, tc := range cases {
		err := CheckNCPDP(tc.in)
		if tc.err == "" {
			if err != nil {
				t.Errorf("CheckNCPDP(%q) = %v, want nil", tc.in, err)
			}
			continue
		}
		if err == nil || err.Error() != tc.err {
			t.Errorf("CheckNCPDP(%q) = %v, want %q", tc.in, err, tc.err)
			continue
		}
		assertNotQuoted(t, err.Error(), tc.in)
	}
}

func TestCollectorNPI(t *testing.T) {
	t.Parallel()
	runCollector(t, Options{}, (*Collector).NPI, []collectorCase{
		{in: "1245319599"},
		{in: "1234567890"},
		{in: "", want: "is required"},
		{in: " ", want: "is required"},
		{in: "124531959", want: "must be 10 digits"},
		{in: "12453-19599", want: "must be 10 digits"},
	})
	runCollector(t, Options{NPICheckDigit: true}, (*Collector).NPI, []collectorCase{
		{in: "1245319599"},
		{in: "1003000126"},
		{in: "", want: "is required"},
		{in: "1234567890", want: "must be 10 digits ending in a valid check digit (Luhn over the prefix 80840 and the first 9 digits)"},
		{in: "124531959", want: "must be 10 digits"},
	})
}

func TestCollectorNCPDP(t *testing.T) {
	t.Parallel()
	runCollector(t, Options{}, (*Collector).NCPDP, []collectorCase{
		{in: "1234567"},
		{in: "", want: "is required"},
		{in: "\t", want: "is required"},
		{in: "123456", want: "must be 7 digits"},
		{in: "12345678", want: "must be 7 digits"},
	})
}
