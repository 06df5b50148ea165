package reliability_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// httptest: the creates cross a real nginx over TLS and HTTP/2, whose GOAWAYs and crash are seen only on its connections, to an upstream on loopback.

// The SDK behind a real HTTP/2 load balancer (nginx, see
// nginx_helpers_test.go) that recycles each client connection after a few
// requests, as every production proxy does in some form. nginx then sends
// a graceful GOAWAY whose last stream id is below the streams it will not
// serve: HTTP proves the platform never received those, so the SDK sends
// them again; a write the proxy may have passed on stays unknown.

// TestProxyRecyclingConnectionsLosesNoCreate sends 1,500 same-day creates
// from 64 goroutines through nginx with keepalive_requests 4 to the
// simulator: every create succeeds (none ends as an unknown outcome), and
// the platform's record holds exactly one create per reference.
func TestProxyRecyclingConnectionsLosesNoCreate(t *testing.T) {
	t.Parallel()
	const (
		creates = 1500
		workers = 64
	)
	srv := rxdeliverytest.Start(t)
	px := startNginx(t, srv.URL(), 4)
	key, secret := srv.Credentials()
	c, err := rxdelivery.NewClient(key, secret,
		rxdelivery.WithDeliveryURL(px.URL+"/delivery"),
		rxdelivery.WithSandbox(true),
		rxdelivery.WithHTTPClient(px.client(t)))
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)

	errs := make([]error, creates)
	var retried atomic.Int64 // creates the retry policy sent more than once
	var mostAttempts atomic.Int64
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= creates {
					return
				}
				// A deadline far above a create's time, so that a slow machine
				// (64 creates in flight through nginx under the race detector)
				// cannot turn a create into an unknown outcome by its deadline.
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				var md rxdelivery.Metadata
				_, errs[i] = c.Orders.Create(ctx, createParams(t, fmt.Sprintf("lb-%04d", i)), rxdelivery.WithMetadata(&md))
				if md.Attempts > 1 {
					retried.Add(1)
				}
				for n := int64(md.Attempts); ; {
					if m := mostAttempts.Load(); n <= m || mostAttempts.CompareAndSwap(m, n) {
						break
					}
				}
				cancel()
			}
		}()
	}
	wg.Wait()

	var ok, unknown, failed int
	for i, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, rxdelivery.ErrUnknownOutcome):
			if unknown++; unknown <= 3 {
				t.Logf("lb-%04d: %v", i, err)
			}
		default:
			if failed++; failed <= 3 {
				t.Logf("lb-%04d: %v", i, err)
			}
		}
	}
	received := map[string]int{}
	for _, call := range srv.CallsTo(rxdeliverytest.OrdersCreate) {
		ref, _ := call.Body["external_reference_number"].(string)
		received[ref]++
	}
	var dup int
	for _, n := range received {
		if n > 1 {
			dup++
		}
	}
	t.Logf("%d creates through nginx (keepalive_requests 4), %d goroutines: %d created (%d after a retry of the policy, at most %d attempts), %d unknown outcomes, %d other failures; the platform received %d references, %d of them more than once",
		creates, workers, ok, retried.Load(), mostAttempts.Load(), unknown, failed, len(received), dup)
	assert.Zero(t, unknown, "creates reported as an unknown outcome")
	assert.Zero(t, failed, "creates that failed")
	assert.Zero(t, dup, "references the platform received more than once")
	for i := 0; i < creates; i++ {
		ref := fmt.Sprintf("lb-%04d", i)
		if errs[i] == nil && received[ref] != 1 {
			t.Errorf("%s succeeded but the platform received it %d times", ref, received[ref])
		}
	}
}

// TestProxyCrashAfterUpstreamReceivedIsUnknown: the proxy passes a create
// on to the platform and dies before answering. HTTP proves nothing about
// that write: it fails at once as an unknown outcome (metadata included),
// with retries allowed, and the platform received it once.
func TestProxyCrashAfterUpstreamReceivedIsUnknown(t *testing.T) {
	t.Parallel()
	received := make(chan struct{}, 1)
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
		drainRequest(r)
		received <- struct{}{}
		<-r.Context().Done()
	})
	px := startNginx(t, s.URL, 4)
	c := newClient(t, s, rxdelivery.WithDeliveryURL(px.URL), rxdelivery.WithHTTPClient(px.client(t)))

	var md rxdelivery.Metadata
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_, err := c.Orders.Create(ctx, createParams(t, "ref-crash"), rxdelivery.WithMetadata(&md))
		done <- err
	}()
	select {
	case <-received:
	case err := <-done:
		t.Fatalf("the create ended before the platform received it: %v", err)
	}
	px.kill()
	err := <-done
	require.Error(t, err)
	t.Logf("after the proxy died: %v", err)
	assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.False(t, md.OutcomeKnown)
	assert.Equal(t, int64(1), s.attempts.Load(), "creates the platform received")
}
