package rxdelivery_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// httptest: Do's attempt timeout ends a stalled write on a real connection.

// TestDoAgainstTheSimulator: Do reads and writes as the modelled calls
// do, with the interface's credentials, into a type of the caller's.
func TestDoAgainstTheSimulator(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	c, ctx := srv.Client(), context.Background()

	var created struct {
		Order struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"order"`
	}
	var md rxdelivery.Metadata
	err := c.Do(ctx, rxdelivery.Request{Interface: rxdelivery.Delivery, Method: "POST", Path: "/api/v1/orders",
		Body: rxdeliverytest.SamedayOrderParams(), Name: "orders.CreateRaw"}, &created, rxdelivery.WithMetadata(&md))
	require.NoError(t, err)
	require.NotEmpty(t, created.Order.ID)
	assert.Equal(t, "new", created.Order.Status)
	assert.Equal(t, 200, md.StatusCode)
	assert.Equal(t, []rxdeliverytest.Operation{rxdeliverytest.OrdersCreate}, ops(srv.Calls()), "the simulator took it for a create")

	var raw json.RawMessage
	err = c.Do(ctx, rxdelivery.Request{Interface: rxdelivery.Delivery, Method: "GET", Path: "/api/v1/orders/{id}",
		PathParams: map[string]string{"id": created.Order.ID}}, &raw)
	require.NoError(t, err)
	assert.Contains(t, string(raw), created.Order.ID)

	o, err := c.Orders.Get(ctx, created.Order.ID)
	require.NoError(t, err)
	assert.Equal(t, created.Order.ID, o.ID, "the modelled read sees what Do created")

	err = c.Do(ctx, rxdelivery.Request{Interface: rxdelivery.Delivery, Method: "GET", Path: "/api/v1/orders/{id}",
		PathParams: map[string]string{"id": "ord_missing"}, Visible: []string{"id"}}, &raw)
	require.ErrorIs(t, err, rxdelivery.ErrNotFound)
	assert.Contains(t, err.Error(), "GET /api/v1/orders/ord_missing: 404", "a Visible value is shown")
}

func ops(calls []rxdeliverytest.Call) []rxdeliverytest.Operation {
	var out []rxdeliverytest.Operation
	for _, c := range calls {
		out = append(out, c.Operation)
	}
	return out
}

// TestDoClassifiesWritesByMethod: POST, PUT, PATCH and DELETE are writes,
// sent again only after a refusal (503), and of unknown outcome after a
// 500; GET and HEAD are reads, retried after a 500.
func TestDoClassifiesWritesByMethod(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, method := range []string{"POST", "PUT", "PATCH", "DELETE", "GET", "HEAD"} {
		write := method != "GET" && method != "HEAD"
		env := testutil.Setup(t)
		u := testutil.DeliveryURL + "/api/v1/things"
		rec := env.Expect(method, u, httpmock.ResponderFromMultipleResponses([]*http.Response{
			httpmock.NewStringResponse(500, `{"error":{"message":"boom"}}`),
			httpmock.NewStringResponse(500, `{"error":{"message":"boom"}}`),
			httpmock.NewStringResponse(200, `{}`),
		}))
		var md rxdelivery.Metadata
		var out map[string]any
		err := env.Client.Do(ctx, rxdelivery.Request{Interface: rxdelivery.Delivery, Method: method, Path: "/api/v1/things",
			Body: map[string]string{"note": "x"}}, &out, rxdelivery.WithMetadata(&md))
		if write {
			require.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome, method)
			assert.Len(t, rec.Requests(), 1, "%s: a write is not sent again after a 500", method)
			assert.False(t, md.OutcomeKnown, method)
		} else {
			require.NoError(t, err, method)
			assert.Len(t, rec.Requests(), 3, "%s: a read is retried", method)
		}

		env = testutil.Setup(t)
		rec = env.Expect(method, u, httpmock.ResponderFromMultipleResponses([]*http.Response{
			httpmock.NewStringResponse(503, ``),
			httpmock.NewStringResponse(200, `{}`),
		}))
		require.NoError(t, env.Client.Do(ctx, rxdelivery.Request{Interface: rxdelivery.Delivery, Method: method, Path: "/api/v1/things"}, nil), method)
		assert.Len(t, rec.Requests(), 2, "%s: a 503 is a refusal, sent again", method)
		last := rec.Last(t)
		assert.Equal(t, testutil.WantAuth(rxdelivery.Delivery), last.Header.Get("Authorization"), "%s: the interface's credentials", method)
	}
}

// TestDoEscapesAndHidesPathParams: a value is one escaped path segment,
// hidden in errors, logs and transcripts unless Visible names it, and
// removed from the platform's words; query values are never shown.
func TestDoEscapesAndHidesPathParams(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	var seen string
	env.Mock.RegisterMatcherResponder("GET", `=~^https://omni\.rxdelivery\.test/api/v1/patients/.*`, httpmock.Matcher{},
		func(r *http.Request) (*http.Response, error) {
			seen = r.URL.EscapedPath() + "?" + r.URL.RawQuery
			return httpmock.NewStringResponse(400, `{"error":{"id":"e1","type":"invalid","message":"Patient Quimby/Hollow and MRN-77 rejected"}}`), nil
		})
	var tr bytes.Buffer
	err := env.Client.Do(context.Background(), rxdelivery.Request{Interface: rxdelivery.Omni, Method: "GET",
		Path: "/api/v1/patients/{name}/records", PathParams: map[string]string{"name": "Quimby/Hollow"},
		Query: url.Values{"mrn": {"MRN-77"}}}, nil, rxdelivery.WithTranscript(&tr))
	require.ErrorIs(t, err, rxdelivery.ErrBadRequest)
	assert.Equal(t, "/api/v1/patients/Quimby%2FHollow/records?mrn=MRN-77", seen, "one escaped segment")
	assert.Contains(t, err.Error(), "GET /api/v1/patients/:name/records: 400")
	for _, s := range []string{"Quimby", "Hollow", "MRN-77"} {
		assert.NotContains(t, err.Error(), s)
		assert.NotContains(t, tr.String(), s)
	}
	assert.Contains(t, tr.String(), "/api/v1/patients/:name/records")
}

