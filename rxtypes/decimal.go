package rxtypes

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
)

// Decimal is an exact decimal number for money, quantities and measures.
//
// The zero value is 0, ready to use: a running total can start from a
// var Decimal. A Decimal is a value: two Decimals are == exactly when they
// are the same number (5.0 == 5.00), so Decimals can be map keys, and
// every method returns a new Decimal without changing its receiver.
//
// Arithmetic is exact ([Decimal.Add], [Decimal.Sub], [Decimal.Mul],
// [Decimal.MulInt]); only [Decimal.Round] rounds, with a stated
// [RoundingMode]. The canonical text of a Decimal is fixed-point, without
// an exponent, with at least two fraction digits and no other trailing
// zeros: "5.00", "0.01", "12.345", "-3.50", "1000.00". [Decimal.String],
// %v, %s, [Decimal.MarshalText] and [Decimal.MarshalJSON] all write it, the
// last as a JSON number (never a string), which is the form the documents
// show for money. Parsing accepts any JSON number ("5", "5.0", "1e-2",
// "1.25E+3") and, when decoding JSON, a string holding one.
//
// A Decimal parsed from text holds at most [MaxDecimalDigits] digits in its
// fixed-point form; "1e400" is refused with [ErrDecimalRange] rather than
// read as some other number. Arithmetic has no such limit.
type Decimal struct {
	// s is the canonical text; "" is zero.
	s string
}

// MaxDecimalDigits is the largest number of digits, before and after the
// point together, that [NewDecimal] and the decoders accept in the
// fixed-point form of a number ("1e99" is 100 digits, "1e-3" is 3).
// It bounds what a response can make the SDK allocate; no price, fee or
// measure comes near it.
const MaxDecimalDigits = 100

// Errors of [NewDecimal] and the decoders. ErrDecimalRange matches
// ErrInvalidDecimal too.
var (
	// ErrInvalidDecimal is returned when a text is not a decimal number.
	ErrInvalidDecimal = errors.New("not a decimal number")
	// ErrDecimalRange is returned when a text is a number whose exponent
	// puts it beyond [MaxDecimalDigits] digits.
	ErrDecimalRange = fmt.Errorf("%w: more than %d digits in fixed-point form", ErrInvalidDecimal, MaxDecimalDigits)
	// ErrNotWholeCents is returned by [Decimal.Cents] for an amount with a
	// fraction of a cent.
	ErrNotWholeCents = errors.New("amount is not a whole number of cents")
	// ErrCentsRange is returned by [Decimal.Cents] for an amount whose
	// cents do not fit in an int64.
	ErrCentsRange = errors.New("amount in cents does not fit in an int64")
)

// RoundingMode says how [Decimal.Round] treats the digits it drops.
type RoundingMode int

// Rounding modes. The examples round to whole cents.
const (
	// RoundHalfUp rounds to the nearest value, and a tie away from zero:
	// 2.345 → 2.35, -2.345 → -2.35. It is the rounding of a till and of
	// the %.2f verb of a [Decimal].
	RoundHalfUp RoundingMode = iota
	// RoundHalfEven rounds to the nearest value, and a tie to the even
	// last digit (banker's rounding): 2.345 → 2.34, 2.355 → 2.36.
	RoundHalfEven
	// RoundDown drops the digits (rounds toward zero): 2.349 → 2.34,
	// -2.349 → -2.34.
	RoundDown
	// RoundUp rounds away from zero any dropped digit that is not 0:
	// 2.341 → 2.35, -2.341 → -2.35.
	RoundUp
)

// String returns the mode's name, such as "RoundHalfUp".
func (m RoundingMode) String() string {
	switch m {
	case RoundHalfUp:
		return "RoundHalfUp"
	case RoundHalfEven:
		return "RoundHalfEven"
	case RoundDown:
		return "RoundDown"
	case RoundUp:
		return "RoundUp"
	}
	return "RoundingMode(" + strconv.Itoa(int(m)) + ")"
}

