package orders

import (
	"encoding/json"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Order is a delivery order as the platform returns it.
//
// Responses carry different subsets: the create response has ID, Status,
// Pickup, Delivery, Return, Cancellation and ETA; the add-prescription
// response has ID, Status, Pickup, Delivery and Return; [Service.Get] and
// [Service.GetMany] return every field. Shipping orders have Shipping set
// and Pickup, Delivery and ETA nil; same-day and on-demand orders have
// Shipping nil.
type Order struct {
	// ID identifies the order.
	ID string `json:"id"`
	// Status is the current state. A status the SDK does not know is kept
	// verbatim; see Status.Known.
	Status rxtypes.OrderStatus `json:"status"`
	// ExternalReferenceNumber is the caller's reference, or "".
	ExternalReferenceNumber string `json:"external_reference_number"`
	// Pickup is set once the courier picked the order up. Not returned
	// for shipping orders.
	Pickup *rxtypes.Pickup `json:"pickup"`
	// Delivery is set once a delivery was made or attempted. Not returned
	// for shipping orders.
	Delivery *rxtypes.Delivery `json:"delivery"`
	// Return is set once the order was brought back to the pharmacy.
	Return *rxtypes.Return `json:"return"`
	// Shipping holds the carrier data of a shipping order; nil for
	// same-day and on-demand orders.
	Shipping *Shipping `json:"shipping"`
	// Cancellation is set when the order was cancelled.
	Cancellation *Cancellation `json:"cancellation"`
	// ETA is the latest estimate of arrival; nil when none is available
	// yet, and for shipping orders.
	ETA *ETA `json:"eta"`
}

// Shipping is the carrier data of a shipping order.
type Shipping struct {
	// TrackingNumber is the carrier's tracking number.
	TrackingNumber string `json:"tracking_number"`
	// TrackingURL is the carrier's tracking page.
	TrackingURL string `json:"tracking_url"`
	// Carrier is the carrier used.
	Carrier Carrier `json:"carrier"`
	// CarrierService is the carrier service used.
	CarrierService CarrierService `json:"carrier_service"`
	// LabelPDF is the URL (or path) of the label PDF to put on the package.
	LabelPDF string `json:"label_pdf"`
	// Cost is the shipping cost.
	Cost rxtypes.Decimal `json:"cost"`
	// SaturdayDelivery reports whether Saturday delivery was requested.
	SaturdayDelivery bool `json:"saturday_delivery"`
	// Delivery is set once the carrier delivered the package.
	Delivery *ShippingDelivery `json:"delivery"`
}

// ShippingDelivery is when a carrier delivered a shipping order.
type ShippingDelivery struct {
	// OccurredAt is the time of the delivery.
	OccurredAt rxtypes.Time `json:"occurred_at"`
}

// Cancellation is when and why an order was cancelled.
type Cancellation struct {
	// OccurredAt is the time of the cancellation.
	OccurredAt rxtypes.Time `json:"occurred_at"`
	// Reason is the short phrase the platform gives. It is read from
	// either cancellation_reason (the document's schema table) or reason
	// (its sample body); a reason the SDK has no constant for is kept
	// verbatim.
	Reason CancellationReason `json:"cancellation_reason"`
}

// UnmarshalJSON reads a cancellation whose reason is keyed either
// cancellation_reason or reason; when both are set, cancellation_reason
// wins.
func (c *Cancellation) UnmarshalJSON(b []byte) error {
	var w struct {
		OccurredAt         rxtypes.Time       `json:"occurred_at"`
		CancellationReason CancellationReason `json:"cancellation_reason"`
		Reason             CancellationReason `json:"reason"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	c.OccurredAt = w.OccurredAt
	c.Reason = w.CancellationReason
	if c.Reason == "" {
		c.Reason = w.Reason
	}
	return nil
}

// ETA is an estimated time of arrival, for same-day and on-demand orders.
type ETA struct {
	// ArrivalAt is the estimated arrival. Once the order is delivered or
	// returned it is the last estimate made before.
	ArrivalAt rxtypes.Time `json:"arrival_at"`
	// Type says whether the estimate is of the pickup or the delivery.
	Type ETAType `json:"type"`
}

// orderEnvelope is the { "order": ... } wrapper of single-order responses.
type orderEnvelope struct {
	Order *Order `json:"order"`
}

// listEnvelope is the body of the get-many response: the document's
// sample keys the array orders, its schema table objects; both are read.
type listEnvelope struct {
	Orders  []Order `json:"orders"`
	Objects []Order `json:"objects"`
}

// list returns whichever array the body carried, orders first, and
// false when it carried neither.
func (e *listEnvelope) list() ([]Order, bool) {
	if e.Orders != nil {
		return e.Orders, true
	}
	if e.Objects != nil {
		return e.Objects, true
	}
	return nil, false
}

// ServiceLevel is how an order is carried: by a courier the same day
// (sameday), by a courier on demand (ondemand), or by a ground carrier
// (shipping).
//
// The platform creates a same-day order when the service_level field is
// absent, so [ServiceLevelSameday] is the empty string and [CreateParams]
// leaves the field out of the body for it. The documents show no
// "sameday" value on the wire; Validate refuses any value other than the
// three constants.
type ServiceLevel string

// The service levels of an order.
const (
	// ServiceLevelSameday is a same-day courier delivery. It is the empty
	// value: the service_level field is left out of the body.
	ServiceLevelSameday ServiceLevel = ""
	// ServiceLevelOndemand is an on-demand courier delivery.
	ServiceLevelOndemand ServiceLevel = "ondemand"
	// ServiceLevelShipping is a shipment by a ground carrier; the order
	// then needs a [ShippingParams] input.
	ServiceLevelShipping ServiceLevel = "shipping"
)

// String returns the level's wire value, or "sameday" for the absent
// value, for logs and messages.
func (l ServiceLevel) String() string {
	if l == ServiceLevelSameday {
		return "sameday"
	}
	return string(l)
}

// Initiator is the source of an order request.
type Initiator string

// InitiatorPharmacy is the only initiator the document allows.
const InitiatorPharmacy Initiator = "pharmacy"

// Refrigeration is how a prescription must be kept during transport.
type Refrigeration string

// The refrigeration values of the document.
const (
	// RefrigerationNone needs no cold chain.
	RefrigerationNone Refrigeration = "none"
	// RefrigerationFridge must be kept refrigerated.
	RefrigerationFridge Refrigeration = "fridge"
	// RefrigerationFrozen must be kept frozen.
	RefrigerationFrozen Refrigeration = "frozen"
)

// CoverageType is the rank of a payer for a prescription.
type CoverageType string

// The coverage types of the document.
const (
	// CoverageTypePrimary is the primary payer.
	CoverageTypePrimary CoverageType = "primary"
	// CoverageTypeSecondary is the secondary payer.
	CoverageTypeSecondary CoverageType = "secondary"
	// CoverageTypeTertiary is the tertiary payer.
	CoverageTypeTertiary CoverageType = "tertiary"
)

// Carrier is the ground carrier of a shipping order. The document writes
// carrier names as neutral words (POSTAL for the postal service, PARCELA
// and PARCELB for two parcel carriers); the constants hold those words.
type Carrier string

// The carriers of the document.
const (
	// CarrierPostal is the postal service.
	CarrierPostal Carrier = "POSTAL"
	// CarrierParcelA is the first parcel carrier.
	CarrierParcelA Carrier = "PARCELA"
	// CarrierParcelB is the second parcel carrier.
	CarrierParcelB Carrier = "PARCELB"
)

// CarrierService is a carrier's service (speed) for a shipping order. Each
// service belongs to one carrier; see [CarrierService.Carrier].
type CarrierService string

// The carrier services of the document.
const (
	// CarrierServiceParcelAGround is PARCELA Ground.
	CarrierServiceParcelAGround CarrierService = "PARCELA Ground"
	// CarrierServiceParcelA2ndDayAir is PARCELA 2nd Day Air; it offers
	// Saturday delivery.
	CarrierServiceParcelA2ndDayAir CarrierService = "PARCELA 2nd Day Air"
	// CarrierServiceParcelANextDayAir is PARCELA Next Day Air; it offers
	// Saturday delivery.
	CarrierServiceParcelANextDayAir CarrierService = "PARCELA Next Day Air"
	// CarrierServiceParcelB2Day is PARCELB 2 Day.
	CarrierServiceParcelB2Day CarrierService = "PARCELB 2 Day"
	// CarrierServiceParcelBStandardOvernight is PARCELB Standard Overnight.
	CarrierServiceParcelBStandardOvernight CarrierService = "PARCELB Standard Overnight"
	// CarrierServiceParcelBPriorityOvernight is PARCELB Priority Overnight.
	CarrierServiceParcelBPriorityOvernight CarrierService = "PARCELB Priority Overnight"
	// CarrierServiceParcelBGround is PARCELB Ground.
	CarrierServiceParcelBGround CarrierService = "PARCELB Ground"
	// CarrierServiceParcelBHomeDelivery is PARCELB Home Delivery.
	CarrierServiceParcelBHomeDelivery CarrierService = "PARCELB Home Delivery"
	// CarrierServicePostalPriorityMail is POSTAL Priority Mail.
	CarrierServicePostalPriorityMail CarrierService = "POSTAL Priority Mail"
	// CarrierServicePostalPriorityMailExpress is POSTAL Priority Mail
	// Express.
	CarrierServicePostalPriorityMailExpress CarrierService = "POSTAL Priority Mail Express"
	// CarrierServicePostalFirstClassMail is POSTAL First Class Mail; the
	// package must weigh under 1 pound.
	CarrierServicePostalFirstClassMail CarrierService = "POSTAL First Class Mail"
)

// Signature is the signature a carrier collects at delivery.
type Signature string

// The signatures of the document. Every carrier supports SignatureNone;
// see [Carrier.SupportsSignature] for the others.
const (
	// SignatureNone collects no signature.
	SignatureNone Signature = "none"
	// SignatureRequired has anyone sign (PARCELB: indirect signature).
	SignatureRequired Signature = "required"
	// SignatureAdultRequired has an adult sign (POSTAL: over 21).
	SignatureAdultRequired Signature = "adult_required"
	// SignaturePatient has the patient sign (POSTAL: patient over 21;
	// PARCELB: direct signature). PARCELA does not offer it.
	SignaturePatient Signature = "patient_signature"
)

// PackageCode is a carrier's predefined package. When set, the carrier's
// default dimensions for it replace any given dimensions.
type PackageCode string

// The package codes of the document, by carrier. PARCELA has none.
const (
	// PackagePostalSmallFlatRateBox is a POSTAL small flat rate box.
	PackagePostalSmallFlatRateBox PackageCode = "postal_small_flat_rate_box"
	// PackagePostalMediumFlatRateBox is a POSTAL medium flat rate box.
	PackagePostalMediumFlatRateBox PackageCode = "postal_medium_flat_rate_box"
	// PackagePostalLargeFlatRateBox is a POSTAL large flat rate box.
	PackagePostalLargeFlatRateBox PackageCode = "postal_large_flat_rate_box"
	// PackageParcelBEnvelopeOneRate is a PARCELB one-rate envelope.
	PackageParcelBEnvelopeOneRate PackageCode = "parcelb_envelope_onerate"
	// PackageParcelBSmallBoxOneRate is a PARCELB one-rate small box.
	PackageParcelBSmallBoxOneRate PackageCode = "parcelb_small_box_onerate"
	// PackageParcelBMediumBoxOneRate is a PARCELB one-rate medium box.
	PackageParcelBMediumBoxOneRate PackageCode = "parcelb_medium_box_onerate"
	// PackageParcelBLargeBoxOneRate is a PARCELB one-rate large box.
	PackageParcelBLargeBoxOneRate PackageCode = "parcelb_large_box_onerate"
	// PackageParcelBExtraLargeBoxOneRate is a PARCELB one-rate extra large
	// box.
	PackageParcelBExtraLargeBoxOneRate PackageCode = "parcelb_extra_large_box_onerate"
)

// WeightUnit is the unit of a package weight.
type WeightUnit string

// The weight units of the document.
const (
	// WeightUnitOunce is the avoirdupois ounce (16 to the pound).
	WeightUnitOunce WeightUnit = "ounce"
	// WeightUnitPound is the avoirdupois pound.
	WeightUnitPound WeightUnit = "pound"
)

// DimensionUnit is the unit of package dimensions.
type DimensionUnit string

// DimensionUnitInch is the only dimension unit the document allows.
const DimensionUnitInch DimensionUnit = "inch"

// ETAType says which event an [ETA] estimates.
type ETAType string

// The [ETA] types of the document.
const (
	// ETATypePickup estimates the courier's arrival at the pharmacy.
	ETATypePickup ETAType = "pickup"
	// ETATypeDelivery estimates the arrival at the recipient.
	ETATypeDelivery ETAType = "delivery"
)

// CancellationReason is the short phrase that says why an order was
// cancelled. The document says its list can change: a reason the SDK has no
// constant for decodes verbatim.
type CancellationReason string

// The cancellation reasons the document lists.
const (
	ReasonPatientNoLongerWants           CancellationReason = "Patient no longer wants"
	ReasonPatientCameToPickup            CancellationReason = "Patient came to pickup"
	ReasonMedicationNotReady             CancellationReason = "Medication not ready for delivery"
	ReasonNoCoverage                     CancellationReason = "No Coverage at this time"
	ReasonCopayUnpaid                    CancellationReason = "Copay Unpaid"
	ReasonCourierCompanyReassignment     CancellationReason = "Courier Company Reassignment"
	ReasonPharmacyClosed                 CancellationReason = "Pharmacy Closed"
	ReasonPharmacyClosedForLunch         CancellationReason = "Pharmacy Closed for Lunch"
	ReasonPharmacyTooBusy                CancellationReason = "Pharmacy too busy"
	ReasonPharmacyUnwillingToParticipate CancellationReason = "Pharmacy Unwilling to Participate"
	ReasonPharmacyWillingToParticipate   CancellationReason = "Pharmacy Willing to Participate"
	ReasonOutOfStock                     CancellationReason = "Out of Stock"
	ReasonUnwillingToGiveToDriver        CancellationReason = "Unwilling to give to driver"
	ReasonDriverUnwillingToWait          CancellationReason = "Driver unwilling to wait"
	ReasonUnknown                        CancellationReason = "Unknown Reason"
	ReasonPickupAddressInaccessible      CancellationReason = "Pickup Address Inaccessible"
	ReasonPickupAddressIncorrect         CancellationReason = "Pickup Address Incorrect"
	ReasonColdChainViolation             CancellationReason = "Cold Chain Violation"
	ReasonPickupContactUnavailable       CancellationReason = "Pickup Contact Unavailable"
	ReasonDeliveryJobExpired             CancellationReason = "Delivery Job Expired"
	ReasonExcessiveCourierDelay          CancellationReason = "Excessive Courier Delay"
	ReasonCourierInitiatedCancellation   CancellationReason = "Courier Initiated Cancellation"
	ReasonDuplicateJobCancellation       CancellationReason = "Duplicate Job Cancellation"
	ReasonDeliveryAlreadyCompleted       CancellationReason = "Delivery Already Completed"
	ReasonDeliveryContentsDamaged        CancellationReason = "Delivery Contents Damaged"
	ReasonDeliveryContentsIncorrect      CancellationReason = "Delivery Contents Incorrect"
	ReasonNotReadyForPickup              CancellationReason = "Not Ready for Pickup"
	ReasonOrderCanceled                  CancellationReason = "Order Canceled"
	ReasonIncompleteOrderContents        CancellationReason = "Incomplete Order Contents"
	ReasonOrderNotFound                  CancellationReason = "Order Not Found"
	ReasonWaitTimeExceededAtPickup       CancellationReason = "Wait Time Exceeded at Pickup"
	ReasonItemNotAsDescribed             CancellationReason = "Item Not As Described"
	ReasonOther                          CancellationReason = "Other"
)

// CancellationReasons lists the reasons the document names, in its order.
// The platform may send others.
func CancellationReasons() []CancellationReason {
	return []CancellationReason{
		ReasonPatientNoLongerWants, ReasonPatientCameToPickup, ReasonMedicationNotReady,
		ReasonNoCoverage, ReasonCopayUnpaid, ReasonCourierCompanyReassignment,
		ReasonPharmacyClosed, ReasonPharmacyClosedForLunch, ReasonPharmacyTooBusy,
		ReasonPharmacyUnwillingToParticipate, ReasonPharmacyWillingToParticipate,
		ReasonOutOfStock, ReasonUnwillingToGiveToDriver, ReasonDriverUnwillingToWait,
		ReasonUnknown, ReasonPickupAddressInaccessible, ReasonPickupAddressIncorrect,
		ReasonColdChainViolation, ReasonPickupContactUnavailable, ReasonDeliveryJobExpired,
		ReasonExcessiveCourierDelay, ReasonCourierInitiatedCancellation,
		ReasonDuplicateJobCancellation, ReasonDeliveryAlreadyCompleted,
		ReasonDeliveryContentsDamaged, ReasonDeliveryContentsIncorrect,
		ReasonNotReadyForPickup, ReasonOrderCanceled, ReasonIncompleteOrderContents,
		ReasonOrderNotFound, ReasonWaitTimeExceededAtPickup, ReasonItemNotAsDescribed,
		ReasonOther,
	}
}

// Known reports whether r is one of the reasons the document lists.
func (r CancellationReason) Known() bool {
	for _, k := range CancellationReasons() {
		if r == k {
			return true
		}
	}
	return false
}
