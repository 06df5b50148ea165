package benchmarks_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
)

// TestSameValues checks that net/http with the SDK's structs and the SDK decode the same
// values from the same answers, so the benchmarks compare equal work.
func TestSameValues(t *testing.T) {
	t.Parallel()
	s := newServer(t, loadBodies(t))
	bl := newSDKTypes(t, s, "/omni")
	c := newSDK(t, s)
	ctx := context.Background()

	want, err := bl.getOrder(ctx, orderID)
	require.NoError(t, err)
	got, err := c.Orders.Get(ctx, orderID)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, "delivered", string(got.Status))

	p := createParams(t)
	want, err = bl.createOrder(ctx, p)
	require.NoError(t, err)
	got, err = c.Orders.Create(ctx, p)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, orderID, got.ID)

	wantPage, err := bl.search(ctx, searchParams())
	require.NoError(t, err)
	gotPage, err := c.Pharmacies.Search(ctx, searchParams())
	require.NoError(t, err)
	assert.Equal(t, wantPage, gotPage)
	assert.Len(t, gotPage.Pharmacies, searchPageSize)

	wantMany, err := bl.getMany(ctx, manyIDs())
	require.NoError(t, err)
	gotMany, err := c.Orders.GetMany(ctx, manyIDs())
	require.NoError(t, err)
	assert.Equal(t, wantMany, gotMany)
	assert.Len(t, gotMany, getManyCount)
}

// connCounter counts the connections a client's transport dials and the
// most it has open at once.
type connCounter struct {
	dialed, open, peak atomic.Int64
}

// pooled returns the SDK's default pooled transport, dialing through c.
func (c *connCounter) pooled() *http.Transport {
	tr := core.NewPooledTransport()
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		c.dialed.Add(1)
		n := c.open.Add(1)
		for p := c.peak.Load(); n > p && !c.peak.CompareAndSwap(p, n); p = c.peak.Load() {
		}
		return &countedConn{Conn: conn, c: c}, nil
	}
	return tr
}

type countedConn struct {
	net.Conn
	c    *connCounter
	once sync.Once
}

func (cc *countedConn) Close() error {
	cc.once.Do(func() { cc.c.open.Add(-1) })
	return cc.Conn.Close()
}

// TestConcurrentCallsShareConnections makes 10,000 calls from 64
// goroutines through one client with the SDK's default pool and follows the
// connections it opens: never more open at once than there are goroutines,
// and far fewer opened than calls made, on a cold pool and on a warm one.
//
// Connections opened over the whole run are not bounded by 64: on a
// loaded machine net/http closes a connection whose request writer has
// not reported back within 50ms of the answer being read, although the
// exchange succeeded, and the pool dials a replacement (a few per 10,000
// calls when a 2-core machine runs twenty busy processes). The pool bounds
// connections open at once, and that is what is checked.
func TestConcurrentCallsShareConnections(t *testing.T) {
	t.Parallel()
	s := newServer(t, loadBodies(t))
	var cc connCounter
	c := newSDK(t, s, rxdelivery.WithHTTPClient(&http.Client{Transport: cc.pooled()}))
	get := func(ctx context.Context) error {
		_, err := c.Orders.Get(ctx, orderID)
		return err
	}
	require.NoError(t, runBatch(concurrentWorkers, concurrentCalls, get))
	opened := cc.dialed.Load()
	assert.Positive(t, opened)
	assert.LessOrEqual(t, cc.peak.Load(), int64(concurrentWorkers), "connections open at once")
	assert.Less(t, opened, int64(concurrentCalls/20), "connections opened by the first batch")

	const warm = concurrentCalls / 4
	require.NoError(t, runBatch(concurrentWorkers, warm, get))
	assert.LessOrEqual(t, cc.peak.Load(), int64(concurrentWorkers), "connections open at once")
	assert.Less(t, cc.dialed.Load()-opened, int64(warm/20), "connections opened by a batch on the warm pool")
}

// TestConnectionsBoundedPerHost runs more goroutines than the default
// pool's per-host bound: the calls queue for connections instead of
// opening more.
func TestConnectionsBoundedPerHost(t *testing.T) {
	t.Parallel()
	s := newServer(t, loadBodies(t))
	var cc connCounter
	c := newSDK(t, s, rxdelivery.WithHTTPClient(&http.Client{Transport: cc.pooled()}))
	err := runBatch(2*core.DefaultMaxConnsPerHost, 2000, func(ctx context.Context) error {
		_, err := c.Orders.Get(ctx, orderID)
		return err
	})
	require.NoError(t, err)
	assert.LessOrEqual(t, cc.peak.Load(), int64(core.DefaultMaxConnsPerHost), "connections open at once")
}

