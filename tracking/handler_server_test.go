package tracking_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// httptest: the handler behind net/http's own server, where a body over the limit is answered 413 and the connection closed.

// TestHandlerOverHTTP: the handler serves notifications behind net/http's
// server and refuses a body over its limit there, whether its length is
// announced or not.
func TestHandlerOverHTTP(t *testing.T) {
	t.Parallel()
	got := make(chan *tracking.Notification, 1)
	srv := httptest.NewServer(tracking.NewHandler(func(_ context.Context, n *tracking.Notification) error {
		got <- n
		return nil
	}, tracking.WithMaxBodyBytes(4096)))
	defer srv.Close()

	resp, err := http.Post(srv.URL, "application/json", bytes.NewReader(testutil.Fixture(t, "tracking/notification_minimal.json")))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.Equal(t, "1Z999AA10123456784", (<-got).TrackingNumber)

	resp, err = http.Post(srv.URL, "application/json", strings.NewReader(strings.Repeat(" ", 8192)))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)

	// A body of no announced length runs over the limit while it is read:
	// the handler tells the server to close that connection, whose rest
	// of the body nobody reads.
	resp, err = http.Post(srv.URL, "application/json", struct{ io.Reader }{strings.NewReader(strings.Repeat(" ", 8192))})
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	assert.True(t, resp.Close, "the server closes the connection of a body over the limit")
}
