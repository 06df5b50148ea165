package core

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/internal/validate"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

type params struct{ Name string }

func (p *params) validate(o validate.Options) error {
	var c validate.Collector
	c.Required("name", p.Name)
	if o.NPICheckDigit {
		c.Add("npi", "checked")
	}
	return c.Err()
}

func TestCheckHonoursTheSettings(t *testing.T) {
	t.Parallel()
	on := NewShared(Config{Validate: true, ValidateOptions: validate.Options{NPICheckDigit: true}, Sandbox: true})
	b, err := on.NewBackend(rxtypes.InterfaceOmni, "", Credentials{}, nil)
	require.NoError(t, err)
	assert.True(t, b.Sandbox())
	assert.True(t, on.Sandbox())
	assert.Equal(t, rxtypes.InterfaceOmni, b.Interface())
	// Execute hands the client's settings to the request's check, before
	// anything else can refuse the call.
	var got Checks
	stop := errors.New("stop")
	err = b.Execute(context.Background(), Request{Endpoint: OrdersCreate, Check: func(ck Checks) error { got = ck; return stop }})
	require.ErrorIs(t, err, stop)
	assert.Equal(t, Checks{Validate: true, Options: validate.Options{NPICheckDigit: true}, Sandbox: true}, got)

	err = Params(&params{}, (*params).validate)(got)
	var ve *rxtypes.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.True(t, ve.Has("name"))
	assert.True(t, ve.Has("npi"), "the client's options reach the check")
	assert.ErrorIs(t, Params[params](nil, (*params).validate)(got), rxtypes.ErrInvalidParams)
	assert.NoError(t, Params(&params{}, (*params).validate)(Checks{}), "validation off")
	assert.Error(t, Params[params](nil, (*params).validate)(Checks{}), "nil params are refused even with validation off")
}

func TestQueryAndIDs(t *testing.T) {
	t.Parallel()
	q, err := Query(struct {
		IDs  []string `url:"ids,brackets"`
		Page int      `url:"page,omitempty"`
	}{IDs: []string{"b", "a"}, Page: 2})
	require.NoError(t, err)
	assert.Equal(t, "ids%5B%5D=b&ids%5B%5D=a&page=2", q)
	_, err = Query(42)
	assert.Error(t, err)

	assert.NoError(t, CheckID("id", "ord_1"))
	for _, bad := range []string{"", "  ", ".", "..", "ord\x1b[2J1", "ord_1\n", "\u202eord_1"} {
		var ve *rxtypes.ValidationError
		require.ErrorAs(t, CheckID("ids[1]", bad), &ve, "%q", bad)
		assert.Equal(t, "ids[1]", ve.Problems[0].Path)
		// A path value is refused the same way, at its placeholder.
		err := checkPathValues(OrdersRemovePrescription, []string{"ord_1", bad})
		require.ErrorAs(t, err, &ve, "%q", bad)
		assert.Equal(t, "rx_number", ve.Problems[0].Path)
	}
	assert.NoError(t, checkPathValues(OrdersRemovePrescription, []string{"ord_1", "RX 100-1"}))

	c := newTestCall(&Backend{s: &Shared{}}, &Request{Endpoint: OrdersCreate})
	err = c.decodeError(200, Missing("order"), false)
	assert.ErrorIs(t, err, rxtypes.ErrMalformedResponse)
	assert.ErrorIs(t, err, rxtypes.ErrUnknownOutcome)
	assert.EqualError(t, err, "rxdelivery: POST /api/v1/orders: 200 OK: malformed response body: the response has no order (outcome unknown: reconcile before retrying)")
}

func TestLogTransportLogsNoSecrets(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	mock := httpmock.NewMockTransport()
	mock.RegisterResponder("GET", "https://x.example/a", func(*http.Request) (*http.Response, error) {
		r := httpmock.NewStringResponse(429, "{}")
		r.Header.Set("Retry-After", "0")
		return r, nil
	})
	mock.RegisterResponder("GET", "https://x.example/b", httpmock.NewErrorResponder(errors.New("reset")))
	s := NewShared(Config{HTTPClient: &http.Client{Transport: mock}, Logger: logger, Defaults: retries(1)})
	b, err := s.NewBackend(rxtypes.InterfaceOmni, "https://x.example", Credentials{Key: "k3y", Secret: "s3cret"}, nil)
	require.NoError(t, err)
	_, err = b.Do(context.Background(), Call{Method: "GET", Path: "/a", Query: "origin_address=1+Private+Rd"}, nil)
	require.Error(t, err)
	_, err = b.Do(context.Background(), Call{Method: "GET", Path: "/b", Query: "origin_address=1+Private+Rd"}, nil)
	require.Error(t, err)
	out := logs.String()
	assert.Contains(t, out, "path=/a")
	assert.Contains(t, out, "status=429")
	assert.Contains(t, out, "retry_after=0")
	assert.Contains(t, out, `error=transport`, "a failure is logged by its kind")
	for _, secret := range []string{"Private", "origin_address", "k3y", "s3cret", "Basic", "reset"} {
		assert.NotContains(t, out, secret)
	}

	// A logger above debug level costs nothing and logs nothing.
	logs.Reset()
	quiet := NewShared(Config{HTTPClient: &http.Client{Transport: mock}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	b, err = quiet.NewBackend(rxtypes.InterfaceOmni, "https://x.example", Credentials{Key: "k", Secret: "s"}, nil)
	require.NoError(t, err)
	_, _ = b.Do(context.Background(), Call{Method: "GET", Path: "/a"}, nil)
	assert.Empty(t, logs.String())
	quiet.CloseIdleConnections()
}

func TestInterfaceNames(t *testing.T) {
	t.Parallel()
	for i, want := range []string{"omni", "delivery", "tracking", "pricing"} {
		assert.Equal(t, want, rxtypes.Interfaces[i].String())
	}
	assert.Equal(t, "unknown", rxtypes.Interface(9).String())
	assert.Equal(t, "RXDELIVERY_PRICING_URL", rxtypes.InterfacePricing.URLEnv())
	assert.Equal(t, "WithTrackingURL", rxtypes.InterfaceTracking.URLOption())
}

func TestErrorStrings(t *testing.T) {
	t.Parallel()
	te := &rxtypes.TransportError{Method: "GET", Path: "/x", Err: io.ErrUnexpectedEOF}
	assert.Equal(t, "rxdelivery: GET /x: unexpected EOF", te.Error())
	te.UnknownOutcome = true
	assert.Contains(t, te.Error(), "outcome unknown")
	de := &rxtypes.DecodeError{StatusCode: 200, Method: "GET", Path: "/x", Err: io.ErrUnexpectedEOF}
	assert.Equal(t, "rxdelivery: GET /x: 200 OK: malformed response body: unexpected EOF", de.Error())
	ce := &rxtypes.ConfigError{Message: "no base URL", Err: rxtypes.ErrNoBaseURL}
	assert.ErrorIs(t, ce, rxtypes.ErrNoBaseURL)
}

// newTestCall starts the call of r on b as Execute does, for a test of
// what the call builds (errors, retry decisions) without sending.
func newTestCall(b *Backend, r *Request) *call {
	c := &call{b: b, ep: r.Endpoint, out: r.Out, outStatus: r.Status, start: time.Now()}
	c.path, c.shown, _ = r.Endpoint.Paths(r.PathValues...)
	return c
}
