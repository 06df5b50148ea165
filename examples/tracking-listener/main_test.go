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

func TestRunReceivesNotificationsUntilDelivered(t *testing.T) {
	t.Parallel()
	cert, err := selfSignedCert()
	require.NoError(t, err)
	notify := notifyClient(cert.Leaf)
	t.Cleanup(notify.CloseIdleConnections)
	sim, client := simulator(t, rxdeliverytest.WithListenerClient(notify), rxdeliverytest.WithOrderCadence(200*time.Millisecond))
	var out bytes.Buffer
	err = run(within(t, 10*time.Second), client, listenerConfig{Cert: cert, Addr: "127.0.0.1:0"}, &out)
	require.NoError(t, err, out.String())

	got := out.String()
	assert.Contains(t, got, "Shipping order ord_")
	assert.Contains(t, got, "Created subscription of 1Z")
	assert.Contains(t, got, "ENABLED")
	// The shipment moves in real time: on a loaded machine an event may
	// pass before the subscription exists, never the last one, and what
	// arrives comes in order.
	last := -1
	for _, status := range []string{"Accepted", "Moving Through Network", "Out for Delivery", "Delivered"} {
		if i := strings.Index(got, "  "+status); i >= 0 {
			assert.Greater(t, i, last, "%q out of order", status)
			last = i
		}
	}
	assert.Contains(t, got, "  Delivered")
	assert.Contains(t, got, "Shipment delivered.")

	notes := sim.Notifications()
	require.NotEmpty(t, notes)
	for _, n := range notes {
		assert.Equal(t, 204, n.StatusCode, "the listener accepted %s (%s)", n.Status, n.Err)
	}
}

func TestRunExplainsMissingNotifications(t *testing.T) {
	t.Parallel()
	cert, err := selfSignedCert()
	require.NoError(t, err)
	// The simulator does not trust the listener's certificate: its first
	// notification fails and suspends the subscription.
	_, client := simulator(t, rxdeliverytest.WithOrderCadence(100*time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var out bytes.Buffer
	err = run(ctx, client, listenerConfig{Cert: cert, Addr: "127.0.0.1:0"}, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no notification arrived: subscription SUSPENDED")
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestStartRunsOfflineWithNoSetup(t *testing.T) {
	offline(t)
	var out bytes.Buffer
	err := start(within(t, time.Minute), listenerConfig{Addr: "127.0.0.1:0"}, &out)
	require.NoError(t, err, out.String())
	got := out.String()
	assert.Contains(t, got, "No platform in the RXDELIVERY_* variables: running against a simulator at http://127.0.0.1:")
	assert.Contains(t, got, "Shipment delivered.")
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