// NewDecimal parses a JSON number ("12", "-0.5", "5.00", "1e3"). Leading
// "+", surrounding spaces, "NaN" and "Inf" are not numbers and are
// refused with [ErrInvalidDecimal]; a number beyond [MaxDecimalDigits]
// digits is refused with [ErrDecimalRange].
func NewDecimal(s string) (Decimal, error) {
	return parseDecimal(s)
}

// MustDecimal is like [NewDecimal] but panics on invalid input. It is meant
// for constants in code, such as MustDecimal("5.00").
func MustDecimal(s string) Decimal {
	d, err := NewDecimal(s)
	if err != nil {
		panic("rxdelivery: MustDecimal(" + strconv.Quote(s) + "): " + err.Error())
	}
	return d
}

// DecimalFromInt returns the [Decimal] for the whole number n.
func DecimalFromInt(n int64) Decimal {
	return fromBig(new(big.Int).SetInt64(n), 0)
}

// DecimalFromCents returns the [Decimal] for an amount given in hundredths,
// so DecimalFromCents(500) is 5.00.
func DecimalFromCents(cents int64) Decimal {
	return fromBig(new(big.Int).SetInt64(cents), 2)
}

// DecimalFromRat returns r rounded to places fraction digits with mode.
func DecimalFromRat(r *big.Rat, places int, mode RoundingMode) Decimal {
	num := new(big.Int).Set(r.Num())
	den := r.Denom()
	if places >= 0 {
		num.Mul(num, pow10(places))
	} else {
		den = new(big.Int).Mul(den, pow10(-places))
	}
	q := divRound(num, den, mode)
	return fromBig(q, places)
}

// IsZero reports whether d is zero (0, 0.00 and -0 are all zero).
func (d Decimal) IsZero() bool { return d.s == "" }

// Sign returns -1, 0 or +1 as d is negative, zero or positive.
func (d Decimal) Sign() int {
	switch {
	case d.s == "":
		return 0
	case d.s[0] == '-':
		return -1
	}
	return 1
}

// Equal reports whether d and e are the same number; it is the same as
// d == e.
func (d Decimal) Equal(e Decimal) bool { return d.s == e.s }

// Cmp compares d and e and returns -1, 0 or +1 as d is less than, equal to
// or greater than e.
func (d Decimal) Cmp(e Decimal) int {
	if d.s == e.s {
		return 0
	}
	ds, es := d.Sign(), e.Sign()
	if ds != es {
		if ds < es {
			return -1
		}
		return 1
	}
	// Same sign, both non-zero: compare magnitudes by their digits.
	c := cmpAbs(d.s, e.s)
	if ds < 0 {
		return -c
	}
	return c
}

// cmpAbs compares the magnitudes of two canonical texts.
func cmpAbs(a, b string) int {
	a, b = strings.TrimPrefix(a, "-"), strings.TrimPrefix(b, "-")
	ai, af, _ := strings.Cut(a, ".")
	bi, bf, _ := strings.Cut(b, ".")
	switch {
	case len(ai) != len(bi):
		if len(ai) < len(bi) {
			return -1
		}
		return 1
	case ai != bi:
		return strings.Compare(ai, bi)
	}
	for len(af) < len(bf) {
		af += "0"
	}
	for len(bf) < len(af) {
		bf += "0"
	}
	return strings.Compare(af, bf)
}

// Neg returns -d.
func (d Decimal) Neg() Decimal {
	switch {
	case d.s == "":
		return d
	case d.s[0] == '-':
		return Decimal{s: d.s[1:]}
	}
	return Decimal{s: "-" + d.s}
}

// Abs returns the absolute value of d.
func (d Decimal) Abs() Decimal {
	if d.Sign() < 0 {
		return d.Neg()
	}
	return d
}

// Add returns d + e, exactly.
func (d Decimal) Add(e Decimal) Decimal {
	switch {
	case e.s == "":
		return d
	case d.s == "":
		return e
	}
	if a, as, ok := d.small(); ok {
		if b, bs, ok := e.small(); ok {
			if v, scale, ok := addSmall(a, as, b, bs); ok {
				return fromSmall(v, scale)
			}
		}
	}
	a, as := d.big()
	b, bs := e.big()
	a, b, scale := align(a, as, b, bs)
	return fromBig(a.Add(a, b), scale)
}

