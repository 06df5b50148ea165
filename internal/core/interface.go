package core

import "encoding/base64"

// Interface names one of the platform's four interfaces. Each has its own
// base URL and may have its own credentials.
type Interface int

// The platform's interfaces.
const (
	// Omni is the omni request and pharmacy lookup interface.
	Omni Interface = iota
	// Delivery is the delivery order interface.
	Delivery
	// Tracking is the tracking subscription interface.
	Tracking
	// Pricing is the pricing quote interface.
	Pricing
	numInterfaces
)

// Interfaces lists every interface, in order.
var Interfaces = [...]Interface{Omni, Delivery, Tracking, Pricing}

var interfaceNames = [...]string{"omni", "delivery", "tracking", "pricing"}

// String returns the interface's lower-case name.
func (i Interface) String() string {
	if i >= 0 && i < numInterfaces {
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
	if i == Tracking {
		return base64.StdEncoding
	}
	return base64.URLEncoding
}
