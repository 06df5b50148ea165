package main

import (
	"bytes"
	"context"
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

func TestRunReachesDelivered(t *testing.T) {
	t.Parallel()
	sim, client := simulator(t)
	var out bytes.Buffer
	err := run(within(t, 15*time.Second), client, rxdeliverytest.DefaultProgramID, &out)
	require.NoError(t, err, out.String())

	got := out.String()
	assert.Contains(t, got, "Normalised input: phone 7185550142, ZIP 112014321, NDC 00002143380")
	assert.Contains(t, got, "Created request req_")
	// The program polls a real-time scenario: on a loaded machine a poll
	// may miss an intermediate status, never the final one, and what it
	// sees comes in the scenario's order.
	last := -1
	for _, status := range []string{" new,", " submitted_to_courier,", " picked_up,", " delivered,"} {
		if i := strings.Index(got, status); i >= 0 {
			assert.Greater(t, i, last, "%q out of order", status)
			last = i
		}
	}
	assert.Contains(t, got, " delivered,", "the timeline ends delivered")
	assert.Contains(t, got, "Delivered. Created ")
	assert.Contains(t, got, "signed by ")

	assert.Len(t, sim.Requests(), 1)
	assert.Len(t, sim.CallsTo(rxdeliverytest.RequestsCreate), 1)
}

func TestStartRunsOfflineWithNoSetup(t *testing.T) {
	offline(t)
	var out bytes.Buffer
	require.NoError(t, start(within(t, time.Minute), &out), out.String())
	got := out.String()
	assert.Contains(t, got, "No platform in the RXDELIVERY_* variables: running against a simulator at http://127.0.0.1:")
	assert.Contains(t, got, "Delivered. Created ")
}

func TestStartOnlineUsesTheEnvironment(t *testing.T) {
	// A platform named by the RXDELIVERY_* variables (here a simulator
	// started by the test): start builds its client from them and starts
	// no simulator of its own.
	srv := rxdeliverytest.Start(t, rxdeliverytest.WithRealClock(), rxdeliverytest.WithOrderCadence(time.Second))
	online := func(t *testing.T, lines []string) {
		offline(t)
		for _, l := range lines {
			name, value, _ := strings.Cut(l, "=")
			t.Setenv(name, value)
		}
	}
	lines := srv.EnvLines(true)

	t.Run("refuses production", func(t *testing.T) {
		var prod []string
		for _, l := range lines {
			if !strings.HasPrefix(l, rxdelivery.EnvSandbox+"=") {
				prod = append(prod, l)
			}
		}
		online(t, prod)
		var out bytes.Buffer
		err := start(within(t, time.Minute), &out)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "this example creates test deliveries")
		assert.Contains(t, out.String(), "Running against the platform the RXDELIVERY_* variables describe.")
	})
	t.Run("needs a program id", func(t *testing.T) {
		online(t, lines)
		err := start(within(t, time.Minute), &bytes.Buffer{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "set "+rxdelivery.EnvProgramID)
	})
	t.Run("reports a configuration error", func(t *testing.T) {
		online(t, []string{rxdelivery.EnvAPIKey + "=k"})
		err := start(within(t, time.Minute), &bytes.Buffer{})
		var cfg *rxdelivery.ConfigError
		require.ErrorAs(t, err, &cfg)
	})
	assert.Empty(t, srv.CallsTo(rxdeliverytest.RequestsCreate), "nothing was created")

	t.Run("runs", func(t *testing.T) {
		online(t, append(lines, rxdelivery.EnvProgramID+"=prog_1"))
		var out bytes.Buffer
		require.NoError(t, start(within(t, time.Minute), &out), out.String())
		assert.Contains(t, out.String(), "Delivered. Created ")
		calls := srv.CallsTo(rxdeliverytest.RequestsCreate)
		require.Len(t, calls, 1)
		assert.Equal(t, "prog_1", calls[0].Body["identifier"])
	})
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
// the whole life cycle at once. It returns the simulator with a client
// built as start builds one. TestStartRunsOfflineWithNoSetup runs the
// program as a newcomer does, in real time.
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
