package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampleenv"
	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampletest"
)

func TestMain(m *testing.M) { exampletest.Main(m) }

func TestRunReceivesNotificationsUntilDelivered(t *testing.T) {
	cert, err := selfSignedCert()
	require.NoError(t, err)
	env := exampletest.Offline(t, exampleenv.ConnectOptions{
		TrustListenerCert: cert.Leaf,
		OrderCadence:      200 * time.Millisecond,
	})
	var out bytes.Buffer
	err = run(exampletest.Context(t, 10*time.Second), env.Client, listenerConfig{Cert: cert, Addr: "127.0.0.1:0"}, &out)
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

	notes := env.Sim.Notifications()
	require.NotEmpty(t, notes)
	for _, n := range notes {
		assert.Equal(t, 204, n.StatusCode, "the listener accepted %s (%s)", n.Status, n.Err)
	}
}

func TestRunExplainsMissingNotifications(t *testing.T) {
	cert, err := selfSignedCert()
	require.NoError(t, err)
	// The simulator does not trust the listener's certificate: its first
	// notification fails and suspends the subscription.
	env := exampletest.Offline(t, exampleenv.ConnectOptions{OrderCadence: 100 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var out bytes.Buffer
	err = run(ctx, env.Client, listenerConfig{Cert: cert, Addr: "127.0.0.1:0"}, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no notification arrived: subscription SUSPENDED")
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}
