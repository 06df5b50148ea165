package requests

import (
	"context"
	"errors"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/wiring"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Service creates omni requests, reads them, follows them until their order
// is final and cancels them: the omni interface's requests endpoints. A
// program gets it as client.Requests; it is safe for concurrent use, and
// every method takes per-call options last (rxdelivery.CallOption).
type Service struct {
	b *core.Backend
	// programID is the client's default program identifier ("" for none).
	programID string
}

func init() {
	wiring.Requests = func(b *core.Backend, programID string) any {
		return &Service{b: b, programID: programID}
	}
}

// Create submits a new request (POST /api/v1/requests) and returns it as
// the platform created it, without an order yet.
//
// When p.Identifier is empty, the client's program identifier
// (rxdelivery.WithProgramID) is sent in its place; p is not changed.
//
// p is validated first (unless the client was built without validation),
// and nothing is sent when it is invalid. [TestMeta] is refused, with an
// error matching both rxdelivery.ErrSandboxOnly and *ValidationError, when
// the client is not in sandbox mode, whether or not validation is on.
//
// Create is a side-effecting write: it is retried only after 429 or 503 or
// a failed connection. Any other failure that may have reached the
// platform matches rxdelivery.ErrUnknownOutcome: find out whether the
// request exists before creating it again. The platform has no lookup by
// reference, so the external reference number you sent is what your records
// and the platform's support can match it by.
func (s *Service) Create(ctx context.Context, p *CreateParams, opts ...option.CallOption) (*Request, error) {
	if p != nil && p.Identifier == "" && s.programID != "" {
		withID := *p // p itself is never changed
		withID.Identifier = s.programID
		p = &withID
	}
	var env requestEnvelope
	err := s.b.Execute(ctx, core.Request{Endpoint: core.RequestsCreate,
		Check: checkCreate(p), Body: p, Out: &env, Opts: opts})
	return env.request(err)
}

// checkCreate returns the check of a create: the validation (when on) and
// the sandbox rule on test_meta (always).
func checkCreate(p *CreateParams) func(core.Checks) error {
	validate := core.Params(p, (*CreateParams).validate)
	return func(ck core.Checks) error {
		err := validate(ck)
		if p == nil || p.TestMeta == nil || ck.Sandbox {
			return err
		}
		ve := &rxtypes.ValidationError{}
		if err != nil && !errors.As(err, &ve) {
			return err
		}
		ve.Problems = append(ve.Problems, rxtypes.Problem{
			Path:    "test_meta",
			Message: "is accepted only by a client in sandbox mode (WithSandbox)",
		})
		return &sandboxOnlyError{ve: ve}
	}
}

// sandboxOnlyError is the refusal of test_meta by a client that is not in
// sandbox mode. It reads and unwraps as its *rxtypes.ValidationError and
// also matches rxtypes.ErrSandboxOnly.
type sandboxOnlyError struct {
	ve *rxtypes.ValidationError
}

func (e *sandboxOnlyError) Error() string        { return e.ve.Error() }
func (e *sandboxOnlyError) Unwrap() error        { return e.ve }
func (e *sandboxOnlyError) Is(target error) bool { return target == rxtypes.ErrSandboxOnly }

// Cancel cancels the request id and those of its orders that are in a
// cancellable status (DELETE /api/v1/requests/{id}). When its orders are not
// cancellable the platform refuses, and the error matches
// rxdelivery.ErrUnableToCancel.
//
// Cancel is a side-effecting write, retried only where the platform
// provably did not act; other failures match rxdelivery.ErrUnknownOutcome.
func (s *Service) Cancel(ctx context.Context, id string, opts ...option.CallOption) error {
	return s.b.Execute(ctx, core.Request{Endpoint: core.RequestsCancel, PathValues: []string{id}, Opts: opts})
}

// Get returns the request id with its order and status
// (GET /api/v1/requests/{id}).
func (s *Service) Get(ctx context.Context, id string, opts ...option.CallOption) (*Request, error) {
	var env requestEnvelope
	err := s.b.Execute(ctx, core.Request{Endpoint: core.RequestsGet, PathValues: []string{id}, Out: &env, Opts: opts})
	return env.request(err)
}

// GetMany returns the requests ids in one call
// (GET /api/v1/requests/?ids[]=…), in the order the platform lists them. An
// empty list, or an empty id in it, is refused before anything is sent.
func (s *Service) GetMany(ctx context.Context, ids []string, opts ...option.CallOption) ([]Request, error) {
	var env manyEnvelope
	err := s.b.Execute(ctx, core.Request{Endpoint: core.RequestsGetMany,
		Check: core.IDs(ids), Query: idsQuery{IDs: ids}, Out: &env, Opts: opts})
	if err != nil {
		return nil, err
	}
	out := make([]Request, 0, len(*env.Requests))
	for _, it := range *env.Requests {
		if it.r != nil {
			out = append(out, *it.r)
		}
	}
	return out, nil
}

// idsQuery encodes as ids[]=a&ids[]=b.
type idsQuery struct {
	IDs core.BracketList `url:"ids"`
}
