// Package fields says, once for the whole SDK, what the values of each JSON
// field of the platform's models are: patient data (the default, and the
// kind of every field this table does not name) or one of the kinds known
// safe to show a person (identifiers the platform minted, statuses and
// other enums, times, money, counts, flags, carrier and service names).
//
// Transcripts show a response's values only for fields of a safe kind,
// the scrubber uses the table to know which values a call sent are a
// patient's, and the field names themselves are words an error message
// may keep. A test in the root package holds every field of every model
// and params type to an entry here.
package fields

// Kind is what a field's values are.
type Kind uint8

// The kinds of field. Patient is the zero value: a field the table does
// not name is patient data.
const (
	// Patient is a value that may identify or describe a patient, or that
	// the table does not know: names, addresses, phones, dates of birth,
	// free text, caller references, URLs with tokens.
	Patient Kind = iota
	// ID is an identifier the platform minted (an order, request or
	// pharmacy id) or a public code (NPI, NCPDP).
	ID
	// Enum is one of a documented set of words (a status, a service level,
	// a type).
	Enum
	// Time is a timestamp of the platform's own events (created, occurred,
	// updated), never a date of birth or of service.
	Time
	// Money is an amount of money.
	Money
	// Count is a quantity, a page number, a size or a weight.
	Count
	// Flag is a boolean.
	Flag
	// Carrier is a carrier's or a carrier service's name.
	Carrier
	// Object is a field whose value is an object or a list: its own
	// fields are judged one by one.
	Object
)

// Of returns the kind of the field named key (its JSON name). A name the
// table does not hold is Patient.
func Of(key string) Kind { return table[key] }

// Safe reports whether a scalar value of the field named key may be shown
// to a person.
func Safe(key string) bool {
	k := table[key]
	return k != Patient && k != Object
}

// Known reports whether key is the JSON name of a field of the platform's
// models, of any kind.
func Known(key string) bool {
	_, ok := table[key]
	return ok
}

// Names returns every field name the table holds, in no order.
func Names() []string {
	out := make([]string, 0, len(table))
	for k := range table {
		out = append(out, k)
	}
	return out
}