// TestDoRefusesWhatCannotBeSent: a descriptor that cannot be sent is a
// ConfigError (an empty path value a ValidationError) before anything is
// sent, with the call's Metadata filled.
func TestDoRefusesWhatCannotBeSent(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	rec := env.Expect("GET", `=~.*`, httpmock.NewStringResponder(200, `{}`))
	id := map[string]string{"id": "ord_1"}
	for _, tc := range []struct {
		name string
		r    rxdelivery.Request
		want string
	}{
		{"method", rxdelivery.Request{Method: "TRACE", Path: "/x"}, "the method must be"},
		{"lower-case method", rxdelivery.Request{Method: "get", Path: "/x"}, "the method must be"},
		{"relative path", rxdelivery.Request{Method: "GET", Path: "x"}, `must start with "/"`},
		{"query in the path", rxdelivery.Request{Method: "GET", Path: "/x?a=1"}, "pass Query"},
		{"fragment", rxdelivery.Request{Method: "GET", Path: "/x#a"}, "pass Query"},
		{"space", rxdelivery.Request{Method: "GET", Path: "/a b"}, "needs escaping"},
		{"escape", rxdelivery.Request{Method: "GET", Path: "/a%2Fb"}, "needs escaping"},
		{"dot segment", rxdelivery.Request{Method: "GET", Path: "/api/../admin"}, "dot segment"},
		{"unclosed placeholder", rxdelivery.Request{Method: "GET", Path: "/x/{id", PathParams: id}, `"{" without`},
		{"stray brace", rxdelivery.Request{Method: "GET", Path: "/x/id}", PathParams: id}, `"}" without`},
		{"placeholder name", rxdelivery.Request{Method: "GET", Path: "/x/{a-b}"}, "name must be"},
		{"placeholder twice", rxdelivery.Request{Method: "GET", Path: "/x/{id}/{id}", PathParams: id}, "twice"},
		{"missing value", rxdelivery.Request{Method: "GET", Path: "/x/{id}"}, "no value for the path parameter {id}"},
		{"extra value", rxdelivery.Request{Method: "GET", Path: "/x", PathParams: id}, "has no parameter {id}"},
		{"extra value with an odd key", rxdelivery.Request{Method: "GET", Path: "/x", PathParams: map[string]string{"Jane Roe": "1"}}, "has no parameter {?}"},
		{"visible unknown", rxdelivery.Request{Method: "GET", Path: "/x/{id}", PathParams: id, Visible: []string{"rx"}}, "Visible names {rx}"},
		{"name", rxdelivery.Request{Method: "GET", Path: "/x", Name: "orders get"}, "operation name"},
		{"interface", rxdelivery.Request{Interface: rxdelivery.Interface(9), Method: "GET", Path: "/x"}, "Interface is not one of"},
	} {
		md := rxdelivery.Metadata{Attempts: 9}
		err := env.Client.Do(context.Background(), tc.r, nil, rxdelivery.WithMetadata(&md))
		var ce *rxdelivery.ConfigError
		require.ErrorAs(t, err, &ce, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
		assert.NotContains(t, err.Error(), "Jane", tc.name)
		assert.Zero(t, md.Attempts, "%s: Metadata filled", tc.name)
		assert.True(t, md.OutcomeKnown, tc.name)
	}
	for _, v := range []string{"", " ", ".", "..", "a\nb"} {
		err := env.Client.Do(context.Background(), rxdelivery.Request{Interface: rxdelivery.Delivery, Method: "DELETE",
			Path: "/api/v1/orders/{id}", PathParams: map[string]string{"id": v}}, nil)
		require.ErrorIs(t, err, rxdelivery.ErrInvalidParams, "%q", v)
	}
	assert.Empty(t, rec.Requests(), "nothing was sent")
}

// TestDoHasTheTransportsGuarantees: the attempt timeout, a Retry-After's
// pause of the interface (shared with the modelled calls), the hooks and
// the operation name they see.
func TestDoHasTheTransportsGuarantees(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	s := newScripted(t, step{stall: true}, step{stall: true})
	err := s.client(t).Do(ctx, rxdelivery.Request{Interface: rxdelivery.Delivery, Method: "POST", Path: "/api/v1/orders/{id}/notes",
		PathParams: map[string]string{"id": "ord_1"}, Body: map[string]string{"text": "x"}}, nil,
		rxdelivery.WithAttemptTimeout(50*time.Millisecond))
	require.ErrorIs(t, err, rxdelivery.ErrAttemptTimeout)
	require.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome, "a write that may have been sent")
	assert.Equal(t, 1, s.requests(), "and never sent again")

	s = newScriptedMock(t, step{status: 429, header: http.Header{"Retry-After": {"30"}}})
	c := s.client(t)
	err = c.Do(ctx, rxdelivery.Request{Interface: rxdelivery.Delivery, Method: "GET", Path: "/api/v1/zones"}, nil)
	require.ErrorIs(t, err, rxdelivery.ErrRateLimited)
	_, err = c.Orders.Get(ctx, "ord_1")
	require.ErrorIs(t, err, rxdelivery.ErrRateLimited, "Do's 429 paused the interface for the modelled calls")
	assert.Equal(t, 1, s.requests())
	assert.Greater(t, c.LimiterState(rxdelivery.Delivery).PausedUntil.Unix(), time.Now().Unix())

	s = newScriptedMock(t)
	var seen []option.Operation
	hook := rxdelivery.WithCallMiddleware(func(next option.CallFunc) option.CallFunc {
		return func(ctx context.Context, op *option.Operation) option.CallResult {
			seen = append(seen, *op)
			return next(ctx, op)
		}
	})
	require.NoError(t, s.client(t).Do(ctx, rxdelivery.Request{Interface: rxdelivery.Pricing, Method: "PUT",
		Path: "/pricing/v1/rates/{zone}", PathParams: map[string]string{"zone": "z1"}}, nil, hook))
	require.NoError(t, s.client(t).Do(ctx, rxdelivery.Request{Interface: rxdelivery.Pricing, Method: "GET",
		Path: "/pricing/v1/rates", Name: "pricing.Rates"}, nil, hook))
	assert.Equal(t, []option.Operation{
		{Name: "rxdelivery.Do", Method: "PUT", Path: "/pricing/v1/rates/{zone}", Interface: "pricing", Class: option.Write},
		{Name: "pricing.Rates", Method: "GET", Path: "/pricing/v1/rates", Interface: "pricing", Class: option.Safe},
	}, seen)
	assert.True(t, strings.HasPrefix(s.paths[0], "/pricing/v1/rates/z1"))

	var out map[string]any
	s = newScriptedMock(t)
	require.NoError(t, s.client(t).Do(ctx, rxdelivery.Request{Interface: rxdelivery.Omni, Method: "HEAD", Path: "/api/v1/requests/"}, &out),
		"a HEAD's empty body is not decoded")
}
