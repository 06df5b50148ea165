package rxdelivery_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
)

// syncBuffer is a bytes.Buffer safe for a handler's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestLogLevelsAnOperatorSees checks that, at the Info level an operator's
// default logger has, retries, give-ups and unknown outcomes are logged,
// attempts are not, and no line carries a query value, a body value or a
// credential.
func TestLogLevelsAnOperatorSees(t *testing.T) {
	s := newOptServer(t)
	var buf syncBuffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	c := s.client(t, rxdelivery.WithLogger(logger))
	ctx := context.Background()

	s.push(503, 429)
	_, err := c.Pharmacies.Search(ctx, &pharmacies.SearchParams{OriginAddress: "42 Elm Avenue, Columbus, OH 43210"})
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, 2, buf.String())
	assert.Contains(t, lines[0], `level=INFO msg="rxdelivery: retrying" operation=pharmacies.Search method=GET path=/api/v1/pharmacies/ attempt=2`)
	assert.Contains(t, lines[0], "after_status=503")
	assert.Contains(t, lines[1], "attempt=3")

	s.push(503, 503, 503, 503)
	_, err = c.Orders.Get(ctx, "ord_1")
	require.Error(t, err)
	assert.Contains(t, buf.String(), `level=WARN msg="rxdelivery: giving up" operation=orders.Get method=GET path=/api/v1/orders/{id} attempts=4 error=unavailable status=503`)

	s.push(500)
	_, err = c.Orders.Create(ctx, testutil.SamedayOrder())
	require.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.Contains(t, buf.String(), `level=ERROR msg="rxdelivery: outcome of the write is unknown" operation=orders.Create method=POST path=/api/v1/orders attempts=1 error=unknown_outcome status=500`)

	s.push(500)
	require.Error(t, c.Orders.RemovePrescription(ctx, "ord_1", "RX-SECRET-77"))

	before := buf.String()
	s.push(404)
	_, err = c.Orders.Get(ctx, "ord_2")
	require.ErrorIs(t, err, rxdelivery.ErrNotFound)
	assert.Equal(t, before, buf.String(), "a refusal is the caller's to report")

	out := buf.String()
	assert.NotContains(t, out, "level=DEBUG")
	for _, secret := range []string{"Elm", "43210", "origin_address", "RX-SECRET-77", "secret", "a2V5",
		"Doe", "6145550100", "Columbus"} {
		assert.NotContains(t, out, secret)
	}
	assert.Contains(t, out, "/prescriptions/{rx_number}")
	assert.NotContains(t, out, "ord_1", "log lines show the templated path")
}
