package rxdelivery

import (
	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/validate"
)

// The error types the SDK returns. They are defined once in the internal
// core and named here, so callers write errors.As(err, &apiErr) with a
// *rxdelivery.APIError whichever service returned it.
type (
	// APIError is an answer with a status outside 2xx. Its fields:
	//
	//   - StatusCode int: the HTTP status.
	//   - Method, Path string: the endpoint called; Path is below the base
	//     URL, without a query string.
	//   - Interface Interface: the platform interface that answered.
	//   - ID, Type string: the omni error body's id and type (for
	//     "unable_to_cancel", ID is the request id).
	//   - Code string: the tracking error code, such as "not_found".
	//   - Message string: the platform's message.
	//   - RetryAfter time.Duration: the wait a Retry-After header asked
	//     for; zero when absent.
	//   - Body []byte: the start of the raw answer (at most 4 KiB), for
	//     diagnosis; not part of Error().
	//   - Header http.Header: the answer's headers.
	//   - Location string: for a redirect, the scheme and host it pointed
	//     to (never its path or query); redirects are not followed.
	//   - UnknownOutcome bool: the call was a side-effecting write and the
	//     status does not tell whether it took effect.
	//
	// Methods: Error() returns "rxdelivery: METHOD PATH: STATUS: type:
	// code: message"; Is(target) matches the sentinels below that describe
	// the answer (ErrBadRequest for 400 and 422, ErrRateLimited for 429,
	// ErrUnknownOutcome when UnknownOutcome is set, and so on).
	APIError = core.APIError
	// TransportError is a call that got no usable answer: connection
	// failure, cut, timeout or ended context. Fields: Method, Path string
	// (the endpoint, no query); Err error (the cause); UnknownOutcome bool
	// (a side-effecting write whose request may have reached the
	// platform). Methods: Error(); Unwrap() returns Err, so
	// errors.Is(err, context.DeadlineExceeded) works; Is(target) matches
	// ErrUnknownOutcome when UnknownOutcome is set.
	TransportError = core.TransportError
	// DecodeError is a 2xx answer whose body could not be read or decoded.
	// Fields: StatusCode int; Method, Path string; Err error (the read or
	// decode failure); Incomplete bool (the body ended early rather than
	// arriving malformed); UnknownOutcome bool (a write the platform
	// accepted whose answer was lost). Methods: Error(); Unwrap() returns
	// Err; Is(target) matches ErrMalformedResponse, and ErrUnknownOutcome
	// when UnknownOutcome is set.
	DecodeError = core.DecodeError
	// ConfigError is a client that cannot make the call as configured; it
	// names the option or variable that fixes it. Fields: Message string
	// (what is missing or wrong); Err error (the sentinel or cause, such
	// as ErrNoBaseURL). Methods: Error() returns "rxdelivery: " + Message;
	// Unwrap() returns Err.
	ConfigError = core.ConfigError
	// ValidationError lists every problem of invalid params, each with its
	// JSON path; nothing was sent. Field: Problems []Problem, in the order
	// of the fields. Methods: Error() lists them as "path: message"
	// separated by semicolons; Has(path) reports whether a problem is
	// recorded at path; Is(target) matches ErrInvalidParams.
	ValidationError = validate.ValidationError
	// Problem is one entry of a ValidationError. Fields: Path string (the
	// JSON path, such as "prescriptions[0].payers[1].bin"; empty for a
	// rule about the whole value); Message string (what the rule wants,
	// never quoting the value). Method: String() returns "path: message".
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
