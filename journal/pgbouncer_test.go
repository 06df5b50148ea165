package journal_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
)

// pgBouncerDatabase creates a fresh database on the test server, dropped
// when t ends, and returns the DSN that reaches it through PgBouncer.
// (A schema per test cannot be chosen through a transaction-mode pooler:
// it keeps no session settings.)
func pgBouncerDatabase(t *testing.T) string {
	t.Helper()
	bouncer := testdb.PgBouncerDSN(t)
	direct := testdb.PostgresDSN(t)
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "journal_bouncer_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", direct)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP DATABASE " + name + " WITH (FORCE)")
		admin.Close()
	})
	u, err := url.Parse(bouncer)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// TestPostgresStoreThroughPgBouncerTransactionMode: 200 references, each
// created by two goroutines at once and then again, through PgBouncer in
// transaction pooling mode. Every reference is created exactly once, no
// call of the journal fails (one of the two racing creates is refused as
// claimed; every later create returns the recorded order), and no create
// is left unrecorded.
func TestPostgresStoreThroughPgBouncerTransactionMode(t *testing.T) {
	t.Parallel()
	dsn := pgBouncerDatabase(t)
	store := testdb.OpenPostgres(t, dsn)
	p := newPlatform(t)
	c := p.client(t)
	j := journal.New(store)
	const refs = 200
	var failures, claimed atomic.Int64
	var mu sync.Mutex
	var firstErr error
	round := func(racers int) {
		var wg sync.WaitGroup
		for i := 0; i < refs; i++ {
			for r := 0; r < racers; r++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := j.Orders(c.Orders).Create(context.Background(), orderParams(fmt.Sprintf("bouncer-%03d", i)))
					switch {
					case err == nil:
					case errors.Is(err, journal.ErrClaimed) && racers > 1:
						claimed.Add(1)
					default:
						failures.Add(1)
						mu.Lock()
						if firstErr == nil {
							firstErr = err
						}
						mu.Unlock()
					}
				}()
			}
		}
		wg.Wait()
	}
	round(2) // two goroutines at once per reference
	round(1) // and again later
	t.Logf("%d references through PgBouncer: %d journal failures, %d racing creates refused as claimed", refs, failures.Load(), claimed.Load())
	if failures.Load() != 0 {
		t.Fatalf("%d journal calls failed; the first: %v", failures.Load(), firstErr)
	}
	for i := 0; i < refs; i++ {
		ref := fmt.Sprintf("bouncer-%03d", i)
		if got := p.createsOf(ref); got != 1 {
			t.Errorf("%s was created %d times, want 1", ref, got)
		}
	}
	unknown, err := j.Unknown(context.Background(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) != 0 {
		t.Errorf("%d creates left with an unknown outcome", len(unknown))
	}
}
