package sandbox

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// checker collects every rule a decoded body breaks, as "path: rule"
// messages. Messages never quote a value: bodies carry patient data.
type checker struct {
	probs []string
}

func (c *checker) add(path, msg string) { c.probs = append(c.probs, path+": "+msg) }

// addRaw adds a message that names no path (a message the documents give
// verbatim).
func (c *checker) addRaw(msg string) { c.probs = append(c.probs, msg) }

func (c *checker) ok() bool { return len(c.probs) == 0 }

// message joins the problems with "; ".
func (c *checker) message() string { return strings.Join(c.probs, "; ") }

// present reports whether v is set and not blank, adding "is required"
// when req and it is not.
func (c *checker) present(path string, v *string, req bool) bool {
	if v == nil || strings.TrimSpace(*v) == "" {
		if req {
			c.add(path, "is required")
		}
		return false
	}
	return true
}

// str checks a string that is required when req and at most max characters
// long (max 0: no limit).
func (c *checker) str(path string, v *string, req bool, max int) {
	if c.present(path, v, req) && max > 0 && utf8.RuneCountInString(*v) > max {
		c.add(path, "must be at most "+strconv.Itoa(max)+" characters")
	}
}

// exact checks a string of exactly n characters.
func (c *checker) exact(path string, v *string, req bool, n int) {
	if c.present(path, v, req) && utf8.RuneCountInString(*v) != n {
		c.add(path, "must be exactly "+strconv.Itoa(n)+" characters")
	}
}

// phone checks a phone number of exactly 10 digits.
func (c *checker) phone(path string, v *string, req bool) {
	if c.present(path, v, req) && (len(*v) != 10 || !allDigits(*v)) {
		c.add(path, "must be exactly 10 digits")
	}
}

// zip checks a ZIP code of 5 or 9 digits.
func (c *checker) zip(path string, v *string, req bool) {
	if c.present(path, v, req) && ((len(*v) != 5 && len(*v) != 9) || !allDigits(*v)) {
		c.add(path, "must be 5 or 9 digits")
	}
}

// enum checks a string that is one of allowed.
func (c *checker) enum(path string, v *string, req bool, allowed ...string) {
	if !c.present(path, v, req) {
		return
	}
	for _, a := range allowed {
		if *v == a {
			return
		}
	}
	c.add(path, "must be one of "+strings.Join(allowed, ", "))
}

// date checks an ISO 8601 calendar date (YYYY-MM-DD).
func (c *checker) date(path string, v *string, req bool) {
	if c.present(path, v, req) {
		if _, err := time.Parse("2006-01-02", *v); err != nil {
			c.add(path, "must be an ISO 8601 date (YYYY-MM-DD)")
		}
	}
}

// timestamp checks an ISO 8601 timestamp with an offset.
func (c *checker) timestamp(path string, v *string, req bool) {
	if c.present(path, v, req) {
		if _, err := time.Parse(time.RFC3339, *v); err != nil {
			c.add(path, "must be an ISO 8601 timestamp with offset")
		}
	}
}

// number checks a JSON number; it returns the value and whether it is one.
func (c *checker) number(path string, v *num, req bool) (float64, bool) {
	if v == nil {
		if req {
			c.add(path, "is required")
		}
		return 0, false
	}
	f, ok := v.float()
	if !ok {
		c.add(path, "must be a JSON number")
	}
	return f, ok
}

// positive checks a JSON number greater than zero.
func (c *checker) positive(path string, v *num, req bool) {
	if f, ok := c.number(path, v, req); ok && f <= 0 {
		c.add(path, "must be greater than 0")
	}
}

// integer checks a JSON integer (no fraction, no exponent).
func (c *checker) integer(path string, v *num, req bool) (int, bool) {
	if v == nil {
		if req {
			c.add(path, "is required")
		}
		return 0, false
	}
	n, err := strconv.Atoi(v.raw)
	if v.kind != numNumber || err != nil {
		c.add(path, "must be a JSON integer")
		return 0, false
	}
	return n, true
}

// boolean checks that a required boolean is present.
func (c *checker) boolean(path string, v *bool, req bool) {
	if v == nil && req {
		c.add(path, "is required")
	}
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// numKind is the JSON kind of a value decoded into a num.
type numKind int

const (
	numNumber numKind = iota
	numString
	numOther
)

// num receives a value the documents type as Decimal or Integer. It accepts
// any JSON value so that the checker, not the decoder, reports a value sent
// with the wrong JSON type (a money amount sent as a string) with its path.
type num struct {
	raw  string
	kind numKind
}

// UnmarshalJSON keeps the literal and its JSON kind.
func (n *num) UnmarshalJSON(b []byte) error {
	n.raw = string(b)
	switch {
	case len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')):
		n.kind = numNumber
	case len(b) > 0 && b[0] == '"':
		n.kind = numString
	default:
		n.kind = numOther
	}
	return nil
}

func (n *num) float() (float64, bool) {
	if n.kind != numNumber {
		return 0, false
	}
	f, err := strconv.ParseFloat(n.raw, 64)
	return f, err == nil
}
