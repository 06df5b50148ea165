package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRunHitsEveryErrorClass(t *testing.T) {
	t.Parallel()
	sim, client := simulator(t)
	injectFaults(sim)
	var out bytes.Buffer
	began := time.Now()
	err := run(within(t, 15*time.Second), client, rxdeliverytest.DefaultProgramID, &out)
	require.NoError(t, err, out.String())
	assert.Less(t, time.Since(began), 10*time.Second, "the 429 is not slept through")

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

	assert.Len(t, sim.Requests(), 2, "the lost create did create a request")
	assert.Len(t, sim.CallsTo(rxdeliverytest.RequestsCreate), 2, "the unknown outcome was not retried")
	faults := 0
	for _, c := range sim.Calls() {
		if c.Fault != "" {
			faults++
		}
	}
	assert.Equal(t, 2, faults)
	for _, c := range sim.CallsTo(rxdeliverytest.RequestsCancel) {
		assert.NotEqual(t, 204, c.Status, "nothing was cancelled")
	}
}

func TestStartRunsOfflineWithNoSetup(t *testing.T) {
	offline(t)
	var out bytes.Buffer
	require.NoError(t, start(within(t, time.Minute), &out), out.String())
	got := out.String()
	assert.Contains(t, got, "No platform in the RXDELIVERY_* variables: running against a simulator at http://127.0.0.1:")
	// Offline, start arranges the faults a real platform cannot be asked
	// for.
	assert.Contains(t, got, "outcome unknown (reconcile, do not resend): reference errors-unknown-")
	assert.Contains(t, got, "rate limited (retry after the wait the platform gave): the platform asks to wait 2m0s")
}

func TestStepsWithoutFaultsReportNoFailure(t *testing.T) {
	t.Parallel()
	// Online, the platform cannot be asked to fail: those steps report that
	// the call went through, and clean up what they created.
	sim, client := simulator(t)
	ctx := within(t, 10*time.Second)
	var out bytes.Buffer
	require.NoError(t, unknownOutcome(ctx, client, rxdeliverytest.DefaultProgramID, &out))
	require.NoError(t, rateLimited(ctx, client, rxdeliverytest.DefaultProgramID, &out))
	assert.Contains(t, out.String(), "the create went through (request ")
	assert.Contains(t, out.String(), "no rate limit this time: 1 quote(s)")
	cancelled := 0
	for _, c := range sim.CallsTo(rxdeliverytest.RequestsCancel) {
		if c.Status == 204 {
			cancelled++
		}
	}
	assert.Equal(t, 1, cancelled)
}

func TestStepsRefuseUnexpectedOutcomes(t *testing.T) {
	t.Parallel()
	sim, client := simulator(t, rxdeliverytest.WithClientOptions(rxdelivery.WithRetryMax(0)))
	ctx := within(t, 10*time.Second)
	sim.FailNext(rxdeliverytest.AnyOperation, 1, rxdeliverytest.Unavailable(0))
	err := notFound(ctx, client, rxdeliverytest.DefaultProgramID, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unexpected platform unavailable (retry later)")
	assert.ErrorIs(t, err, rxdelivery.ErrUnavailable)
	assert.EqualError(t, unexpected(nil), "the call succeeded where a failure was expected")
}

func TestClassify(t *testing.T) {
	t.Parallel()
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

// offline unsets every RXDELIVERY_* variable for the test, so that start
// runs the program against a simulator, as it does with no setup.
func offline(t *testing.T) {
	t.Helper()
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "RXDELIVERY_") {
			t.Setenv(name, "")
		}
	}
}

// simulator starts, for the test, the simulator start starts when no
// platform is configured (one second between the steps of an order, then
// opts), on the simulator's own clock instead of real time: the client's
// waits move that clock (Server.PollClock), so the program runs through
// its steps at once. It returns the simulator with a client built as
// start builds one. TestStartRunsOfflineWithNoSetup runs the program as a
// newcomer does, in real time.
func simulator(t *testing.T, opts ...rxdeliverytest.Option) (*rxdeliverytest.Server, *rxdelivery.Client) {
	t.Helper()
	sim := rxdeliverytest.Start(t, append([]rxdeliverytest.Option{rxdeliverytest.WithOrderCadence(time.Second)}, opts...)...)
	key, secret := sim.Credentials()
	client, err := rxdelivery.NewClient(key, secret, append(sim.ClientOptions(), rxdelivery.WithUserAgent(userAgent))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.CloseIdleConnections)
	return sim, client
}

// within returns a context that ends after d or when the test ends.
func within(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
