package requests

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/validate"
	"github.com/rxdelivery/rxdelivery-go/internal/wiring"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// Service calls the requests endpoints. Get one from rxdelivery.Client; it is
// safe for concurrent use.
//
// Every method takes per-call options as its trailing arguments
// (rxdelivery.WithRetryMax, WithAttemptTimeout, WithHeader, WithMetadata,
// WithMiddleware, ...): they apply to that call only.
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

const basePath = "/api/v1/requests"

// Create submits a new request (POST /api/v1/requests) and returns it as
// the platform created it, without an order yet.
//
// When p.Identifier is empty, the client's program identifier
// (rxdelivery.WithProgramID) is sent in its place; p is not changed.
//
// p is validated first (unless the client was built without validation),
// and nothing is sent when it is invalid. TestMeta is refused, with an
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
	if err := s.checkCreate(p); err != nil {
		return nil, core.Refused(opts, err)
	}
	c := core.Call{Method: http.MethodPost, Path: basePath, Body: p, Write: true,
		Op: "requests.Create", Route: basePath, Opts: core.CallOptions(opts)}
	var env requestEnvelope
	if _, err := s.b.Do(ctx, c, &env); err != nil {
		return nil, err
	}
	return env.Request, nil
}

// CheckAnswer refuses an answer without a request, or with a request
// without an id (core.AnswerChecker). Do runs it, so that hooks and
// metadata see the error, and a create's unknown outcome.
func (e *requestEnvelope) CheckAnswer(c core.Call, resp *core.Response) error {
	if e.Request == nil {
		return core.Missing(c, resp, `"request" object`)
	}
	if e.Request.ID == "" {
		// A request without an id cannot be found again: for a create,
		// the outcome is unknown.
		return core.Unusable(c, resp, `the "request" object has no "id"`)
	}
	return nil
}

// checkCreate runs the validation (when on) and the sandbox rule on
// test_meta (always).
func (s *Service) checkCreate(p *CreateParams) error {
	err := core.Check(s.b, p, (*CreateParams).validate)
	if p == nil || p.TestMeta == nil || s.b.Sandbox() {
		return err
	}
	ve := &validate.ValidationError{}
	if err != nil && !errors.As(err, &ve) {
		return err
	}
	ve.Problems = append(ve.Problems, validate.Problem{
		Path:    "test_meta",
		Message: "is accepted only by a client in sandbox mode (WithSandbox)",
	})
	return &sandboxOnlyError{ve: ve}
}

// sandboxOnlyError is the refusal of test_meta by a client that is not in
// sandbox mode. It reads and unwraps as its *validate.ValidationError and
// also matches core.ErrSandboxOnly.
type sandboxOnlyError struct {
	ve *validate.ValidationError
}

func (e *sandboxOnlyError) Error() string        { return e.ve.Error() }
func (e *sandboxOnlyError) Unwrap() error        { return e.ve }
func (e *sandboxOnlyError) Is(target error) bool { return target == core.ErrSandboxOnly }

// Cancel cancels the request id and those of its orders that are in a
// cancellable status (DELETE /api/v1/requests/:id). When its orders are not
// cancellable the platform refuses, and the error matches
// rxdelivery.ErrUnableToCancel.
//
// Cancel is a side-effecting write, retried only where the platform
// provably did not act; other failures match rxdelivery.ErrUnknownOutcome.
func (s *Service) Cancel(ctx context.Context, id string, opts ...option.CallOption) error {
	if err := core.CheckID("id", id); err != nil {
		return core.Refused(opts, err)
	}
	_, err := s.b.Do(ctx, core.Call{Method: http.MethodDelete, Path: idPath(id), Write: true,
		Op: "requests.Cancel", Route: idRoute, Opts: core.CallOptions(opts)}, nil)
	return err
}

// Get returns the request id with its order and status
// (GET /api/v1/requests/:id).
func (s *Service) Get(ctx context.Context, id string, opts ...option.CallOption) (*Request, error) {
	if err := core.CheckID("id", id); err != nil {
		return nil, core.Refused(opts, err)
	}
	c := core.Call{Method: http.MethodGet, Path: idPath(id),
		Op: "requests.Get", Route: idRoute, Opts: core.CallOptions(opts)}
	var env requestEnvelope
	if _, err := s.b.Do(ctx, c, &env); err != nil {
		return nil, err
	}
	return env.Request, nil
}

// GetMany returns the requests ids in one call
// (GET /api/v1/requests/?ids[]=…), in the order the platform lists them. An
// empty list, or an empty id in it, is refused before anything is sent.
func (s *Service) GetMany(ctx context.Context, ids []string, opts ...option.CallOption) ([]Request, error) {
	if err := core.CheckIDs(ids); err != nil {
		return nil, core.Refused(opts, err)
	}
	q, err := core.Query(idsQuery{IDs: ids})
	if err != nil {
		return nil, core.Refused(opts, &core.ConfigError{Message: "GET " + basePath + "/: encoding the query failed", Err: err})
	}
	c := core.Call{Method: http.MethodGet, Path: basePath + "/", Query: q,
		Op: "requests.GetMany", Route: basePath + "/", Opts: core.CallOptions(opts)}
	var env manyEnvelope
	if _, err := s.b.Do(ctx, c, &env); err != nil {
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

// idRoute is the templated path of one request, for hooks and telemetry.
const idRoute = basePath + "/{id}"

func idPath(id string) string { return basePath + "/" + url.PathEscape(id) }

// requestEnvelope is the { "request": ... } wrapper of one request.
type requestEnvelope struct {
	Request *Request `json:"request"`
}

// manyEnvelope is the { "requests": [ { "request": ... }, ... ] } answer of
// GetMany. Requests is nil when the member is absent.
type manyEnvelope struct {
	Requests *[]manyItem `json:"requests"`
}

// CheckAnswer refuses an answer without the requests array
// (core.AnswerChecker).
func (e *manyEnvelope) CheckAnswer(c core.Call, resp *core.Response) error {
	if e.Requests == nil {
		return core.Missing(c, resp, `"requests" array`)
	}
	return nil
}

// manyItem is one entry of GetMany's list: { "request": ... } as the
// document shows, or a bare request object, read tolerantly. A null entry
// leaves r nil and is skipped.
type manyItem struct {
	r *Request
}

func (m *manyItem) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil {
		return err
	}
	if inner, ok := probe["request"]; ok && strings.HasPrefix(string(bytes.TrimSpace(inner)), "{") {
		var env requestEnvelope
		if err := json.Unmarshal(b, &env); err != nil {
			return err
		}
		m.r = env.Request
		return nil
	}
	var r Request
	if err := json.Unmarshal(b, &r); err != nil {
		return err
	}
	m.r = &r
	return nil
}
