package validate

import (
	"slices"
	"testing"
)

const (
	msgPhoneChars    = "must be a US phone number of digits, spaces, hyphens, dots, parentheses and a leading +1; letters and extensions are not accepted"
	msgPhoneCountry  = "must be a US phone number; a country code other than +1 is not accepted"
	msgPhoneLength   = "must be 10 digits (a US phone number), optionally after the country code 1"
	msgPhoneLayout   = "must be 10 digits written together or grouped 3-3-4 (area code optionally in parentheses), optionally after +1"
	msgPhoneArea     = "must have an area code that does not begin with 0 or 1"
	msgPhoneExchange = "must have an exchange code (digits 4 to 6) that does not begin with 0 or 1"
)

// phoneCases are the inputs of NormalizePhone with the result or the exact
// refusal. The fuzz test seeds from them.
var phoneCases = []struct {
	in, want, err string
}{
	{in: "(614) 555-0100", want: "6145550100"},
	{in: "(614)555-0100", want: "6145550100"},
	{in: "(614)-555-0100", want: "6145550100"},
	{in: "614.555.0100", want: "6145550100"},
	{in: "614-555-0100", want: "6145550100"},
	{in: "614 555 0100", want: "6145550100"},
	{in: "614 555-0100", want: "6145550100"},
	{in: "+1 614 555 0100", want: "6145550100"},
	{in: "+1 (614) 555-0100", want: "6145550100"},
	{in: "+1(614)555-0100", want: "6145550100"},
	{in: "+1-614-555-0100", want: "6145550100"},
	{in: "+16145550100", want: "6145550100"},
	{in: "+1 6145550100", want: "6145550100"},
	{in: "1-614-555-0100", want: "6145550100"},
	{in: "1 (614) 555-0100", want: "6145550100"},
	{in: "1.614.555.0100", want: "6145550100"},
	{in: "16145550100", want: "6145550100"},
	{in: "6145550100", want: "6145550100"},
	{in: "  614-555-0100\n", want: "6145550100"},
	{in: "2125550199", want: "2125550199"},
	{in: "9999999999", want: "9999999999"},

	// Letters, extensions and other characters.
	{in: "614-555-0100 x123", err: msgPhoneChars},
	{in: "614-555-0100 ext. 12", err: msgPhoneChars},
	{in: "614-555-0100#12", err: msgPhoneChars},
	{in: "1-800-FLOWERS", err: msgPhoneChars},
	{in: "614/555/0100", err: msgPhoneChars},
	{in: "614_555_0100", err: msgPhoneChars},
	{in: "614+555+0100", err: msgPhoneChars},
	{in: "++16145550100", err: msgPhoneChars},
	{in: "614\u2013555\u20130100", err: msgPhoneChars},
	{in: "６１４５５５０１００", err: msgPhoneChars},

	// Country codes other than 1.
	{in: "+44 20 7946 0958", err: msgPhoneCountry},
	{in: "+6145550100", err: msgPhoneCountry},
	{in: "+", err: msgPhoneCountry},
	{in: "+ ", err: msgPhoneCountry},

	// Wrong digit counts.
	{in: "", err: msgPhoneLength},
	{in: "   ", err: msgPhoneLength},
	{in: "555-0100", err: msgPhoneLength},
	{in: "614555010", err: msgPhoneLength},
	{in: "61455501000", err: msgPhoneLength},
	{in: "26145550100", err: msgPhoneLength},
	{in: "+1 614 555 01000", err: msgPhoneLength},
	{in: "+1 614 555 010", err: msgPhoneLength},
	{in: "011 44 20 7946 0958", err: msgPhoneLength},
	{in: "()", err: msgPhoneLength},

	// Ten digits in other groupings or with stray separators.
	{in: "61-45-550100", err: msgPhoneLayout},
	{in: "614 5550100", err: msgPhoneLayout},
	{in: "614555-0100", err: msgPhoneLayout},
	{in: "6145-55-0100", err: msgPhoneLayout},
	{in: "614--555-0100", err: msgPhoneLayout},
	{in: "614 - 555 - 0100", err: msgPhoneLayout},
	{in: "614-555-0100-", err: msgPhoneLayout},
	{in: "-614-555-0100", err: msgPhoneLayout},
	{in: "(6145550100", err: msgPhoneLayout},
	{in: "6145550100)", err: msgPhoneLayout},
	{in: "(614 555-0100", err: msgPhoneLayout},
	{in: "614) 555-0100", err: msgPhoneLayout},
	{in: "(614) (555) 0100", err: msgPhoneLayout},
	{in: "(614)) 555-0100", err: msgPhoneLayout},
	{in: "(614) 555 0100)", err: msgPhoneLayout},
	{in: "( 614) 555-0100", err: msgPhoneLayout},
	{in: "(614)555 (0100", err: msgPhoneLayout},
	{in: "1614-555-0100", err: msgPhoneLayout},
	{in: "+1614-555-0100", err: msgPhoneLayout},
	{in: "(16145550100", err: msgPhoneLayout},
	{in: "(1) 614 555 0100", err: msgPhoneLayout},
	{in: "+ 1 614 555 0100", err: msgPhoneLayout},
	{in: "+1  614 555 0100", err: msgPhoneLayout},
	{in: "+1 614 555 0100 ", want: "6145550100"},
	{in: "1 (614 555-0100", err: msgPhoneLayout},
	{in: "1 614) 555-0100", err: msgPhoneLayout},
	{in: "1 (6145550100", err: msgPhoneLayout},
	{in: "1-614-555-0100.", err: msgPhoneLayout},
	{in: "1 614 5550100", err: msgPhoneLayout},
	{in: "1--6145550100", err: msgPhoneLayout},

	// Numbers the numbering plan does not assign.
	{in: "(014) 555-0100", err: msgPhoneArea},
	{in: "114-555-0100", err: msgPhoneArea},
	{in: "+1 014 555 0100", err: msgPhoneArea},
	{in: "1234567890", err: msgPhoneArea},
	{in: "614-055-0100", err: msgPhoneExchange},
	{in: "6141550100", err: msgPhoneExchange},
	{in: "1-614-155-0100", err: msgPhoneExchange},
}

func TestNormalizePhone(t *testing.T) {
	t.Parallel()
	for _, tc := range phoneCases {
		got, err := NormalizePhone(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err || got != "" {
				t.Errorf("NormalizePhone(%q) = %q, %v; want error %q", tc.in, got, err, tc.err)
				continue
			}
			assertNotQuoted(t, err.Error(), tc.in)
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("NormalizePhone(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestCollectorPhone(t *testing.T) {
	t.Parallel()
	const hint = "must be 10 digits without separators or country code; NormalizePhone converts this form"
	cases := []collectorCase{
		{in: "6145550100"},
		// The documents ask for exactly 10 digits; the numbering-plan
		// rules belong to NormalizePhone only.
		{in: "1234567890"},
		{in: "(614) 555-0100", want: hint},
		{in: "+1 614 555 0100", want: hint},
		{in: "16145550100", want: hint},
		{in: " 6145550100", want: hint},
		{in: "614555010", want: "must be 10 digits"},
		{in: "614-555-0100 x12", want: "must be 10 digits"},
		{in: "123-456-7890", want: "must be 10 digits"},
	}
	runCollector(t, Options{}, (*Collector).Phone, slices.Concat(cases, []collectorCase{
		{in: "", want: "is required"},
		{in: "  ", want: "is required"},
	}))
	runCollector(t, Options{}, (*Collector).OptionalPhone, slices.Concat(cases, []collectorCase{
		{in: ""},
		{in: "  ", want: "must be 10 digits"},
	}))
}
