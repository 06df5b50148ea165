// Package validate checks request params before they leave the process. It
// holds the error type every service returns for invalid input, a Collector
// that gathers every problem of one params value with its JSON path, and the
// pharmacy-domain checks and normalisers (NDC, NPI, NCPDP, phone, ZIP, state)
// that every service shares.
//
// Messages never quote the value that failed: params carry patient data,
// and a validation error may end up in a log.
//
//	var c validate.Collector
//	c.Required("patient.first_name", p.FirstName)
//	c.MaxLen("patient.first_name", p.FirstName, 30)
//	return c.Err()
package validate

import (
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rxdelivery/rxdelivery-go/internal/usps"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Options changes what the checks demand. The zero value follows the
// documents.
type Options struct {
	// NPICheckDigit makes every NPI check verify the Luhn check digit as
	// well as the length.
	NPICheckDigit bool
}

// Collector gathers the problems of one params value. The zero value is
// ready to use.
//
// Paths given to its methods are relative to the collector's current
// location, which Push, PushIndex and Pop move; at the top they are whole
// paths. The full path is built only when a problem is recorded, so a
// valid value is checked without building a single path string:
//
//	c.Push("recipient")
//	c.Phone("mobile_phone_number", r.MobilePhoneNumber) // recipient.mobile_phone_number
//	c.Pop()
type Collector struct {
	// Options are the settings the checks follow.
	Options  Options
	problems []rxtypes.Problem
	at       []step
	inline   [8]step
}

// step is one level of a collector's location: an object member, or an
// element of the array at the previous level.
type step struct {
	name  string
	index int // -1 for a member
}

// Push enters the object member name.
func (c *Collector) Push(name string) { c.enter(step{name: name, index: -1}) }

// PushIndex enters element i of the array the collector is in.
func (c *Collector) PushIndex(i int) { c.enter(step{index: i}) }

func (c *Collector) enter(s step) {
	if c.at == nil {
		c.at = c.inline[:0]
	}
	c.at = append(c.at, s)
}

// Each checks every element of items with check, at name[i]. check is
// usually a method expression, such as (*Payer).check, so the call
// allocates nothing.
func Each[T any](c *Collector, name string, items []T, check func(*T, *Collector)) {
	c.Push(name)
	for i := range items {
		c.PushIndex(i)
		check(&items[i], c)
		c.Pop()
	}
	c.Pop()
}

// Pop leaves the level the last Push or PushIndex entered.
func (c *Collector) Pop() {
	if len(c.at) > 0 {
		c.at = c.at[:len(c.at)-1]
	}
}

// Path returns the full path of path at the collector's location.
func (c *Collector) Path(path string) string {
	if len(c.at) == 0 {
		return path
	}
	var b strings.Builder
	for _, s := range c.at {
		if s.index >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.name)
	}
	return Join(b.String(), path)
}

// Add records a problem at path, relative to the collector's location.
func (c *Collector) Add(path, message string) {
	c.problems = append(c.problems, rxtypes.Problem{Path: c.Path(path), Message: message})
}

// AddErr records err's message at path when err is not nil.
func (c *Collector) AddErr(path string, err error) {
	if err != nil {
		c.Add(path, err.Error())
	}
}

// Merge records the problems of err under prefix when err is a
// *rxtypes.ValidationError, and err's message at prefix otherwise.
func (c *Collector) Merge(prefix string, err error) {
	if err == nil {
		return
	}
	var ve *rxtypes.ValidationError
	if !errors.As(err, &ve) {
		c.Add(prefix, err.Error())
		return
	}
	for _, p := range ve.Problems {
		c.Add(Join(prefix, p.Path), p.Message)
	}
}

// Len returns how many problems are recorded.
func (c *Collector) Len() int { return len(c.problems) }

// Err returns a *rxtypes.ValidationError with every recorded problem, or nil when
// there is none.
func (c *Collector) Err() error {
	if len(c.problems) == 0 {
		return nil
	}
	return &rxtypes.ValidationError{Problems: c.problems}
}

// Join joins JSON path parts with dots, skipping empty parts.
func Join(prefix, path string) string {
	switch {
	case prefix == "":
		return path
	case path == "":
		return prefix
	case path[0] == '[':
		return prefix + path
	}
	return prefix + "." + path
}

