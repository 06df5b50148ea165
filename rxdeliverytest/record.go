package rxdeliverytest

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/sandbox"
)

// Call is one call the simulator received, for assertions. It holds no
// header, so no credential is in it; the body is what the client sent,
// patient data included, as a test needs it.
type Call struct {
	// Operation names the endpoint, such as [OrdersCreate]; [AnyOperation]
	// ("") when the path or method matched no endpoint.
	Operation Operation
	// Method is the HTTP method.
	Method string
	// Path is the request path as the documents write it, without the
	// interface prefix of the base URL, such as "/api/v1/orders/ord_000001".
	Path string
	// Query is the decoded query string (nil when there was none).
	Query url.Values
	// Body is the JSON body decoded into maps, slices, strings, booleans,
	// nil and [json.Number] (so 5.00 stays "5.00"); nil when the call had
	// no body or it was not JSON. [Call.DecodeBody] decodes it into a type
	// of yours.
	Body map[string]any
	// Status is the HTTP status answered; 0 when the connection was cut or
	// dropped before a status was written, or while a stalled response has
	// not been written yet.
	Status int
	// Fault names the injected fault the call was answered with, as
	// [Fault.String] writes it ("" when none).
	Fault string
	// ReceivedAt is the wall-clock time at which the simulator received
	// the call (its headers read, its body not yet), from [time.Now] with
	// its monotonic reading, on the manual clock as on the real one. The
	// gap between two calls' ReceivedAt is the real time the client let
	// pass between them: the measure of whether it waited out a
	// Retry-After.
	ReceivedAt time.Time
	// SimulatedAt is the simulator's clock ([Server.Now]) at the same
	// moment: the time its scenarios and the timestamps it writes are
	// measured on. On the manual clock it moves only with [Server.Advance],
	// so calls between two Advances share it.
	SimulatedAt time.Time

	raw []byte
}

// DecodeBody decodes the call's body into v (a pointer), for instance an
// SDK params type or a struct of your own.
func (c Call) DecodeBody(v any) error {
	if len(c.raw) == 0 {
		return errors.New("rxdeliverytest: the call had no body")
	}
	return json.Unmarshal(c.raw, v)
}

// Calls returns the calls the simulator received, oldest first: the latest
// [DefaultCallRecordLimit] of them, or as many as [WithCallRecordLimit]
// says ([Server.CallCounts] counts them all). A call is listed as soon as
// the simulator has read its request, before any fault delays, withholds or
// cuts the response, so a call that returned is always in the record, one
// the client gave up on (a [Stall], a timeout) included. Its Status is
// filled when the response's status is written, before any byte of it
// reaches the client; it is 0 while a stalled response has not been
// written, and for a connection dropped without one.
func (s *Server) Calls() []Call {
	st := s.sb.Stats()
	out := make([]Call, 0, len(st.Calls))
	for _, c := range st.Calls {
		out = append(out, convertCall(c))
	}
	return out
}

// CallsTo returns the calls of one operation, oldest first.
func (s *Server) CallsTo(op Operation) []Call {
	var out []Call
	for _, c := range s.Calls() {
		if c.Operation == op {
			out = append(out, c)
		}
	}
	return out
}

// CallCounts returns how many calls the simulator received per operation
// since it started or since [Server.ResetCalls]: every call, the ones the
// record's limit ([WithCallRecordLimit]) has dropped from [Server.Calls]
// included. Calls that matched no endpoint are counted under
// [AnyOperation]; an operation never called is absent. The map is the
// caller's.
func (s *Server) CallCounts() map[Operation]int {
	counts := s.sb.CallCounts()
	out := make(map[Operation]int, len(counts))
	for op, n := range counts {
		out[Operation(op)] = n
	}
	return out
}

// ResetCalls empties the call record, its counts and the notification
// record; the simulator's requests, orders and subscriptions stay.
func (s *Server) ResetCalls() { s.sb.ResetStats() }

func convertCall(c sandbox.Call) Call {
	out := Call{
		Operation: Operation(c.Operation),
		Method:    c.Method,
		Path:      trimPrefix(c.Path),
		Status:    c.Status,
		raw:       c.Body,

		ReceivedAt:  c.ReceivedAt,
		SimulatedAt: c.SimulatedAt,
	}
	if c.Fault != "" {
		out.Fault = faultName(c.Fault)
	}
	if c.Query != "" {
		if q, err := url.ParseQuery(c.Query); err == nil {
			out.Query = q
		}
	}
	if len(c.Body) > 0 {
		dec := json.NewDecoder(bytes.NewReader(c.Body))
		dec.UseNumber()
		var m map[string]any
		if dec.Decode(&m) == nil {
			out.Body = m
		}
	}
	return out
}

// faultName rewrites the simulator's fault names as Fault.String does.
func faultName(n string) string {
	after := false
	if len(n) > 6 && n[len(n)-6:] == "_after" {
		after, n = true, n[:len(n)-6]
	}
	if after {
		return "committed, then " + n
	}
	return n
}

// Notification is one tracking notification the simulator tried to
// deliver to a listener URL.
type Notification struct {
	// TrackingNumber is the subscription's tracking number.
	TrackingNumber string
	// Status is the tracking status notified, such as "Delivered".
	Status string
	// ListenerURL is where it was posted.
	ListenerURL string
	// StatusCode is the listener's response; 0 when there was none.
	StatusCode int
	// Err describes why the listener could not be reached ("" when it
	// answered). Such a failure suspends the subscription.
	Err string
	// At is the notification's timestamp on the simulator's clock.
	At time.Time
}

// Notifications returns the notification deliveries attempted, oldest
// first.
func (s *Server) Notifications() []Notification {
	st := s.sb.Stats()
	out := make([]Notification, 0, len(st.Notifications))
	for _, n := range st.Notifications {
		out = append(out, Notification{
			TrackingNumber: n.TrackingNumber, Status: n.Status, ListenerURL: n.ListenerURL,
			StatusCode: n.StatusCode, Err: n.Err, At: n.At,
		})
	}
	return out
}
