package requests

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/types"
)

// Request is an omni request as the platform returns it: the caller's ask to
// have an item picked up and delivered to a patient, with the order that
// carries it out once one is associated.
type Request struct {
	// ID identifies the request; pass it to Get and Cancel.
	ID string `json:"id"`
	// ExternalReferenceNumber is the caller's own reference, as sent in
	// CreateParams.
	ExternalReferenceNumber string `json:"external_reference_number"`
	// CreatedAt is when the request was created.
	CreatedAt types.Time `json:"created_at"`
	// Order is the associated order; nil until one is associated (always
	// nil in the answer to Create).
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
	Status OrderStatus `json:"status"`
	// Pickup says when the pickup occurred; nil before it.
	Pickup *Pickup `json:"pickup"`
	// Delivery is the outcome of the delivery or delivery attempt; nil
	// before one.
	Delivery *Delivery `json:"delivery"`
	// Return says when the item was returned to the pharmacy; nil unless
	// it was.
	Return *Return `json:"return"`
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
	StatusNoteUpdatedAt types.Time `json:"status_note_updated_at"`
}

// Pickup says when the item was picked up.
type Pickup struct {
	// OccurredAt is when the pickup occurred.
	OccurredAt types.Time `json:"occurred_at"`
}

// Return says when the item was returned to the pharmacy.
type Return struct {
	// OccurredAt is when the return occurred.
	OccurredAt types.Time `json:"occurred_at"`
}

// Delivery is the outcome of a delivery or a delivery attempt. The fields
// describing a signature are set only for a successful delivery, and
// FailureReason only for an unsuccessful one.
type Delivery struct {
	// OccurredAt is when the delivery or the attempt took place.
	OccurredAt types.Time `json:"occurred_at"`
	// SignatureURL downloads the signature image. It is authenticated
	// only for a brief period and a new one is issued on every
	// retrieval, so fetch it soon or get the request again. Set only for
	// a successful delivery.
	SignatureURL string `json:"signature_url"`
	// SignedBy is the name of the recipient who signed. Set only for a
	// successful delivery.
	SignedBy string `json:"signed_by"`
	// Relationship is the recipient's relationship to the patient. Set
	// only for a successful same-day delivery.
	Relationship Relationship `json:"relationship"`
	// OtherRelationshipDescription describes the relationship when
	// Relationship is RelationshipOther (same-day deliveries only).
	OtherRelationshipDescription string `json:"other_relationship_description"`
	// FailureReason says why the delivery failed. Set only for an
	// unsuccessful delivery.
	FailureReason string `json:"failure_reason"`
	// RecipientIdentification is the identification collected at the
	// point of delivery; nil when none was.
	RecipientIdentification *RecipientIdentification `json:"recipient_identification"`
}

// Relationship is the relationship between the patient and the person who
// received a delivery. Values other than the constants are kept as sent.
type Relationship string

// Relationship values the document shows.
const (
	// RelationshipOther means the relationship is described in
	// Delivery.OtherRelationshipDescription.
	RelationshipOther Relationship = "Other"
)

// UnmarshalJSON reads the relationship tolerantly: a JSON string as is, any
// other value as its literal text, null as "".
func (r *Relationship) UnmarshalJSON(b []byte) error {
	if s, ok := enumText(b); ok {
		*r = Relationship(s)
	}
	return nil
}

// RecipientIdentification is the identification document checked at the
// point of delivery.
type RecipientIdentification struct {
	// Number is the identifier captured, such as a driver license number.
	Number string `json:"number"`
	// Type is the platform's human-readable description of the
	// identification type.
	Type string `json:"type"`
	// Qualifier is the code of the identification type.
	Qualifier IDQualifier `json:"qualifier"`
	// JurisdictionCode is the issuing jurisdiction (a two-letter state
	// code); used only for a driver license or a state issued ID.
	JurisdictionCode string `json:"jurisdiction_code"`
}

// IDQualifier is the code of a recipient identification type ("01" to
// "08"). A code the document does not list is kept as sent.
type IDQualifier string

// Identification qualifier codes.
const (
	// QualifierMilitaryID is "01", a military ID.
	QualifierMilitaryID IDQualifier = "01"
	// QualifierStateIssuedID is "02", a state issued ID.
	QualifierStateIssuedID IDQualifier = "02"
	// QualifierUniqueSystemID is "03", a unique system ID.
	QualifierUniqueSystemID IDQualifier = "03"
	// QualifierPermanentResidentCard is "04", a permanent resident card.
	QualifierPermanentResidentCard IDQualifier = "04"
	// QualifierPassportID is "05", a passport.
	QualifierPassportID IDQualifier = "05"
	// QualifierDriversLicenseID is "06", a driver's license.
	QualifierDriversLicenseID IDQualifier = "06"
	// QualifierSocialSecurityNumber is "07", a social security number.
	QualifierSocialSecurityNumber IDQualifier = "07"
	// QualifierTribalID is "08", a tribal ID.
	QualifierTribalID IDQualifier = "08"
)

