package benchmarks_test

import (
	"context"
	"sync"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
)

// httptest: the benchmarks time calls to the loopback server of server_test.go, connections and all, as users make them.

// variant is one side of a comparison: a function making one call.
type variant struct {
	name string
	call func(ctx context.Context) error
}

// variants returns, each making the call the benchmark measures, the
// hand-written client with its own structs (the baseline of the targets),
// net/http with the SDK's structs (what the SDK's plumbing costs on its
// own), the SDK, and the SDK without validation. Sub-benchmarks are named
// client=NAME, so that `benchstat -col /client` sets them side by side.
func variants(b *testing.B, s *server,
	hand func(*handwritten, context.Context) error,
	types func(*sdkTypes, context.Context) error,
	sdk func(*rxdelivery.Client, context.Context) error,
) []variant {
	hw := newHandwritten(b, s, "/omni")
	st := newSDKTypes(b, s, "/omni")
	c := newSDK(b, s)
	nv := newSDK(b, s, rxdelivery.WithoutValidation())
	return []variant{
		{"client=handwritten", func(ctx context.Context) error { return hand(hw, ctx) }},
		{"client=nethttp-sdktypes", func(ctx context.Context) error { return types(st, ctx) }},
		{"client=sdk", func(ctx context.Context) error { return sdk(c, ctx) }},
		{"client=sdk-novalidate", func(ctx context.Context) error { return sdk(nv, ctx) }},
	}
}

// floorVariant is the floor of a big read (see floor), named
// client=floor.
func floorVariant(b *testing.B, s *server, call func(*floor, context.Context) error) variant {
	f := newFloor(newHandwritten(b, s, "/omni"))
	return variant{"client=floor", func(ctx context.Context) error { return call(f, ctx) }}
}

