package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"regexp"
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

func TestRunPrintsQuoteAndHandlesNoQuote(t *testing.T) {
	t.Parallel()
	sim, client := simulator(t)
	var out bytes.Buffer
	err := run(within(t, 10*time.Second), client, &out)
	require.NoError(t, err, out.String())

	got := out.String()
	assert.Contains(t, got, "Quote 11201-4321 -> 60611-2001")
	assert.Regexp(t, regexp.MustCompile(`postal\s+ground_service\s+\$\d+\.\d\d\n`), got)
	assert.Contains(t, got, "Quote 11201 -> 00501")
	assert.Contains(t, got, "no quote: no service covers this route")
	assert.Len(t, sim.CallsTo(rxdeliverytest.PricingQuote), 2)
}

func TestQuoteReportsUnavailablePrice(t *testing.T) {
	t.Parallel()
	sim, client := simulator(t, rxdeliverytest.WithClientOptions(rxdelivery.WithRetryMax(0)))
	sim.FailNext(rxdeliverytest.PricingQuote, 1, rxdeliverytest.StatusError(http.StatusBadGateway))
	var out bytes.Buffer
	err := quote(within(t, 10*time.Second), client, &out, "11201", "60611")
	require.NoError(t, err, out.String())
	assert.Contains(t, out.String(), "no price available now: ")
}

func TestStartRunsOfflineWithNoSetup(t *testing.T) {
	offline(t)
	var out bytes.Buffer
	require.NoError(t, start(within(t, time.Minute), &out), out.String())
	assert.Contains(t, out.String(), "No platform in the RXDELIVERY_* variables: running against a simulator at http://127.0.0.1:")
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
// platform is configured (real clock, one second between the steps of an
// order, then opts), and returns it with a client built as start builds
// one.
func simulator(t *testing.T, opts ...rxdeliverytest.Option) (*rxdeliverytest.Server, *rxdelivery.Client) {
	t.Helper()
	sim := rxdeliverytest.Start(t, append([]rxdeliverytest.Option{rxdeliverytest.WithRealClock(), rxdeliverytest.WithOrderCadence(time.Second)}, opts...)...)
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