var qualifierDescriptions = map[IDQualifier]string{
	QualifierMilitaryID:            "Military ID",
	QualifierStateIssuedID:         "State Issued ID",
	QualifierUniqueSystemID:        "Unique System ID",
	QualifierPermanentResidentCard: "Permanent Resident Card",
	QualifierPassportID:            "Passport ID",
	QualifierDriversLicenseID:      "Driver's License ID",
	QualifierSocialSecurityNumber:  "Social Security Number",
	QualifierTribalID:              "Tribal ID",
}

// Description returns the document's name of the identification type, such
// as "Driver's License ID" for "06", or "" for a code it does not list.
func (q IDQualifier) Description() string { return qualifierDescriptions[q] }

// Known reports whether q is one of the codes the document lists.
func (q IDQualifier) Known() bool { return qualifierDescriptions[q] != "" }

// UnmarshalJSON reads the code tolerantly: a JSON string as is, a number as
// its literal text (6 stays "6"), and null as "".
func (q *IDQualifier) UnmarshalJSON(b []byte) error {
	if s, ok := enumText(b); ok {
		*q = IDQualifier(s)
	}
	return nil
}

// Status is the status of a request (as opposed to that of its order).
type Status struct {
	// Name is the status.
	Name StatusName `json:"name"`
	// Detail refines Name; "" when the platform sent null (as it does with
	// StatusRequestReceived).
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
func (n *StatusName) UnmarshalJSON(b []byte) error {
	if s, ok := enumText(b); ok {
		*n = StatusName(s)
	}
	return nil
}

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
func (d *StatusDetail) UnmarshalJSON(b []byte) error {
	if s, ok := enumText(b); ok {
		*d = StatusDetail(s)
	}
	return nil
}

// OrderStatus is the state of an order. A value the document does not list
// is kept as sent.
type OrderStatus string

// Order statuses the document lists.
const (
	// OrderNew is an order just created.
	OrderNew OrderStatus = "new"
	// OrderSubmittedToCourier is an order handed to a courier company. The
	// platform has been seen to write it with spaces ("submitted to
	// courier"); both forms decode to this constant.
	OrderSubmittedToCourier OrderStatus = "submitted_to_courier"
	// OrderPickedUp is an order whose item was picked up.
	OrderPickedUp OrderStatus = "picked_up"
	// OrderDelivered is an order delivered to the recipient.
	OrderDelivered OrderStatus = "delivered"
	// OrderDeliveryAttempted is an order whose delivery was attempted and
	// failed.
	OrderDeliveryAttempted OrderStatus = "delivery_attempted"
	// OrderReturnedToPharmacy is an order whose item went back to the
	// pharmacy.
	OrderReturnedToPharmacy OrderStatus = "returned_to_pharmacy"
	// OrderCancelled is a cancelled order.
	OrderCancelled OrderStatus = "cancelled"
)

var orderStatuses = map[OrderStatus]bool{
	OrderNew: true, OrderSubmittedToCourier: true, OrderPickedUp: true, OrderDelivered: true,
	OrderDeliveryAttempted: true, OrderReturnedToPharmacy: true, OrderCancelled: true,
}

// Known reports whether s is one of the statuses the document lists.
func (s OrderStatus) Known() bool { return orderStatuses[s] }

// UnmarshalJSON reads the status tolerantly. A listed status written with
// spaces or in another case ("submitted to courier") becomes its constant;
// any other string is kept verbatim, a value that is not a string is kept
// as its literal text, and null gives "".
func (s *OrderStatus) UnmarshalJSON(b []byte) error {
	t, ok := enumText(b)
	if !ok {
		return nil
	}
	v := OrderStatus(t)
	if !v.Known() {
		if n := OrderStatus(strings.ReplaceAll(strings.ToLower(strings.TrimSpace(t)), " ", "_")); n.Known() {
			v = n
		}
	}
	*s = v
	return nil
}

// enumText returns the text of a JSON enum value: a string's content, or
// the literal of any other value. It reports false for null, which leaves
// the field as it was.
func enumText(b []byte) (string, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return "", false
	}
	if b[0] == '"' {
		var s string
		if json.Unmarshal(b, &s) == nil {
			return s, true
		}
	}
	return string(b), true
}

// ETA is a request's estimated delivery time. The platform writes it either
// as free text holding a date, a time range and a time zone name
// ("2024-05-01 2:00pm-4:00pm EDT") or as an ISO 8601 timestamp. ETA keeps
// the text and parses what it reliably can:
//
//   - Time is set when the whole text is an ISO 8601 timestamp (the forms
//     types.ParseTime reads).
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
	Date types.Date
}

// ParseETA reads s as the platform's delivery_eta text. It never fails: it
// sets what it can parse, as ETA describes.
func ParseETA(s string) ETA {
	e := ETA{Raw: s}
	t := strings.TrimSpace(s)
	if parsed, ok := types.ParseTime(t); ok {
		e.Time = parsed
		e.Date = types.DateOf(parsed)
		return e
	}
	if len(t) >= 10 && (len(t) == 10 || t[10] == ' ' || t[10] == 'T') {
		if d, err := types.ParseDate(t[:10]); err == nil {
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

// UnmarshalJSON reads a JSON string with ParseETA. It never fails: null
// leaves e unchanged, and a value that is not a string is kept verbatim in
// Raw.
func (e *ETA) UnmarshalJSON(b []byte) error {
	t, ok := enumText(b)
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
