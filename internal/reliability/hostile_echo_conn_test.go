package reliability_test

import (
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
)

// httptest: the echo is written as a raw status line ("XTTP/1.1 ...") on a hijacked connection, for net/http's own parser to refuse.

// hostileClient is a client of every interface on s with retries off and
// the e2e credentials.
func hostileClient(t *testing.T, s *server, opts ...rxdelivery.Option) *rxdelivery.Client {
	base := []rxdelivery.Option{
		rxdelivery.WithOmniURL(s.URL), rxdelivery.WithDeliveryURL(s.URL),
		rxdelivery.WithTrackingURL(s.URL), rxdelivery.WithPricingURL(s.URL),
		rxdelivery.WithRetryMax(0),
	}
	c, err := rxdelivery.NewClient(e2eKey, e2eSecret, append(base, opts...)...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// TestEchoInAMalformedStatusLineNeverReachesAString: a platform that
// answers every endpoint with a status line that is not HTTP, repeating
// everything it was sent: no credential and no patient value appears in
// the error string or in a debug log line.
func TestEchoInAMalformedStatusLineNeverReachesAString(t *testing.T) {
	t.Parallel()
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
		echo := echoOf(r)
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		_, _ = buf.WriteString("XTTP/1.1 " + strings.ReplaceAll(echo, "\n", " ") + "\r\n\r\n")
		_ = buf.Flush()
	})
	var logs lockedBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := hostileClient(t, s, rxdelivery.WithLogger(logger))
	found := echoesReached(t, c, &logs)
	t.Logf("credentials and patient values found in error strings and log lines: %d", found)
}
