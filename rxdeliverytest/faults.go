package rxdeliverytest

import (
	"net/http"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/sandbox"
)

// Operation names one of the platform's endpoints, as the SDK's service
// method that calls it is named, such as "orders.Create". [Server.FailNext]
// and [Call] use it.
type Operation string

// Operations lists every operation, in the order of the documents in api/
// (docs/endpoints.md).
func Operations() []Operation {
	out := make([]Operation, len(sandbox.Operations))
	for i, o := range sandbox.Operations {
		out[i] = Operation(o)
	}
	return out
}

// Fault is a failure the simulator answers a call with instead of its
// normal response. Build one with [RateLimited], [RateLimitedUntil],
// [Unavailable], [ServerError], [StatusError], [Cut], [Drop], [Stall],
// [StallFor], [Malformed] or [CommittedThenFailed], and queue it with
// [Server.FailNext].
type Fault struct {
	f sandbox.Fault
}

// RateLimited responds 429 with a Retry-After header in whole seconds,
// rounded up; zero or less sends "Retry-After: 0".
//
// A client does not sleep a Retry-After longer than its wait cap: it
// returns at once an error that carries the wait (rxdelivery.APIError's
// RetryAfter). With the kit's client (a cap of a few milliseconds), any
// whole second tests that path, and RateLimited(0) tests the path where
// the client retries.
func RateLimited(retryAfter time.Duration) Fault {
	if retryAfter <= 0 {
		retryAfter = -1
	}
	return Fault{sandbox.Fault{Kind: sandbox.FaultRateLimit, RetryAfter: retryAfter}}
}

// RateLimitedUntil responds 429 with a Retry-After header written as an
// HTTP date, retryAfter from now in real time (one second when zero or
// less). Dates have a resolution of one second.
func RateLimitedUntil(retryAfter time.Duration) Fault {
	if retryAfter <= 0 {
		retryAfter = time.Second
	}
	return Fault{sandbox.Fault{Kind: sandbox.FaultRateLimit, Name: "rate_limit_date", RetryAfter: retryAfter, RetryAfterDate: true}}
}

// Unavailable responds 503 (maintenance), with a Retry-After header in
// seconds when retryAfter is above zero.
func Unavailable(retryAfter time.Duration) Fault {
	return Fault{sandbox.Fault{Kind: sandbox.FaultUnavailable, RetryAfter: max(retryAfter, 0)}}
}

// ServerError responds 500 with an error body in the interface's shape.
func ServerError() Fault {
	return Fault{sandbox.Fault{Kind: sandbox.FaultStatus, Name: "server_error", Status: http.StatusInternalServerError}}
}

// StatusError answers status (such as 502) with an error body in the
// interface's shape: omni {"error":{"id","type","message"}}, delivery and
// pricing {"error":{"message"}}, tracking {"error":{"code","message"}}.
func StatusError(status int) Fault {
	return Fault{sandbox.Fault{Kind: sandbox.FaultStatus, Status: status}}
}

// Cut sends a status line and headers announcing a full body, part of the
// body, and then closes the connection.
func Cut() Fault { return Fault{sandbox.Fault{Kind: sandbox.FaultCut}} }

// Drop closes the connection without answering anything.
func Drop() Fault { return Fault{sandbox.Fault{Kind: sandbox.FaultDrop}} }

// Stall never answers: the call hangs until the client gives up (its
// context ends or its timeout runs out) or the server closes. Use it to
// test deadlines.
func Stall() Fault { return Fault{sandbox.Fault{Kind: sandbox.FaultSlow, Name: "stall"}} }

// StallFor waits d of real time (not the simulator's clock), then answers
// normally; the wait ends early when the client gives up.
func StallFor(d time.Duration) Fault {
	return Fault{sandbox.Fault{Kind: sandbox.FaultSlow, Name: "stall", Delay: d}}
}

// Malformed responds 200 with Content-Type application/json and a body that
// is not valid JSON.
func Malformed() Fault { return Fault{sandbox.Fault{Kind: sandbox.FaultMalformed}} }

// CommittedThenFailed carries the call out (a create really creates, a
// cancel really cancels) and then responds 500 instead of the real response:
// the platform did the work, the caller cannot know it. A write failing
// this way returns an error the SDK marks as an unknown outcome, so it
// exercises the caller's reconciliation path. It is Committed(ServerError()).
func CommittedThenFailed() Fault { return Committed(ServerError()) }

// Committed returns f applied after the call has been carried out: the
// simulator serves the call normally, keeps the effect, and responses with f
// in place of the real response (an error status, a cut or dropped
// connection, a malformed body; [StallFor] delays the real response). Use
// it with [Cut] for a response lost on the wire after the commit.
func Committed(f Fault) Fault {
	f.f.After = true
	return f
}

// String names the fault as Call.Fault does, with the kind the control
// API injects it by (rate_limit, rate_limit_date, unavailable,
// server_error, status, cut, drop, stall, malformed), after
// "committed, then " for a [Committed] fault ([CommittedThenFailed] is
// "committed, then server_error").
func (f Fault) String() string {
	name := f.f.Kind.String()
	if f.f.Name != "" {
		name = f.f.Name
	}
	if f.f.After {
		name = "committed, then " + name
	}
	return name
}

// FailNext makes the next n calls of op ([AnyOperation]: of any operation)
// answer with f instead of their normal response. Faults queue in the order
// they were added; each call uses the first one that matches. A fault
// applies before authentication, so a call with wrong credentials fails
// with f too. Retries by the client are calls: FailNext(op, 2, ...) fails
// a first attempt and its first retry. A negative n fails every call of op
// until [Server.ClearFaults]; zero adds nothing.
func (s *Server) FailNext(op Operation, n int, f Fault) {
	if n == 0 || f.f.Kind == 0 {
		return
	}
	ff := f.f
	ff.Operation = string(op)
	ff.Times = n
	if n < 0 {
		ff.Times = -1
	}
	s.sb.InjectFault(ff)
}

// ClearFaults removes every fault still queued.
func (s *Server) ClearFaults() { s.sb.ClearFaults() }
