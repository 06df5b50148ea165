package main

import (
	"bytes"
	"context"
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
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRunPrintsEachStep(t *testing.T) {
	t.Parallel()
	sim, client := simulator(t)
	var out bytes.Buffer
	err := run(within(t, 10*time.Second), client, &out)
	require.NoError(t, err, out.String())

	got := out.String()
	for _, step := range []string{
		"Pharmacy: ",
		"Created order ord_",
		"Got order ord_",
		"Added prescription RX-1002",
		"Removed prescription RX-1002",
		"Cancelled order ord_",
		"Final status: cancelled at ",
	} {
		assert.Contains(t, got, step)
	}

	m := regexp.MustCompile(`Created order (\S+):`).FindStringSubmatch(got)
	require.Len(t, m, 2)
	require.Len(t, sim.Orders(), 1)
	assert.Equal(t, m[1], sim.Orders()[0].ID)
	assert.Equal(t, rxtypes.OrderStatusCancelled, sim.Orders()[0].Status)
	assert.Len(t, sim.CallsTo(rxdeliverytest.OrdersAddPrescription), 1, "one prescription added")
	assert.Len(t, sim.CallsTo(rxdeliverytest.OrdersRemovePrescription), 1, "and removed")
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

// An order the courier already has is followed to its end with
// Orders.Watch, on the kit's manual clock (its waits move the clock).
func TestFollowToEndPrintsEachStatusUntilDelivered(t *testing.T) {
	t.Parallel()
	sim := rxdeliverytest.Start(t)
	client := sim.Client()
	o, err := client.Orders.Create(within(t, 10*time.Second), rxdeliverytest.SamedayOrderParams())
	require.NoError(t, err)
	sim.Advance(2 * rxdeliverytest.DefaultOrderCadence) // submitted, then picked up
	var out bytes.Buffer
	require.NoError(t, followToEnd(within(t, 10*time.Second), client, o.ID, &out))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 2, out.String())
	assert.True(t, strings.HasPrefix(lines[0], "Order "+o.ID+": picked_up"), lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "Order "+o.ID+": delivered"), lines[1])
	for _, c := range sim.Calls()[1:] {
		assert.Equal(t, rxdeliverytest.OrdersGet, c.Operation, "reads only")
	}
}