// Sub returns d - e, exactly.
func (d Decimal) Sub(e Decimal) Decimal { return d.Add(e.Neg()) }

// Mul returns d × e, exactly, such as a unit price times a quantity
// dispensed.
func (d Decimal) Mul(e Decimal) Decimal {
	if d.s == "" || e.s == "" {
		return Decimal{}
	}
	if a, as, ok := d.small(); ok {
		if b, bs, ok := e.small(); ok {
			if v, ok := mulSmall(a, b); ok {
				return fromSmall(v, as+bs)
			}
		}
	}
	a, as := d.big()
	b, bs := e.big()
	return fromBig(a.Mul(a, b), as+bs)
}

// MulInt returns d × n, exactly, such as a copay times a number of fills.
func (d Decimal) MulInt(n int64) Decimal {
	if d.s == "" || n == 0 {
		return Decimal{}
	}
	if a, as, ok := d.small(); ok {
		if v, ok := mulSmall(a, n); ok {
			return fromSmall(v, as)
		}
	}
	a, as := d.big()
	return fromBig(a.Mul(a, big.NewInt(n)), as)
}

// Round returns d rounded to places fraction digits with mode; Round(2,
// mode) rounds to whole cents. A negative places rounds to tens (-1),
// hundreds (-2) and so on. A d with no more than places fraction digits
// is returned as it is.
func (d Decimal) Round(places int, mode RoundingMode) Decimal {
	if d.s == "" {
		return d
	}
	if a, scale, ok := d.small(); ok {
		if scale <= places {
			return d
		}
		if scale-places <= 18 {
			return fromSmall(divRoundSmall(a, pow10s[scale-places], mode), places)
		}
	}
	a, scale := d.big()
	if scale <= places {
		return d
	}
	q := divRound(a, pow10(scale-places), mode)
	return fromBig(q, places)
}

// Cents returns d as a whole number of cents (5.00 is 500). A d with a
// fraction of a cent returns [ErrNotWholeCents]: round it first, with the
// mode your books use, as in d.Round(2, RoundHalfUp).Cents(). A d whose
// cents do not fit in an int64 returns [ErrCentsRange].
func (d Decimal) Cents() (int64, error) {
	if d.s == "" {
		return 0, nil
	}
	if a, scale, ok := d.small(); ok && scale <= 2 {
		if v, ok := mulSmall(a, pow10s[2-scale]); ok {
			return v, nil
		}
		return 0, ErrCentsRange
	}
	a, scale := d.big()
	if scale > 2 {
		return 0, ErrNotWholeCents
	}
	a.Mul(a, pow10(2-scale))
	if !a.IsInt64() {
		return 0, ErrCentsRange
	}
	return a.Int64(), nil
}

// Rat returns the exact value of d as a new [big.Rat].
func (d Decimal) Rat() *big.Rat {
	a, scale := d.big()
	return new(big.Rat).SetFrac(a, pow10(scale))
}

// Float64 returns the float64 nearest to d, for display or statistics
// where exactness does not matter; never for money arithmetic.
func (d Decimal) Float64() float64 {
	f, _ := strconv.ParseFloat(d.String(), 64)
	return f
}

// String returns the canonical text: fixed-point, at least two fraction
// digits ("5.00", "0.01", "12.345").
func (d Decimal) String() string {
	if d.s == "" {
		return "0.00"
	}
	return d.s
}

// StringFixed returns d rounded half up (away from zero) to places
// fraction digits and written with exactly that many: StringFixed(2) of
// 2.345 is "2.35", of 5 is "5.00"; StringFixed(0) of 2.5 is "3".
func (d Decimal) StringFixed(places int) string {
	if places < 0 {
		places = 0
	}
	r := d.Round(places, RoundHalfUp)
	return r.fixed(places)
}

