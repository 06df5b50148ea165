package safetext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNamesByContext: a word that is also a name goes where its context
// says it names someone, in lower case too, and stays where the context
// says it is the word; each rule of names.go with both of its sides.
func TestNamesByContext(t *testing.T) {
	t.Parallel()
	read := New(Sent{}) // a read: the filter knows no value the answer may echo
	cases := []struct{ rule, in, want string }{
		{"capitalised inside a sentence", "Recipient Will Page could not be reached", "Recipient [redacted] could not be reached"},
		{"a capitalised phrase of words", "left at the Front Door", "left at the Front Door"},

		{"quoted value", `note "ring twice, hope answers" is too long`, `note "[redacted] twice, [redacted] answers" is too long`},
		{"quoted value, function words too", `description "will page c/o the front desk" is too long`, `description "[redacted] c/o the front desk" is too long`},
		{"a first name at a bracket's start", "reference (Rose Garden) is too long", "reference ([redacted]) is too long"},
		{"quoted enum", "Unknown value 'mobile'", "Unknown value 'mobile'"},
		{"an apostrophe opens no quote", "photo ID checked (driver's license); will retry", "photo ID checked (driver's license); will retry"},

		{"a modal after a preposition", "Delivered to may at 12:40", "Delivered to [redacted] at 12:40"},
		{"a month after a preposition", "Refill due in may", "Refill due in may"},
		{"a modal before a modal", "courier says may must meet the driver", "courier says [redacted] must meet the driver"},
		{"a modal before a finite verb", "Young carer will is not authorised", "Young carer [redacted] is not authorised"},
		{"a modal before a verb", "the courier will retry at 14:00", "the courier will retry at 14:00"},

		{"to a word that is no verb", "Bill to king pending", "Bill to [redacted] pending"},
		{"to a verb", "ask the pharmacy to page the courier", "ask the pharmacy to page the courier"},
		{"an idiom", "database failover in progress", "database failover in progress"},

		{"possessive of a thing, no determiner", "Pharmacy closes at 18:30, so street's courier pickup is late", "Pharmacy closes at 18:30, so [redacted]'s courier pickup is late"},
		{"possessive of a thing, determiner", "so the street's lights are out", "so the street's lights are out"},
		{"possessive of a role", "carrier's cutoff passed at 16:00", "carrier's cutoff passed at 16:00"},
		{"possessive of a role, capitalised at a sentence's start", "Carrier's cutoff passed; photo ID checked (Driver's License)", "Carrier's cutoff passed; photo ID checked (Driver's License)"},
		{"possessive of a role, capitalised inside a sentence", "cancelled by Carrier's request", "cancelled by [redacted]'s request"},

		{"a first name's capital at a sentence's start", "Frank hill (caregiver) accepted the delivery", "[redacted] (caregiver) accepted the delivery"},
		{"a sentence's capital, a noun after", "Ward clerk signed for the order", "Ward clerk signed for the order"},

		{"a platform's noun bare before a participle", "Request for price skipped: record locked", "Request for [redacted] skipped: record locked"},
		{"a platform's noun with a noun after", "Request for price quote failed", "Request for price quote failed"},

		{"a sentence's subject before a modal", "short may still receive the parcel", "[redacted] may still receive the parcel"},
		{"a noun before a modal", "price may change before pickup", "price may change before pickup"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, read.Text(c.in), c.rule)
	}
}
