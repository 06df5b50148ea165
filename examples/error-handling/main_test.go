package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampleenv"
	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampletest"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

func TestMain(m *testing.M) { exampletest.Main(m) }

func TestRunHitsEveryErrorClass(t *testing.T) {
	env := exampletest.Offline(t, exampleenv.ConnectOptions{})
	injectFaults(env.Sim)
	var out bytes.Buffer
	start := time.Now()
	err := run(exampletest.Context(t, 15*time.Second), env.Client, env.ProgramID, &out)
	require.NoError(t, err, out.String())
	assert.Less(t, time.Since(start), 10*time.Second, "the 429 is not slept through")

	got := out.String()
	for _, want := range []string{
		"== invalid params\ninvalid params (fix the input): ",
		"ndc ", "pharmacy.ncpdp ", "dropoff.phone_number ", "dropoff.address.state ",
		"dropoff.address.zipcode ", "patient.first_name ", "patient.date_of_birth ",
		"== not found\nnot found (check the id): 404 ",
		"== outcome unknown\noutcome unknown (reconcile, do not resend): reference errors-unknown-",
		"== unable to cancel\n",
		"unable to cancel (the delivery is under way): 422 unable_to_cancel ",
		"== rate limited\nrate limited (retry after the wait the platform gave): the platform asks to wait 2m0s",
	} {
		assert.Contains(t, got, want)
	}

	assert.Len(t, env.Sim.Requests(), 2, "the lost create did create a request")
	assert.Len(t, env.Sim.CallsTo(rxdeliverytest.RequestsCreate), 2, "the unknown outcome was not retried")
	faults := 0
	for _, c := range env.Sim.Calls() {
		if c.Fault != "" {
			faults++
		}
	}
	assert.Equal(t, 2, faults)
	for _, c := range env.Sim.CallsTo(rxdeliverytest.RequestsCancel) {
		assert.NotEqual(t, 204, c.Status, "nothing was cancelled")
	}
}

func TestStepsWithoutFaultsReportNoFailure(t *testing.T) {
	// Online, the platform cannot be asked to fail: those steps report that
	// the call went through, and clean up what they created.
	env := exampletest.Offline(t, exampleenv.ConnectOptions{})
	ctx := exampletest.Context(t, 10*time.Second)
	var out bytes.Buffer
	require.NoError(t, unknownOutcome(ctx, env.Client, env.ProgramID, &out))
	require.NoError(t, rateLimited(ctx, env.Client, env.ProgramID, &out))
	assert.Contains(t, out.String(), "the create went through (request ")
	assert.Contains(t, out.String(), "no rate limit this time: 1 quote(s)")
	cancelled := 0
	for _, c := range env.Sim.CallsTo(rxdeliverytest.RequestsCancel) {
		if c.Status == 204 {
			cancelled++
		}
	}
	assert.Equal(t, 1, cancelled)
}

func TestStepsRefuseUnexpectedOutcomes(t *testing.T) {
	env := exampletest.Offline(t, exampleenv.ConnectOptions{
		ClientOptions: []rxdelivery.Option{rxdelivery.WithRetryMax(0)},
	})
	ctx := exampletest.Context(t, 10*time.Second)
	env.Sim.FailNext(rxdeliverytest.AnyOperation, 1, rxdeliverytest.Unavailable(0))
	err := notFound(ctx, env.Client, env.ProgramID, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unexpected platform unavailable (retry later)")
	assert.ErrorIs(t, err, rxdelivery.ErrUnavailable)
	assert.EqualError(t, unexpected(nil), "the call succeeded where a failure was expected")
}

func TestClassify(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{nil, "success"},
		{&rxdelivery.ValidationError{}, "invalid params (fix the input)"},
		{&rxdelivery.APIError{StatusCode: http.StatusInternalServerError, UnknownOutcome: true}, "outcome unknown (reconcile, do not resend)"},
		{&rxdelivery.TransportError{Err: context.DeadlineExceeded}, "gave up waiting (context ended)"},
		{&rxdelivery.APIError{StatusCode: http.StatusTooManyRequests}, "rate limited (retry after the wait the platform gave)"},
		{&rxdelivery.APIError{StatusCode: http.StatusUnprocessableEntity, Type: "unable_to_cancel"}, "unable to cancel (the delivery is under way)"},
		{&rxdelivery.APIError{StatusCode: http.StatusNotFound}, "not found (check the id)"},
		{&rxdelivery.APIError{StatusCode: http.StatusUnauthorized}, "credentials refused (check the key, secret and enabled interfaces)"},
		{&rxdelivery.APIError{StatusCode: http.StatusForbidden}, "credentials refused (check the key, secret and enabled interfaces)"},
		{&rxdelivery.APIError{StatusCode: http.StatusServiceUnavailable}, "platform unavailable (retry later)"},
		{&rxdelivery.APIError{StatusCode: http.StatusBadRequest}, "refused by the platform (fix the input)"},
		{&rxdelivery.TransportError{Err: errors.New("connection refused")}, "network failure (retry later)"},
		{&rxdelivery.APIError{StatusCode: http.StatusTeapot}, "platform error 418"},
		{errors.New("boom"), "unexpected error"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, classify(c.err), "%v", c.err)
	}
}
