package rxtypes

import "encoding/base64"

// Interface names one of the platform's four interfaces. Each has its own
// base URL and may have its own credentials; the options that are set per
// interface take one (rxdelivery.Omni is [InterfaceOmni], and so on).
type Interface int

// The platform's interfaces.
const (
	// InterfaceOmni is the omni request and pharmacy lookup interface.
	InterfaceOmni Interface = iota
	// InterfaceDelivery is the delivery order interface.
	InterfaceDelivery
	// InterfaceTracking is the tracking subscription interface.
	InterfaceTracking
	// InterfacePricing is the pricing quote interface.
	InterfacePricing
	interfaceCount
)

// Interfaces lists every interface, in order.
var Interfaces = [...]Interface{InterfaceOmni, InterfaceDelivery, InterfaceTracking, InterfacePricing}

var interfaceNames = [...]string{"omni", "delivery", "tracking", "pricing"}

// String returns the interface's lower-case name.
func (i Interface) String() string {
	if i >= 0 && i < interfaceCount {
		return interfaceNames[i]
	}
	return "unknown"
}

// URLEnv is the environment variable that holds the interface's base URL.
func (i Interface) URLEnv() string {
	return [...]string{"RXDELIVERY_OMNI_URL", "RXDELIVERY_DELIVERY_URL", "RXDELIVERY_TRACKING_URL", "RXDELIVERY_PRICING_URL"}[i]
}

// URLOption is the name of the client option that sets the base URL.
func (i Interface) URLOption() string {
	return [...]string{"WithOmniURL", "WithDeliveryURL", "WithTrackingURL", "WithPricingURL"}[i]
}

// DefaultAuthEncoding is the base64 alphabet the interface's document uses
// in its Basic auth example: URL-safe for omni, delivery and pricing,
// standard for tracking.
func (i Interface) DefaultAuthEncoding() *base64.Encoding {
	if i == InterfaceTracking {
		return base64.StdEncoding
	}
	return base64.URLEncoding
}
