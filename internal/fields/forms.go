package fields

import (
	"regexp"
	"strings"
)

// The forms of values that the transcript and the test kit's cassettes
// keep as they are when the table's kind of the field allows it: one
// definition for both, so that what a transcript shows and what a
// cassette keeps cannot drift apart.

// IDForm is the form of an identifier kept as it is: one token.
var IDForm = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$`)

// TimestampForm is an ISO 8601 timestamp with a time of day (a bare date
// could be a date of birth).
var TimestampForm = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.,][0-9]{1,9})?)? ?(Z|z|UTC|[+-][0-9]{2}(:?[0-9]{2})?)?$`)

// FieldNameForm is how a field name the table does not hold is written
// for its key to be kept: lower-case snake case.
var FieldNameForm = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// DigitRun reports whether s has n digits in a row.
func DigitRun(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			run++
			if run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// SmallDecimal reports whether s is a decimal number of at most 7 digits
// without an exponent: an amount, a count, a size.
func SmallDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	digits, point := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point && i > 0:
			point = true
		default:
			return false
		}
	}
	return digits > 0 && digits <= 7 && s[len(s)-1] != '.'
}

// AllDigits reports whether s is one or more ASCII digits.
func AllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