// Index returns "path[i]".
func Index(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

// Required records "is required" at path when s is empty or only spaces,
// and the text rule's problem when s holds a control character or a
// bidirectional override (Text). It reports whether s is present and
// passed the text rule, so a check that follows sees printable text.
func (c *Collector) Required(path, s string) bool {
	return c.present(path, s) && c.Text(path, s)
}

// present records "is required" at path when s is empty or only spaces,
// and reports whether s is present, without the text rule: for the checks
// of codes (State, ZIP, NDC, NPI, NCPDP, Phone) that pass only digits or
// letters at once, and apply the text rule before any other refusal.
func (c *Collector) present(path, s string) bool {
	if blank(s) {
		c.Add(path, "is required")
		return false
	}
	return true
}

// blank reports whether s is empty or white space only (as
// strings.TrimSpace sees it). A first byte that is printable ASCII other
// than the space, the common case, answers at once: it is not white
// space.
func blank(s string) bool {
	if len(s) > 0 && s[0] > ' ' && s[0] < utf8.RuneSelf {
		return false
	}
	return strings.TrimSpace(s) == ""
}

// MaxLen records a problem when s holds a control character or a
// bidirectional override (Text), or has more than n characters.
func (c *Collector) MaxLen(path, s string, n int) {
	if c.Text(path, s) {
		c.maxLen(path, s, n)
	}
}

// maxLen records a problem when s has more than n characters.
func (c *Collector) maxLen(path, s string, n int) {
	// A string of at most n bytes has at most n characters.
	if len(s) > n && utf8.RuneCountInString(s) > n {
		c.Add(path, "must be at most "+strconv.Itoa(n)+" characters")
	}
}

// RequiredMaxLen checks that s is present and at most n characters long.
func (c *Collector) RequiredMaxLen(path, s string, n int) {
	if c.Required(path, s) {
		c.maxLen(path, s, n)
	}
}

// OneOf records a problem when s is not one of allowed. An empty s is
// recorded as missing when required is true and passes otherwise.
func OneOf[S ~string](c *Collector, path string, s S, required bool, allowed ...S) {
	if s == "" {
		if required {
			c.Add(path, "is required")
		}
		return
	}
	for _, a := range allowed {
		if s == a {
			return
		}
	}
	parts := make([]string, len(allowed))
	for i, a := range allowed {
		parts[i] = string(a)
	}
	c.Add(path, "must be one of "+strings.Join(parts, ", "))
}

// Positive records a problem when d is not greater than zero. It is for
// required numbers whose zero is ruled out (a fee, a weight), so an unset
// field, which reads as zero, is refused by the same rule.
func (c *Collector) Positive(path string, d rxtypes.Decimal) {
	if d.Sign() <= 0 {
		c.Add(path, "is required and must be greater than 0")
	}
}

// NonNegative records a problem when d is set and below zero; nil passes.
func (c *Collector) NonNegative(path string, d *rxtypes.Decimal) {
	if d != nil && d.Sign() < 0 {
		c.Add(path, "must not be negative")
	}
}

// RequiredDecimal records "is required" when d is nil. Zero is a value:
// a pointer to 0.00 passes. It reports whether d is set.
func (c *Collector) RequiredDecimal(path string, d *rxtypes.Decimal) bool {
	if d == nil {
		c.Add(path, "is required")
		return false
	}
	return true
}

// RequiredDate records a problem when d is zero or not a real day. It
// reports whether d is a real day.
func (c *Collector) RequiredDate(path string, d rxtypes.Date) bool {
	switch {
	case d.IsZero():
		c.Add(path, "is required")
	case !d.IsValid():
		c.Add(path, "must be a valid date")
	default:
		return true
	}
	return false
}

// latest is the zone where a day starts first (UTC+14, Kiribati's Line
// Islands): no date after today's date there is today anywhere.
var latest = time.FixedZone("UTC+14", 14*60*60)

// DateOfBirth checks a required date of birth: present, a real day, and
// not after today. The last is a rule of the domain, not of the documents:
// a person born tomorrow has no prescription today. "Today" is taken in
// the earliest time zone, so a birth today anywhere is accepted.
func (c *Collector) DateOfBirth(path string, d rxtypes.Date) {
	if c.RequiredDate(path, d) && d.After(rxtypes.DateOf(time.Now().In(latest))) {
		c.Add(path, "must not be in the future")
	}
}

// Digits reports whether s is exactly n ASCII digits.
func Digits(s string, n int) bool { return usps.Digits(s, n) }