// fixed writes d with exactly places fraction digits; d has no more.
func (d Decimal) fixed(places int) string {
	s := d.String()
	i, f, _ := strings.Cut(s, ".")
	f = strings.TrimRight(f, "0")
	for len(f) < places {
		f += "0"
	}
	if places == 0 {
		return i
	}
	return i + "." + f
}

// exact writes d with all its fraction digits and none more: "5", "5.5",
// "0.01".
func (d Decimal) exact() string {
	s := d.String()
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// Format implements [fmt.Formatter]. %v and %s write the canonical text
// (as [Decimal.String] does), %q writes it quoted, %f and %F write the
// exact value with all its fraction digits ("5", "2.345"), and %.Nf rounds
// half up to N digits and writes exactly N ("%.2f" of 2.345 is "2.35").
// Width and the flags '-', '+', ' ' and '0' work as for numbers; %#v writes
// Go syntax (MustDecimal("5.00")). Other verbs write %!verb(Decimal=text).
func (d Decimal) Format(f fmt.State, verb rune) {
	var body string
	switch verb {
	case 'v':
		if f.Flag('#') {
			body = "MustDecimal(" + strconv.Quote(d.String()) + ")"
			pad(f, body, false)
			return
		}
		body = d.String()
	case 's':
		body = d.String()
	case 'q':
		pad(f, strconv.Quote(d.String()), false)
		return
	case 'f', 'F':
		if p, ok := f.Precision(); ok {
			body = d.StringFixed(p)
		} else {
			body = d.exact()
		}
	default:
		fmt.Fprintf(f, "%%!%c(Decimal=%s)", verb, d.String())
		return
	}
	pad(f, body, true)
}

// pad writes s to f with f's width and flags. Numeric padding puts '+' or
// ' ' before a non-negative number on request and zeros after the sign.
func pad(f fmt.State, s string, numeric bool) {
	if numeric && !strings.HasPrefix(s, "-") {
		switch {
		case f.Flag('+'):
			s = "+" + s
		case f.Flag(' '):
			s = " " + s
		}
	}
	w, ok := f.Width()
	if !ok || len(s) >= w {
		_, _ = f.Write([]byte(s))
		return
	}
	fill := strings.Repeat(" ", w-len(s))
	switch {
	case f.Flag('-'):
		s += fill
	case numeric && f.Flag('0'):
		sign := ""
		if s != "" && (s[0] == '-' || s[0] == '+' || s[0] == ' ') {
			sign, s = s[:1], s[1:]
		}
		s = sign + strings.Repeat("0", w-len(sign)-len(s)) + s
	default:
		s = fill + s
	}
	_, _ = f.Write([]byte(s))
}

// MarshalJSON writes the canonical text as a JSON number ("5.00").
func (d Decimal) MarshalJSON() ([]byte, error) {
	return []byte(d.String()), nil
}

// AppendText appends the canonical text to b.
func (d Decimal) AppendText(b []byte) ([]byte, error) {
	return append(b, d.String()...), nil
}

// MarshalText returns the canonical text; it is used for query parameters
// and map keys.
func (d Decimal) MarshalText() ([]byte, error) {
	return []byte(d.String()), nil
}

// UnmarshalJSON reads a JSON number, or a string holding one. JSON null
// leaves d unchanged. A value that is not a number, or one beyond
// [MaxDecimalDigits] digits, is an error: it is never read as zero.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		unq, ok := jsonx.Unquote(b)
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

// UnmarshalText parses a number as [NewDecimal] does.
func (d *Decimal) UnmarshalText(b []byte) error {
	v, err := NewDecimal(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// big returns d as an integer coefficient and a scale: d = a / 10^scale.
func (d Decimal) big() (*big.Int, int) {
	if d.s == "" {
		return new(big.Int), 0
	}
	i, f, _ := strings.Cut(d.s, ".")
	a, ok := new(big.Int).SetString(i+f, 10)
	if !ok {
		panic("rxdelivery: corrupt Decimal " + strconv.Quote(d.s))
	}
	return a, len(f)
}

// small returns d as an int64 coefficient and a scale, d = a / 10^scale,
// when its digits fit in 18; ok is false otherwise.
func (d Decimal) small() (a int64, scale int, ok bool) {
	s := d.s
	if s == "" {
		return 0, 0, true
	}
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	digits, point := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '.' {
			point = true
			continue
		}
		if digits == 18 {
			return 0, 0, false
		}
		a = a*10 + int64(c-'0')
		digits++
		if point {
			scale++
		}
	}
	if neg {
		a = -a
	}
	return a, scale, true
}

// pow10s holds 10^0 to 10^18.
var pow10s = func() [19]int64 {
	var p [19]int64
	v := int64(1)
	for i := range p {
		p[i] = v
		v *= 10
	}
	return p
}()

// mulSmall returns a × b, and false when it overflows an int64.
func mulSmall(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	if c/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return c, true
}

// addSmall returns a/10^as + b/10^bs as a coefficient and a scale, and
// false when a step overflows an int64.
func addSmall(a int64, as int, b int64, bs int) (int64, int, bool) {
	scale := max(as, bs)
	if scale-as > 18 || scale-bs > 18 {
		return 0, 0, false
	}
	a, ok1 := mulSmall(a, pow10s[scale-as])
	b, ok2 := mulSmall(b, pow10s[scale-bs])
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	c := a + b
	if (b > 0 && c < a) || (b < 0 && c > a) {
		return 0, 0, false
	}
	return c, scale, true
}

// divRoundSmall returns a / p rounded to an integer with mode; p > 0 and
// at most 10^18.
func divRoundSmall(a, p int64, mode RoundingMode) int64 {
	q, r := a/p, a%p // truncated toward zero
	if r == 0 {
		return q
	}
	if r < 0 {
		r = -r
	}
	if roundsAway(mode, cmp.Compare(2*r, p), q%2 != 0) {
		if a < 0 {
			q--
		} else {
			q++
		}
	}
	return q
}

// roundsAway reports whether a quotient truncated toward zero, whose
// remainder is not zero, moves one away from zero when rounded with mode.
// half compares twice the remainder's magnitude with the divisor (-1, 0
// or +1: short of, at or past the halfway point); odd reports whether the
// truncated quotient is odd. A mode that is none of the four rounds as
// RoundHalfEven.
func roundsAway(mode RoundingMode, half int, odd bool) bool {
	switch mode {
	case RoundDown:
		return false
	case RoundUp:
		return true
	}
	return half > 0 || half == 0 && (mode == RoundHalfUp || odd)
}

// fromSmall returns the Decimal a / 10^scale.
func fromSmall(a int64, scale int) Decimal {
	if a == 0 {
		return Decimal{}
	}
	var buf [24]byte
	text := strconv.AppendInt(buf[:0], a, 10)
	neg := text[0] == '-'
	if neg {
		text = text[1:]
	}
	return canonical(neg, string(text), len(text)-scale)
}

// align scales a and b to the larger of their scales.
func align(a *big.Int, as int, b *big.Int, bs int) (*big.Int, *big.Int, int) {
	switch {
	case as < bs:
		a.Mul(a, pow10(bs-as))
		return a, b, bs
	case bs < as:
		b.Mul(b, pow10(as-bs))
	}
	return a, b, as
}

// small holds 10^0 to 10^18, the powers most calls need.
var small = func() [19]*big.Int {
	var p [19]*big.Int
	v := int64(1)
	for i := range p {
		p[i] = big.NewInt(v)
		v *= 10
	}
	return p
}()

// pow10 returns 10^n for n >= 0. The result of a small n is shared: do not
// change it.
func pow10(n int) *big.Int {
	if n < len(small) {
		return small[n]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// divRound returns num / den rounded to an integer with mode; den > 0.
func divRound(num, den *big.Int, mode RoundingMode) *big.Int {
	q, r := new(big.Int).QuoRem(num, den, new(big.Int)) // truncated toward zero
	if r.Sign() == 0 {
		return q
	}
	twice := r.Lsh(r.Abs(r), 1) // r is not used again
	if roundsAway(mode, twice.Cmp(den), q.Bit(0) == 1) {
		if num.Sign() < 0 {
			q.Sub(q, small[0])
		} else {
			q.Add(q, small[0])
		}
	}
	return q
}

// fromBig returns the Decimal a / 10^scale.
func fromBig(a *big.Int, scale int) Decimal {
	if a.Sign() == 0 {
		return Decimal{}
	}
	text := a.Text(10)
	neg := text[0] == '-'
	if neg {
		text = text[1:]
	}
	return canonical(neg, text, len(text)-scale)
}

// canonical builds the Decimal whose digits are digits (no sign, possibly
// with leading or trailing zeros) with the point after the first point
// digits (point may be negative or beyond len(digits)).
func canonical(neg bool, digits string, point int) Decimal {
	for len(digits) > 0 && digits[0] == '0' {
		digits = digits[1:]
		point--
	}
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return Decimal{}
	}
	var b strings.Builder
	b.Grow(len(digits) + 4)
	if neg {
		b.WriteByte('-')
	}
	frac := 0
	switch {
	case point <= 0:
		b.WriteString("0.")
		for range -point {
			b.WriteByte('0')
		}
		b.WriteString(digits)
		frac = -point + len(digits)
	case point >= len(digits):
		b.WriteString(digits)
		for range point - len(digits) {
			b.WriteByte('0')
		}
		b.WriteByte('.')
	default:
		b.WriteString(digits[:point])
		b.WriteByte('.')
		b.WriteString(digits[point:])
		frac = len(digits) - point
	}
	for ; frac < 2; frac++ {
		b.WriteByte('0')
	}
	return Decimal{s: b.String()}
}

// parseDecimal reads a number in JSON grammar into its canonical form.
func parseDecimal(s string) (Decimal, error) {
	i, n := 0, len(s)
	neg := false
	if i < n && s[i] == '-' {
		neg = true
		i++
	}
	if i >= n {
		return Decimal{}, ErrInvalidDecimal
	}
	intStart := i
	switch {
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		for i < n && isDigit(s[i]) {
			i++
		}
	default:
		return Decimal{}, ErrInvalidDecimal
	}
	intDigits := s[intStart:i]
	fracDigits := ""
	if i < n && s[i] == '.' {
		i++
		start := i
		for i < n && isDigit(s[i]) {
			i++
		}
		if i == start {
			return Decimal{}, ErrInvalidDecimal
		}
		fracDigits = s[start:i]
	}
	exp := 0
	expBig := false
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		expNeg := false
		if i < n && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		start := i
		for i < n && isDigit(s[i]) {
			if exp > math.MaxInt32/10 {
				expBig = true // keep scanning: the text must still be a number
			} else {
				exp = exp*10 + int(s[i]-'0')
			}
			i++
		}
		if i == start {
			return Decimal{}, ErrInvalidDecimal
		}
		if expNeg {
			exp = -exp
		}
	}
	if i != n {
		return Decimal{}, ErrInvalidDecimal
	}
	// Fast path: money as the platform writes it ("5.00", "12.345") is
	// already canonical and is kept without building anything.
	if n == len(intDigits)+len(fracDigits)+1+boolInt(neg) && len(fracDigits) >= 2 &&
		(len(fracDigits) == 2 || fracDigits[len(fracDigits)-1] != '0') &&
		(intDigits != "0" || strings.Trim(fracDigits, "0") != "") {
		return Decimal{s: s}, nil
	}
	digits := intDigits + fracDigits
	if strings.Trim(digits, "0") == "" {
		return Decimal{}, nil // any zero, whatever its exponent
	}
	if expBig {
		return Decimal{}, ErrDecimalRange
	}
	// Count the fixed-point digits before building anything.
	lead := len(digits) - len(strings.TrimLeft(digits, "0"))
	sig := strings.Trim(digits, "0")
	point := len(intDigits) + exp - lead // digits of sig before the point
	var width int
	switch {
	case point <= 0:
		width = -point + len(sig)
	case point >= len(sig):
		width = point
	default:
		width = len(sig)
	}
	if width > MaxDecimalDigits {
		return Decimal{}, ErrDecimalRange
	}
	return canonical(neg, sig, point), nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