func runVariants(b *testing.B, vs []variant, more ...variant) {
	vs = append(vs, more...)
	ctx := context.Background()
	for _, v := range vs {
		b.Run(v.name, func(b *testing.B) {
			// One call outside the timer opens the connection.
			if err := v.call(ctx); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := v.call(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkGetOrder(b *testing.B) {
	s := newServer(b, loadBodies(b))
	runVariants(b, variants(b, s,
		func(c *handwritten, ctx context.Context) error { _, err := c.getOrder(ctx, orderID); return err },
		func(c *sdkTypes, ctx context.Context) error { _, err := c.getOrder(ctx, orderID); return err },
		func(c *rxdelivery.Client, ctx context.Context) error {
			_, err := c.Orders.Get(ctx, orderID)
			return err
		},
	))
}

func BenchmarkCreateSamedayOrder(b *testing.B) {
	s := newServer(b, loadBodies(b))
	p := createParams(b)
	hp := hwCreateParams(b)
	runVariants(b, variants(b, s,
		func(c *handwritten, ctx context.Context) error { _, err := c.createOrder(ctx, hp); return err },
		func(c *sdkTypes, ctx context.Context) error { _, err := c.createOrder(ctx, p); return err },
		func(c *rxdelivery.Client, ctx context.Context) error { _, err := c.Orders.Create(ctx, p); return err },
	))
}

func BenchmarkSearchPharmacies100(b *testing.B) {
	s := newServer(b, loadBodies(b))
	p := searchParams()
	runVariants(b, variants(b, s,
		func(c *handwritten, ctx context.Context) error {
			_, err := c.search(ctx, searchOrigin, 1, searchPageSize)
			return err
		},
		func(c *sdkTypes, ctx context.Context) error { _, err := c.search(ctx, p); return err },
		func(c *rxdelivery.Client, ctx context.Context) error {
			_, err := c.Pharmacies.Search(ctx, p)
			return err
		},
	), floorVariant(b, s, func(c *floor, ctx context.Context) error {
		_, err := c.search(ctx, searchOrigin, 1, searchPageSize)
		return err
	}))
}

func BenchmarkGetManyOrders50(b *testing.B) {
	s := newServer(b, loadBodies(b))
	ids := manyIDs()
	runVariants(b, variants(b, s,
		func(c *handwritten, ctx context.Context) error { _, err := c.getMany(ctx, ids); return err },
		func(c *sdkTypes, ctx context.Context) error { _, err := c.getMany(ctx, ids); return err },
		func(c *rxdelivery.Client, ctx context.Context) error {
			_, err := c.Orders.GetMany(ctx, ids)
			return err
		},
	), floorVariant(b, s, func(c *floor, ctx context.Context) error { _, err := c.getMany(ctx, ids); return err }))
}

// Concurrency: one op is a batch of concurrentCalls calls made by
// concurrentWorkers goroutines sharing one client.
const (
	concurrentWorkers = 64
	concurrentCalls   = 10000
)

// runBatch makes calls calls of fn over workers goroutines and returns the
// first error.
func runBatch(workers, calls int, fn func(context.Context) error) error {
	ctx := context.Background()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	next := make(chan struct{}, calls)
	for i := 0; i < calls; i++ {
		next <- struct{}{}
	}
	close(next)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range next {
				if err := fn(ctx); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// BenchmarkConcurrentGetOrder64 reports, per batch of 10,000 calls over 64
// goroutines, the time, calls/s, and the TCP connections the server
// accepted over the whole run (conns; see TestConcurrentCallsShareConnections
// for why a loaded machine can make it exceed 64 although no more than 64
// are ever open at once).
func BenchmarkConcurrentGetOrder64(b *testing.B) {
	bd := loadBodies(b)
	run := func(b *testing.B, call func(context.Context) error, s *server) {
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := runBatch(concurrentWorkers, concurrentCalls, call); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		b.ReportMetric(float64(concurrentCalls)*float64(b.N)/b.Elapsed().Seconds(), "calls/s")
		b.ReportMetric(float64(s.conns.Load()), "conns")
	}
	b.Run("client=handwritten", func(b *testing.B) {
		s := newServer(b, bd)
		c := newHandwritten(b, s, "/omni")
		run(b, func(ctx context.Context) error { _, err := c.getOrder(ctx, orderID); return err }, s)
	})
	b.Run("client=sdk", func(b *testing.B) {
		s := newServer(b, bd)
		c := newSDK(b, s)
		run(b, func(ctx context.Context) error { _, err := c.Orders.Get(ctx, orderID); return err }, s)
	})
}

// BenchmarkWalkPharmacies10000 walks 100 pages of 100 pharmacies: by hand
// page after page with the hand-written client, and through the SDK's
// iterator.
func BenchmarkWalkPharmacies10000(b *testing.B) {
	bd := loadBodies(b)
	ctx := context.Background()
	b.Run("client=handwritten", func(b *testing.B) {
		s := newServer(b, bd)
		c := newHandwritten(b, s, "/walk")
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			n := 0
			for number := 1; ; number++ {
				page, err := c.search(ctx, searchOrigin, number, searchPageSize)
				if err != nil {
					b.Fatal(err)
				}
				n += len(page.Pharmacies)
				if len(page.Pharmacies) == 0 || number >= page.TotalPages {
					break
				}
			}
			if n != walkPages*searchPageSize {
				b.Fatalf("walked %d pharmacies", n)
			}
		}
	})
	b.Run("client=sdk", func(b *testing.B) {
		s := newServer(b, bd)
		c := newSDK(b, s, rxdelivery.WithOmniURL(s.URL+"/walk"))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			n := 0
			for _, err := range c.Pharmacies.All(ctx, &pharmacies.SearchParams{OriginAddress: searchOrigin, PageSize: searchPageSize}) {
				if err != nil {
					b.Fatal(err)
				}
				n++
			}
			if n != walkPages*searchPageSize {
				b.Fatalf("walked %d pharmacies", n)
			}
		}
	})
}

// BenchmarkValidateSamedayOrder measures, alone, the validation the SDK
// runs before it sends a create: the difference between the sdk and
// sdk-novalidate variants of BenchmarkCreateSamedayOrder.
func BenchmarkValidateSamedayOrder(b *testing.B) {
	p := createParams(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := p.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}
