package orders

import (
	"context"
	"net/http"
	"net/url"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/wiring"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// Service calls the orders endpoints. Get one from rxdelivery.Client; it is
// safe for concurrent use.
//
// Every method takes per-call options as its trailing arguments
// (rxdelivery.WithRetryMax, WithAttemptTimeout, WithHeader, WithMetadata,
// WithMiddleware, ...): they apply to that call only.
type Service struct {
	b *core.Backend
}

func init() {
	wiring.Orders = func(b *core.Backend) any { return &Service{b: b} }
}

const ordersPath = "/api/v1/orders"

// Create creates a delivery order (POST /api/v1/orders) and returns it as
// the platform answered: ID, Status, Pickup, Delivery, Return,
// Cancellation and ETA.
//
// p is validated first (unless the client was built WithoutValidation);
// an invalid p returns a *rxdelivery.ValidationError and nothing is sent.
// Create is a side-effecting write: it is retried only where the platform
// provably did not act, and a failure that may have created the order
// matches rxdelivery.ErrUnknownOutcome: find out whether it exists before
// creating it again. The platform has no lookup by reference, so the
// ExternalReferenceNumber you sent is what your records and the platform's
// support can match it by; a cancel or prescription change with an unknown
// outcome can be checked with Get.
func (s *Service) Create(ctx context.Context, p *CreateParams, opts ...option.CallOption) (*Order, error) {
	if err := core.Check(s.b, p, (*CreateParams).validate); err != nil {
		return nil, core.Refused(opts, err)
	}
	return s.doOrder(ctx, core.Call{Method: http.MethodPost, Path: ordersPath, Body: p, Write: true,
		Op: "orders.Create", Route: ordersPath, Opts: core.CallOptions(opts)})
}

// Cancel cancels an order (DELETE /api/v1/orders/:id). Only orders in
// status new or submitted to courier can be cancelled; for any other the
// platform answers 400 and Cancel returns an *rxdelivery.APIError that
// matches rxdelivery.ErrUnableToCancel (and rxdelivery.ErrBadRequest).
func (s *Service) Cancel(ctx context.Context, id string, opts ...option.CallOption) error {
	if err := core.CheckID("id", id); err != nil {
		return core.Refused(opts, err)
	}
	_, err := s.b.Do(ctx, core.Call{Method: http.MethodDelete, Path: orderPath(id), Write: true,
		Op: "orders.Cancel", Route: orderRoute, Opts: core.CallOptions(opts)}, nil)
	return err
}

// Get returns an order with every field (GET /api/v1/orders/:id).
func (s *Service) Get(ctx context.Context, id string, opts ...option.CallOption) (*Order, error) {
	if err := core.CheckID("id", id); err != nil {
		return nil, core.Refused(opts, err)
	}
	return s.doOrder(ctx, core.Call{Method: http.MethodGet, Path: orderPath(id),
		Op: "orders.Get", Route: orderRoute, Opts: core.CallOptions(opts)})
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
	if err := core.CheckIDs(ids); err != nil {
		return nil, core.Refused(opts, err)
	}
	q, err := core.Query(getManyQuery{IDs: ids})
	if err != nil {
		return nil, core.Refused(opts, &core.ConfigError{Message: "GET " + ordersPath + ": encoding the query failed", Err: err})
	}
	c := core.Call{Method: http.MethodGet, Path: ordersPath, Query: q,
		Op: "orders.GetMany", Route: ordersPath, Opts: core.CallOptions(opts)}
	var env listEnvelope
	if _, err := s.b.Do(ctx, c, &env); err != nil {
		return nil, err
	}
	list, _ := env.list()
	return list, nil
}

// CheckAnswer refuses a list answer with neither array (core.AnswerChecker).
func (e *listEnvelope) CheckAnswer(c core.Call, resp *core.Response) error {
	if _, ok := e.list(); !ok {
		return core.Missing(c, resp, `"orders" (or "objects") array`)
	}
	return nil
}

// AddPrescription adds a prescription to an order (POST
// /api/v1/orders/:id/prescriptions) and returns the order as the platform
// answered: ID, Status, Pickup, Delivery and Return. The prescription's
// rules are those of order creation; it is validated first, and the body
// carries only the fields the document lists for this endpoint (see
// Prescription). It is a
// side-effecting write, retried only where the platform provably did not
// act.
func (s *Service) AddPrescription(ctx context.Context, orderID string, p *Prescription, opts ...option.CallOption) (*Order, error) {
	if err := core.CheckID("id", orderID); err != nil {
		return nil, core.Refused(opts, err)
	}
	if err := core.Check(s.b, p, (*Prescription).validate); err != nil {
		return nil, core.Refused(opts, err)
	}
	return s.doOrder(ctx, core.Call{
		Method: http.MethodPost, Path: orderPath(orderID) + "/prescriptions", Body: p.addBody(), Write: true,
		Op: "orders.AddPrescription", Route: orderRoute + "/prescriptions", Opts: core.CallOptions(opts),
	})
}

// RemovePrescription removes the prescription numbered rxNumber from an
// order (DELETE /api/v1/orders/:id/prescriptions/:rx_number). It is a
// side-effecting write, retried only where the platform provably did not
// act.
func (s *Service) RemovePrescription(ctx context.Context, orderID, rxNumber string, opts ...option.CallOption) error {
	if err := core.CheckID("id", orderID); err != nil {
		return core.Refused(opts, err)
	}
	if err := core.CheckID("rx_number", rxNumber); err != nil {
		return core.Refused(opts, err)
	}
	path := orderPath(orderID) + "/prescriptions/" + url.PathEscape(rxNumber)
	// The prescription number is shown as a placeholder in errors and logs:
	// it identifies a patient's prescription.
	_, err := s.b.Do(ctx, core.Call{Method: http.MethodDelete, Path: path, Write: true,
		ShownPath: orderPath(orderID) + "/prescriptions/:rx_number",
		Op:        "orders.RemovePrescription", Route: orderRoute + "/prescriptions/{rx_number}", Opts: core.CallOptions(opts)}, nil)
	return err
}

// doOrder performs c and returns the order of its { "order": … } answer.
// A 2xx answer without an order is a *core.DecodeError.
func (s *Service) doOrder(ctx context.Context, c core.Call) (*Order, error) {
	var env orderEnvelope
	if _, err := s.b.Do(ctx, c, &env); err != nil {
		return nil, err
	}
	return env.Order, nil
}

// CheckAnswer refuses an answer without an order, or with an order
// without an id (core.AnswerChecker). Do runs it, so that hooks and
// metadata see the error, and a write's unknown outcome.
func (e *orderEnvelope) CheckAnswer(c core.Call, resp *core.Response) error {
	if e.Order == nil {
		return core.Missing(c, resp, `"order" object`)
	}
	if e.Order.ID == "" {
		// An order without an id cannot be found again: for a create, the
		// outcome is unknown.
		return core.Unusable(c, resp, `the "order" object has no "id"`)
	}
	return nil
}

// orderPath returns the path of order id, escaped.
// orderRoute is the templated path of one order, for hooks and telemetry.
const orderRoute = ordersPath + "/{id}"

func orderPath(id string) string { return ordersPath + "/" + url.PathEscape(id) }
