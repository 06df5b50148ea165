package option

import (
	"net/http"
	"time"
)

// AttemptEnd says how one attempt of a call ended.
type AttemptEnd uint8

// How an attempt ends.
const (
	// AttemptResponded: a response came, whatever its status.
	AttemptResponded AttemptEnd = iota + 1
	// AttemptBodyCut: a 2xx response came, and its body ended early (the
	// connection was cut or reset while it was read).
	AttemptBodyCut
	// AttemptFailed: no usable response came: the connection failed or
	// was cut, or the call's context ended. [ErrorKind] says which.
	AttemptFailed
	// AttemptTimedOut: the attempt's own timeout ([WithAttemptTimeout], or
	// the Timeout of a caller's [http.Client]) ended it.
	AttemptTimedOut
	// AttemptNotSent: the attempt was stopped before its request left
	// the process: by the client's rate limiter (a wait past the
	// context's deadline, or a Retry-After that pauses the interface for
	// longer than the call may wait), by an attempt hook that did not
	// call next, or by the loopback rule.
	AttemptNotSent
)

var attemptEndText = [...]string{
	AttemptResponded: "response",
	AttemptBodyCut:   "body_cut",
	AttemptFailed:    "failed",
	AttemptTimedOut:  "attempt_timeout",
	AttemptNotSent:   "not_sent",
}

// String returns "response", "body_cut", "failed", "attempt_timeout" or
// "not_sent"; "" for the zero AttemptEnd.
func (e AttemptEnd) String() string {
	if int(e) < len(attemptEndText) {
		return attemptEndText[e]
	}
	return ""
}

// AttemptRecord is one attempt of a call, as Metadata.AttemptLog lists
// it. It holds no value the call sent and none of the platform's words
// but its request id in the safe form Metadata.RequestID describes, so
// it may be logged.
type AttemptRecord struct {
	// Number is the attempt's number: 1 for the first, 2 for the first
	// retry.
	Number int
	// Wait is the time between the end of the attempt before (the start
	// of the call, for the first) and this attempt's request going to
	// the connection: the retry's backoff or the platform's Retry-After,
	// and the client's rate limiter's turn.
	Wait time.Duration
	// Duration is how long the attempt took, from its request going to
	// the connection to its response's headers (or its failure).
	Duration time.Duration
	// End says how the attempt ended.
	End AttemptEnd
	// ErrorKind names the failure of an attempt that got no usable
	// response, as ErrorKind names errors ("transport", "canceled",
	// "deadline_exceeded", "attempt_timeout", "not_sent"); "" when a
	// response came.
	ErrorKind string
	// StatusCode is the response's status; 0 when none came.
	StatusCode int
	// RequestID is the platform's identifier of this attempt's request, in
	// the safe form Metadata.RequestID describes; "" when none came or
	// its form is not safe.
	RequestID string
	// RetryAfter is the wait the response's Retry-After header asked for;
	// zero when it had none.
	RetryAfter time.Duration
}

// RawResponse is the last response of a call as it came from the
// platform, for the callers who need what the SDK does not model: a
// header it does not read, a field a model does not know.
// [WithResponseInto] fills one.
//
// It holds the platform's raw words, which may carry patient data (a
// response repeats the names and addresses it was sent; an error message
// may echo them): keep it out of logs, traces and tickets. The SDK never
// logs it, never shows it in a transcript, and no error string holds it.
type RawResponse struct {
	// StatusCode is the response's status; 0 when the call got no
	// response.
	StatusCode int
	// Header holds the response's headers as received; nil when the call
	// got no response.
	Header http.Header
	// Body is the response's body as received: a 2xx body whole (it is
	// bounded by the client's response size limit), any other body up to
	// [MaxRawErrorBody] bytes. Nil for no response, an empty body, a 204,
	// or a 2xx body over the size limit, which the SDK does not read.
	Body []byte
	// Truncated is set when Body holds only the start of the body.
	Truncated bool
}

// MaxRawErrorBody is how much of the body of a response with a status
// outside 2xx RawResponse.Body keeps.
const MaxRawErrorBody = 64 << 10

// WithResponseInto fills *r, when the call ends, with the call's last
// response as it came from the platform: status, headers and body (see
// [RawResponse]). A call that got no response leaves *r zero. The SDK
// decodes the response as it does without the option: RawResponse is a
// copy, and the one place the SDK hands out the platform's raw words
// besides APIError.Body. It holds patient data: never log it. It exists
// for calls only: rxdelivery.NewClient refuses it.
func WithResponseInto(r *RawResponse) CallOption {
	return CallOption{func(s *Settings) {
		if s.callOnly == "" {
			s.callOnly = "WithResponseInto"
		}
		if r == nil {
			return
		}
		s.Response = r
	}}
}