// TestIteratorFetchesLazily checks that All asks for a page only when the
// loop reaches it, and that breaking out of the loop fetches nothing more.
func TestIteratorFetchesLazily(t *testing.T) {
	t.Parallel()
	s := newServer(t, loadBodies(t))
	c := newSDK(t, s, rxdelivery.WithOmniURL(s.URL+"/walk"))
	ctx := context.Background()

	n := 0
	for _, err := range c.Pharmacies.All(ctx, &pharmacies.SearchParams{OriginAddress: searchOrigin, PageSize: searchPageSize}) {
		require.NoError(t, err)
		if want := int64(n/searchPageSize + 1); s.searches.Load() != want {
			t.Fatalf("at pharmacy %d the server had served %d pages, want %d", n, s.searches.Load(), want)
		}
		n++
		if n == searchPageSize+searchPageSize/2 {
			break
		}
	}
	assert.Equal(t, int64(2), s.searches.Load(), "pages fetched before the break")
}

// TestIteratorHoldsOnePage walks 10,000 pharmacies (100 pages) and checks
// at regular points that every page before the current one has been
// garbage collected: a finalizer on a value decoded from each page's first
// pharmacy tells when the page is gone. The heap is also bounded by a few
// pages' worth, far below what the whole walk would hold.
func TestIteratorHoldsOnePage(t *testing.T) {
	bd := loadBodies(t)
	s := newServer(t, bd)
	c := newSDK(t, s, rxdelivery.WithOmniURL(s.URL+"/walk"))
	ctx := context.Background()

	// What one decoded page costs on the heap (the mean of ten), to size
	// the bound.
	const sample = 10
	pageHeap := heapOf(func() any {
		pages := make([]pharmacies.SearchPage, sample)
		for i := range pages {
			require.NoError(t, json.Unmarshal(bd.walk[i], &pages[i]))
		}
		return pages
	}) / sample
	if body := uint64(len(bd.walk[0])); pageHeap < body {
		// A decoded page is larger than its body; the body's size is a
		// floor when the measurement was disturbed.
		pageHeap = body
	}
	t.Logf("one decoded page holds about %d bytes", pageHeap)

	var (
		mu        sync.Mutex
		collected = map[int]bool{}
	)
	track := func(page int, d *rxdelivery.Decimal) {
		runtime.SetFinalizer(d, func(*rxdelivery.Decimal) {
			mu.Lock()
			collected[page] = true
			mu.Unlock()
		})
	}
	allBefore := func(page int) bool {
		mu.Lock()
		defer mu.Unlock()
		for p := 1; p < page; p++ {
			if !collected[p] {
				return false
			}
		}
		return true
	}

	base := settledHeap()
	var peak uint64

	n := 0
	for ph, err := range c.Pharmacies.All(ctx, &pharmacies.SearchParams{OriginAddress: searchOrigin, PageSize: searchPageSize}) {
		require.NoError(t, err)
		page := n/searchPageSize + 1
		if n%searchPageSize == 0 {
			require.NotNil(t, ph.DistanceFromOrigin)
			track(page, ph.DistanceFromOrigin)
			if page%10 == 0 {
				// Finalizers run after a collection, on their own goroutine:
				// collect and look again a bounded number of times.
				ok := false
				for try := 0; try < 100 && !ok; try++ {
					runtime.GC()
					ok = allBefore(page)
					if !ok {
						time.Sleep(time.Millisecond)
					}
				}
				if !ok {
					t.Fatalf("at page %d an earlier page is still reachable", page)
				}
				if h := settledHeap(); h > base && h-base > peak {
					peak = h - base
				}
			}
		}
		n++
	}
	require.Equal(t, walkPages*searchPageSize, n)
	assert.Equal(t, int64(walkPages), s.searches.Load())
	t.Logf("heap growth during the walk: at most %d bytes (%d pages would be %d)", peak, walkPages, walkPages*pageHeap)
	assert.Less(t, peak, uint64(8*pageHeap), "heap growth during the walk")
}

// heapOf returns how many heap bytes the value fn returns keeps alive, or
// 0 when other goroutines (an earlier test's connections closing) freed
// more than that during every one of a few tries.
func heapOf(fn func() any) uint64 {
	for try := 0; try < 5; try++ {
		before := settledHeap()
		v := fn()
		after := settledHeap()
		runtime.KeepAlive(v)
		if after > before {
			return after - before
		}
	}
	return 0
}

