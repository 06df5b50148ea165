package tracking

import "github.com/rxdelivery/rxdelivery-go/rxtypes"

// Carrier is the carrier of a tracking number. Values the platform adds
// later are kept verbatim.
type Carrier string

// The documented carriers.
const (
	// CarrierPostal is the postal service carrier.
	CarrierPostal Carrier = "POSTAL"
	// CarrierParcelA is the parcel carrier the documents call PARCELA; the
	// orders package names it the same (orders.CarrierParcelA).
	CarrierParcelA Carrier = "PARCELA"
)

// SubscriptionStatus is the state of a subscription. Values the platform
// adds later are kept verbatim.
type SubscriptionStatus string

// The documented subscription statuses.
const (
	// StatusEnabled is an active subscription: notifications are sent to
	// the listener URL.
	StatusEnabled SubscriptionStatus = "ENABLED"
	// StatusDisabled is a subscription that was enabled and has ended.
	StatusDisabled SubscriptionStatus = "DISABLED"
	// StatusSuspended is a subscription whose notifications could not be
	// delivered to the listener URL (it was unreachable or invalid);
	// notifications have stopped. Subscribing again with a working
	// listener URL updates it.
	StatusSuspended SubscriptionStatus = "SUSPENDED"
)

// TrackingStatus is the carrier-agnostic status category of a shipment's
// tracking state, as notifications carry it. The documents give samples
// only, not the full list: any other value is kept verbatim.
type TrackingStatus string

// Tracking status categories the documents show as samples.
const (
	// TrackingAccepted is a shipment the carrier has accepted.
	TrackingAccepted TrackingStatus = "Accepted"
	// TrackingMovingThroughNetwork is a shipment in transit in the
	// carrier's network.
	TrackingMovingThroughNetwork TrackingStatus = "Moving Through Network"
)

// The tracking interface's error codes, as an *rxdelivery.APIError carries
// them in its Code field. Compare with apiErr.Code == tracking.CodeNotFound.
const (
	// CodeInvalidRequest (400): tracking_number missing or not a string,
	// body not valid JSON, or Content-Type not application/json.
	CodeInvalidRequest = "invalid_request"
	// CodeUnauthorized (401): the Authorization header is missing or not
	// Basic, or the key or secret is invalid or disabled.
	CodeUnauthorized = "unauthorized"
	// CodeForbidden (403): the credentials are not enabled for tracking.
	CodeForbidden = "forbidden"
	// CodeNotFound (404): no subscription for the tracking number.
	CodeNotFound = "not_found"
	// CodeMethodNotAllowed (405): the method is not allowed on the route.
	CodeMethodNotAllowed = "method_not_allowed"
	// CodeNotAcceptable (406): the Accept header is not application/json.
	CodeNotAcceptable = "not_acceptable"
	// CodeRateLimitExceeded (429): too many requests; the error's
	// RetryAfter holds the Retry-After header when one was sent.
	CodeRateLimitExceeded = "rate_limit_exceeded"
	// CodeInternalError (500): an unexpected error on the platform.
	CodeInternalError = "internal_error"
	// CodeBadGateway (502): the upstream provider could not subscribe the
	// tracking number.
	CodeBadGateway = "bad_gateway"
	// CodeServiceUnavailable (503): the interface is temporarily
	// unavailable.
	CodeServiceUnavailable = "service_unavailable"
)

// Subscription is a tracking number's subscription to notifications.
type Subscription struct {
	// ReferenceID is the caller's reference stored with the subscription;
	// empty when none was given. Lookups do not filter on it.
	ReferenceID string `json:"reference_id"`
	// TrackingNumber is the subscribed tracking number.
	TrackingNumber string `json:"tracking_number"`
	// Carrier is the tracking number's carrier: POSTAL or PARCELA.
	Carrier Carrier `json:"carrier"`
	// Status is ENABLED, DISABLED or SUSPENDED.
	Status SubscriptionStatus `json:"subscription_status"`
	// StatusReason gives detail on the status when the platform has some;
	// empty otherwise.
	StatusReason string `json:"subscription_status_reason"`
	// SubscribedAt is when the subscription was created.
	SubscribedAt rxtypes.Time `json:"subscribed_at"`
	// UpdatedAt is when the subscription was last updated.
	UpdatedAt rxtypes.Time `json:"updated_at"`

	// Created is true when [Service.Subscribe] got the response 201
	// Created, that is when the platform reports a new subscription rather
	// than an update. It is false for any other 2xx response and for
	// [Service.GetSubscription]. It is not part of the platform's body.
	Created bool `json:"-"`
}
