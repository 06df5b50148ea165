package journal_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
)

// TestGoroutinesRacingOnOneReferenceSendOneCreate runs 16 goroutines, each
// with its own journal and store handle, creating one reference at once.
func TestGoroutinesRacingOnOneReferenceSendOneCreate(t *testing.T) {
	t.Parallel()
	for name, open := range map[string]func(t *testing.T) func() journal.Store{
		"memory": func(*testing.T) func() journal.Store {
			s := journal.NewMemoryStore()
			return func() journal.Store { return s }
		},
		"sqlite": func(t *testing.T) func() journal.Store {
			path := testdb.SQLitePath(t)
			return func() journal.Store { return testdb.SQLite(t, path) }
		},
		"postgres": func(t *testing.T) func() journal.Store {
			dsn := testdb.NewSchema(t)
			return func() journal.Store { return testdb.OpenPostgres(t, dsn) }
		},
	} {
		t.Run(name, func(t *testing.T) {
			newStore := open(t)
			p := newPlatform(t)
			c := p.client(t)
			const n = 16
			creators := make([]*journal.Orders, n)
			for i := range creators {
				creators[i] = journal.New(newStore()).Orders(c.Orders)
			}
			var wg sync.WaitGroup
			start := make(chan struct{})
			ids := make([]string, n)
			for i, o := range creators {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					order, err := o.Create(context.Background(), orderParams("contended"))
					switch {
					case err == nil:
						ids[i] = order.ID
					case !errors.Is(err, journal.ErrClaimed):
						t.Errorf("goroutine %d: %v", i, err)
					}
				}()
			}
			close(start)
			wg.Wait()
			if got := p.createsOf("contended"); got != 1 {
				t.Fatalf("the platform received %d creates; want 1", got)
			}
			for i, id := range ids {
				if id != "" && id != "ord_000001" {
					t.Fatalf("goroutine %d returned %s; want ord_000001", i, id)
				}
			}
		})
	}
}
