package rxdelivery

import (
	"time"

	"github.com/rxdelivery/rxdelivery-go/types"
)

// The error types the SDK returns, defined in package types (go doc
// github.com/rxdelivery/rxdelivery-go/types APIError shows their fields and
// methods) and named here, so callers write errors.As(err, &apiErr) with a
// *rxdelivery.APIError whichever service returned it.
type (
	// APIError is types.APIError: a response with a status outside 2xx,
	// with the platform's id, type, code and message (every value the call
	// sent removed from them) and whether a write's outcome is unknown.
	APIError = types.APIError
	// TransportError is types.TransportError: a call that got no usable
	// response (connection failure, cut, timeout or ended context).
	TransportError = types.TransportError
	// DecodeError is types.DecodeError: a 2xx response whose body could
	// not be read whole or decoded.
	DecodeError = types.DecodeError
	// ConfigError is types.ConfigError: a client that cannot make the call
	// as configured; it names the option or variable that fixes it.
	ConfigError = types.ConfigError
	// ValidationError is types.ValidationError: every problem of invalid
	// params, each with its JSON path; nothing was sent.
	ValidationError = types.ValidationError
	// Problem is types.Problem: one entry of a ValidationError.
	Problem = types.Problem
)

// Sentinel errors, for errors.Is (defined in package types). An error
// matches every sentinel that describes it: a 429 after retries matches
// ErrRateLimited, a cancellation refused because the order was picked up
// matches ErrUnableToCancel and ErrBadRequest.
var (
	// ErrBadRequest matches 400 and 422 responses.
	ErrBadRequest = types.ErrBadRequest
	// ErrUnauthorized matches 401 responses: wrong or disabled credentials.
	ErrUnauthorized = types.ErrUnauthorized
	// ErrForbidden matches 403 responses: credentials not enabled for the
	// interface.
	ErrForbidden = types.ErrForbidden
	// ErrNotFound matches 404 responses.
	ErrNotFound = types.ErrNotFound
	// ErrRateLimited matches a 429 that outlasted the retries.
	ErrRateLimited = types.ErrRateLimited
	// ErrUnavailable matches 502, 503 and 504 responses.
	ErrUnavailable = types.ErrUnavailable
	// ErrUnableToCancel matches a cancellation the platform refused because
	// the order is past a cancellable status.
	ErrUnableToCancel = types.ErrUnableToCancel
	// ErrUnknownOutcome matches a failed create, cancel or prescription
	// change that may nevertheless have taken effect. Such calls are never
	// retried by the SDK: find out whether the write took effect (Get for a
	// cancel or a prescription change; for a create, your
	// external_reference_number is what the platform's records can be
	// matched by) before trying again.
	ErrUnknownOutcome = types.ErrUnknownOutcome
	// ErrMalformedResponse matches a 2xx response whose body could not be
	// read whole or decoded (a *DecodeError; its Incomplete field tells a
	// body that ended early from a malformed one).
	ErrMalformedResponse = types.ErrMalformedResponse
	// ErrInvalidParams matches every *ValidationError.
	ErrInvalidParams = types.ErrInvalidParams
	// ErrNoBaseURL matches a call on an interface whose base URL is unset.
	ErrNoBaseURL = types.ErrNoBaseURL
	// ErrSandboxOnly matches params with test_meta on a client that is not
	// in sandbox mode.
	ErrSandboxOnly = types.ErrSandboxOnly
	// ErrAttemptTimeout matches a call whose last attempt ran out of its
	// own time (WithAttemptTimeout, or the Timeout of a client given to
	// WithHTTPClient) while the caller's context was live. It never
	// matches context.DeadlineExceeded, which is the caller's deadline.
	ErrAttemptTimeout = types.ErrAttemptTimeout
)

// DefaultAttemptTimeout bounds each attempt of a call unless
// WithAttemptTimeout sets another bound.
const DefaultAttemptTimeout = 30 * time.Second
