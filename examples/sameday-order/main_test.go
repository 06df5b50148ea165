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
	orderPath := "/delivery/api/v1/orders/" + m[1]
	st := env.Sim.Stats()
	assert.Equal(t, 1, st.OrdersCreated)
	assert.Equal(t, 1, st.OrdersCancelled)
	assert.Equal(t, 1, st.CallsTo("POST", orderPath+"/prescriptions"), "one prescription added")
	assert.Equal(t, 1, st.CallsTo("DELETE", orderPath+"/prescriptions/"), "and removed")
}

func TestMainErrRunsOffline(t *testing.T) {
	exampletest.ClearVars(t)
	require.NoError(t, exampleenv.Run(time.Minute, exampleenv.ConnectOptions{}, program))
}
