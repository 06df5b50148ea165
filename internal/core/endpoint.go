package core

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Endpoint describes one operation of the platform. The sixteen below are
// the SDK's whole surface on the wire: a service method is its validation
// plus one call on its Endpoint.
type Endpoint struct {
	// Name is the operation as hooks, logs, spans and the test kit name
	// it: the service package and method, "orders.Create".
	Name string
	// Interface is the platform interface that serves it.
	Interface rxtypes.Interface
	// Method is the HTTP method.
	Method string
	// Route is the path below the interface's base URL with a placeholder
	// for each value: "/api/v1/orders/{id}/prescriptions/{rx_number}".
	// Hooks, spans and metrics see the route only.
	Route string
	// Hidden names the placeholders whose values errors and log lines
	// never show (a prescription number identifies a patient's
	// prescription); they show the placeholder instead.
	Hidden []string
	// Write marks a side-effecting write: it is sent again only where the
	// platform provably did not act, and any other failure leaves its
	// outcome unknown.
	Write bool
}

// The platform's endpoints, in the order of the README's Operations table.
var (
	RequestsCreate  = &Endpoint{Name: "requests.Create", Interface: rxtypes.InterfaceOmni, Method: http.MethodPost, Route: "/api/v1/requests", Write: true}
	RequestsCancel  = &Endpoint{Name: "requests.Cancel", Interface: rxtypes.InterfaceOmni, Method: http.MethodDelete, Route: "/api/v1/requests/{id}", Write: true}
	RequestsGet     = &Endpoint{Name: "requests.Get", Interface: rxtypes.InterfaceOmni, Method: http.MethodGet, Route: "/api/v1/requests/{id}"}
	RequestsGetMany = &Endpoint{Name: "requests.GetMany", Interface: rxtypes.InterfaceOmni, Method: http.MethodGet, Route: "/api/v1/requests/"}

	PharmaciesSearch       = &Endpoint{Name: "pharmacies.Search", Interface: rxtypes.InterfaceOmni, Method: http.MethodGet, Route: "/api/v1/pharmacies/"}
	PharmaciesGet          = &Endpoint{Name: "pharmacies.Get", Interface: rxtypes.InterfaceOmni, Method: http.MethodGet, Route: "/api/v1/pharmacies/{id}"}
	PharmaciesDeliveryInfo = &Endpoint{Name: "pharmacies.DeliveryInfo", Interface: rxtypes.InterfaceDelivery, Method: http.MethodGet, Route: "/api/v1/pharmacies/{id}"}

	OrdersCreate             = &Endpoint{Name: "orders.Create", Interface: rxtypes.InterfaceDelivery, Method: http.MethodPost, Route: "/api/v1/orders", Write: true}
	OrdersCancel             = &Endpoint{Name: "orders.Cancel", Interface: rxtypes.InterfaceDelivery, Method: http.MethodDelete, Route: "/api/v1/orders/{id}", Write: true}
	OrdersGet                = &Endpoint{Name: "orders.Get", Interface: rxtypes.InterfaceDelivery, Method: http.MethodGet, Route: "/api/v1/orders/{id}"}
	OrdersGetMany            = &Endpoint{Name: "orders.GetMany", Interface: rxtypes.InterfaceDelivery, Method: http.MethodGet, Route: "/api/v1/orders"}
	OrdersAddPrescription    = &Endpoint{Name: "orders.AddPrescription", Interface: rxtypes.InterfaceDelivery, Method: http.MethodPost, Route: "/api/v1/orders/{id}/prescriptions", Write: true}
	OrdersRemovePrescription = &Endpoint{Name: "orders.RemovePrescription", Interface: rxtypes.InterfaceDelivery, Method: http.MethodDelete, Route: "/api/v1/orders/{id}/prescriptions/{rx_number}", Hidden: []string{"rx_number"}, Write: true}

	TrackingSubscribe       = &Endpoint{Name: "tracking.Subscribe", Interface: rxtypes.InterfaceTracking, Method: http.MethodPost, Route: "/tracking/v1/subscriptions"}
	TrackingGetSubscription = &Endpoint{Name: "tracking.GetSubscription", Interface: rxtypes.InterfaceTracking, Method: http.MethodGet, Route: "/tracking/v1/subscriptions"}

	PricingQuote = &Endpoint{Name: "pricing.Quote", Interface: rxtypes.InterfacePricing, Method: http.MethodPost, Route: "/pricing/v1/quotes"}
)

// Endpoints lists the sixteen endpoints in the order of the README's
// Operations table.
var Endpoints = []*Endpoint{
	RequestsCreate, RequestsCancel, RequestsGet, RequestsGetMany,
	PharmaciesSearch, PharmaciesGet, PharmaciesDeliveryInfo,
	OrdersCreate, OrdersCancel, OrdersGet, OrdersGetMany, OrdersAddPrescription, OrdersRemovePrescription,
	TrackingSubscribe, TrackingGetSubscription,
	PricingQuote,
}

// Paths fills the route's placeholders, in order, with values escaped as
// path segments. It returns the path to send and the path errors and logs
// show, in which the Hidden placeholders stay as they are (":rx_number").
// It panics when the number of values differs from the number of
// placeholders: that is a mistake in the SDK, not in a call.
func (e *Endpoint) Paths(values ...string) (path, shown string) {
	rest := e.Route
	hidden := false
	for _, v := range values {
		open := strings.IndexByte(rest, '{')
		end := strings.IndexByte(rest, '}')
		if open < 0 || end < open {
			panic("rxdelivery: " + e.Name + ": more values than placeholders")
		}
		escaped := url.PathEscape(v)
		path += rest[:open] + escaped
		if name := rest[open+1 : end]; e.hides(name) {
			shown += rest[:open] + ":" + name
			hidden = true
		} else {
			shown += rest[:open] + escaped
		}
		rest = rest[end+1:]
	}
	if strings.IndexByte(rest, '{') >= 0 {
		panic("rxdelivery: " + e.Name + ": fewer values than placeholders")
	}
	if rest != "" {
		path += rest
	}
	if !hidden {
		// The common case: nothing hidden, one string for both.
		return path, path
	}
	return path, shown + rest
}

func (e *Endpoint) hides(name string) bool {
	for _, h := range e.Hidden {
		if h == name {
			return true
		}
	}
	return false
}
