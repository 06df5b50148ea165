package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// TestRunReplaysTheRecordedSandbox runs the program on a cassette of its
// exchanges with rxdelivery sandbox (docs/cassettes.md): no network, no
// credentials, the statuses in the order the sandbox went through them.
// Record it again, against the sandbox whose env file is sourced, with
//
//	RXDELIVERY_RECORD=1 go test -run TestRunReplaysTheRecordedSandbox ./examples/quickstart
func TestRunReplaysTheRecordedSandbox(t *testing.T) {
	t.Parallel()
	client := rxdeliverytest.UseCassette(t, filepath.Join("testdata", "quickstart.json"))
	var out bytes.Buffer
	require.NoError(t, run(within(t, time.Minute), client, rxdeliverytest.DefaultProgramID, &out), out.String())

	got := out.String()
	assert.Contains(t, got, "Created request req_")
	last := -1
	for _, status := range []string{" new,", " submitted_to_courier,", " picked_up,", " delivered,"} {
		i := strings.Index(got, status)
		assert.Greater(t, i, last, "%q missing or out of order", status)
		last = i
	}
	if !rxdeliverytest.Recording() {
		// The pharmacy's name and the signer are patient data: replayed,
		// they read as their placeholders.
		assert.Contains(t, got, "Pharmacy: <patient.name#")
		assert.Contains(t, got, "signed by <patient.signed_by#1>")
	}
}
