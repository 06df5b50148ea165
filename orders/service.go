package orders

import (
	"context"
	"errors"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/wiring"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// Service creates delivery orders, reads them one or many at a time, follows
// them to a final status, cancels them and changes their prescriptions: the
// delivery interface's orders endpoints. A program gets it as client.Orders;
// it is safe for concurrent use, and every method takes per-call options
// last (rxdelivery.CallOption).
type Service struct {
	b *core.Backend
}

func init() {
	wiring.Orders = func(b *core.Backend) any { return &Service{b: b} }
}

// Create creates a delivery order (POST /api/v1/orders) and returns it as
// the platform responded: ID, Status, Pickup, Delivery, Return,
// [Cancellation] and [ETA].
//
// p is validated first (unless the client was built WithoutValidation);
// an invalid p returns a *rxdelivery.ValidationError and nothing is sent.
// Create is a side-effecting write: it is retried only where the platform
// provably did not act, and a failure that may have created the order
// matches rxdelivery.ErrUnknownOutcome: find out whether it exists before
// creating it again. The platform has no lookup by reference, so the
// ExternalReferenceNumber you sent is what your records and the platform's
// support can match it by; a cancel or prescription change with an unknown
// outcome can be checked with [Service.Get].
func (s *Service) Create(ctx context.Context, p *CreateParams, opts ...option.CallOption) (*Order, error) {
	var env orderEnvelope
	err := s.b.Execute(ctx, core.Request{Endpoint: core.OrdersCreate,
		Check: core.Params(p, (*CreateParams).validate), Body: p, Out: &env, Opts: opts})
	return env.order(err)
}

// Cancel cancels an order (DELETE /api/v1/orders/{id}). Only orders in
// status new or submitted to courier can be cancelled; for any other the
// platform responds 400 and Cancel returns an *rxdelivery.APIError that
// matches rxdelivery.ErrUnableToCancel (and rxdelivery.ErrBadRequest).
func (s *Service) Cancel(ctx context.Context, id string, opts ...option.CallOption) error {
	return s.b.Execute(ctx, core.Request{Endpoint: core.OrdersCancel, PathValues: []string{id}, Opts: opts})
}

// Get returns an order with every field (GET /api/v1/orders/{id}).
func (s *Service) Get(ctx context.Context, id string, opts ...option.CallOption) (*Order, error) {
	var env orderEnvelope
	err := s.b.Execute(ctx, core.Request{Endpoint: core.OrdersGet, PathValues: []string{id}, Out: &env, Opts: opts})
	return env.order(err)
}

// getManyQuery is the query of GetMany: ids[]=a&ids[]=b.
type getManyQuery struct {
	IDs core.BracketList `url:"ids"`
}

// GetMany returns several orders (GET /api/v1/orders?ids[]=…), in the
// order the platform lists them. The response's array is read whether it
// is keyed orders (the document's sample) or objects (its schema table); a
// body with neither is a *rxdelivery.DecodeError. At least one id is
// required, and none may be empty: such a list is refused before anything
// is sent.
func (s *Service) GetMany(ctx context.Context, ids []string, opts ...option.CallOption) ([]Order, error) {
	var env listEnvelope
	err := s.b.Execute(ctx, core.Request{Endpoint: core.OrdersGetMany,
		Check: core.IDs(ids), Query: getManyQuery{IDs: ids}, Out: &env, Opts: opts})
	if err != nil {
		return nil, err
	}
	list, _ := env.list()
	return list, nil
}

// CheckResponse refuses a list response with neither array
// (core.ResponseChecker).
func (e *listEnvelope) CheckResponse() error {
	if _, ok := e.list(); !ok {
		return core.Missing(`"orders" (or "objects") array`)
	}
	return nil
}

// AddPrescription adds a prescription to an order (POST
// /api/v1/orders/{id}/prescriptions) and returns the order as the platform
// responded: ID, Status, Pickup, Delivery and Return. The prescription's
// rules are those of order creation; it is validated first, and the body
// carries only the fields the document lists for this endpoint (see
// [Prescription]). It is a side-effecting write, retried only where the
// platform provably did not act.
func (s *Service) AddPrescription(ctx context.Context, orderID string, p *Prescription, opts ...option.CallOption) (*Order, error) {
	var env orderEnvelope
	r := core.Request{Endpoint: core.OrdersAddPrescription, PathValues: []string{orderID},
		Check: core.Params(p, (*Prescription).validate), Out: &env, Opts: opts}
	if p != nil {
		r.Body = p.addBody()
	}
	err := s.b.Execute(ctx, r)
	return env.order(err)
}

// RemovePrescription removes the prescription numbered rxNumber from an
// order (DELETE /api/v1/orders/{id}/prescriptions/{rx_number}). Errors and
// log lines show the prescription number as a placeholder: it identifies a
// patient's prescription. It is a side-effecting write, retried only where
// the platform provably did not act.
func (s *Service) RemovePrescription(ctx context.Context, orderID, rxNumber string, opts ...option.CallOption) error {
	return s.b.Execute(ctx, core.Request{Endpoint: core.OrdersRemovePrescription,
		PathValues: []string{orderID, rxNumber}, Opts: opts})
}

// order returns the order of a { "order": … } response, or err.
func (e *orderEnvelope) order(err error) (*Order, error) {
	if err != nil {
		return nil, err
	}
	return e.Order, nil
}

// CheckResponse refuses a response without an order, or with an order
// without an id (core.ResponseChecker), so that hooks and metadata see the
// error, and a write's unknown outcome.
func (e *orderEnvelope) CheckResponse() error {
	if e.Order == nil {
		return core.Missing(`"order" object`)
	}
	if e.Order.ID == "" {
		// An order without an id cannot be found again: for a create, the
		// outcome is unknown.
		return errors.New(`the "order" object has no "id"`)
	}
	return nil
}
