package rxdelivery

import (
	"math/big"
	"time"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Interface is rxtypes.Interface: one of the platform's four interfaces
// (Omni, Delivery, Tracking, Pricing), for the options that are set per
// interface.
type Interface = rxtypes.Interface

// The platform's interfaces.
const (
	// Omni is the omni request and pharmacy lookup interface.
	Omni = rxtypes.InterfaceOmni
	// Delivery is the delivery order interface.
	Delivery = rxtypes.InterfaceDelivery
	// Tracking is the tracking subscription interface.
	Tracking = rxtypes.InterfaceTracking
	// Pricing is the pricing quote interface.
	Pricing = rxtypes.InterfacePricing
)

// Shared scalar types, the same in every service's params and models.
// They are defined in package rxtypes, where go doc shows their fields and
// methods (go doc github.com/rxdelivery/rxdelivery-go/rxtypes Decimal).
type (
	// Decimal is rxtypes.Decimal: an exact decimal number for money,
	// quantities and measures. The zero value is 0, == compares numbers
	// (5.0 == 5.00), and it goes on the wire as a JSON number.
	Decimal = rxtypes.Decimal
	// Date is rxtypes.Date: a civil date (date of birth, service date),
	// "YYYY-MM-DD" on the wire.
	Date = rxtypes.Date
	// Time is rxtypes.Time: a timestamp from a reply, decoded tolerantly;
	// the text as sent is kept in Raw.
	Time = rxtypes.Time
)

// RoundingMode says how Decimal.Round treats the digits it drops; its
// String method returns the constant's name, such as "RoundHalfUp".
type RoundingMode = rxtypes.RoundingMode

// Rounding modes of Decimal.Round; the examples round to cents.
const (
	// RoundHalfUp rounds to the nearest, a tie away from zero: 2.345 →
	// 2.35, -2.345 → -2.35. %.2f of a Decimal rounds this way.
	RoundHalfUp = rxtypes.RoundHalfUp
	// RoundHalfEven rounds to the nearest, a tie to the even digit
	// (banker's rounding): 2.345 → 2.34, 2.355 → 2.36.
	RoundHalfEven = rxtypes.RoundHalfEven
	// RoundDown drops the digits (toward zero): 2.349 → 2.34.
	RoundDown = rxtypes.RoundDown
	// RoundUp rounds away from zero when any dropped digit is not 0:
	// 2.341 → 2.35.
	RoundUp = rxtypes.RoundUp
)

// MaxDecimalDigits is the most digits, before and after the point together,
// that a Decimal parsed from text may have in fixed-point form; "1e100" is
// refused with ErrDecimalRange when parsed or decoded.
const MaxDecimalDigits = rxtypes.MaxDecimalDigits

// Errors of parsing and converting a Decimal.
var (
	// ErrInvalidDecimal matches a text that is not a decimal number.
	ErrInvalidDecimal = rxtypes.ErrInvalidDecimal
	// ErrDecimalRange matches a number beyond MaxDecimalDigits digits; it
	// matches ErrInvalidDecimal too.
	ErrDecimalRange = rxtypes.ErrDecimalRange
	// ErrNotWholeCents is returned by Decimal.Cents for an amount with a
	// fraction of a cent.
	ErrNotWholeCents = rxtypes.ErrNotWholeCents
	// ErrCentsRange is returned by Decimal.Cents when the cents do not fit
	// in an int64.
	ErrCentsRange = rxtypes.ErrCentsRange
)

// NewDecimal parses a JSON number such as "5.00", "12" or "1e-2".
func NewDecimal(s string) (Decimal, error) { return rxtypes.NewDecimal(s) }

// MustDecimal is like NewDecimal but panics on invalid input; it is meant
// for constants in code.
func MustDecimal(s string) Decimal { return rxtypes.MustDecimal(s) }

// DecimalFromCents returns the amount of cents hundredths, so 500 is 5.00.
func DecimalFromCents(cents int64) Decimal { return rxtypes.DecimalFromCents(cents) }

// DecimalFromInt returns the whole number n as a Decimal.
func DecimalFromInt(n int64) Decimal { return rxtypes.DecimalFromInt(n) }

// DecimalFromRat returns r rounded to places fraction digits with mode.
func DecimalFromRat(r *big.Rat, places int, mode RoundingMode) Decimal {
	return rxtypes.DecimalFromRat(r, places, mode)
}

// ParseDate parses an ISO 8601 calendar date such as "1980-02-29".
func ParseDate(s string) (Date, error) { return rxtypes.ParseDate(s) }

// ParseUSDate parses a date written month/day/year, as US pharmacy systems
// export it: "02/29/1980" or "2/9/1980". The year has four digits and the
// day must exist; the error never quotes s.
func ParseUSDate(s string) (Date, error) { return rxtypes.ParseUSDate(s) }

// ErrInvalidDate matches a text ParseDate refuses, and ErrInvalidUSDate
// one ParseUSDate refuses.
var (
	ErrInvalidDate   = rxtypes.ErrInvalidDate
	ErrInvalidUSDate = rxtypes.ErrInvalidUSDate
)

// Ptr returns a pointer to v, for optional params fields:
// DeliveryFee: rxdelivery.Ptr(rxdelivery.MustDecimal("5.00")).
func Ptr[T any](v T) *T { return &v }

// DateOf returns the civil date of t in t's location, such as today's
// date for a service date: rxdelivery.DateOf(time.Now()).
func DateOf(t time.Time) Date { return rxtypes.DateOf(t) }
