package journal

import (
	"context"

	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/requests"
)

// RequestsAPI is what [Requests] needs of an omni requests service:
// *[requests.Service] (client.Requests) has it.
type RequestsAPI interface {
	// Create creates an omni request, as [requests.Service.Create] does.
	Create(ctx context.Context, p *requests.CreateParams, opts ...option.CallOption) (*requests.Request, error)
	// Get reads an omni request by id, as [requests.Service.Get] does; the
	// journal reads back the request it recorded as created.
	Get(ctx context.Context, id string, opts ...option.CallOption) (*requests.Request, error)
}

// OrdersAPI is what [Orders] needs of a delivery orders service:
// *[orders.Service] (client.Orders) has it.
type OrdersAPI interface {
	// Create creates a delivery order, as [orders.Service.Create] does.
	Create(ctx context.Context, p *orders.CreateParams, opts ...option.CallOption) (*orders.Order, error)
	// Get reads a delivery order by id, as [orders.Service.Get] does; the
	// journal reads back the order it recorded as created.
	Get(ctx context.Context, id string, opts ...option.CallOption) (*orders.Order, error)
}

// creates is what Requests and Orders share: the journal, the interface
// their keys are under, the service, and how to read a params' reference
// and a created resource's id.
type creates[P, V any] struct {
	j     *Journal
	iface string
	api   interface {
		Create(ctx context.Context, p *P, opts ...option.CallOption) (*V, error)
		Get(ctx context.Context, id string, opts ...option.CallOption) (*V, error)
	}
	reference func(*P) string
	id        func(*V) string
	// resourceRef reads a resource's external reference number, and
	// status its status, as Resolve and Unresolve check and report them.
	resourceRef func(*V) string
	status      func(*V) string
}

// create creates p once under its reference (createOnce); opts apply to
// the create and to the get that reads a recorded resource back.
func (c *creates[P, V]) create(ctx context.Context, p *P, opts []option.CallOption) (*V, error) {
	k := Key{Interface: c.iface}
	if p != nil {
		k.Reference = c.reference(p)
	}
	return createOnce(ctx, c.j, k,
		func(ctx context.Context) (*V, error) { return c.api.Create(ctx, p, opts...) },
		func(ctx context.Context, id string) (*V, error) { return c.api.Get(ctx, id, opts...) },
		c.id)
}

// Requests creates omni requests through a [Journal]. Get one from
// [Journal.Requests]; it is safe for concurrent use.
type Requests struct {
	c creates[requests.CreateParams, requests.Request]
}

// Requests returns the creates of api (usually client.Requests) under j.
func (j *Journal) Requests(api RequestsAPI) *Requests {
	return &Requests{creates[requests.CreateParams, requests.Request]{j: j, iface: InterfaceOmni, api: api,
		reference:   func(p *requests.CreateParams) string { return p.ExternalReferenceNumber },
		id:          func(r *requests.Request) string { return r.ID },
		resourceRef: func(r *requests.Request) string { return r.ExternalReferenceNumber },
		status: func(r *requests.Request) string {
			if r.Status == nil {
				return ""
			}
			return string(r.Status.Name)
		}}}
}

// Create creates the omni request p at most once per
// p.ExternalReferenceNumber across every process that shares the journal's
// store:
//   - the first call claims the reference and sends the create; it records
//     the request's id on success, releases the claim when the response
//     proves nothing was created (invalid params, a 4xx, 429 or 503, a
//     request that never left), and marks the claim unknown otherwise,
//     returning the SDK's error (matching rxdelivery.ErrUnknownOutcome);
//   - a later call for a reference recorded as created sends nothing and
//     returns the request as Get reads it now;
//   - a call for a reference in flight elsewhere or of unknown outcome
//     sends nothing and returns a *[ClaimedError] (matching [ErrClaimed]
//     and rxdelivery.ErrUnknownOutcome).
//
// A p without an external reference number is refused before anything is
// sent, with a *rxdelivery.ValidationError (path external_reference_number)
// that matches [ErrNoReference]. opts apply to the create, and to the get
// that reads a recorded request back.
func (r *Requests) Create(ctx context.Context, p *requests.CreateParams, opts ...option.CallOption) (*requests.Request, error) {
	return r.c.create(ctx, p, opts)
}

// Orders creates delivery orders through a [Journal]. Get one from
// [Journal.Orders]; it is safe for concurrent use.
type Orders struct {
	c creates[orders.CreateParams, orders.Order]
}

// Orders returns the creates of api (usually client.Orders) under j.
func (j *Journal) Orders(api OrdersAPI) *Orders {
	return &Orders{creates[orders.CreateParams, orders.Order]{j: j, iface: InterfaceDelivery, api: api,
		reference:   func(p *orders.CreateParams) string { return p.ExternalReferenceNumber },
		id:          func(o *orders.Order) string { return o.ID },
		resourceRef: func(o *orders.Order) string { return o.ExternalReferenceNumber },
		status:      func(o *orders.Order) string { return string(o.Status) }}}
}

// Create creates the delivery order p at most once per
// p.ExternalReferenceNumber across every process that shares the journal's
// store, as [Requests.Create] does for omni requests. The external
// reference number is optional for the platform but required here: without
// one the create is refused as Requests.Create refuses it, and nothing is
// sent. opts apply to the create, and to the get that reads a recorded
// order back.
func (o *Orders) Create(ctx context.Context, p *orders.CreateParams, opts ...option.CallOption) (*orders.Order, error) {
	return o.c.create(ctx, p, opts)
}
