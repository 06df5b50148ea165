package rxdelivery

// The names this package gives to package rxtypes's types, values and
// constructors, for the code a program writes every day: the interfaces,
// Decimal, Date and Time, the error types and the sentinel errors. Each is
// defined in rxtypes, where go doc shows its fields and methods.

import (
	"time"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Interface is [rxtypes.Interface]: one of the platform's four interfaces
// ([Omni], [Delivery], [Tracking], [Pricing]), for the options that are set
// per interface.
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
	// Decimal is [rxtypes.Decimal]: an exact decimal number for money,
	// quantities and measures. The zero value is 0, == compares numbers
	// (5.0 == 5.00), and it goes on the wire as a JSON number.
	Decimal = rxtypes.Decimal
	// Date is [rxtypes.Date]: a civil date (date of birth, service date),
	// "YYYY-MM-DD" on the wire.
	Date = rxtypes.Date
	// Time is [rxtypes.Time]: a timestamp from a reply, decoded tolerantly;
	// the text as sent is kept in Raw.
	Time = rxtypes.Time
)

// NewDecimal parses a JSON number such as "5.00", "12" or "1e-2".
func NewDecimal(s string) (Decimal, error) { return rxtypes.NewDecimal(s) }

// MustDecimal is like [NewDecimal] but panics on invalid input; it is meant
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

// The error types the SDK returns, defined in package rxtypes (go doc
// github.com/rxdelivery/rxdelivery-go/rxtypes APIError shows their fields and
// methods) and named here, so callers write errors.As(err, &apiErr) with a
// *rxdelivery.APIError whichever service returned it.
type (
	// APIError is [rxtypes.APIError]: a response with a status outside 2xx,
	// with the platform's id, type, code and message (every value the call
	// sent removed from them) and whether a write's outcome is unknown.
	APIError = rxtypes.APIError
	// TransportError is [rxtypes.TransportError]: a call that got no usable
	// response (connection failure, cut, timeout or ended context).
	TransportError = rxtypes.TransportError
	// DecodeError is [rxtypes.DecodeError]: a 2xx response whose body could
	// not be read whole or decoded.
	DecodeError = rxtypes.DecodeError
	// ConfigError is [rxtypes.ConfigError]: a client that cannot make the call
	// as configured; it names the option or variable that fixes it.
	ConfigError = rxtypes.ConfigError
	// ValidationError is [rxtypes.ValidationError]: every problem of invalid
	// params, each with its JSON path; nothing was sent.
	ValidationError = rxtypes.ValidationError
	// Problem is [rxtypes.Problem]: one entry of a [ValidationError].
	Problem = rxtypes.Problem
	// PlatformError is [rxtypes.PlatformError]: what the platform said in
	// an error response, as it said it, for the person entitled to read
	// it (APIError.Platform); patient data, never logged.
	PlatformError = rxtypes.PlatformError
	// PlatformDetail is [rxtypes.PlatformDetail]: one field-level detail
	// of a [PlatformError].
	PlatformDetail = rxtypes.PlatformDetail
	// WatchError is [rxtypes.WatchError]: the end of a watch on a resource
	// with a status the documents do not list, or gone from a get-many
	// response.
	WatchError = rxtypes.WatchError
	// NotSentError is [rxtypes.NotSentError]: the cause of a
	// *[TransportError] whose request never left the process because a
	// pause, the rate limiter, the context's deadline or a hook refused it
	// ([ErrNotSent]); PausedUntil holds the end of a pause that refused it.
	NotSentError = rxtypes.NotSentError
)

// Sentinel errors, for [errors.Is] (defined in package rxtypes). An error
// matches every sentinel that describes it: a 429 after retries matches
// ErrRateLimited, a cancellation refused because the order was picked up
// matches ErrUnableToCancel and ErrBadRequest.
var (
	// ErrBadRequest matches 400 and 422 responses.
	ErrBadRequest = rxtypes.ErrBadRequest
	// ErrUnauthorized matches 401 responses: wrong or disabled credentials.
	ErrUnauthorized = rxtypes.ErrUnauthorized
	// ErrForbidden matches 403 responses: credentials not enabled for the
	// interface.
	ErrForbidden = rxtypes.ErrForbidden
	// ErrNotFound matches 404 responses.
	ErrNotFound = rxtypes.ErrNotFound
	// ErrRateLimited matches a 429 that outlasted the retries, and a call
	// a Retry-After's pause refused before sending (which also matches
	// ErrNotSent).
	ErrRateLimited = rxtypes.ErrRateLimited
	// ErrUnavailable matches 502, 503 and 504 responses.
	ErrUnavailable = rxtypes.ErrUnavailable
	// ErrUnableToCancel matches a cancellation the platform refused because
	// the order is past a cancellable status.
	ErrUnableToCancel = rxtypes.ErrUnableToCancel
	// ErrUnknownOutcome matches a failed create, cancel or prescription
	// change that may nevertheless have taken effect. Such calls are never
	// retried by the SDK: find out whether the write took effect (Get for a
	// cancel or a prescription change; for a create, your
	// external_reference_number is what the platform's records can be
	// matched by) before trying again.
	ErrUnknownOutcome = rxtypes.ErrUnknownOutcome
	// ErrMalformedResponse matches a 2xx response whose body could not be
	// read whole or decoded (a *[DecodeError]; its Incomplete field tells a
	// body that ended early from a malformed one).
	ErrMalformedResponse = rxtypes.ErrMalformedResponse
	// ErrInvalidParams matches every *[ValidationError].
	ErrInvalidParams = rxtypes.ErrInvalidParams
	// ErrNoBaseURL matches a call on an interface whose base URL is unset.
	ErrNoBaseURL = rxtypes.ErrNoBaseURL
	// ErrSandboxOnly matches params with test_meta on a client that is not
	// in sandbox mode.
	ErrSandboxOnly = rxtypes.ErrSandboxOnly
	// ErrAttemptTimeout matches a call whose last attempt ran out of its
	// own time ([WithAttemptTimeout], or the Timeout of a client given to
	// [WithHTTPClient]) while the caller's context was live. It never
	// matches [context.DeadlineExceeded], which is the caller's deadline.
	ErrAttemptTimeout = rxtypes.ErrAttemptTimeout
	// ErrUnknownStatus matches a *[WatchError] for a status the documents
	// do not list: a watch ends on it rather than poll a status it cannot
	// tell is final.
	ErrUnknownStatus = rxtypes.ErrUnknownStatus
	// ErrNotSent matches every call whose request never left the process
	// because something refused it before sending: a pause a Retry-After
	// set on the interface, the rate limiter, the context's deadline, a
	// hook. Its error is a *[TransportError] whose cause is a
	// *[NotSentError]; a write that fails so was not applied. A 429 the
	// platform sent is an *[APIError] and does not match it.
	ErrNotSent = rxtypes.ErrNotSent
)
