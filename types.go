package rxdelivery

import (
	"math/big"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/types"
)

// Interface names one of the platform's four interfaces (Omni, Delivery,
// Tracking, Pricing), for the options that are set per interface. Methods:
// String() returns "omni", "delivery", "tracking" or "pricing"; URLEnv()
// the environment variable of its base URL (RXDELIVERY_OMNI_URL, ...);
// URLOption() the option that sets it (WithOmniURL, ...);
// DefaultAuthEncoding() the base64 alphabet of its Basic auth header
// (standard for tracking, URL-safe for the others).
type Interface = core.Interface

// The platform's interfaces.
const (
	// Omni is the omni request and pharmacy lookup interface.
	Omni = core.Omni
	// Delivery is the delivery order interface.
	Delivery = core.Delivery
	// Tracking is the tracking subscription interface.
	Tracking = core.Tracking
	// Pricing is the pricing quote interface.
	Pricing = core.Pricing
)

// Shared scalar types, the same in every service's params and models.
type (
	// Decimal is an exact decimal number for money, quantities and
	// measures, written on math/big. The zero value is 0. Two Decimals are
	// == exactly when they are the same number (5.0 == 5.00), so they can
	// be map keys; every method returns a new value.
	//
	// Make one with NewDecimal or MustDecimal ("5.00", "1e-2"),
	// DecimalFromCents, DecimalFromInt or DecimalFromRat. Methods:
	//
	//   - Add, Sub, Mul (by a Decimal) and MulInt (by an int64 quantity):
	//     exact arithmetic.
	//   - Round(places, mode): round to places fraction digits with a
	//     RoundingMode (RoundHalfUp, RoundHalfEven, RoundDown, RoundUp);
	//     Round(2, mode) rounds to cents.
	//   - Cents() (int64, error): the amount in cents; ErrNotWholeCents for
	//     a fraction of a cent, ErrCentsRange beyond int64.
	//   - Cmp, Equal, Sign, IsZero (true for any zero), Neg, Abs.
	//   - Rat() *big.Rat (exact) and Float64() (for display only).
	//   - String() and StringFixed(places): the canonical text, fixed-point
	//     with at least two fraction digits ("5.00", "0.01", "12.345"), or
	//     exactly places digits rounded half up.
	//   - Format: fmt.Formatter; %v and %s print the canonical text, %.2f
	//     rounds half up to two digits, %f prints every digit.
	//   - MarshalJSON writes the canonical text as a JSON number (never a
	//     string); UnmarshalJSON reads a number or a string holding one and
	//     refuses one beyond MaxDecimalDigits (ErrDecimalRange) instead of
	//     reading it as zero. MarshalText, UnmarshalText and AppendText use
	//     the same text.
	Decimal = types.Decimal
	// Date is a civil date (date of birth, service date): no time of day,
	// no zone, "YYYY-MM-DD" on the wire. Fields: Year int, Month
	// time.Month, Day int. Make one as a literal, with ParseDate, with
	// ParseUSDate (MM/DD/YYYY) or with DateOf. Methods: IsZero, IsValid
	// (the day exists), Compare, Before, After, In(loc) (the midnight that
	// starts it), String, AppendText, MarshalText, UnmarshalText,
	// MarshalJSON and UnmarshalJSON (a full timestamp is reduced to its
	// date as written).
	Date = types.Date
	// Time is a timestamp decoded tolerantly from a response. Fields: Time
	// (an embedded time.Time, with all its methods: the parsed instant, zero
	// when the text did not parse) and Raw string (the text as sent). A
	// text with no offset ("2024-05-16 09:00:00") or that is no timestamp
	// is kept in Raw only, never read as UTC. Methods: Valid() reports
	// whether the text parsed; IsZero() whether neither an instant nor a
	// text is held; String() returns Raw, or the instant in RFC 3339;
	// MarshalJSON writes Raw back unchanged; UnmarshalJSON never fails on
	// a string.
	Time = types.Time
)

