package main

import (
	"bytes"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampleenv"
	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampletest"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

func TestMain(m *testing.M) { exampletest.Main(m) }

func TestRunPrintsEachStep(t *testing.T) {
	env := exampletest.Offline(t, exampleenv.ConnectOptions{})
	var out bytes.Buffer
	err := run(exampletest.Context(t, 10*time.Second), env.Client, &out)
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
	sim := env.Sim
	require.Len(t, sim.Orders(), 1)
	assert.Equal(t, m[1], sim.Orders()[0].ID)
	assert.Equal(t, orders.StatusCancelled, sim.Orders()[0].Status)
	assert.Len(t, sim.CallsTo(rxdeliverytest.OrdersAddPrescription), 1, "one prescription added")
	assert.Len(t, sim.CallsTo(rxdeliverytest.OrdersRemovePrescription), 1, "and removed")
}

func TestMainErrRunsOffline(t *testing.T) {
	exampletest.ClearVars(t)
	require.NoError(t, exampleenv.Run(time.Minute, exampleenv.ConnectOptions{}, program))
}
