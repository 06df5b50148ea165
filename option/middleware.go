package option

import (
	"context"
	"net/http"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
)

// Class is a call's class, which decides what the retry policy may send
// again.
type Class int

const (
	// Safe calls (reads, pricing quotes, tracking subscribe, which is a
	// create-or-update) are retried on 429, 5xx, transport errors and
	// answers cut short.
	Safe Class = iota
	// Write calls (creates, cancels, prescription changes) are retried
	// only where the platform provably did not act: 429, 503 and a failed
	// connection.
	Write
)

// String returns "safe" or "write".
func (c Class) String() string {
	if c == Write {
		return "write"
	}
	return "safe"
}

// Operation is what hooks see of a call. It holds no value of the call:
// identifiers in the path are template placeholders.
type Operation struct {
	// Name is the operation: the service package and method, such as
	// "orders.Create" or "pharmacies.DeliveryInfo".
	Name string
	// Method is the HTTP method.
	Method string
	// Path is the templated path below the base URL, such as
	// "/api/v1/orders/{id}/prescriptions/{rx_number}".
	Path string
	// Interface is the platform interface: "omni", "delivery", "tracking"
	// or "pricing".
	Interface string
	// Class is Safe or Write.
	Class Class
}

func operation(op *core.Op) Operation {
	o := Operation{Name: op.Name, Method: op.Method, Path: op.Route, Interface: op.Interface.String()}
	if op.Write {
		o.Class = Write
	}
	return o
}

// Attempt is what an attempt hook sees of one attempt.
type Attempt struct {
	Operation
	// Number is the attempt's number: 1 for the first, 2 for the first
	// retry.
	Number int

	info *core.AttemptInfo
}

// SetHeader sets a header on the attempt's request, such as a trace
// context, and reports whether it set it. It returns false, and sends the
// attempt without the header, for a header the SDK sets itself (see
// WithHeader), which it does not replace, and for one that cannot be sent:
// a name that is not a token (empty, with a space or a colon) or a value
// with a line break, a NUL or another control character other than tab.
func (a *Attempt) SetHeader(key, value string) bool {
	if a.info == nil {
		return false
	}
	return a.info.SetHeader(key, value)
}

// AttemptResult is how an attempt ended.
type AttemptResult struct {
	// StatusCode is the answer's status; 0 when no answer came.
	StatusCode int
	// Header holds the answer's headers; nil when no answer came. Treat it
	// as read-only.
	Header http.Header
	// Err is why no answer came: a transport failure, the attempt's
	// timeout, the end of the context. It never holds a URL.
	Err error
}

// AttemptFunc performs one attempt.
type AttemptFunc func(ctx context.Context, a *Attempt) AttemptResult

// Middleware wraps every attempt of a call. It must call next once to
// send the request, with ctx or a context derived from it; the SDK uses
// the answer next returned whatever the middleware returns. A middleware
// that returns without calling next stops the attempt before anything is
// sent: the call fails with the AttemptResult's Err (a write's outcome is
// then known, not applied) and is not retried. See the package
// documentation for what it may log.
type Middleware func(next AttemptFunc) AttemptFunc

func (m Middleware) hook() core.AttemptHook {
	return func(next core.AttemptFunc) core.AttemptFunc {
		pub := m(func(ctx context.Context, a *Attempt) AttemptResult {
			return AttemptResult(next(ctx, a.info))
		})
		return func(ctx context.Context, info *core.AttemptInfo) core.AttemptResult {
			a := &Attempt{Operation: operation(info.Op), Number: info.Number, info: info}
			return core.AttemptResult(pub(ctx, a))
		}
	}
}

// CallResult is how a call ended.
type CallResult struct {
	// Metadata is what the SDK saw of the answer.
	Metadata Metadata
	// Err is the call's error, nil on success. Its message may repeat the
	// platform's words; record ErrorKind(Err) rather than Err.Error().
	Err error
}

// CallFunc performs a whole call: every attempt and the waits between
// them.
type CallFunc func(ctx context.Context, op *Operation) CallResult

// CallMiddleware wraps a whole call. It must call next once, with ctx or a
// context derived from it (attempt hooks run within it); the call returns
// what next returned whatever the middleware returns.
type CallMiddleware func(next CallFunc) CallFunc

func (m CallMiddleware) hook() core.CallHook {
	return func(next core.CallFunc) core.CallFunc {
		var cop *core.Op
		pub := m(func(ctx context.Context, _ *Operation) CallResult {
			r := next(ctx, cop)
			return CallResult{Metadata: Metadata(r.Meta), Err: r.Err}
		})
		return func(ctx context.Context, op *core.Op) core.CallResult {
			cop = op
			o := operation(op)
			r := pub(ctx, &o)
			return core.CallResult{Meta: core.Meta(r.Metadata), Err: r.Err}
		}
	}
}

// ErrorKind names err for logs and telemetry without its message: the
// SDK's sentinel it matches ("unknown_outcome", "rate_limited",
// "unavailable", "not_found", ...) or its kind ("transport", "canceled",
// "deadline_exceeded", "attempt_timeout", "not_sent", "api_error").
// It returns "" for nil.
func ErrorKind(err error) string { return core.ErrorKind(err) }