// settledHeap returns the live heap after two collections: the second one
// also frees what sync.Pool caches kept through the first (the transports'
// buffers), so that earlier tests' leftovers do not move the figure.
func settledHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestHandwrittenSameValues checks that the hand-written client reads the
// same values as the SDK from the same answers (in its own plain types),
// and sends a create body that means the same as the SDK's, so the
// benchmarks compare equal work.
func TestHandwrittenSameValues(t *testing.T) {
	t.Parallel()
	s := newServer(t, loadBodies(t))
	hw := newHandwritten(t, s, "/omni")
	c := newSDK(t, s)
	ctx := context.Background()

	sameOrder := func(t *testing.T, want *hwOrder, got *orders.Order) {
		t.Helper()
		assert.Equal(t, want.ID, got.ID)
		assert.Equal(t, want.Status, string(got.Status))
		assert.Equal(t, want.ExternalReferenceNumber, got.ExternalReferenceNumber)
		assert.Equal(t, want.Pickup != nil, got.Pickup != nil)
		if want.Pickup != nil && got.Pickup != nil {
			assert.True(t, want.Pickup.OccurredAt.Equal(got.Pickup.OccurredAt.Time))
		}
		assert.Equal(t, want.Delivery != nil, got.Delivery != nil)
		if want.Delivery != nil && got.Delivery != nil {
			assert.Equal(t, want.Delivery.SignedBy, got.Delivery.SignedBy)
			assert.Equal(t, want.Delivery.Relationship, string(got.Delivery.Relationship))
			assert.True(t, want.Delivery.OccurredAt.Equal(got.Delivery.OccurredAt.Time))
		}
		assert.Equal(t, want.Shipping != nil, got.Shipping != nil)
		if want.Shipping != nil && got.Shipping != nil {
			assert.Equal(t, want.Shipping.Cost, got.Shipping.Cost.Float64())
			assert.Equal(t, want.Shipping.TrackingNumber, got.Shipping.TrackingNumber)
		}
		assert.Equal(t, want.ETA != nil, got.ETA != nil)
		if want.ETA != nil && got.ETA != nil {
			assert.True(t, want.ETA.ArrivalAt.Equal(got.ETA.ArrivalAt.Time))
			assert.Equal(t, want.ETA.Type, string(got.ETA.Type))
		}
	}

	want, err := hw.getOrder(ctx, orderID)
	require.NoError(t, err)
	got, err := c.Orders.Get(ctx, orderID)
	require.NoError(t, err)
	sameOrder(t, want, got)

	want, err = hw.createOrder(ctx, hwCreateParams(t))
	require.NoError(t, err)
	got, err = c.Orders.Create(ctx, createParams(t))
	require.NoError(t, err)
	sameOrder(t, want, got)

	// Both create bodies mean the same: decoded generically, they are
	// equal (the SDK writes 5.00 where float64 writes 5).
	sdkBody, err := json.Marshal(createParams(t))
	require.NoError(t, err)
	hwBody, err := json.Marshal(hwCreateParams(t))
	require.NoError(t, err)
	var sdkAny, hwAny any
	require.NoError(t, json.Unmarshal(sdkBody, &sdkAny))
	require.NoError(t, json.Unmarshal(hwBody, &hwAny))
	assert.Equal(t, hwAny, sdkAny)

	wantPage, err := hw.search(ctx, searchOrigin, 1, searchPageSize)
	require.NoError(t, err)
	gotPage, err := c.Pharmacies.Search(ctx, searchParams())
	require.NoError(t, err)
	require.Len(t, gotPage.Pharmacies, len(wantPage.Pharmacies))
	assert.Equal(t, wantPage.Count, gotPage.Count)
	assert.Equal(t, wantPage.FormattedAddress, gotPage.FormattedAddress)
	for i, w := range wantPage.Pharmacies {
		g := gotPage.Pharmacies[i]
		assert.Equal(t, w.NPI, g.NPI)
		assert.Equal(t, w.Name, g.Name)
		assert.Equal(t, w.FaxNumber, g.FaxNumber)
		assert.Equal(t, w.Address.Street1, g.Address.Street1)
		require.NotNil(t, g.DistanceFromOrigin)
		assert.Equal(t, w.DistanceFromOrigin, g.DistanceFromOrigin.Float64())
	}

	wantMany, err := hw.getMany(ctx, manyIDs())
	require.NoError(t, err)
	gotMany, err := c.Orders.GetMany(ctx, manyIDs())
	require.NoError(t, err)
	require.Len(t, gotMany, len(wantMany))
	assert.Len(t, gotMany, getManyCount)
	for i := range wantMany {
		sameOrder(t, &wantMany[i], &gotMany[i])
	}
}
