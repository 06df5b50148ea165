package rxtypes

// The courier-delivery models: an order's status, its pickup, delivery and
// return, and the identification collected from the recipient. The omni
// request and delivery order documents describe them alike; the orders and
// requests packages use these types as they are (rxtypes.OrderStatus).

import (
	"strings"

	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
)

// OrderStatus is the current state of an order, in both interfaces (an
// orders.Order's Status, a requests.Order's Status). Decoding keeps a value
// the documents do not list verbatim, so a new platform status never fails
// a call; "submitted to courier" (with spaces, as in the document's sample)
// decodes to [OrderStatusSubmittedToCourier].
type OrderStatus string

// The order statuses of the documents.
const (
	// OrderStatusNew is an order the platform accepted and has not yet handed to
	// a courier.
	OrderStatusNew OrderStatus = "new"
	// OrderStatusSubmittedToCourier is an order handed to a courier. The delivery
	// document's sample writes it "submitted to courier"; both spellings
	// decode to this constant.
	OrderStatusSubmittedToCourier OrderStatus = "submitted_to_courier"
	// OrderStatusPickedUp is an order the courier picked up.
	OrderStatusPickedUp OrderStatus = "picked_up"
	// OrderStatusDelivered is an order delivered to the recipient.
	OrderStatusDelivered OrderStatus = "delivered"
	// OrderStatusDeliveryAttempted is an order whose delivery was attempted and
	// failed.
	OrderStatusDeliveryAttempted OrderStatus = "delivery_attempted"
	// OrderStatusReturnedToPharmacy is an order brought back to the pharmacy.
	OrderStatusReturnedToPharmacy OrderStatus = "returned_to_pharmacy"
	// OrderStatusCancelled is a cancelled order.
	OrderStatusCancelled OrderStatus = "cancelled"
)

// Known reports whether s is one of the statuses the documents list.
func (s OrderStatus) Known() bool {
	switch s {
	case OrderStatusNew, OrderStatusSubmittedToCourier, OrderStatusPickedUp, OrderStatusDelivered,
		OrderStatusDeliveryAttempted, OrderStatusReturnedToPharmacy, OrderStatusCancelled:
		return true
	}
	return false
}

// Cancellable reports whether an order in status s can still be
// cancelled: only new orders and orders submitted to a courier can.
func (s OrderStatus) Cancellable() bool {
	return s == OrderStatusNew || s == OrderStatusSubmittedToCourier
}

// Final reports whether s is an end state: delivered, returned to the
// pharmacy or cancelled.
func (s OrderStatus) Final() bool {
	return s == OrderStatusDelivered || s == OrderStatusReturnedToPharmacy || s == OrderStatusCancelled
}

// UnmarshalJSON reads a status tolerantly. A listed status written with
// spaces or in another case ("submitted to courier") becomes its constant;
// any other string is kept verbatim, a value that is not a string is kept
// as its literal text, and null leaves s unchanged.
func (s *OrderStatus) UnmarshalJSON(b []byte) error {
	t, ok := jsonx.EnumText(b)
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

// Pickup says when the courier picked the item up.
type Pickup struct {
	// OccurredAt is when the pickup occurred.
	OccurredAt Time `json:"occurred_at"`
}

// Return says when the item was brought back to the pharmacy.
type Return struct {
	// OccurredAt is when the return occurred.
	OccurredAt Time `json:"occurred_at"`
}

// Delivery is the outcome of a courier's delivery or delivery attempt. The
// fields describing a signature are set only for a successful delivery,
// and FailureReason only for an unsuccessful one.
type Delivery struct {
	// OccurredAt is when the delivery or the attempt took place.
	OccurredAt Time `json:"occurred_at"`
	// SignatureURL downloads the signature image. It is authenticated
	// only briefly and a new one is issued on every retrieval, so fetch it
	// soon after getting the order. Set only for a successful delivery.
	SignatureURL string `json:"signature_url"`
	// SignedBy is the name of the recipient who signed. Set only for a
	// successful delivery.
	SignedBy string `json:"signed_by"`
	// Relationship is the recipient's relationship to the patient. Set
	// only for a successful same-day delivery.
	Relationship Relationship `json:"relationship"`
	// OtherRelationshipDescription describes the relationship when
	// Relationship is [RelationshipOther] (same-day deliveries only).
	OtherRelationshipDescription string `json:"other_relationship_description"`
	// FailureReason says why the delivery failed. Set only for an
	// unsuccessful delivery.
	FailureReason string `json:"failure_reason"`
	// RecipientIdentification is the identification collected at the
	// point of delivery; nil when none was.
	RecipientIdentification *RecipientIdentification `json:"recipient_identification"`
}

// Succeeded reports whether the delivery succeeded: a failure reason is
// set only on an unsuccessful attempt.
func (d *Delivery) Succeeded() bool { return d != nil && d.FailureReason == "" }

// Relationship is the relationship between the patient and the person who
// received a delivery. Values other than the constants are kept as sent.
type Relationship string

// RelationshipOther means the relationship is described in
// Delivery.OtherRelationshipDescription.
const RelationshipOther Relationship = "Other"

// UnmarshalJSON reads the relationship tolerantly: a JSON string as is, any
// other value as its literal text, null as "".
func (r *Relationship) UnmarshalJSON(b []byte) error { return jsonx.Enum(b, r) }

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
// "08"). A code the documents do not list is kept as sent.
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

// Description returns the documents' name of the identification type,
// such as "Driver's License ID" for "06", or "" for a code they do not
// list.
func (q IDQualifier) Description() string {
	switch q {
	case QualifierMilitaryID:
		return "Military ID"
	case QualifierStateIssuedID:
		return "State Issued ID"
	case QualifierUniqueSystemID:
		return "Unique System ID"
	case QualifierPermanentResidentCard:
		return "Permanent Resident Card"
	case QualifierPassportID:
		return "Passport ID"
	case QualifierDriversLicenseID:
		return "Driver's License ID"
	case QualifierSocialSecurityNumber:
		return "Social Security Number"
	case QualifierTribalID:
		return "Tribal ID"
	}
	return ""
}

// Known reports whether q is one of the codes the documents list.
func (q IDQualifier) Known() bool { return q.Description() != "" }

// UnmarshalJSON reads the code tolerantly: a JSON string as is, a number
// as its two-digit form (6 becomes "06"), any other value as its literal
// text, and null as "".
func (q *IDQualifier) UnmarshalJSON(b []byte) error {
	v, ok := jsonx.EnumText(b)
	if !ok {
		return nil
	}
	if len(v) == 1 && v[0] >= '0' && v[0] <= '9' {
		v = "0" + v
	}
	*q = IDQualifier(v)
	return nil
}