// RoundingMode says how Decimal.Round treats the digits it drops; its
// String method returns the constant's name, such as "RoundHalfUp".
type RoundingMode = types.RoundingMode

// Rounding modes of Decimal.Round; the examples round to cents.
const (
	// RoundHalfUp rounds to the nearest, a tie away from zero: 2.345 →
	// 2.35, -2.345 → -2.35. %.2f of a Decimal rounds this way.
	RoundHalfUp = types.RoundHalfUp
	// RoundHalfEven rounds to the nearest, a tie to the even digit
	// (banker's rounding): 2.345 → 2.34, 2.355 → 2.36.
	RoundHalfEven = types.RoundHalfEven
	// RoundDown drops the digits (toward zero): 2.349 → 2.34.
	RoundDown = types.RoundDown
	// RoundUp rounds away from zero when any dropped digit is not 0:
	// 2.341 → 2.35.
	RoundUp = types.RoundUp
)

// MaxDecimalDigits is the most digits, before and after the point together,
// that a Decimal parsed from text may have in fixed-point form; "1e100" is
// refused with ErrDecimalRange when parsed or decoded.
const MaxDecimalDigits = types.MaxDecimalDigits

// Errors of parsing and converting a Decimal.
var (
	// ErrInvalidDecimal matches a text that is not a decimal number.
	ErrInvalidDecimal = types.ErrInvalidDecimal
	// ErrDecimalRange matches a number beyond MaxDecimalDigits digits; it
	// matches ErrInvalidDecimal too.
	ErrDecimalRange = types.ErrDecimalRange
	// ErrNotWholeCents is returned by Decimal.Cents for an amount with a
	// fraction of a cent.
	ErrNotWholeCents = types.ErrNotWholeCents
	// ErrCentsRange is returned by Decimal.Cents when the cents do not fit
	// in an int64.
	ErrCentsRange = types.ErrCentsRange
)

// NewDecimal parses a JSON number such as "5.00", "12" or "1e-2".
func NewDecimal(s string) (Decimal, error) { return types.NewDecimal(s) }

// MustDecimal is like NewDecimal but panics on invalid input; it is meant
// for constants in code.
func MustDecimal(s string) Decimal { return types.MustDecimal(s) }

// DecimalFromCents returns the amount of cents hundredths, so 500 is 5.00.
func DecimalFromCents(cents int64) Decimal { return types.DecimalFromCents(cents) }

// DecimalFromInt returns the whole number n as a Decimal.
func DecimalFromInt(n int64) Decimal { return types.DecimalFromInt(n) }

// DecimalFromRat returns r rounded to places fraction digits with mode.
func DecimalFromRat(r *big.Rat, places int, mode RoundingMode) Decimal {
	return types.DecimalFromRat(r, places, mode)
}

// ParseDate parses an ISO 8601 calendar date such as "1980-02-29".
func ParseDate(s string) (Date, error) { return types.ParseDate(s) }

// ParseUSDate parses a date written month/day/year, as US pharmacy systems
// export it: "02/29/1980" or "2/9/1980". The year has four digits and the
// day must exist; the error never quotes s.
func ParseUSDate(s string) (Date, error) { return types.ParseUSDate(s) }

// ErrInvalidDate matches a text ParseDate refuses, and ErrInvalidUSDate
// one ParseUSDate refuses.
var (
	ErrInvalidDate   = types.ErrInvalidDate
	ErrInvalidUSDate = types.ErrInvalidUSDate
)

// Ptr returns a pointer to v, for optional params fields:
// DeliveryFee: rxdelivery.Ptr(rxdelivery.MustDecimal("5.00")).
func Ptr[T any](v T) *T { return &v }

// DateOf returns the civil date of t in t's location, such as today's
// date for a service date: rxdelivery.DateOf(time.Now()).
func DateOf(t time.Time) Date { return types.DateOf(t) }
