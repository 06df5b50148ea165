package tracking

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// DefaultMaxBodyBytes is the largest notification body [ParseNotification]
// and [NewHandler] read unless told otherwise: 1 MiB.
const DefaultMaxBodyBytes int64 = 1 << 20

// Notification is the body the platform POSTs to a subscription's listener
// URL when the tracking status of an enabled subscription changes.
//
// Decoding is tolerant: an unknown carrier or status is kept verbatim, and a
// timestamp that does not parse keeps its text in Raw.
type Notification struct {
	// ReferenceID is the caller's reference given when subscribing; empty
	// when none was given.
	ReferenceID string `json:"reference_id,omitempty"`
	// TrackingNumber is the tracking number. Always present.
	TrackingNumber string `json:"tracking_number"`
	// Timestamp is when the platform generated the notification. Always
	// present.
	Timestamp rxtypes.Time `json:"timestamp"`
	// Carrier is POSTAL or PARCELA. Always present.
	Carrier Carrier `json:"carrier"`
	// Status is the status category of the current tracking state, such as
	// "Accepted". Always present.
	Status TrackingStatus `json:"status"`
	// StatusText is a customer-facing sentence for the status; may be empty.
	StatusText string `json:"status_text,omitempty"`
	// StatusOccurredAt is when the current status occurred. Always present.
	StatusOccurredAt rxtypes.Time `json:"status_occurred_at"`
	// Stale is set by an ordering handler ([WithOrdering],
	// [WithStaleDelivery]) on a notification at or before the latest one
	// processed for its tracking number; it is never decoded from the body.
	Stale bool `json:"-"`
	// TrackingEvents are the shipment's events in chronological order; may
	// be empty.
	TrackingEvents []TrackingEvent `json:"tracking_events,omitempty"`
}

// TrackingEvent is one event of a shipment's history. Both fields are
// optional in the document.
type TrackingEvent struct {
	// Status is the status category of the event.
	Status TrackingStatus `json:"status,omitempty"`
	// StatusOccurredAt is when the event occurred.
	StatusOccurredAt rxtypes.Time `json:"status_occurred_at"`
}

// NotificationError is a notification request that [ParseNotification]
// refused. StatusCode is the status a listener should respond with: 405 for a
// method other than POST, 413 for a body over the size limit, 400 for a
// body that is not a JSON notification (malformed JSON or missing required
// fields).
//
// Its message names fields at most; it never holds any of the body's
// content (tracking numbers, references, statuses).
type NotificationError struct {
	// StatusCode is the HTTP status to respond with.
	StatusCode int
	// Message says what is wrong, without quoting the body.
	Message string
	// Fields lists the missing or mistyped fields, by JSON path, when the
	// body's fields are the problem; an event's field has its index
	// (tracking_events[2].status), whatever the Go release.
	Fields []string
	// Err is the underlying cause, such as an *[http.MaxBytesError] or a
	// read error; nil when the content is the problem.
	Err error
}

// Error returns "rxdelivery: tracking notification: message".
func (e *NotificationError) Error() string {
	return "rxdelivery: tracking notification: " + e.Message
}

// Unwrap returns the cause.
func (e *NotificationError) Unwrap() error { return e.Err }

// ParseNotification reads the notification the platform POSTed to a
// listener URL. It refuses, with a *[NotificationError] that says which
// status to respond with, a method other than POST, a body larger than
// [DefaultMaxBodyBytes] (wrap r.Body with [http.MaxBytesReader] for another
// limit), a body that is not one JSON object, and a notification without
// tracking_number, timestamp, carrier, status or status_occurred_at.
//
// The Content-Type header is not looked at: the documents promise a JSON
// body, not a header, and a refusal could get the subscription suspended
// and the notification lost. Any body that is a valid notification is
// accepted, whatever its Content-Type says.
//
// The platform shows no signature scheme for notifications: anyone who
// knows the listener URL can POST to it. Authenticate the request yourself
// before trusting it (see [NewHandler]).
func ParseNotification(r *http.Request) (*Notification, error) {
	return parseNotification(r, DefaultMaxBodyBytes)
}

