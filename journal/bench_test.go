package journal_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/orders"
)

// instantOrders is an OrdersAPI that answers at once, so that a benchmark
// through it measures the journal alone.
type instantOrders struct{ n atomic.Int64 }

func (o *instantOrders) Create(_ context.Context, p *orders.CreateParams, _ ...option.CallOption) (*orders.Order, error) {
	return &orders.Order{ID: fmt.Sprintf("ord_%d", o.n.Add(1)), ExternalReferenceNumber: p.ExternalReferenceNumber}, nil
}

func (o *instantOrders) Get(_ context.Context, id string, _ ...option.CallOption) (*orders.Order, error) {
	return &orders.Order{ID: id}, nil
}

// benchStores are the stores the benchmarks compare.
func benchStores(b *testing.B) map[string]func(b *testing.B) journal.Store {
	return map[string]func(b *testing.B) journal.Store{
		"memory":   func(*testing.B) journal.Store { return journal.NewMemoryStore() },
		"sqlite":   func(b *testing.B) journal.Store { return testdb.SQLite(b, testdb.SQLitePath(b)) },
		"postgres": func(b *testing.B) journal.Store { return testdb.Postgres(b) },
	}
}

// BenchmarkJournalOverhead is the journal's cost per create: claim, then
// record the id, around a create that costs nothing.
func BenchmarkJournalOverhead(b *testing.B) {
	for _, name := range []string{"memory", "sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			o := journal.New(benchStores(b)[name](b)).Orders(&instantOrders{})
			p := orderParams("")
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				p.ExternalReferenceNumber = fmt.Sprintf("bench-%d", i)
				if _, err := o.Create(ctx, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCreate is a whole create over loopback HTTP, without the
// journal (direct) and through it on each store.
func BenchmarkCreate(b *testing.B) {
	for _, name := range []string{"direct", "memory", "sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			p := newLoopbackPlatform(b)
			c := p.client(b)
			create := c.Orders.Create
			if name != "direct" {
				create = journal.New(benchStores(b)[name](b)).Orders(c.Orders).Create
			}
			params := orderParams("")
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				params.ExternalReferenceNumber = fmt.Sprintf("bench-%d", i)
				if _, err := create(ctx, params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
