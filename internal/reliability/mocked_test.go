package reliability_test

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

// The hostile answers whose bytes, not their delivery, are under test (a
// status, a Retry-After, a body the SDK must refuse, a platform echoing
// what it was sent) reach the client through Setup's httpmock: the test's
// handler runs on a recorder in the call's goroutine, without a socket.
// What needs a real connection (a cut, a stall, a streamed body, HTTP/2
// frames) stays on newServer.

// mocked counts the attempts a mocked client makes, as server does.
type mocked struct {
	attempts atomic.Int64
}

// serveMocked makes env answer each of its client's requests with h,
// given the attempt number (from 1), and returns the attempts' count.
func serveMocked(env *testutil.Env, h handlerFunc) *mocked {
	m := &mocked{}
	env.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h(w, r, m.attempts.Add(1))
	}))
	return m
}

// newMocked returns a client with newClient's retries (1ms to 20ms waits,
// three retries) whose calls h answers through Setup's httpmock; opts
// apply last.
func newMocked(t *testing.T, h handlerFunc, opts ...rxdelivery.Option) (*rxdelivery.Client, *mocked) {
	t.Helper()
	env := testutil.Setup(t, append([]rxdelivery.Option{rxdelivery.WithRetryWaitMax(20 * time.Millisecond)}, opts...)...)
	return env.Client, serveMocked(env, h)
}

// newHostileMocked returns a client like hostileClient's (every
// interface, the e2e credentials, retries off) whose calls h answers
// through Setup's httpmock; opts apply last.
func newHostileMocked(t *testing.T, h handlerFunc, opts ...rxdelivery.Option) (*rxdelivery.Client, *mocked) {
	t.Helper()
	env := testutil.Setup(t)
	m := serveMocked(env, h)
	base := []rxdelivery.Option{
		rxdelivery.WithOmniURL(testutil.OmniURL), rxdelivery.WithDeliveryURL(testutil.DeliveryURL),
		rxdelivery.WithTrackingURL(testutil.TrackingURL), rxdelivery.WithPricingURL(testutil.PricingURL),
		rxdelivery.WithHTTPClient(&http.Client{Transport: env.Mock}),
		rxdelivery.WithRetryMax(0),
	}
	c, err := rxdelivery.NewClient(e2eKey, e2eSecret, append(base, opts...)...)
	require.NoError(t, err)
	return c, m
}
