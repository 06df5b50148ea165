package rxdelivery_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// wire records, on the simulator's clock, every request the client sends
// and every Retry-After it receives, in the order they happen.
type wire struct {
	srv  *rxdeliverytest.Server
	next http.RoundTripper

	mu     sync.Mutex
	seq    int
	sends  []wireSend
	pauses []wirePause
	// returned maps a call's X-Test-Call to the seq at which its caller
	// saw it return.
	returned map[string]int
}

type wireSend struct {
	seq  int
	at   time.Time
	call string
}

// wirePause is a Retry-After received: the platform asked for no request
// in [from, until).
type wirePause struct {
	seq         int
	from, until time.Time
	call        string
}

func (w *wire) RoundTrip(r *http.Request) (*http.Response, error) {
	w.mu.Lock()
	w.seq++
	w.sends = append(w.sends, wireSend{seq: w.seq, at: w.srv.Now(), call: r.Header.Get("X-Test-Call")})
	w.mu.Unlock()
	resp, err := w.next.RoundTrip(r)
	if err == nil && (resp.StatusCode == 429 || resp.StatusCode == 503) {
		if secs, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && secs > 0 {
			w.mu.Lock()
			w.seq++
			now := w.srv.Now()
			w.pauses = append(w.pauses, wirePause{seq: w.seq, from: now, until: now.Add(time.Duration(secs) * time.Second), call: r.Header.Get("X-Test-Call")})
			w.mu.Unlock()
		}
	}
	return resp, err
}

// callReturned records that the call named id returned to its caller.
func (w *wire) callReturned(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seq++
	w.returned[id] = w.seq
}

func newWire(srv *rxdeliverytest.Server) *wire {
	return &wire{srv: srv, next: &http.Transport{}, returned: map[string]int{}}
}

// TestRetryAfterPausesWatchManyOverFiveHundredOrders: a 429 storm (every
// get-many answered 429 with Retry-After 2 s, 25 times) while WatchMany
// follows 500 orders in batches of 50. No get-many goes out after a 429
// and before its Retry-After ends: the round stops at the throttled batch
// and the next starts with the batches it did not read.
func TestRetryAfterPausesWatchManyOverFiveHundredOrders(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("creates 500 orders")
	}
	srv := rxdeliverytest.Start(t)
	w := newWire(srv)
	c, err := srv.NewClient(rxdelivery.WithHTTPClient(&http.Client{Transport: w}))
	require.NoError(t, err)
	ids := make([]string, 500)
	for i := range ids {
		o, err := c.Orders.Create(context.Background(), rxdeliverytest.SamedayOrderParams())
		require.NoError(t, err)
		ids[i] = o.ID
	}
	srv.ResetCalls()
	w.mu.Lock()
	w.sends, w.pauses = nil, nil
	w.mu.Unlock()

	srv.FailNext(rxdeliverytest.OrdersGetMany, 25, rxdeliverytest.RateLimited(2*time.Second))
	delivered := 0
	for o, err := range c.Orders.WatchMany(context.Background(), ids) {
		require.NoError(t, err, "a 429 is not yielded")
		if o.Status == rxtypes.OrderStatusDelivered {
			delivered++
		}
	}
	assert.Equal(t, 500, delivered)

	require.Len(t, w.pauses, 25, "the storm")
	inside := 0
	for _, s := range w.sends {
		for _, p := range w.pauses {
			if s.seq > p.seq && s.at.Before(p.until) {
				inside++
				break
			}
		}
	}
	assert.Zero(t, inside, "requests sent inside a running Retry-After")
	// Every id was read in each round once the storm passed: nothing was
	// left behind by the rounds it cut short.
	counts := map[string]int{}
	for _, call := range srv.CallsTo(rxdeliverytest.OrdersGetMany) {
		if call.Fault == "" {
			for _, id := range call.Query["ids[]"] {
				counts[id]++
			}
		}
	}
	assert.Len(t, counts, 500)
	t.Logf("%d get-many requests, %d answered 429", len(w.sends), len(w.pauses))
}

// TestRetryAfterPausesConcurrentCallers: eight callers read orders of one
// interface during a 429 storm (Retry-After 2 s). Once a caller has seen
// another call's 429 returned, its next request goes after that 429's
// Retry-After, never inside it.
func TestRetryAfterPausesConcurrentCallers(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	w := newWire(srv)
	// Long enough a wait that a caller waits out the pause rather than
	// being refused; no retries, so that no call sleeps in real time.
	c, err := srv.NewClient(rxdelivery.WithHTTPClient(&http.Client{Transport: w}),
		rxdelivery.WithRetryWaitMax(5*time.Second), rxdelivery.WithRetryMax(0))
	require.NoError(t, err)
	o, err := c.Orders.Create(context.Background(), rxdeliverytest.SamedayOrderParams())
	require.NoError(t, err)

	srv.FailNext(rxdeliverytest.OrdersGet, 40, rxdeliverytest.RateLimited(2*time.Second))
	const callers, calls = 8, 12
	// steps holds, by X-Test-Call, the X-Test-Call of the same caller's
	// previous call.
	type step struct{ prev string }
	var steps sync.Map
	var wg sync.WaitGroup
	for g := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			prev := ""
			for i := range calls {
				id := strconv.Itoa(g) + "/" + strconv.Itoa(i)
				steps.Store(id, step{prev: prev})
				_, err := c.Orders.Get(context.Background(), o.ID, rxdelivery.WithHeader("X-Test-Call", id))
				if err != nil && !errors.Is(err, rxdelivery.ErrRateLimited) {
					t.Errorf("get: %v", err)
				}
				w.callReturned(id)
				prev = id
			}
		}()
	}
	wg.Wait()

	require.NotEmpty(t, w.pauses)
	inside := 0
	for _, s := range w.sends {
		v, ok := steps.Load(s.call)
		if !ok || v.(step).prev == "" {
			continue // the create, or a caller's first call
		}
		prev := v.(step).prev
		// Every 429 whose call had returned (so the client knew of it)
		// before this caller's previous call returned.
		prevReturned := w.returned[prev]
		for _, p := range w.pauses {
			if known, ok := w.returned[p.call]; ok && known < prevReturned && s.at.Before(p.until) {
				inside++
				break
			}
		}
	}
	assert.Zero(t, inside, "requests sent inside a Retry-After the client knew of")
	t.Logf("%d requests, %d answered 429", len(w.sends), len(w.pauses))
}
