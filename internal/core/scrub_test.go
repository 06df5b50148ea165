package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestScrub: every value of the body, the query and the hidden path
// segments, and every credential, is replaced wherever it appears, in any
// case and in its escaped forms; values of three characters only as whole
// words, shorter ones not at all.
func TestScrub(t *testing.T) {
	t.Parallel()
	b := &Backend{secrets: []string{"key-1234", "sec-5678", "a2V5OnNlYw=="}}
	path, shown, _ := OrdersRemovePrescription.Paths("ord_1", "RX/991")
	sc := b.newScrubber(path, shown, "origin_address=12+Main+Street&page=2", []byte(`{"patient":{"first_name":"Jane","last_name":"Doe","dob":"1980-02-29"},"state":"OH","qty":30,"fee":5.00,"ok":true}`))
	cases := map[string]string{
		"Invalid name JANE DOE born 1980-02-29":             "Invalid name [redacted] [redacted] born [redacted]",
		"Does the state OH for JOHN matter":                 "Does the state OH for JOHN matter",
		"fee 5.00 over 30":                                  "fee [redacted] over 30",
		"no pharmacy near 12 Main Street or 12+Main+Street": "no pharmacy near [redacted] or [redacted]",
		"prescription RX/991 and RX%2F991 not found":        "prescription [redacted] and [redacted] not found",
		"bad key key-1234:sec-5678 (a2V5OnNlYw==)":          "bad key [redacted]:[redacted] ([redacted])",
		"Order is not in a cancellable status":              "Order is not in a cancellable status",
		"":                                                  "",
	}
	for in, want := range cases {
		assert.Equal(t, want, sc.scrub(in), in)
	}
	var none *scrubber
	assert.Equal(t, "Jane", none.scrub("Jane"))
}
