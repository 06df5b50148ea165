package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampleenv"
	"github.com/rxdelivery/rxdelivery-go/examples/internal/exampletest"
	"github.com/rxdelivery/rxdelivery-go/internal/sandbox"
)

func TestMain(m *testing.M) { exampletest.Main(m) }

func TestRunWalksEveryPage(t *testing.T) {
	env := exampletest.Offline(t, exampleenv.ConnectOptions{})
	var out bytes.Buffer
	err := run(exampletest.Context(t, 10*time.Second), env.Client, &out)
	require.NoError(t, err, out.String())

	total := len(sandbox.BuiltinPharmacies())
	pages := (total + pageSize - 1) / pageSize
	require.Greater(t, pages, 1, "the example must span several pages")

	got := out.String()
	assert.Contains(t, got, fmt.Sprintf("%d pharmacies deliver to", total))
	assert.Contains(t, got, fmt.Sprintf("(%d pages of %d)", pages, pageSize))
	assert.Contains(t, got, fmt.Sprintf("Listed %d pharmacies", total))
	for i := 1; i <= total; i++ {
		assert.Contains(t, got, fmt.Sprintf("%2d. ", i))
	}
	assert.Equal(t, total, strings.Count(got, " mi  NCPDP "), "every listed pharmacy has a distance")
	assert.Contains(t, got, "Pharmacy 555")

	// One Search for the totals, then one call per page for All, then one
	// Get.
	routes := map[string]int{}
	for _, c := range env.Sim.Stats().Calls {
		routes[c.Route]++
	}
	assert.Equal(t, 1+pages, routes["/omni/api/v1/pharmacies"], "search calls")
	assert.Equal(t, 1, routes["/omni/api/v1/pharmacies/:id"], "get calls")
}

func TestMainErrRunsOffline(t *testing.T) {
	exampletest.ClearVars(t)
	require.NoError(t, exampleenv.Run(time.Minute, exampleenv.ConnectOptions{}, program))
}
