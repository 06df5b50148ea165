package pricing

import "github.com/rxdelivery/rxdelivery-go/rxtypes"

// Provider is a pricing provider key. Values the platform adds later are
// kept verbatim when decoding.
type Provider string

// The documented providers.
const (
	// ProviderAll asks for quotes of every provider; it is the default when
	// QuoteParams.Providers is empty.
	ProviderAll Provider = "all"
	// ProviderPostal is the postal carrier, the only provider in version 1.
	ProviderPostal Provider = "postal"
)

// ServiceKey is a pricing service key, such as "ground_service": what the
// quote's service field holds and what QuoteParams.ServiceLevel filters
// by. It is not the service level of a delivery order (orders.ServiceLevel:
// sameday, ondemand, shipping). Values the platform adds later are kept
// verbatim when decoding.
type ServiceKey string

// The documented service keys.
const (
	// ServiceKeyAll asks for quotes of every service; it is the default
	// when QuoteParams.ServiceLevel is empty. It is a filter value only
	// and does not appear in quotes.
	ServiceKeyAll ServiceKey = "all"
	// ServiceKeyGround is the postal carrier's ground service, the only
	// service in version 1.
	ServiceKeyGround ServiceKey = "ground_service"
)

// Quote is one delivery price. It does not reserve the rate or promise that
// a later label purchase costs the same.
type Quote struct {
	// Provider is the provider key, such as "postal".
	Provider Provider `json:"provider"`
	// Service is the service key, such as "ground_service".
	Service ServiceKey `json:"service"`
	// PriceUSD is the price in US dollars, exact.
	PriceUSD rxtypes.Decimal `json:"price_usd"`
}
