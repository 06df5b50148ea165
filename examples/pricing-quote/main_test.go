package main

import (
	"bytes"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampleenv"
	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampletest"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

func TestMain(m *testing.M) { exampletest.Main(m) }

func TestRunPrintsQuoteAndHandlesNoQuote(t *testing.T) {
	env := exampletest.Offline(t, exampleenv.ConnectOptions{})
	var out bytes.Buffer
	err := run(exampletest.Context(t, 10*time.Second), env.Client, &out)
	require.NoError(t, err, out.String())

	got := out.String()
	assert.Contains(t, got, "Quote 11201-4321 -> 60611-2001")
	assert.Regexp(t, regexp.MustCompile(`postal\s+ground_service\s+\$\d+\.\d\d\n`), got)
	assert.Contains(t, got, "Quote 11201 -> 00501")
	assert.Contains(t, got, "no quote: no service covers this route")
	assert.Len(t, env.Sim.CallsTo(rxdeliverytest.PricingQuote), 2)
}

func TestQuoteReportsUnavailablePrice(t *testing.T) {
	env := exampletest.Offline(t, exampleenv.ConnectOptions{
		ClientOptions: []rxdelivery.Option{rxdelivery.WithRetryMax(0)},
	})
	env.Sim.FailNext(rxdeliverytest.PricingQuote, 1, rxdeliverytest.StatusError(http.StatusBadGateway))
	var out bytes.Buffer
	err := quote(exampletest.Context(t, 10*time.Second), env.Client, &out, "11201", "60611")
	require.NoError(t, err, out.String())
	assert.Contains(t, out.String(), "no price available now: ")
}

func TestMainErrRunsOffline(t *testing.T) {
	exampletest.ClearVars(t)
	require.NoError(t, exampleenv.Run(time.Minute, exampleenv.ConnectOptions{}, program))
}