func parseNotification(r *http.Request, limit int64) (*Notification, error) {
	if r.Method != http.MethodPost {
		return nil, &NotificationError{StatusCode: http.StatusMethodNotAllowed, Message: "method must be POST"}
	}
	tooLarge := &NotificationError{StatusCode: http.StatusRequestEntityTooLarge,
		Message: "body is larger than " + strconv.FormatInt(limit, 10) + " bytes"}
	if r.ContentLength > limit {
		return nil, tooLarge
	}
	if r.Body == nil {
		return nil, &NotificationError{StatusCode: http.StatusBadRequest, Message: "body is empty"}
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		tooLarge.Err = err
		return nil, tooLarge
	case err != nil:
		return nil, &NotificationError{StatusCode: http.StatusBadRequest, Message: "reading the body failed", Err: err}
	case int64(len(data)) > limit:
		return nil, tooLarge
	}
	return decodeNotification(data)
}

// decodeNotification decodes and checks a notification body. Its errors
// never quote the body: encoding/json's own messages may hold a character
// or a value of it, so they are rewritten.
func decodeNotification(data []byte) (*Notification, error) {
	// A UTF-8 byte order mark before the JSON text, which RFC 8259 lets a
	// reader ignore and some senders write, does not make a body invalid.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, &NotificationError{StatusCode: http.StatusBadRequest, Message: "body is empty"}
	}
	var n Notification
	if err := jsonx.Unmarshal(data, &n); err != nil {
		ne := &NotificationError{StatusCode: http.StatusBadRequest, Message: "body is not valid JSON"}
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			ne.Message += " (error at byte " + strconv.FormatInt(se.Offset, 10) + ")"
		case errors.As(err, &te) && te.Field != "":
			// The same path on every Go release, with the index of an
			// event: tracking_events[0].status.
			path := jsonx.Path(data, te.Field)
			ne.Message = "field " + path + " has the wrong JSON type"
			ne.Fields = []string{path}
		case errors.As(err, &te):
			ne.Message = "body must be a JSON object"
		}
		return nil, ne
	}
	// rxtypes.Time keeps any JSON value; the two required timestamps must be
	// strings.
	var ts struct {
		Timestamp        json.RawMessage `json:"timestamp"`
		StatusOccurredAt json.RawMessage `json:"status_occurred_at"`
	}
	_ = json.Unmarshal(data, &ts)
	for _, f := range [...]struct {
		name string
		raw  json.RawMessage
	}{{"timestamp", ts.Timestamp}, {"status_occurred_at", ts.StatusOccurredAt}} {
		if len(f.raw) > 0 && f.raw[0] != '"' && string(f.raw) != "null" {
			return nil, &NotificationError{StatusCode: http.StatusBadRequest,
				Message: "field " + f.name + " has the wrong JSON type", Fields: []string{f.name}}
		}
	}
	if missing := n.missing(); len(missing) > 0 {
		return nil, &NotificationError{StatusCode: http.StatusBadRequest,
			Message: "missing required fields: " + strings.Join(missing, ", "), Fields: missing}
	}
	return &n, nil
}

// missing lists the required fields that n lacks.
func (n *Notification) missing() []string {
	var m []string
	blank := func(s string) bool { return strings.TrimSpace(s) == "" }
	if blank(n.TrackingNumber) {
		m = append(m, "tracking_number")
	}
	if blank(n.Timestamp.Raw) {
		m = append(m, "timestamp")
	}
	if blank(string(n.Carrier)) {
		m = append(m, "carrier")
	}
	if blank(string(n.Status)) {
		m = append(m, "status")
	}
	if blank(n.StatusOccurredAt.Raw) {
		m = append(m, "status_occurred_at")
	}
	return m
}
