// Package fields says, once for the whole SDK, what the values of each JSON
// field of the platform's models are: patient data (the default, and the
// kind of every field this table does not name), text the platform wrote
// for people (an error's message), or one of the kinds known safe to show a
// person (identifiers the platform minted, statuses and other enums, times,
// money, counts, flags, carrier and service names).
//
// Transcripts show a response's values only for fields of a safe kind,
// the scrubber uses the table to know which values a call sent are a
// patient's, and the field names themselves are words an error message
// may keep. A test in the root package holds every field of every model
// and params type to an entry here.
//
// A field name has one entry, the strictest kind any model gives it: "name"
// is a recipient's name, so it is Patient everywhere. Where the same name
// is safe under one parent object and patient data under another, a
// parent-qualified entry ("parent.field", the parent being the JSON key of
// the object that holds the field, or of the list that holds that object)
// overrides the name's own entry under that parent: "status.name" (a
// request's status) is an Enum while "name" stays Patient, and "eta.type"
// and "error.type" are Enums while "type" (a recipient identification's
// free-text type) stays Patient. OfIn reads the qualified entry first.
package fields

import (
	"strconv"
	"strings"
)

// Kind is what a field's values are.
type Kind uint8

// The kinds of field. Patient is the zero value: a field the table does
// not name is patient data.
const (
	// Patient is a value that may identify or describe a patient, or that
	// the table does not know: names, addresses, phones, dates of birth,
	// free text, caller references, tracking numbers, URLs with tokens.
	Patient Kind = iota
	// ID is an identifier the platform minted (an order, request or
	// pharmacy id) or a public code (NPI, NCPDP).
	ID
	// Enum is one of a documented set of words (a status, a service level,
	// an error's type or code).
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
	// Message is text the platform wrote for a person (an error's
	// message): never shown as it is, only through the SDK's filter
	// (package safetext), which keeps the words an operator acts on.
	Message
)

// String returns the kind's name, as the table's comments and a test's
// messages write it.
func (k Kind) String() string {
	switch k {
	case Patient:
		return "Patient"
	case ID:
		return "ID"
	case Enum:
		return "Enum"
	case Time:
		return "Time"
	case Money:
		return "Money"
	case Count:
		return "Count"
	case Flag:
		return "Flag"
	case Carrier:
		return "Carrier"
	case Object:
		return "Object"
	case Message:
		return "Message"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Safe reports whether a scalar value of this kind may be shown to a
// person (after the check of its form the transcript makes: see ShowsAs).
func (k Kind) Safe() bool { return k != Patient && k != Object && k != Message }

// Of returns the kind of the field named key (its JSON name), whatever
// object holds it: table's entry, else the documents' decision
// (documented, from each property's x-rxdelivery-privacy in api/). A name
// neither holds is Patient.
func Of(key string) Kind {
	k, _ := lookup(key)
	return k
}

// lookup returns the kind of key and whether table or documented holds
// it. table is read first: it is never looser than the documents
// (TestTableKeepsTheDocuments).
func lookup(key string) (Kind, bool) {
	if k, ok := table[key]; ok {
		return k, true
	}
	k, ok := documented[key]
	return k, ok
}

// OfIn returns the kind of the field named key inside the object that
// the JSON key parent holds (the list's key for an object in a list; ""
// at the top level): the parent-qualified entry "parent.key" when the
// table has one, else Of(key).
func OfIn(parent, key string) Kind {
	if parent != "" {
		if k, ok := qualified[parent+"."+key]; ok {
			return k
		}
	}
	return Of(key)
}

// Safe reports whether a scalar value of the field named key may be shown
// to a person, whatever object holds it.
func Safe(key string) bool { return Of(key).Safe() }

// Known reports whether key is the JSON name of a field of the platform's
// models, of any kind.
func Known(key string) bool {
	_, ok := lookup(key)
	return ok
}

// Names returns every field name table or documented holds, in no order (the bare
// names; the parent-qualified entries add no name of their own).
func Names() []string {
	out := make([]string, 0, len(table)+len(documented))
	for k := range table {
		out = append(out, k)
	}
	for k := range documented {
		if _, ok := table[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

// Qualified returns the parent-qualified entries ("eta.type") and their
// kinds.
func Qualified() map[string]Kind {
	out := make(map[string]Kind, len(qualified))
	for k, v := range qualified {
		out[k] = v
	}
	return out
}

// maxEnum bounds the length of a value shown as an enum.
const maxEnum = 64

// Documented reports whether v reads as a value of an Enum or Carrier
// field: at most 64 bytes, and every word of it (split at spaces,
// underscores and hyphens, compared without case) is a word of a value the
// platform's documents list for such a field ("submitted_to_courier",
// "PARCELA 2nd Day Air", "Pharmacy Closed for Lunch", "unable_to_cancel").
// A person's name, a number, an address or a sentence of other words is
// not: a platform that puts a surname in "status" does not get it shown.
// A value of new words the documents do not list (a new status) is not
// either, and shows as a placeholder.
func Documented(v string) bool {
	if v == "" || len(v) > maxEnum {
		return false
	}
	words := 0
	for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == '_' || r == '-' }) {
		if !enumWords[strings.ToLower(w)] {
			return false
		}
		words++
	}
	return words > 0
}
