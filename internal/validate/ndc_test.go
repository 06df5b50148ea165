package validate

import (
	"strings"
	"testing"
)

// ndcCases are the inputs of NormalizeNDC with the result or the exact
// refusal. The fuzz test seeds from them.
var ndcCases = []struct {
	in, want, err string
}{
	// 11 digits, with or without hyphens.
	{in: "12345678901", want: "12345678901"},
	{in: "12345-6789-01", want: "12345678901"},
	{in: "  12345-6789-01\t", want: "12345678901"},
	{in: " 00002322730 ", want: "00002322730"},
	// 10-digit hyphenated forms, padded in the short segment.
	{in: "1234-5678-90", want: "01234567890"},
	{in: "12345-678-90", want: "12345067890"},
	{in: "12345-6789-0", want: "12345678900"},
	{in: "0002-3227-30", want: "00002322730"},
	{in: "50090-347-01", want: "50090034701"},
	// Unhyphenated 10 digits: ambiguous.
	{in: "1234567890", err: "must be 11 digits (5-4-2); 10 digits without hyphens are ambiguous (the code could be 4-4-2, 5-3-2 or 5-4-1), so write it with hyphens"},
	{in: " 1234567890 ", err: "must be 11 digits (5-4-2); 10 digits without hyphens are ambiguous (the code could be 4-4-2, 5-3-2 or 5-4-1), so write it with hyphens"},
	// Wrong digit counts.
	{in: "", err: "must be 11 digits (5-4-2), or 10 digits hyphenated 4-4-2, 5-3-2 or 5-4-1"},
	{in: "   ", err: "must be 11 digits (5-4-2), or 10 digits hyphenated 4-4-2, 5-3-2 or 5-4-1"},
	{in: "123456789", err: "must be 11 digits (5-4-2), or 10 digits hyphenated 4-4-2, 5-3-2 or 5-4-1"},
	{in: "123456789012", err: "must be 11 digits (5-4-2), or 10 digits hyphenated 4-4-2, 5-3-2 or 5-4-1"},
	{in: "12345-6789-012", err: "must be 11 digits (5-4-2), or 10 digits hyphenated 4-4-2, 5-3-2 or 5-4-1"},
	{in: "123-4567-89", err: "must be 11 digits (5-4-2), or 10 digits hyphenated 4-4-2, 5-3-2 or 5-4-1"},
	{in: "-", err: "must be 11 digits (5-4-2), or 10 digits hyphenated 4-4-2, 5-3-2 or 5-4-1"},
	// Right count, wrong segments.
	{in: "123456-789-01", err: "must be 11 digits (5-4-2); a hyphenated code must have three segments of 5-4-2, 4-4-2, 5-3-2 or 5-4-1 digits"},
	{in: "12345-678-901", err: "must be 11 digits (5-4-2); a hyphenated code must have three segments of 5-4-2, 4-4-2, 5-3-2 or 5-4-1 digits"},
	{in: "1234-567-890", err: "must be 11 digits (5-4-2); a hyphenated code must have three segments of 5-4-2, 4-4-2, 5-3-2 or 5-4-1 digits"},
	{in: "123456789-01", err: "must be 11 digits (5-4-2); a hyphenated code must have three segments of 5-4-2, 4-4-2, 5-3-2 or 5-4-1 digits"},
	{in: "12345-67-89-01", err: "must be 11 digits (5-4-2); a hyphenated code must have three segments of 5-4-2, 4-4-2, 5-3-2 or 5-4-1 digits"},
	{in: "12345--678901", err: "must be 11 digits (5-4-2); a hyphenated code must have three segments of 5-4-2, 4-4-2, 5-3-2 or 5-4-1 digits"},
	{in: "-12345678901", err: "must be 11 digits (5-4-2); a hyphenated code must have three segments of 5-4-2, 4-4-2, 5-3-2 or 5-4-1 digits"},
	{in: "12345-6789-01-", err: "must be 11 digits (5-4-2); a hyphenated code must have three segments of 5-4-2, 4-4-2, 5-3-2 or 5-4-1 digits"},
	// Other characters.
	{in: "12345 6789 01", err: "must be 11 digits (5-4-2); only digits and hyphens are allowed"},
	{in: "12345.6789.01", err: "must be 11 digits (5-4-2); only digits and hyphens are allowed"},
	{in: "NDC 12345-6789-01", err: "must be 11 digits (5-4-2); only digits and hyphens are allowed"},
	{in: "12345\u20136789\u201301", err: "must be 11 digits (5-4-2); only digits and hyphens are allowed"},
	{in: "١٢٣٤٥٦٧٨٩٠١", err: "must be 11 digits (5-4-2); only digits and hyphens are allowed"},
}

func TestNormalizeNDC(t *testing.T) {
	t.Parallel()
	for _, tc := range ndcCases {
		got, err := NormalizeNDC(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err || got != "" {
				t.Errorf("NormalizeNDC(%q) = %q, %v; want error %q", tc.in, got, err, tc.err)
				continue
			}
			assertNotQuoted(t, err.Error(), tc.in)
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("NormalizeNDC(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestNDCMessagesFollowAPath(t *testing.T) {
	t.Parallel()
	for _, err := range []error{errNDCChars, errNDCLength, errNDCSegments, errNDCAmbiguous} {
		if !strings.HasPrefix(err.Error(), "must be 11 digits (5-4-2)") {
			t.Errorf("message %q does not start with the rule", err)
		}
	}
}

func TestCollectorNDC(t *testing.T) {
	t.Parallel()
	runCollector(t, Options{}, (*Collector).NDC, []collectorCase{
		{in: "12345678901"},
		{in: "00002322730"},
		{in: "", want: "is required"},
		{in: "  ", want: "is required"},
		{in: "12345-6789-01", want: "must be 11 digits without hyphens; NormalizeNDC converts this form"},
		{in: "1234-5678-90", want: "must be 11 digits without hyphens; NormalizeNDC converts this form"},
		{in: "12345-678-90", want: "must be 11 digits without hyphens; NormalizeNDC converts this form"},
		{in: "12345-6789-0", want: "must be 11 digits without hyphens; NormalizeNDC converts this form"},
		{in: " 12345678901 ", want: "must be 11 digits without spaces; NormalizeNDC converts this form"},
		{in: "1234567890", want: "must be 11 digits (5-4-2); 10 digits without hyphens are ambiguous (the code could be 4-4-2, 5-3-2 or 5-4-1), so write it with hyphens"},
		{in: "123456789", want: "must be 11 digits (5-4-2)"},
		{in: "123456789012", want: "must be 11 digits (5-4-2)"},
		{in: "12345-678-901", want: "must be 11 digits (5-4-2)"},
		{in: "1234567890a", want: "must be 11 digits (5-4-2)"},
	})
}
