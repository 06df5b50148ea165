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

func TestRunShowsLabelAndTrackingNumber(t *testing.T) {
	env := exampletest.Offline(t, exampleenv.ConnectOptions{})
	var out bytes.Buffer
	err := run(exampletest.Context(t, 10*time.Second), env.Client, &out)
	require.NoError(t, err, out.String())

	got := out.String()
	assert.Contains(t, got, "Created shipping order ord_")
	assert.Contains(t, got, "Carrier:         PARCELA (PARCELA Ground)")
	assert.Regexp(t, regexp.MustCompile(`Tracking number: 1Z\w+\n`), got)
	assert.Regexp(t, regexp.MustCompile(`Label:           https://\S+\.pdf\n`), got)
	assert.Regexp(t, regexp.MustCompile(`Cost:            \$\d+\.\d\d\n`), got)
	assert.Len(t, env.Sim.Orders(), 1)
}

func TestMainErrRunsOffline(t *testing.T) {
	exampletest.ClearVars(t)
	require.NoError(t, exampleenv.Run(time.Minute, exampleenv.ConnectOptions{}, program))
}
