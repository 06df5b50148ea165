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
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

func TestMain(m *testing.M) { exampletest.Main(m) }

func TestRunWalksEveryPage(t *testing.T) {
	env := exampletest.Offline(t, exampleenv.ConnectOptions{})
	var out bytes.Buffer
	err := run(exampletest.Context(t, 10*time.Second), env.Client, &out)
	require.NoError(t, err, out.String())

	total := len(rxdeliverytest.BuiltinPharmacies())
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
	routes := map[rxdeliverytest.Operation]int{}
	for _, c := range env.Sim.Calls() {
		routes[c.Operation]++
	}
	assert.Equal(t, 1+pages, routes[rxdeliverytest.PharmaciesSearch], "search calls")
	assert.Equal(t, 1, routes[rxdeliverytest.PharmaciesGet], "get calls")
}

func TestMainErrRunsOffline(t *testing.T) {
	exampletest.ClearVars(t)
	require.NoError(t, exampleenv.Run(time.Minute, exampleenv.ConnectOptions{}, program))
}
