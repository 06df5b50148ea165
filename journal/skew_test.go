package journal_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// skewedClocks are two replicas' clocks, replica B's 40% of the lease
// ahead of A's, frozen until advance moves both: the processes' clocks can
// be made to say that most of a lease has passed while the store's has not.
type skewedClocks struct {
	mu       sync.Mutex
	base     time.Time
	advanced time.Duration
	skew     time.Duration
}

func newSkewedClocks(lease time.Duration) *skewedClocks {
	return &skewedClocks{base: time.Now(), skew: lease * 4 / 10}
}

func (c *skewedClocks) a() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.base.Add(c.advanced)
}

func (c *skewedClocks) b() time.Time { return c.a().Add(c.skew) }

func (c *skewedClocks) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.advanced += d
}

// sharedStoreReplicas opens two handles on one shared store, as two
// replicas would: a real PostgreSQL database, and an SQLite file.
func sharedStoreReplicas() map[string]func(t *testing.T) (journal.Store, journal.Store) {
	return map[string]func(t *testing.T) (journal.Store, journal.Store){
		"postgres": func(t *testing.T) (journal.Store, journal.Store) {
			dsn := testdb.NewSchema(t)
			return testdb.OpenPostgres(t, dsn), testdb.OpenPostgres(t, dsn)
		},
		"sqlite": func(t *testing.T) (journal.Store, journal.Store) {
			path := testdb.SQLitePath(t)
			return testdb.SQLite(t, path), testdb.SQLite(t, path)
		},
	}
}

// TestOnceUnderClockSkew is the case of a callback run twice: lease 2 s,
// replica B's clock 0.8 s (40%) ahead of A's, A's callback still running
// when the processes' clocks say 1.4 s have passed (B's: 2.2 s, past A's
// lease). B must refuse the redelivery, since the store's clock says the
// lease is live; once A has recorded the notification, B acknowledges it
// without running the callback. And a lease does end on the store's
// clock while the processes' clocks stand still: a replica that died is
// taken over.
func TestOnceUnderClockSkew(t *testing.T) {
	t.Parallel()
	const lease = 2 * time.Second
	for name, open := range sharedStoreReplicas() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sa, sb := open(t)
			clocks := newSkewedClocks(lease)
			var calls atomic.Int32
			running, finish := make(chan struct{}), make(chan struct{})
			cb := func(ctx context.Context, n *tracking.Notification) error {
				if calls.Add(1) == 1 {
					close(running)
					<-finish
				}
				return nil
			}
			a := tracking.NewHandler(journal.New(sa, journal.WithHolder("a"), journal.WithLease(lease), journal.WithClock(clocks.a)).Once(cb))
			jb := journal.New(sb, journal.WithHolder("b"), journal.WithLease(lease), journal.WithClock(clocks.b))
			b := tracking.NewHandler(jb.Once(cb))
			body := notificationBody("9400100000000000000077", "Delivered", "2026-03-02T12:00:00Z")

			done := make(chan int, 1)
			go func() { done <- deliver(a, body) }()
			<-running
			clocks.advance(lease * 7 / 10)
			if code := deliver(b, body); code != http.StatusServiceUnavailable {
				t.Fatalf("redelivery to B while A's callback runs answered %d; want 503 (in flight)", code)
			}
			close(finish)
			if code := <-done; code != http.StatusNoContent {
				t.Fatalf("A answered %d; want 204", code)
			}
			if code := deliver(b, body); code != http.StatusNoContent {
				t.Fatalf("redelivery to B after A recorded it answered %d; want 204", code)
			}
			if n := calls.Load(); n != 1 {
				t.Fatalf("callback ran %d times; want once", n)
			}

			// A replica that claimed a notification and died, with a short
			// lease: it ends on the store's clock, though no process's
			// clock moves.
			ctx := context.Background()
			died := notificationBody("9400100000000000000078", "Delivered", "2026-03-02T12:00:00Z")
			k := journal.NotificationKey(parseNotification(t, died))
			now := clocks.a()
			if _, ok, err := sa.Insert(ctx, journal.Claim{Key: k, State: journal.StateInFlight, Token: "dead", Holder: "dead",
				ClaimedAt: now, LeaseUntil: now.Add(50 * time.Millisecond), UpdatedAt: now}); err != nil || !ok {
				t.Fatalf("planting the dead replica's claim: %v, %v", ok, err)
			}
			waitFor(t, func() bool { return deliver(b, died) == http.StatusNoContent })
			if n := calls.Load(); n != 2 {
				t.Fatalf("callback ran %d times; want 2 (the dead replica's notification taken over once)", n)
			}
			if c, err := jb.Get(ctx, k); err != nil || c.State != journal.StateCreated || c.Holder != "b" {
				t.Fatalf("claim = %+v, %v; want created by b", c, err)
			}
		})
	}
}

func parseNotification(t *testing.T, body string) *tracking.Notification {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	n, err := tracking.ParseNotification(req)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCreateUnderClockSkew: while replica A's create is in flight, replica
// B, whose clock is 40% of the lease ahead, is refused with the claim in
// flight (not of unknown outcome, which an operator could free while A's
// create runs), and nothing is listed for an operator; A records its
// order, which B then returns without sending.
func TestCreateUnderClockSkew(t *testing.T) {
	t.Parallel()
	const lease = 2 * time.Second
	for name, open := range sharedStoreReplicas() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sa, sb := open(t)
			clocks := newSkewedClocks(lease)
			p := newPlatform(t)
			p.hold, p.arrived = make(chan struct{}), make(chan string, 1)
			ja := journal.New(sa, journal.WithHolder("a"), journal.WithLease(lease), journal.WithClock(clocks.a))
			jb := journal.New(sb, journal.WithHolder("b"), journal.WithLease(lease), journal.WithClock(clocks.b))
			ctx := context.Background()
			done := make(chan error, 1)
			go func() {
				_, err := ja.Orders(p.client(t).Orders).Create(ctx, orderParams("skewed"))
				done <- err
			}()
			<-p.arrived
			clocks.advance(lease * 7 / 10)
			_, err := jb.Orders(p.client(t).Orders).Create(ctx, orderParams("skewed"))
			var ce *journal.ClaimedError
			if !errors.As(err, &ce) || ce.Claim.State != journal.StateInFlight || ce.Claim.Holder != "a" {
				t.Fatalf("B's create while A's runs = %v; want a *ClaimedError in flight held by a", err)
			}
			if unknown, err := jb.Unknown(ctx, 10); err != nil || len(unknown) != 0 {
				t.Fatalf("Unknown = %+v, %v; want none while A's lease is live", unknown, err)
			}
			if err := jb.Free(ctx, deliveryKey("skewed")); !errors.Is(err, journal.ErrNoMatch) {
				t.Fatalf("Free of A's live claim = %v; want ErrNoMatch", err)
			}
			close(p.hold)
			if err := <-done; err != nil {
				t.Fatalf("A's create: %v", err)
			}
			o, err := jb.Orders(p.client(t).Orders).Create(ctx, orderParams("skewed"))
			if err != nil || o.ExternalReferenceNumber != "skewed" {
				t.Fatalf("B's create after A's = %+v, %v; want A's order", o, err)
			}
			if n := p.createsOf("skewed"); n != 1 {
				t.Fatalf("platform received %d creates; want 1", n)
			}
		})
	}
}
