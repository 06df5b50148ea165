package orders

import (
	"encoding/json"

	"github.com/rxdelivery/rxdelivery-go/types"
)

// Order is a delivery order as the platform returns it.
//
// Responses carry different subsets: the create response has ID, Status,
// Pickup, Delivery, Return, Cancellation and ETA; the add-prescription
// response has ID, Status, Pickup, Delivery and Return; Get and GetMany
// return every field. Shipping orders have Shipping set and Pickup,
// Delivery and ETA nil; same-day and on-demand orders have Shipping nil.
type Order struct {
	// ID identifies the order.
	ID string `json:"id"`
	// Status is the current state. A status the SDK does not know is kept
	// verbatim; see Status.Known.
	Status Status `json:"status"`
	// ExternalReferenceNumber is the caller's reference, or "".
	ExternalReferenceNumber string `json:"external_reference_number"`
	// Pickup is set once the courier picked the order up. Not returned
	// for shipping orders.
	Pickup *Pickup `json:"pickup"`
	// Delivery is set once a delivery was made or attempted. Not returned
	// for shipping orders.
	Delivery *Delivery `json:"delivery"`
	// Return is set once the order was brought back to the pharmacy.
	Return *Return `json:"return"`
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
	Cost types.Decimal `json:"cost"`
	// SaturdayDelivery reports whether Saturday delivery was requested.
	SaturdayDelivery bool `json:"saturday_delivery"`
	// Delivery is set once the carrier delivered the package.
	Delivery *ShippingDelivery `json:"delivery"`
}

// ShippingDelivery is when a carrier delivered a shipping order.
type ShippingDelivery struct {
	// OccurredAt is the time of the delivery.
	OccurredAt types.Time `json:"occurred_at"`
}

// Cancellation is when and why an order was cancelled.
type Cancellation struct {
	// OccurredAt is the time of the cancellation.
	OccurredAt types.Time `json:"occurred_at"`
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
		OccurredAt         types.Time         `json:"occurred_at"`
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
	ArrivalAt types.Time `json:"arrival_at"`
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
