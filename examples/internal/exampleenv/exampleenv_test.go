package exampleenv_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampleenv"
	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampletest"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

func TestMain(m *testing.M) { exampletest.Main(m) }

// clearVars unsets every variable the examples read.
func clearVars(t *testing.T) {
	for _, v := range exampleenv.Vars {
		t.Setenv(v, "")
	}
}

func TestOfflineWithoutAPIKey(t *testing.T) {
	clearVars(t)
	t.Setenv(rxdelivery.EnvOmniURL, "https://omni.example.com") // ignored without a key
	var log bytes.Buffer
	env, err := exampleenv.ConnectWith(context.Background(), exampleenv.ConnectOptions{Log: &log})
	require.NoError(t, err)
	defer env.Close()

	assert.True(t, env.Offline)
	require.NotNil(t, env.Sim)
	assert.True(t, env.Client.Sandbox())
	assert.NotEmpty(t, env.ProgramID)
	assert.NoError(t, env.RequireSandbox())
	assert.NoError(t, env.RequireProgramID())
	assert.Equal(t, "No RXDELIVERY_API_KEY set: running against the built-in simulator at "+env.Sim.URL()+".\n", log.String())

	ph, err := env.Client.Pharmacies.Get(context.Background(), rxdeliverytest.BuiltinPharmacies()[0].NCPDP)
	require.NoError(t, err)
	assert.Equal(t, rxdeliverytest.BuiltinPharmacies()[0].Name, ph.Name)
	assert.Len(t, env.Sim.CallsTo(rxdeliverytest.PharmaciesGet), 1, "the client talks to the simulator")

	env.Close()
	env.Close() // twice is fine
}

func TestOnlineFromVariables(t *testing.T) {
	clearVars(t)
	sim := rxdeliverytest.Start(t, rxdeliverytest.WithCredentials("K", "S"))
	defer sim.Close()
	t.Setenv(rxdelivery.EnvAPIKey, "K")
	t.Setenv(rxdelivery.EnvAPISecret, "S")
	t.Setenv(rxdelivery.EnvOmniURL, sim.OmniURL())
	t.Setenv(exampleenv.EnvProgramID, "prog_42")

	var log bytes.Buffer
	env, err := exampleenv.ConnectWith(context.Background(), exampleenv.ConnectOptions{Log: &log})
	require.NoError(t, err)
	defer env.Close()

	assert.False(t, env.Offline)
	assert.Nil(t, env.Sim)
	assert.Equal(t, "prog_42", env.ProgramID)
	assert.Equal(t, "Running against a production environment configured by the RXDELIVERY_* variables.\n", log.String())
	assert.EqualError(t, env.RequireSandbox(),
		"this example creates test deliveries: run it offline, or against a sandbox (RXDELIVERY_SANDBOX=true)")
	assert.NoError(t, env.RequireProgramID())

	_, err = env.Client.Pharmacies.Get(context.Background(), rxdeliverytest.BuiltinPharmacies()[0].NCPDP)
	require.NoError(t, err)
	assert.Len(t, sim.CallsTo(rxdeliverytest.PharmaciesGet), 1)
	_, err = env.Client.Pricing.Quote(context.Background(), nil)
	assert.Error(t, err)
}

func TestOnlineSandboxWithoutProgramID(t *testing.T) {
	clearVars(t)
	t.Setenv(rxdelivery.EnvAPIKey, "K")
	t.Setenv(rxdelivery.EnvAPISecret, "S")
	t.Setenv(rxdelivery.EnvSandbox, "true")
	env, err := exampleenv.ConnectWith(context.Background(), exampleenv.ConnectOptions{Log: &bytes.Buffer{}})
	require.NoError(t, err)
	defer env.Close()
	assert.NoError(t, env.RequireSandbox())
	assert.EqualError(t, env.RequireProgramID(),
		"omni requests need the program identifier the platform issued you: set RXDELIVERY_PROGRAM_ID")
}

func TestOnlineConfigurationError(t *testing.T) {
	clearVars(t)
	t.Setenv(rxdelivery.EnvAPIKey, "K") // no secret
	_, err := exampleenv.Connect(context.Background())
	var cfgErr *rxdelivery.ConfigError
	assert.ErrorAs(t, err, &cfgErr)
}

func TestEndedContext(t *testing.T) {
	clearVars(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := exampleenv.Connect(ctx)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestCloseNil(t *testing.T) {
	var env *exampleenv.Env
	env.Close()
}
