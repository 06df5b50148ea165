package rxdeliverytest

import (
	"strings"

	"github.com/rxdelivery/rxdelivery-go/internal/sandbox"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// SetOrderStatus puts delivery order id in status, one of the order
// statuses of the documents ([rxtypes.OrderStatusNew] ...
// [rxtypes.OrderStatusCancelled]), at the simulator's current time, filling
// the occurrence data the status implies (pickup, delivery, return,
// cancellation). It stops the order's automatic progression, so the order
// stays in status until the test moves it again. It emits no tracking event
// (see [Server.Track]). It returns an error for an unknown order or status.
func (s *Server) SetOrderStatus(id string, status rxtypes.OrderStatus) error {
	return s.sb.SetOrderStatus(id, string(status))
}

// OrderStatus returns the status of delivery order id, and whether the
// order exists.
func (s *Server) OrderStatus(id string) (rxtypes.OrderStatus, bool) {
	st, ok := s.sb.OrderStatus(id)
	return rxtypes.OrderStatus(strings.ReplaceAll(st, " ", "_")), ok
}

// TrackingNumber returns the tracking number of shipping order id, and
// whether the order exists and is a shipping order. Subscribe it (with a
// [Server.Listener] URL) to receive the order's tracking notifications.
func (s *Server) TrackingNumber(orderID string) (string, bool) {
	return s.sb.OrderTrackingNumber(orderID)
}

// SetRequestOrderStatus puts the order of omni request id in status, one
// of the order statuses of the documents ([rxtypes.OrderStatusNew] ...
// [rxtypes.OrderStatusCancelled]), creating the order (and the request
// status request_received) when the request has none yet, and stops the
// request's scenario. It returns an error for an unknown request or
// status.
func (s *Server) SetRequestOrderStatus(id string, status rxtypes.OrderStatus) error {
	return s.sb.SetRequestOrderStatus(id, string(status))
}

// SetRequestIncomplete gives omni request id the status
// {request_incomplete, pharmacy_out_of_stock} and cancels its order
// (cancelled by the pharmacy, reason "Out of Stock"), as the
// incomplete_request scenario ends. It returns an error for an unknown
// request.
func (s *Server) SetRequestIncomplete(id string) error {
	return s.sb.SetRequestOrderStatus(id, string(requests.StatusRequestIncomplete))
}

// RequestOrderStatus returns the status of the order of omni request id
// ("" while it has none), and whether the request exists.
func (s *Server) RequestOrderStatus(id string) (rxtypes.OrderStatus, bool) {
	st, ok := s.sb.RequestOrderStatus(id)
	return rxtypes.OrderStatus(st), ok
}

// Track records a new tracking status (such as
// [tracking.TrackingMovingThroughNetwork], or any category text) for
// trackingNumber at the simulator's current time and, when the number has
// an ENABLED subscription, posts the notification of document 002 to its
// listener URL before returning. Any number may be used, subscribed or not,
// a shipping order's or not. A shipping order's number moves the order as
// its own progression does: Accepted to picked_up, Delivered to delivered,
// never back and never out of a final status.
func (s *Server) Track(trackingNumber string, status tracking.TrackingStatus) {
	s.sb.EmitTracking(trackingNumber, string(status))
}

// SubscriptionStatus returns the status of the subscription of
// trackingNumber (ENABLED, or SUSPENDED after a notification could not be
// delivered) and whether it exists.
func (s *Server) SubscriptionStatus(trackingNumber string) (tracking.SubscriptionStatus, bool) {
	st, _, ok := s.sb.SubscriptionStatus(trackingNumber)
	return tracking.SubscriptionStatus(st), ok
}

// SetEmptyQuotes makes every valid pricing quote answer 200 with an empty
// list ({"quotes":[]}), as the platform does when no quote matches, until
// it is called with false.
func (s *Server) SetEmptyQuotes(empty bool) { s.sb.SetEmptyQuotes(empty) }

// Pharmacy is one pharmacy the simulator knows: lookups list it, gets and
// delivery information find it by NCPDP or NPI, and an omni request naming
// its NCPDP may leave pickup out.
type Pharmacy struct {
	// NPI is the 10-digit National Provider Identifier.
	NPI string
	// NCPDP is the 7-digit pharmacy identifier.
	NCPDP string
	// Name is the pharmacy's name.
	Name string
	// Preferred lists the pharmacy before the others in lookups and makes
	// its phone and fax numbers visible (null otherwise, as the documents
	// say).
	Preferred bool
	// PhoneNumber and FaxNumber are 10 digits.
	PhoneNumber, FaxNumber string
	// Street1, Street2 (may be empty), City, State (two letters) and Zipcode
	// (5 or 9 digits) are the pharmacy's address.
	Street1, Street2, City, State, Zipcode string
}

// BuiltinPharmacies returns the twelve pharmacies a [Server] knows unless
// told otherwise: NCPDP 5550001 to 5550012 (5550001, 5550004 and 5550008
// preferred), in New York and New Jersey, NPIs with valid check digits.
func BuiltinPharmacies() []Pharmacy {
	return fromSandboxPharmacies(sandbox.BuiltinPharmacies())
}

// GeneratePharmacies returns n made-up pharmacies with distinct NCPDP
// identifiers and valid NPIs (one in ten preferred), the same on every
// call, for tests of paging through many lookup results.
func GeneratePharmacies(n int) []Pharmacy {
	return fromSandboxPharmacies(sandbox.GeneratePharmacies(n))
}

// SetPharmacies replaces the pharmacies the simulator knows. With none,
// every lookup answers count 0 and every get 404.
func (s *Server) SetPharmacies(list ...Pharmacy) { s.sb.SetPharmacies(toSandboxPharmacies(list)) }

// Pharmacies returns the pharmacies the simulator knows.
func (s *Server) Pharmacies() []Pharmacy { return fromSandboxPharmacies(s.sb.Pharmacies()) }

func toSandboxPharmacies(list []Pharmacy) []sandbox.Pharmacy {
	out := make([]sandbox.Pharmacy, 0, len(list))
	for _, p := range list {
		out = append(out, sandbox.Pharmacy{
			NPI: p.NPI, NCPDP: p.NCPDP, Name: p.Name, Preferred: p.Preferred,
			PhoneNumber: p.PhoneNumber, FaxNumber: p.FaxNumber,
			Address: sandbox.PharmacyAddress{Street1: p.Street1, Street2: p.Street2, City: p.City, State: p.State, Zipcode: p.Zipcode},
		})
	}
	return out
}

func fromSandboxPharmacies(list []sandbox.Pharmacy) []Pharmacy {
	out := make([]Pharmacy, 0, len(list))
	for _, p := range list {
		out = append(out, Pharmacy{
			NPI: p.NPI, NCPDP: p.NCPDP, Name: p.Name, Preferred: p.Preferred,
			PhoneNumber: p.PhoneNumber, FaxNumber: p.FaxNumber,
			Street1: p.Address.Street1, Street2: p.Address.Street2, City: p.Address.City, State: p.Address.State, Zipcode: p.Address.Zipcode,
		})
	}
	return out
}

// OrderState is what the simulator holds of one delivery order.
type OrderState struct {
	// ID is the order identifier.
	ID string
	// ExternalReferenceNumber is the reference the order was created with
	// ("" when none).
	ExternalReferenceNumber string
	// Status is the order's current status.
	Status rxtypes.OrderStatus
	// ServiceLevel is "sameday", "ondemand" or "shipping".
	ServiceLevel string
	// TrackingNumber is a shipping order's tracking number ("" otherwise).
	TrackingNumber string
}

// Orders returns every delivery order the simulator holds, in creation
// order. A test uses it to check what really exists, for instance that a
// create whose response was lost ([CommittedThenFailed]) created exactly
// one order and that the code under test did not create a second.
func (s *Server) Orders() []OrderState {
	list := s.sb.Orders()
	out := make([]OrderState, len(list))
	for i, o := range list {
		out[i] = OrderState{
			ID: o.ID, ExternalReferenceNumber: o.ExternalReferenceNumber,
			Status:       rxtypes.OrderStatus(strings.ReplaceAll(o.Status, " ", "_")),
			ServiceLevel: o.ServiceLevel, TrackingNumber: o.TrackingNumber,
		}
	}
	return out
}

// RequestState is what the simulator holds of one omni request.
type RequestState struct {
	// ID is the request identifier.
	ID string
	// ExternalReferenceNumber is the reference the request was created with.
	ExternalReferenceNumber string
	// OrderStatus is the status of the request's order ("" while it has
	// none).
	OrderStatus rxtypes.OrderStatus
}

// Requests returns every omni request the simulator holds, in creation
// order.
func (s *Server) Requests() []RequestState {
	list := s.sb.Requests()
	out := make([]RequestState, len(list))
	for i, r := range list {
		out[i] = RequestState{ID: r.ID, ExternalReferenceNumber: r.ExternalReferenceNumber, OrderStatus: rxtypes.OrderStatus(r.Status)}
	}
	return out
}
