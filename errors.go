package rxdelivery

import (
	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/validate"
)

// The error types the SDK returns. They are defined once in the internal
// core and named here, so callers write errors.As(err, &apiErr) with a
// *rxdelivery.APIError whichever service returned it.
type (
	// APIError is an answer with a status outside 2xx, with the platform's
	// error body (id, type, code, message) and any Retry-After.
	APIError = core.APIError
	// TransportError is a call that got no usable answer: connection
	// failure, cut, timeout or ended context.
	TransportError = core.TransportError
	// DecodeError is a 2xx answer whose body could not be read or decoded.
	DecodeError = core.DecodeError
	// ConfigError is a client that cannot make the call as configured; it
	// names the option or variable that fixes it.
	ConfigError = core.ConfigError
	// ValidationError lists every problem of invalid params, each with its
	// JSON path. Nothing was sent.
	ValidationError = validate.ValidationError
	// Problem is one entry of a ValidationError.
	Problem = validate.Problem
)

// Sentinel errors, for errors.Is. An error matches every sentinel that
// describes it: a 429 after retries matches ErrRateLimited, a cancellation
// refused because the order was picked up matches ErrUnableToCancel and
// ErrBadRequest.
var (
	// ErrBadRequest matches 400 and 422 answers.
	ErrBadRequest = core.ErrBadRequest
	// ErrUnauthorized matches 401 answers: wrong or disabled credentials.
	ErrUnauthorized = core.ErrUnauthorized
	// ErrForbidden matches 403 answers: credentials not enabled for the
	// interface.
	ErrForbidden = core.ErrForbidden
	// ErrNotFound matches 404 answers.
	ErrNotFound = core.ErrNotFound
	// ErrRateLimited matches a 429 that outlasted the retry budget.
	ErrRateLimited = core.ErrRateLimited
	// ErrUnavailable matches 502, 503 and 504 answers.
	ErrUnavailable = core.ErrUnavailable
	// ErrUnableToCancel matches a cancellation the platform refused because
	// the order is past a cancellable status.
	ErrUnableToCancel = core.ErrUnableToCancel
	// ErrUnknownOutcome matches a failed create, cancel or prescription
	// change that may nevertheless have taken effect. Such calls are never
	// retried by the SDK: find out whether the write took effect (Get for a
	// cancel or a prescription change; for a create, your
	// external_reference_number is what the platform's records can be
	// matched by) before trying again.
	ErrUnknownOutcome = core.ErrUnknownOutcome
	// ErrMalformedResponse matches a 2xx answer whose body could not be
	// read whole or decoded (a *DecodeError; its Incomplete field tells a
	// body that ended early from a malformed one).
	ErrMalformedResponse = core.ErrMalformedResponse
	// ErrInvalidParams matches every *ValidationError.
	ErrInvalidParams = validate.ErrInvalidParams
	// ErrNoBaseURL matches a call on an interface whose base URL is unset.
	ErrNoBaseURL = core.ErrNoBaseURL
	// ErrSandboxOnly matches params with test_meta on a client that is not
	// in sandbox mode.
	ErrSandboxOnly = core.ErrSandboxOnly
	// ErrAttemptTimeout matches a call whose last attempt ran out of its
	// own time (WithAttemptTimeout, or the Timeout of a client given to
	// WithHTTPClient) while the caller's context was live. It never
	// matches context.DeadlineExceeded, which is the caller's deadline.
	ErrAttemptTimeout = core.ErrAttemptTimeout
)

// DefaultAttemptTimeout bounds each attempt of a call unless
// WithAttemptTimeout sets another bound.
const DefaultAttemptTimeout = core.DefaultAttemptTimeout
