package requests

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Request is an omni request as the platform returns it: the caller's ask to
// have an item picked up and delivered to a patient, with the order that
// carries it out once one is associated.
type Request struct {
	// ID identifies the request; pass it to [Service.Get] and
	// [Service.Cancel].
	ID string `json:"id"`
	// ExternalReferenceNumber is the caller's own reference, as sent in
	// [CreateParams].
	ExternalReferenceNumber string `json:"external_reference_number"`
	// CreatedAt is when the request was created.
	CreatedAt rxtypes.Time `json:"created_at"`
	// Order is the associated order; nil until one is associated (always
	// nil in the response to [Service.Create]).
	Order *Order `json:"order"`
	// Status is the request's status; nil for a new request without an
	// order.
	Status *Status `json:"status,omitempty"`
	// DeliveryETA is the estimated delivery date and time (or time range);
	// its zero value means the platform sent none.
	DeliveryETA ETA `json:"delivery_eta"`
}

// Order is the order associated with a request. Its Status is the reference
// for the order's current state; Pickup, Delivery and Return only say when
// those events occurred and how.
type Order struct {
	// ID identifies the order.
	ID string `json:"id"`
	// CourierCompany names the courier company assigned; "" when none is.
	CourierCompany string `json:"courier_company"`
	// ExternalReferenceNumber is the order's external reference; the
	// platform sends null ("") in every shape the document gives.
	ExternalReferenceNumber string `json:"external_reference_number"`
	// Status is the order's current state.
	Status rxtypes.OrderStatus `json:"status"`
	// Pickup says when the pickup occurred; nil before it.
	Pickup *rxtypes.Pickup `json:"pickup"`
	// Delivery is the outcome of the delivery or delivery attempt; nil
	// before one.
	Delivery *rxtypes.Delivery `json:"delivery"`
	// Return says when the item was returned to the pharmacy; nil unless
	// it was.
	Return *rxtypes.Return `json:"return"`
	// CancelledBy says who cancelled the order; "" unless cancelled.
	CancelledBy string `json:"cancelled_by"`
	// CancellationReason says why the order was cancelled; "" unless
	// cancelled.
	CancellationReason string `json:"cancellation_reason"`
	// StatusNote is the platform's internal note about the current
	// status; "" when there is none.
	StatusNote string `json:"status_note"`
	// StatusNoteUpdatedAt is when StatusNote last changed; zero when the
	// platform sent null.
	StatusNoteUpdatedAt rxtypes.Time `json:"status_note_updated_at"`
}

// Status is the status of a request (as opposed to that of its order).
type Status struct {
	// Name is the status.
	Name StatusName `json:"name"`
	// Detail refines Name; "" when the platform sent null (as it does with
	// [StatusRequestReceived]).
	Detail StatusDetail `json:"detail"`
}

// StatusName is the name of a request status. The document shows only some
// values; any other is kept as sent.
type StatusName string

// Request status names the document shows.
const (
	// StatusRequestReceived means the request was received.
	StatusRequestReceived StatusName = "request_received"
	// StatusRequestIncomplete means the request could not be completed;
	// Status.Detail says why.
	StatusRequestIncomplete StatusName = "request_incomplete"
)

// UnmarshalJSON reads the name tolerantly: a JSON string as is, any other
// value as its literal text, null as "".
func (n *StatusName) UnmarshalJSON(b []byte) error { return jsonx.Enum(b, n) }

// StatusDetail refines a request status. The document shows only some
// values; any other is kept as sent.
type StatusDetail string

// Request status details the document shows.
const (
	// DetailPatientPickedUp means the patient picked the item up
	// themselves.
	DetailPatientPickedUp StatusDetail = "patient_picked_up"
	// DetailPharmacyOutOfStock means the pharmacy did not have the item.
	DetailPharmacyOutOfStock StatusDetail = "pharmacy_out_of_stock"
)

// UnmarshalJSON reads the detail tolerantly: a JSON string as is, any other
// value as its literal text, null as "".
func (d *StatusDetail) UnmarshalJSON(b []byte) error { return jsonx.Enum(b, d) }

