package rxdelivery

import (
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

// NewDecimal parses a JSON number such as "5.00", "12" or "1e-2".
func NewDecimal(s string) (Decimal, error) { return rxtypes.NewDecimal(s) }

// MustDecimal is like NewDecimal but panics on invalid input; it is meant
// for constants in code.
func MustDecimal(s string) Decimal { return rxtypes.MustDecimal(s) }

// DecimalFromCents returns the amount of cents hundredths, so 500 is 5.00.
func DecimalFromCents(cents int64) Decimal { return rxtypes.DecimalFromCents(cents) }

// ParseDate parses an ISO 8601 calendar date such as "1980-02-29".
func ParseDate(s string) (Date, error) { return rxtypes.ParseDate(s) }

// ParseUSDate parses a date written month/day/year, as US pharmacy systems
// export it: "02/29/1980" or "2/9/1980". The year has four digits and the
// day must exist; the error never quotes s.
func ParseUSDate(s string) (Date, error) { return rxtypes.ParseUSDate(s) }

// Ptr returns a pointer to v, for optional params fields:
// DeliveryFee: rxdelivery.Ptr(rxdelivery.MustDecimal("5.00")).
func Ptr[T any](v T) *T { return &v }

// DateOf returns the civil date of t in t's location, such as today's
// date for a service date: rxdelivery.DateOf(time.Now()).
func DateOf(t time.Time) Date { return rxtypes.DateOf(t) }
