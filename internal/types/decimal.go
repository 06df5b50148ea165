package types

import (
	"errors"
	"math/big"
	"strconv"
	"strings"
)

// Decimal is an exact decimal number for money, quantities and measures.
//
// It keeps the number's text exactly as given ("5.00" stays "5.00") and writes
// it to JSON as a number literal, never as a string and never through float64.
// The zero value is "no value": it is omitted by `omitempty`-free encoders only
// when the field is a pointer, and it encodes as 0 otherwise. Use IsZero to
// tell an absent value from an explicit one.
type Decimal struct {
	s string // canonical JSON number text; "" for the zero value
}

// ErrInvalidDecimal is returned when a text is not a decimal number.
var ErrInvalidDecimal = errors.New("not a decimal number")

// NewDecimal parses s ("12", "-0.5", "5.00", "1e3") into a Decimal, keeping
// its text. Leading "+" and surrounding spaces are not accepted.
func NewDecimal(s string) (Decimal, error) {
	if !isJSONNumber(s) {
		return Decimal{}, ErrInvalidDecimal
	}
	return Decimal{s: s}, nil
}

// MustDecimal is like NewDecimal but panics on invalid input. It is meant for
// constants in code, such as MustDecimal("5.00").
func MustDecimal(s string) Decimal {
	d, err := NewDecimal(s)
	if err != nil {
		panic("rxdelivery: MustDecimal(" + strconv.Quote(s) + "): " + err.Error())
	}
	return d
}

// DecimalFromInt returns the Decimal for the whole number n.
func DecimalFromInt(n int64) Decimal {
	return Decimal{s: strconv.FormatInt(n, 10)}
}

// DecimalFromCents returns the Decimal for an amount given in hundredths, so
// DecimalFromCents(500) is "5.00".
func DecimalFromCents(cents int64) Decimal {
	neg := cents < 0
	if neg {
		cents = -cents
	}
	s := strconv.FormatInt(cents, 10)
	for len(s) < 3 {
		s = "0" + s
	}
	s = s[:len(s)-2] + "." + s[len(s)-2:]
	if neg {
		s = "-" + s
	}
	return Decimal{s: s}
}

// IsZero reports whether d is the zero value (no number was set). An explicit
// "0" or "0.00" is not the zero value; use Sign for that.
func (d Decimal) IsZero() bool { return d.s == "" }

// String returns the number's text as it was given, or "0" for the zero value.
func (d Decimal) String() string {
	if d.s == "" {
		return "0"
	}
	return d.s
}

// Rat returns the exact value of d as a big.Rat.
func (d Decimal) Rat() *big.Rat {
	r, ok := new(big.Rat).SetString(d.String())
	if !ok {
		return new(big.Rat)
	}
	return r
}

// Sign returns -1, 0 or +1 as d is negative, zero or positive.
func (d Decimal) Sign() int {
	s := d.String()
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	mant := s
	if i := strings.IndexAny(mant, "eE"); i >= 0 {
		mant = mant[:i]
	}
	if strings.Trim(mant, "0.") == "" {
		return 0
	}
	if neg {
		return -1
	}
	return 1
}

// Cmp compares d and e exactly and returns -1, 0 or +1.
func (d Decimal) Cmp(e Decimal) int {
	if d.s == e.s {
		return 0
	}
	return d.Rat().Cmp(e.Rat())
}

// Float64 returns the nearest float64 to d, for display or arithmetic where
// exactness does not matter.
func (d Decimal) Float64() float64 {
	f, _ := strconv.ParseFloat(d.String(), 64)
	return f
}

// MarshalJSON writes d as a JSON number literal.
func (d Decimal) MarshalJSON() ([]byte, error) {
	return []byte(d.String()), nil
}

// AppendText appends the number's text to b.
func (d Decimal) AppendText(b []byte) ([]byte, error) {
	return append(b, d.String()...), nil
}

// MarshalText returns the number's text; it is used for query parameters
// and map keys.
func (d Decimal) MarshalText() ([]byte, error) {
	return []byte(d.String()), nil
}

// UnmarshalJSON reads a JSON number, or a string holding a number, keeping
// the exact text. JSON null leaves d unchanged.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		unq, ok := unquoteJSON(b)
		if !ok {
			return ErrInvalidDecimal
		}
		s = unq
	}
	v, err := NewDecimal(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// UnmarshalText reads the number's text.
func (d *Decimal) UnmarshalText(b []byte) error {
	v, err := NewDecimal(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// isJSONNumber reports whether s is a number literal in JSON grammar.
func isJSONNumber(s string) bool {
	i := 0
	n := len(s)
	if i < n && s[i] == '-' {
		i++
	}
	if i >= n {
		return false
	}
	switch {
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < n && s[i] == '.' {
		i++
		start := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == n
}
