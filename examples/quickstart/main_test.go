package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampleenv"
	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampletest"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

func TestMain(m *testing.M) { exampletest.Main(m) }

func TestRunReachesDelivered(t *testing.T) {
	env := exampletest.Offline(t, exampleenv.ConnectOptions{})
	var out bytes.Buffer
	err := run(exampletest.Context(t, 15*time.Second), env.Client, env.ProgramID, &out)
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

	assert.Len(t, env.Sim.Requests(), 1)
	assert.Len(t, env.Sim.CallsTo(rxdeliverytest.RequestsCreate), 1)
}
