package benchmarks_test

import (
	"context"
	"encoding/json"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
)

// newMockedWalk returns the benchmarks' server, not started, answering an
// SDK client through Setup's httpmock on a recorder: the iterator's tests
// count the pages asked for and the heap a walk holds, which needs no
// socket.
func newMockedWalk(t *testing.T, bd *bodies) (*server, *rxdelivery.Client) {
	t.Helper()
	s := &server{b: bd}
	env := testutil.Setup(t, rxdelivery.WithOmniURL(testutil.OmniURL+"/walk"))
	env.Serve(http.HandlerFunc(s.serve))
	return s, env.Client
}

// TestIteratorFetchesLazily checks that All asks for a page only when the
// loop reaches it, and that breaking out of the loop fetches nothing more.
func TestIteratorFetchesLazily(t *testing.T) {
	t.Parallel()
	s, c := newMockedWalk(t, loadBodies(t))
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
	s, c := newMockedWalk(t, bd)
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
