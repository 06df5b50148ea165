package rxdelivery

import (
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/types"
)

// Interface names one of the platform's four interfaces, for the options
// that are set per interface.
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
	// Decimal is an exact decimal for money and measures, written to JSON
	// as a number literal exactly as given ("5.00").
	Decimal = types.Decimal
	// Date is a civil date (date of birth, service date), "YYYY-MM-DD" on
	// the wire.
	Date = types.Date
	// Time is a timestamp decoded tolerantly: an odd value is kept in Raw
	// instead of failing the call.
	Time = types.Time
)

// NewDecimal parses a decimal number such as "5.00", keeping its text.
func NewDecimal(s string) (Decimal, error) { return types.NewDecimal(s) }

// MustDecimal is like NewDecimal but panics on invalid input; it is meant
// for constants in code.
func MustDecimal(s string) Decimal { return types.MustDecimal(s) }

// DecimalFromCents returns the amount of cents hundredths, so 500 is "5.00".
func DecimalFromCents(cents int64) Decimal { return types.DecimalFromCents(cents) }

// ParseDate parses an ISO 8601 calendar date such as "1980-02-29".
func ParseDate(s string) (Date, error) { return types.ParseDate(s) }

// Ptr returns a pointer to v, for optional params fields:
// DeliveryFee: rxdelivery.Ptr(rxdelivery.MustDecimal("5.00")).
func Ptr[T any](v T) *T { return &v }

// DateOf returns the civil date of t in t's location, such as today's
// date for a service date: rxdelivery.DateOf(time.Now()).
func DateOf(t time.Time) Date { return types.DateOf(t) }