// ETA is a request's estimated delivery time. The platform writes it either
// as free text holding a date, a time range and a time zone name
// ("2024-05-01 2:00pm-4:00pm EDT") or as an ISO 8601 timestamp. ETA keeps
// the text and parses what it reliably can:
//
//   - Time is set when the whole text is an ISO 8601 timestamp (the forms
//     [rxtypes.ParseTime] reads).
//   - Date is set when the text is such a timestamp (its date as written,
//     in the timestamp's own offset) or begins with an ISO 8601 calendar
//     date (YYYY-MM-DD) followed by the end of the text, a space or a "T".
//
// The time range and zone name of the free-text form are not parsed (zone
// abbreviations such as EDT are ambiguous): read them from Raw.
type ETA struct {
	// Raw is the text exactly as sent; "" when the platform sent none.
	Raw string
	// Time is the instant when Raw is an ISO 8601 timestamp; zero
	// otherwise.
	Time time.Time
	// Date is the calendar date Raw starts with; zero when it starts with
	// none.
	Date rxtypes.Date
}

// ParseETA reads s as the platform's delivery_eta text. It never fails: it
// sets what it can parse, as [ETA] describes.
func ParseETA(s string) ETA {
	e := ETA{Raw: s}
	t := strings.TrimSpace(s)
	if parsed, ok := rxtypes.ParseTime(t); ok {
		e.Time = parsed
		e.Date = rxtypes.DateOf(parsed)
		return e
	}
	if len(t) >= 10 && (len(t) == 10 || t[10] == ' ' || t[10] == 'T') {
		if d, err := rxtypes.ParseDate(t[:10]); err == nil {
			e.Date = d
		}
	}
	return e
}

// IsZero reports whether no ETA was sent.
func (e ETA) IsZero() bool { return e.Raw == "" && e.Time.IsZero() && e.Date.IsZero() }

// HasTime reports whether the ETA parsed as an ISO 8601 timestamp.
func (e ETA) HasTime() bool { return !e.Time.IsZero() }

// String returns the text as sent.
func (e ETA) String() string { return e.Raw }

// MarshalJSON writes the text as sent, or null when there is none.
func (e ETA) MarshalJSON() ([]byte, error) {
	if e.Raw == "" {
		if e.Time.IsZero() {
			return []byte("null"), nil
		}
		return []byte(strconv.Quote(e.Time.Format(time.RFC3339Nano))), nil
	}
	return json.Marshal(e.Raw)
}

// UnmarshalJSON reads a JSON string with [ParseETA]. It never fails: null
// leaves e unchanged, and a value that is not a string is kept verbatim in
// Raw.
func (e *ETA) UnmarshalJSON(b []byte) error {
	t, ok := jsonx.EnumText(b)
	if !ok {
		return nil
	}
	if bytes.TrimSpace(b)[0] != '"' {
		*e = ETA{Raw: t}
		return nil
	}
	*e = ParseETA(t)
	return nil
}

// requestEnvelope is the { "request": ... } wrapper of one request.
type requestEnvelope struct {
	Request *Request `json:"request"`
}

// manyEnvelope is the { "requests": [ { "request": ... }, ... ] } response of
// GetMany. Requests is nil when the member is absent.
type manyEnvelope struct {
	Requests *[]manyItem `json:"requests"`
}

// CheckResponse refuses a response without the requests array
// (core.ResponseChecker).
func (e *manyEnvelope) CheckResponse() error {
	if e.Requests == nil {
		return core.Missing(`"requests" array`)
	}
	return nil
}

// manyItem is one entry of GetMany's list: { "request": ... } as the
// document shows, or a bare request object, read tolerantly. A null entry
// leaves r nil and is skipped.
type manyItem struct {
	r *Request
}

func (m *manyItem) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil {
		return err
	}
	if inner, ok := probe["request"]; ok && strings.HasPrefix(string(bytes.TrimSpace(inner)), "{") {
		var env requestEnvelope
		if err := json.Unmarshal(b, &env); err != nil {
			return err
		}
		m.r = env.Request
		return nil
	}
	var r Request
	if err := json.Unmarshal(b, &r); err != nil {
		return err
	}
	m.r = &r
	return nil
}

// request returns the request of a { "request": … } response, or err.
func (e *requestEnvelope) request(err error) (*Request, error) {
	if err != nil {
		return nil, err
	}
	return e.Request, nil
}

// CheckResponse refuses a response without a request, or with a request
// without an id (core.ResponseChecker), so that hooks and metadata see the
// error, and a create's unknown outcome.
func (e *requestEnvelope) CheckResponse() error {
	if e.Request == nil {
		return core.Missing(`"request" object`)
	}
	if e.Request.ID == "" {
		// A request without an id cannot be found again: for a create,
		// the outcome is unknown.
		return errors.New(`the "request" object has no "id"`)
	}
	return nil
}
