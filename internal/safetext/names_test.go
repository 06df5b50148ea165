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

		{"a subject, an adverb and a verb", "Amber already opened the cooler box", "[redacted] already opened the cooler box"},
		{"a noun, an adverb and a noun", "Amber already visible on the label", "Amber already visible on the label"},
		{"a clause after a dash", "CANNOT CANCEL - FIELDS ALREADY RECEIVED PARCEL", "CANNOT CANCEL - [redacted] ALREADY RECEIVED PARCEL"},

		{"capitalised after a preposition of place", "Hill roads above Reading are closed", "Hill roads above [redacted] are closed"},
		{"a place's word before a verb", "shipping to reading takes 3 business days", "shipping to [redacted] takes 3 business days"},
		{"a place's word before a noun", "shipping to reading rooms", "shipping to reading rooms"},
		{"a town before a bracket", "webhook for the parcel to independence (HTTP 403 from carrier)", "webhook for the parcel to [redacted] (HTTP 403 from carrier)"},

		{"a verb whose object is a person", "expected to reach rose 1 day late", "expected to reach [redacted] 1 day late"},
		{"a verb whose object is a thing", "expected to reach the depot 1 day late", "expected to reach the depot 1 day late"},
		{"a modal after a name and a comma", "Skipped Short, may: request re-routed", "Skipped [redacted]: request re-routed"},
		{"a modal after a comma", "Pickup is delayed, may: retry later", "Pickup is delayed, may: retry later"},

		{"an honorific in capitals is an abbreviation", "recipient.email failed domain validation (no MX record)", "recipient.email failed domain validation (no [redacted] record)"},
		{"an honorific", "Parcel for Mx Page is held", "Parcel for [redacted] is held"},

		{"a word made by a prefix", "card left, redelivery tomorrow; rebook if misrouted", "card left, redelivery tomorrow; rebook if misrouted"},
		{"a word made by a suffix", "sort=price is not a sortable field", "sort=price is not a sortable field"},
		{"a surname with a prefix's letters", "Recipient Resnick could not be reached", "Recipient [redacted] could not be reached"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, read.Text(c.in), c.rule)
	}
}
