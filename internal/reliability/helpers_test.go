package reliability_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/orders"
)

// httptest: the hostile servers misbehave below HTTP (cut connections, TLS, HTTP/2 frames), which needs real sockets.

// TestMain fails the package when a goroutine outlives the tests: every
// test closes its client's idle connections and its servers, so whatever
// is left was leaked by the SDK.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// server is a loopback server whose handler a test sets. It counts the
// requests it receives (attempts) and ends handlers that wait when the test
// ends.
type server struct {
	*httptest.Server
	attempts atomic.Int64
	stop     chan struct{}
}

// handlerFunc answers attempt n (from 1) of the test's calls.
type handlerFunc func(w http.ResponseWriter, r *http.Request, n int64)

func newServer(t *testing.T, h handlerFunc) *server {
	t.Helper()
	s := &server{stop: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h(w, r, s.attempts.Add(1))
	}))
	t.Cleanup(func() {
		close(s.stop)
		s.Close()
	})
	return s
}

// wait blocks until the client goes away or the test ends.
func (s *server) wait(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-s.stop:
	}
}

// newClient returns a client on s for the delivery, omni and pricing
// interfaces with short retry waits (1ms to 20ms, three retries). It
// closes the client's idle connections when the test ends.
func newClient(t *testing.T, s *server, opts ...rxdelivery.Option) *rxdelivery.Client {
	t.Helper()
	base := []rxdelivery.Option{
		rxdelivery.WithDeliveryURL(s.URL),
		rxdelivery.WithOmniURL(s.URL),
		rxdelivery.WithPricingURL(s.URL),
		rxdelivery.WithRetryWaitMin(time.Millisecond),
		rxdelivery.WithRetryWaitMax(20 * time.Millisecond),
	}
	c, err := rxdelivery.NewClient(testutil.Key, testutil.Secret, append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// writeJSON answers status with body.
func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// hijack takes the connection over and writes raw bytes (possibly nothing)
// before closing it. The request body is read first, so the server has the
// whole request, as a platform that acted on it would.
func hijack(t *testing.T, w http.ResponseWriter, r *http.Request, raw string) {
	drainRequest(r)
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		t.Errorf("hijack: %v", err)
		return
	}
	defer conn.Close()
	if raw != "" {
		_, _ = buf.WriteString(raw)
		_ = buf.Flush()
	}
	// Make sure the client sees a cut, not a clean end.
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
}

func drainRequest(r *http.Request) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
	}
}

// partial returns the raw start of a 200 answer that announces size bytes
// of body and carries only body.
func partial(body string, size int) string {
	return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
		strconv.Itoa(size) + "\r\n\r\n" + body
}

// orderBody is a minimal order answer for id.
func orderBody(id string) string {
	return `{"order":{"id":"` + id + `","status":"new","external_reference_number":"ref"}}`
}

// createParams returns the valid same-day order of the request fixture,
// with ref as its external reference number.
func createParams(t testing.TB, ref string) *orders.CreateParams {
	var p orders.CreateParams
	if err := json.Unmarshal(testutil.Fixture(t, "delivery/order_create_sameday_request.json"), &p); err != nil {
		t.Fatal(err)
	}
	p.ExternalReferenceNumber = ref
	return &p
}

// containsAll reports whether s contains every one of subs.
func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
