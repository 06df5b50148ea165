package journal_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// markStores opens, for each kind of store, two handles on one store (two
// processes' views: one MemoryStore, two connections to one SQLite file,
// two pools on one PostgreSQL schema).
func markStores() map[string]func(t *testing.T) (journal.MarkStore, journal.MarkStore) {
	return map[string]func(t *testing.T) (journal.MarkStore, journal.MarkStore){
		"memory": func(*testing.T) (journal.MarkStore, journal.MarkStore) {
			s := journal.NewMemoryStore()
			return s, s
		},
		"sqlite": func(t *testing.T) (journal.MarkStore, journal.MarkStore) {
			path := testdb.SQLitePath(t)
			return testdb.SQLite(t, path), testdb.SQLite(t, path)
		},
		"postgres": func(t *testing.T) (journal.MarkStore, journal.MarkStore) {
			dsn := testdb.NewSchema(t)
			return testdb.OpenPostgres(t, dsn), testdb.OpenPostgres(t, dsn)
		},
	}
}

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

func at(minutes int) time.Time { return t0.Add(time.Duration(minutes) * time.Minute) }

// TestMarkStoreContract checks each store's marks against MarkStore's
// conditions, with the two handles of one store taking turns.
func TestMarkStoreContract(t *testing.T) {
	t.Parallel()
	for name, open := range markStores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, b := open(t)
			ctx := context.Background()
			const tn = "9400100000000000000101"
			advance := func(s journal.MarkStore, next journal.Mark, now time.Time) (bool, journal.Mark) {
				t.Helper()
				moved, m, err := s.AdvanceMark(ctx, tn, next, now)
				if err != nil {
					t.Fatal(err)
				}
				return moved, m
			}
			want := func(moved bool, m journal.Mark, wantMoved bool, wantAt, wantPrev time.Time, wantToken string) {
				t.Helper()
				if moved != wantMoved || !m.At.Equal(wantAt) || !m.Prev.Equal(wantPrev) || m.Token != wantToken {
					t.Fatalf("moved %v, mark %+v; want moved %v at %v prev %v token %q", moved, m, wantMoved, wantAt, wantPrev, wantToken)
				}
			}

			// Without leases (Journal.Marks).
			moved, m := advance(a, journal.Mark{At: at(10)}, at(0))
			want(moved, m, true, at(10), time.Time{}, "")
			moved, m = advance(b, journal.Mark{At: at(5)}, at(0))
			want(moved, m, false, at(10), time.Time{}, "")
			moved, m = advance(b, journal.Mark{At: at(10)}, at(0))
			want(moved, m, false, at(10), time.Time{}, "")
			moved, m = advance(b, journal.Mark{At: at(20)}, at(0))
			want(moved, m, true, at(20), at(10), "")
			// A retreat from an instant the mark is not at changes nothing.
			if err := a.RetreatMark(ctx, tn, at(10), time.Time{}, ""); err != nil {
				t.Fatal(err)
			}
			moved, m = advance(a, journal.Mark{At: at(15)}, at(0))
			want(moved, m, false, at(20), at(10), "")
			if err := a.RetreatMark(ctx, tn, at(20), at(10), ""); err != nil {
				t.Fatal(err)
			}
			moved, m = advance(b, journal.Mark{At: at(15)}, at(0))
			want(moved, m, true, at(15), at(10), "")

			// With leases (Journal.TrackingHandler), measured from the
			// caller's now and stamped on the store's clock.
			now := time.Now()
			running, ended := now.Add(time.Hour), now.Add(-time.Minute)
			lease := func(token string, until time.Time, when int) journal.Mark {
				return journal.Mark{At: at(when), Token: token, LeaseUntil: until}
			}
			moved, m = advance(a, lease("A", running, 30), now)
			want(moved, m, true, at(30), at(15), "A")
			if m.LeaseUntil.IsZero() {
				t.Fatalf("no lease stamped: %+v", m)
			}
			// While A's lease runs, nothing moves the mark: neither a newer
			// notification nor the same one.
			moved, m = advance(b, lease("B", running, 40), now)
			want(moved, m, false, at(30), at(15), "A")
			moved, m = advance(b, lease("B", running, 30), now)
			want(moved, m, false, at(30), at(15), "A")
			// A replica died holding a lease that has ended: its
			// notification is taken over, keeping the mark it replaced.
			const dead = "9400100000000000000103"
			if moved, _, err := a.AdvanceMark(ctx, dead, journal.Mark{At: at(5)}, now); err != nil || !moved {
				t.Fatalf("moved %v, %v", moved, err)
			}
			if moved, _, err := a.AdvanceMark(ctx, dead, lease("dead", ended, 30), now); err != nil || !moved {
				t.Fatalf("moved %v, %v", moved, err)
			}
			moved, m, err := b.AdvanceMark(ctx, dead, lease("B", running, 30), now)
			if err != nil {
				t.Fatal(err)
			}
			want(moved, m, true, at(30), at(5), "B")
			if err := a.ReleaseMark(ctx, dead, "dead"); !errors.Is(err, journal.ErrNoMatch) {
				t.Fatalf("release by the dead holder: %v; want ErrNoMatch", err)
			}
			if err := a.RetreatMark(ctx, dead, at(30), at(5), "dead"); err != nil {
				t.Fatal(err)
			}
			if err := b.ReleaseMark(ctx, dead, "B"); err != nil {
				t.Fatal(err)
			}
			// Handled: the same notification is stale, even with a token.
			moved, m, err = a.AdvanceMark(ctx, dead, lease("C", running, 30), now)
			if err != nil {
				t.Fatal(err)
			}
			want(moved, m, false, at(30), at(5), "")
			// A newer one takes a lease, fails and moves the mark back.
			if err := a.ReleaseMark(ctx, tn, "A"); err != nil {
				t.Fatal(err)
			}
			moved, m = advance(a, lease("C", running, 40), now)
			want(moved, m, true, at(40), at(30), "C")
			if err := b.RetreatMark(ctx, tn, at(40), at(30), "B"); err != nil {
				t.Fatal(err)
			}
			moved, m = advance(b, lease("D", running, 35), now)
			want(moved, m, false, at(40), at(30), "C")
			if err := a.RetreatMark(ctx, tn, at(40), at(30), "C"); err != nil {
				t.Fatal(err)
			}
			moved, m = advance(b, lease("D", running, 35), now)
			want(moved, m, true, at(35), at(30), "D")
			// Another tracking number has a mark of its own.
			moved, _, err = b.AdvanceMark(ctx, "9400100000000000000102", journal.Mark{At: at(1)}, at(0))
			if err != nil || !moved {
				t.Fatalf("another tracking number: moved %v, %v", moved, err)
			}
		})
	}
}

func notificationAt(tn string, when time.Time) string {
	return notificationBody(tn, "Moving Through Network", when.Format(time.RFC3339Nano))
}

// holdCallback has j's tracking handler take the notification of tn at
// minute 10 and stay in its callback (counted in calls) until the returned
// release is called; release returns the status the handler then answered.
func holdCallback(j *journal.Journal, calls *atomic.Int32, tn string) (release func() int) {
	entered, held := make(chan struct{}), make(chan struct{})
	h := j.TrackingHandler(func(context.Context, *tracking.Notification) error {
		calls.Add(1)
		close(entered)
		<-held
		return nil
	})
	done := make(chan int)
	go func() { done <- deliver(h, notificationAt(tn, at(10))) }()
	<-entered
	return func() int {
		close(held)
		return <-done
	}
}

// TestMarksOrderAcrossReplicas has two replicas with Journal.Marks on one
// store receive every notification of a tracking number several times,
// at once: each status time reaches the callback at most once and the
// newest is handled.
func TestMarksOrderAcrossReplicas(t *testing.T) {
	t.Parallel()
	for name, open := range markStores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sa, sb := open(t)
			var mu sync.Mutex
			seen := map[string]int{}
			cb := func(_ context.Context, n *tracking.Notification) error {
				mu.Lock()
				defer mu.Unlock()
				seen[n.StatusOccurredAt.Raw]++
				return nil
			}
			replicas := []*tracking.Handler{
				tracking.NewHandler(cb, tracking.WithOrdering(journal.New(sa).Marks())),
				tracking.NewHandler(cb, tracking.WithOrdering(journal.New(sb).Marks())),
			}
			const tn = "9400100000000000000201"
			var wg sync.WaitGroup
			for i := range 60 {
				wg.Go(func() {
					if code := deliver(replicas[i%2], notificationAt(tn, at(i%10))); code != http.StatusNoContent {
						t.Errorf("delivery answered %d; want 204", code)
					}
				})
			}
			wg.Wait()
			for k, n := range seen {
				if n != 1 {
					t.Fatalf("%s reached the callback %d times; want at most once", k, n)
				}
			}
			if seen[at(9).Format(time.RFC3339Nano)] != 1 {
				t.Fatalf("the newest notification was not handled: %v", seen)
			}
			if got := replicas[0].Stale() + replicas[1].Stale() + int64(len(seen)); got != 60 {
				t.Fatalf("stale %d + handled %d = %d; want every delivery", replicas[0].Stale()+replicas[1].Stale(), len(seen), got)
			}
		})
	}
}

// TestMarksRetreatWhenTheCallbackFails: the platform's redelivery of a
// notification whose callback failed is handled, in the store's marks.
func TestMarksRetreatWhenTheCallbackFails(t *testing.T) {
	t.Parallel()
	for name, open := range markStores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, _ := open(t)
			var calls atomic.Int32
			h := tracking.NewHandler(func(context.Context, *tracking.Notification) error {
				if calls.Add(1) == 2 {
					return errors.New("database down")
				}
				return nil
			}, tracking.WithOrdering(journal.New(s).Marks()))
			const tn = "9400100000000000000301"
			for i, c := range []struct {
				when, code int
				calls      int32
			}{
				{10, 204, 1}, {20, 500, 2}, {20, 204, 3}, {20, 204, 3}, {15, 204, 3},
			} {
				if code := deliver(h, notificationAt(tn, at(c.when))); code != c.code || calls.Load() != c.calls {
					t.Fatalf("delivery %d: answered %d after %d calls; want %d after %d", i, code, calls.Load(), c.code, c.calls)
				}
			}
		})
	}
}

// TestTrackingHandlerOnceAndInOrder delivers out of order, twice, and with
// a failing callback, to one replica.
func TestTrackingHandlerOnceAndInOrder(t *testing.T) {
	t.Parallel()
	for name, open := range markStores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, _ := open(t)
			var got []int
			fail := true
			h := journal.New(s).TrackingHandler(func(_ context.Context, n *tracking.Notification) error {
				if n.StatusOccurredAt.Equal(at(30)) && fail {
					fail = false
					return errors.New("database down")
				}
				got = append(got, int(n.StatusOccurredAt.Sub(t0)/time.Minute))
				return nil
			})
			const tn = "9400100000000000000401"
			for i, c := range []struct{ when, code int }{
				{10, 204}, {10, 204}, {5, 204}, {20, 204}, {30, 500}, {25, 204}, {30, 204}, {30, 204}, {40, 204},
			} {
				if code := deliver(h, notificationAt(tn, at(c.when))); code != c.code {
					t.Fatalf("delivery %d (minute %d) answered %d; want %d", i, c.when, code, c.code)
				}
			}
			// After the failure at minute 30 the mark is back at 20: 25 is
			// newer than everything handled, and is handled.
			if fmt.Sprint(got) != "[10 20 25 30 40]" {
				t.Fatalf("callback saw minutes %v; want [10 20 25 30 40]", got)
			}
			if h.Stale() != 3 {
				t.Fatalf("Stale() = %d; want 3 (10 again, 5, 30 again)", h.Stale())
			}
		})
	}
}

// TestTrackingHandlerSerialisesReplicas: while one replica's callback runs
// for a tracking number, the other answers 503 to its notifications (the
// platform delivers them again), and handles them once it is done.
func TestTrackingHandlerSerialisesReplicas(t *testing.T) {
	t.Parallel()
	for name, open := range markStores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sa, sb := open(t)
			var calls atomic.Int32
			b := journal.New(sb, journal.WithHolder("b")).TrackingHandler(func(context.Context, *tracking.Notification) error {
				calls.Add(1)
				return nil
			})
			const tn = "9400100000000000000501"
			release := holdCallback(journal.New(sa, journal.WithHolder("a")), &calls, tn)
			for _, when := range []int{10, 20} {
				if code := deliver(b, notificationAt(tn, at(when))); code != http.StatusServiceUnavailable {
					t.Fatalf("minute %d while the other replica handles minute 10: %d; want 503", when, code)
				}
			}
			if code := deliver(b, notificationAt(tn, at(5))); code != http.StatusNoContent {
				t.Fatalf("an older notification: %d; want 204 (stale)", code)
			}
			if code := release(); code != http.StatusNoContent {
				t.Fatalf("the first replica answered %d; want 204", code)
			}
			for _, c := range []struct{ when, code int }{{10, 204}, {20, 204}} {
				if code := deliver(b, notificationAt(tn, at(c.when))); code != c.code {
					t.Fatalf("redelivery of minute %d: %d; want %d", c.when, code, c.code)
				}
			}
			if n := calls.Load(); n != 2 {
				t.Fatalf("callbacks ran %d times; want 2", n)
			}
		})
	}
}

// TestTrackingHandlerTakesOverAfterAReplicaDied: a replica that died while
// its callback ran leaves a lease; once it has ended, the next delivery is
// handled, and until then it is answered 500, never acknowledged as stale.
func TestTrackingHandlerTakesOverAfterAReplicaDied(t *testing.T) {
	t.Parallel()
	for name, open := range markStores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, _ := open(t)
			now := time.Now()
			// Two dead replicas moved marks to minute 10 and never
			// returned: one lease runs for an hour yet, one has ended.
			for tn, until := range map[string]time.Time{
				"9400100000000000000601": now.Add(time.Hour),
				"9400100000000000000602": now.Add(-time.Second),
			} {
				if moved, _, err := s.AdvanceMark(context.Background(), tn,
					journal.Mark{At: at(10), Token: "dead", LeaseUntil: until}, now); err != nil || !moved {
					t.Fatalf("moved %v, %v", moved, err)
				}
			}
			var calls atomic.Int32
			h := journal.New(s).TrackingHandler(func(context.Context, *tracking.Notification) error {
				calls.Add(1)
				return nil
			})
			if code := deliver(h, notificationAt("9400100000000000000601", at(10))); code != http.StatusServiceUnavailable {
				t.Fatalf("during the dead replica's lease: %d; want 503", code)
			}
			for range 2 {
				if code := deliver(h, notificationAt("9400100000000000000602", at(10))); code != http.StatusNoContent {
					t.Fatalf("after the lease: %d; want 204", code)
				}
			}
			if n := calls.Load(); n != 1 {
				t.Fatalf("callback ran %d times; want 1 (taken over, then handled)", n)
			}
		})
	}
}

// TestTrackingHandlerUnparsedTimeGoesThroughOnce: a notification whose
// status time does not parse is not ordered, and still reaches the
// callback once.
func TestTrackingHandlerUnparsedTimeGoesThroughOnce(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	h := journal.New(journal.NewMemoryStore()).TrackingHandler(func(context.Context, *tracking.Notification) error {
		calls.Add(1)
		return nil
	})
	body := notificationBody("9400100000000000000701", "Accepted", "yesterday")
	for range 3 {
		if code := deliver(h, body); code != http.StatusNoContent {
			t.Fatalf("answered %d; want 204", code)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("callback ran %d times; want 1", n)
	}
	if h.Stale() != 0 {
		t.Fatalf("Stale() = %d; want 0: the notification is not ordered", h.Stale())
	}
}

// TestTrackingHandlerStaleDelivery: under WithStaleDelivery a stale
// notification reaches the callback flagged, and the newest one is still
// handled once.
func TestTrackingHandlerStaleDelivery(t *testing.T) {
	t.Parallel()
	var got []string
	h := journal.New(journal.NewMemoryStore()).TrackingHandler(func(_ context.Context, n *tracking.Notification) error {
		got = append(got, fmt.Sprintf("%d:%v", int(n.StatusOccurredAt.Sub(t0)/time.Minute), n.Stale))
		return nil
	}, tracking.WithStaleDelivery())
	const tn = "9400100000000000000801"
	for _, when := range []int{10, 5, 10, 20} {
		if code := deliver(h, notificationAt(tn, at(when))); code != http.StatusNoContent {
			t.Fatalf("minute %d answered %d; want 204", when, code)
		}
	}
	if fmt.Sprint(got) != "[10:false 5:true 10:true 20:false]" {
		t.Fatalf("callback saw %v", got)
	}
}

func TestTrackingHandlerNeedsAMarkStore(t *testing.T) {
	t.Parallel()
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "MarkStore") {
			t.Fatalf("recovered %v; want a panic naming MarkStore", r)
		}
	}()
	journal.New(onlyStore{journal.NewMemoryStore()}).TrackingHandler(func(context.Context, *tracking.Notification) error { return nil })
}

// onlyStore hides the MemoryStore's marks.
type onlyStore struct{ journal.Store }

// TestTrackingHandlerAcrossReplicasOnPostgres is the proof of ordered,
// once-only handling across replicas: two replicas' handlers on one
// PostgreSQL store receive 1,000 notifications for 50 tracking
// numbers, each delivered 2 or 3 times, shuffled, by 32 concurrent senders
// that deliver again after any answer but 204 (as the platform does); one
// callback call in 13 fails once. Each tracking number's callback calls
// must run one at a time in increasing status_occurred_at, each status
// time must reach the callback once, and each tracking number's newest
// notification must be handled.
func TestTrackingHandlerAcrossReplicasOnPostgres(t *testing.T) {
	t.Parallel()
	dsn := testdb.NewSchema(t)
	const (
		numbers = 50
		perNum  = 20
		senders = 32
		// maxTries bounds the deliveries of one notification, so that a
		// lease never ended fails the test instead of hanging it.
		maxTries = 1000
	)
	type delivery struct{ num, seq int }
	var (
		mu       sync.Mutex
		handled  = make([][]int, numbers) // seq of each successful call
		running  = make([]bool, numbers)
		overlaps int
		failed   int
		calls    atomic.Int64
	)
	app, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Close() })
	if _, err := app.Exec(`CREATE TABLE handled (num INT NOT NULL, seq INT NOT NULL, failed BOOL NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	cb := func(ctx context.Context, n *tracking.Notification) error {
		num, err := strconv.Atoi(strings.TrimPrefix(n.TrackingNumber, "94001"))
		if err != nil {
			return err
		}
		seq := int(n.StatusOccurredAt.Sub(t0) / time.Minute)
		mu.Lock()
		if running[num] {
			overlaps++
		}
		running[num] = true
		fail := (num*perNum+seq)%13 == 0 && !contains(handled[num], -seq-1)
		if fail {
			handled[num] = append(handled[num], -seq-1) // remembered, not counted
			failed++
		}
		mu.Unlock()
		calls.Add(1)
		// The callback's work: a write to the application's database, a
		// round trip during which another call of the tracking number
		// would run, were the handlers to allow it.
		if _, err := app.ExecContext(ctx, `INSERT INTO handled (num, seq, failed) VALUES ($1, $2, $3)`, num, seq, fail); err != nil {
			return err
		}
		mu.Lock()
		running[num] = false
		if !fail {
			handled[num] = append(handled[num], seq)
		}
		mu.Unlock()
		if fail {
			return errors.New("injected failure")
		}
		return nil
	}
	var replicas []*tracking.Handler
	levels := &levelCounts{}
	for _, holder := range []string{"replica-a", "replica-b"} {
		h := journal.New(testdb.OpenPostgres(t, dsn), journal.WithHolder(holder)).TrackingHandler(cb, tracking.WithErrorLogger(slog.New(levels)))
		replicas = append(replicas, h)
	}

	rng := rand.New(rand.NewPCG(22, 2))
	var work []delivery
	for num := range numbers {
		for seq := range perNum {
			for range 2 + rng.IntN(2) {
				work = append(work, delivery{num, seq})
			}
		}
	}
	rng.Shuffle(len(work), func(i, j int) { work[i], work[j] = work[j], work[i] })

	var (
		next                  atomic.Int64
		stop                  atomic.Bool
		sent, redeliver, busy atomic.Int64
		wg                    sync.WaitGroup
	)
	for w := range senders {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(work) || stop.Load() {
					return
				}
				d := work[i]
				body := notificationAt(fmt.Sprintf("94001%017d", d.num), at(d.seq))
				for try := 0; ; try++ {
					sent.Add(1)
					req := httptest.NewRequest(http.MethodPost, "/hooks/tracking", strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					resp := httptest.NewRecorder()
					replicas[(w+try)%2].ServeHTTP(resp, req)
					if resp.Code == http.StatusNoContent {
						break
					}
					switch resp.Code {
					case http.StatusServiceUnavailable:
						busy.Add(1)
						if resp.Header().Get("Retry-After") == "" {
							t.Error("a busy notification was answered 503 without a Retry-After")
						}
					case http.StatusInternalServerError:
					default:
						t.Errorf("answered %d", resp.Code)
						return
					}
					if try == maxTries {
						t.Errorf("a notification was refused %d times in a row", maxTries)
						stop.Store(true)
						return
					}
					redeliver.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	var successes, violations, duplicates, lost int
	for num, seqs := range handled {
		last, seen := -1, map[int]bool{}
		for _, s := range seqs {
			if s < 0 {
				continue
			}
			successes++
			if seen[s] {
				duplicates++
			}
			seen[s] = true
			if s <= last {
				violations++
			}
			last = max(last, s)
		}
		if !seen[perNum-1] {
			lost++
			t.Errorf("tracking number %d: the newest notification (%d) was not handled", num, perNum-1)
		}
	}
	stale := replicas[0].Stale() + replicas[1].Stale()
	errorLines, infoBusy := levels.count(slog.LevelError, ""), levels.count(slog.LevelInfo, "busy")
	t.Logf("%d notifications, %d deliveries (%d sent, %d refused and sent again, %d of them busy: 503): %d callback calls, %d successful, %d injected failures, %d stale acknowledged, %d overlapping calls, %d order violations, %d duplicates, %d tracking numbers whose newest was lost; handler log: %d error lines, %d info lines saying busy",
		numbers*perNum, len(work), sent.Load(), redeliver.Load(), busy.Load(), calls.Load(), successes, failed, stale, overlaps, violations, duplicates, lost, errorLines, infoBusy)
	if errorLines != failed || infoBusy != int(busy.Load()) {
		t.Errorf("the handlers logged %d error lines for %d failed callbacks and %d busy lines for %d busy answers; want them equal", errorLines, failed, infoBusy, busy.Load())
	}
	if overlaps != 0 || violations != 0 || duplicates != 0 {
		t.Fatalf("%d overlapping calls, %d order violations, %d duplicates; want none", overlaps, violations, duplicates)
	}
	var rows int
	if err := app.QueryRow(`SELECT count(*) FROM handled WHERE NOT failed`).Scan(&rows); err != nil || rows != successes {
		t.Fatalf("the application's table holds %d handled notifications (%v); want %d", rows, err, successes)
	}
	if int64(successes)+stale != int64(len(work)) {
		t.Fatalf("%d handled + %d stale = %d; want every delivery (%d) answered once with 204", successes, stale, int64(successes)+stale, len(work))
	}
}

// levelCounts is a slog.Handler that counts the lines logged at each level
// by message.
type levelCounts struct {
	mu    sync.Mutex
	lines map[slog.Level][]string
}

func (l *levelCounts) Enabled(context.Context, slog.Level) bool { return true }
func (l *levelCounts) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lines == nil {
		l.lines = map[slog.Level][]string{}
	}
	l.lines[r.Level] = append(l.lines[r.Level], r.Message)
	return nil
}
func (l *levelCounts) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *levelCounts) WithGroup(string) slog.Handler      { return l }

// count returns how many lines were logged at level with sub in their
// message.
func (l *levelCounts) count(level slog.Level, sub string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, m := range l.lines[level] {
		if strings.Contains(m, sub) {
			n++
		}
	}
	return n
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestTrackingHandlerThroughPgBouncerTransactionMode: the marks' statements
// rely on nothing of a session, so two replicas' handlers reach one
// database through PgBouncer in transaction pooling mode: 20 tracking
// numbers, 10 notifications each, every one delivered twice at once in
// shuffled order; no delivery fails for another reason than a
// notification being handled elsewhere, each status time reaches the
// callback at most once in increasing order, and the newest is handled.
func TestTrackingHandlerThroughPgBouncerTransactionMode(t *testing.T) {
	t.Parallel()
	dsn := pgBouncerDatabase(t)
	var mu sync.Mutex
	handled := map[string][]int{}
	cb := func(_ context.Context, n *tracking.Notification) error {
		mu.Lock()
		defer mu.Unlock()
		handled[n.TrackingNumber] = append(handled[n.TrackingNumber], int(n.StatusOccurredAt.Sub(t0)/time.Minute))
		return nil
	}
	var firstErr atomic.Value
	logger := slog.New(slog.NewTextHandler(errorLog{&firstErr}, nil))
	replicas := []*tracking.Handler{
		journal.New(testdb.OpenPostgres(t, dsn), journal.WithHolder("a")).TrackingHandler(cb, tracking.WithErrorLogger(logger)),
		journal.New(testdb.OpenPostgres(t, dsn), journal.WithHolder("b")).TrackingHandler(cb, tracking.WithErrorLogger(logger)),
	}
	type delivery struct{ num, seq int }
	var work []delivery
	for num := range 20 {
		for seq := range 10 {
			work = append(work, delivery{num, seq}, delivery{num, seq})
		}
	}
	rand.New(rand.NewPCG(22, 3)).Shuffle(len(work), func(i, j int) { work[i], work[j] = work[j], work[i] })
	var wg sync.WaitGroup
	for i, d := range work {
		wg.Go(func() {
			body := notificationAt(fmt.Sprintf("94002%017d", d.num), at(d.seq))
			for try := 0; deliver(replicas[(i+try)%2], body) != http.StatusNoContent; try++ {
				if try == 1000 {
					t.Error("a notification was refused 1000 times in a row")
					return
				}
			}
		})
	}
	wg.Wait()
	if v := firstErr.Load(); v != nil {
		t.Fatalf("a delivery failed for another reason than a busy tracking number: %s", v)
	}
	for tn, seqs := range handled {
		for i := 1; i < len(seqs); i++ {
			if seqs[i] <= seqs[i-1] {
				t.Fatalf("%s handled out of order or twice: %v", tn, seqs)
			}
		}
		if seqs[len(seqs)-1] != 9 {
			t.Fatalf("%s: the newest notification was not handled: %v", tn, seqs)
		}
	}
	if len(handled) != 20 {
		t.Fatalf("%d tracking numbers handled; want 20", len(handled))
	}
}

// errorLog keeps the first line a handler logs at error level (a busy
// tracking number is logged at info level).
type errorLog struct{ first *atomic.Value }

func (e errorLog) Write(p []byte) (int, error) {
	if line := string(p); strings.Contains(line, "level=ERROR") {
		e.first.CompareAndSwap(nil, line)
	}
	return len(p), nil
}

// TestMarksRetreatAfterTheRequestEnded: a callback that fails because the
// platform's request ended (its context is cancelled) still moves the
// mark back, so the redelivery is handled, for both kinds of marks.
func TestMarksRetreatAfterTheRequestEnded(t *testing.T) {
	t.Parallel()
	for name, open := range markStores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, _ := open(t)
			for kind, ordered := range map[string]func(fn func(context.Context, *tracking.Notification) error) http.Handler{
				"Marks": func(fn func(context.Context, *tracking.Notification) error) http.Handler {
					return tracking.NewHandler(fn, tracking.WithOrdering(journal.New(s).Marks()))
				},
				"TrackingHandler": func(fn func(context.Context, *tracking.Notification) error) http.Handler {
					return journal.New(s).TrackingHandler(fn)
				},
			} {
				tn := "94003000000000000000" + kind[:2]
				var calls atomic.Int32
				var cancel context.CancelFunc
				h := ordered(func(ctx context.Context, _ *tracking.Notification) error {
					if calls.Add(1) == 1 {
						cancel() // the platform gave up waiting
						<-ctx.Done()
						return ctx.Err()
					}
					return nil
				})
				body := notificationAt(tn, at(10))
				ctx, c := context.WithCancel(context.Background())
				cancel = c
				req := httptest.NewRequest(http.MethodPost, "/hooks/tracking", strings.NewReader(body)).WithContext(ctx)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusInternalServerError {
					t.Fatalf("%s: the ended request answered %d; want 500", kind, rec.Code)
				}
				if code := deliver(h, body); code != http.StatusNoContent || calls.Load() != 2 {
					t.Fatalf("%s: the redelivery answered %d after %d calls; want 204 after 2", kind, code, calls.Load())
				}
			}
		})
	}
}

// TestPruneMarksKeepsRecentAndLeasedMarks: PruneMarks removes the marks
// before the cutoff, keeps newer ones and one whose notification is being
// handled, and a pruned tracking number's next notification is handled.
func TestPruneMarksKeepsRecentAndLeasedMarks(t *testing.T) {
	t.Parallel()
	for name, open := range markStores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, _ := open(t)
			ctx := context.Background()
			for tn, m := range map[string]journal.Mark{
				"old":        {At: at(10)},
				"old-ended":  {At: at(11), Token: "dead", LeaseUntil: at(-1)},
				"old-leased": {At: at(10), Token: "alive", LeaseUntil: at(600)},
				"recent":     {At: at(100)},
			} {
				if moved, _, err := s.AdvanceMark(ctx, tn, m, at(0)); err != nil || !moved {
					t.Fatalf("%s: moved %v, %v", tn, moved, err)
				}
			}
			// The journal's clock at minute 0, as when the marks were set
			// (a store shared by processes judges leases on its own).
			j := journal.New(s, journal.WithClock(func() time.Time { return at(0) }))
			n, err := j.PruneMarks(ctx, at(50))
			if err != nil || n != 2 {
				t.Fatalf("pruned %d, %v; want 2 (old, old-ended)", n, err)
			}
			for tn, wantMoved := range map[string]bool{"old": true, "old-ended": true, "old-leased": false, "recent": false} {
				moved, _, err := s.AdvanceMark(ctx, tn, journal.Mark{At: at(5)}, at(60))
				if err != nil || moved != wantMoved {
					t.Fatalf("%s after pruning: moved %v, %v; want moved %v", tn, moved, err, wantMoved)
				}
			}
		})
	}
}

// TestTrackingHandlerWithTheSimulator: the simulator delivers a shipment's
// two statuses, the second twice, to two replicas behind a round-robin
// balancer sharing a SQLite file: the callback sees each status once, in
// order, and every delivery is answered 204.
func TestTrackingHandlerWithTheSimulator(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	path := testdb.SQLitePath(t)
	var mu sync.Mutex
	var got []string
	cb := func(_ context.Context, n *tracking.Notification) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, string(n.Status))
		return nil
	}
	replicas := []http.Handler{
		journal.New(testdb.SQLite(t, path), journal.WithHolder("a")).TrackingHandler(cb),
		journal.New(testdb.SQLite(t, path), journal.WithHolder("b")).TrackingHandler(cb),
	}
	var turn atomic.Int64
	balancer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		replicas[turn.Add(1)%2].ServeHTTP(w, r)
	})
	const tn = "9400100000000000000901"
	if _, err := srv.Client().Tracking.Subscribe(context.Background(), &tracking.SubscribeParams{TrackingNumber: tn, ListenerURL: srv.Listener(balancer)}); err != nil {
		t.Fatal(err)
	}
	srv.Track(tn, tracking.TrackingAccepted)
	srv.Advance(time.Hour)
	srv.Track(tn, tracking.TrackingMovingThroughNetwork)
	srv.Track(tn, tracking.TrackingMovingThroughNetwork) // the same status at the same time
	notes := srv.Notifications()
	if len(notes) != 3 {
		t.Fatalf("the simulator delivered %d notifications; want 3", len(notes))
	}
	for _, n := range notes {
		if n.StatusCode != http.StatusNoContent {
			t.Fatalf("%s was answered %d (%s); want 204", n.Status, n.StatusCode, n.Err)
		}
	}
	if fmt.Sprint(got) != "[Accepted Moving Through Network]" {
		t.Fatalf("callback saw %v", got)
	}
}

// TestTrackingHandlerUnderClockSkew: leases on marks are stamped and judged
// on the store's clock, so a replica whose clock runs a day ahead neither
// takes over nor passes the lease of a replica whose callback is running.
func TestTrackingHandlerUnderClockSkew(t *testing.T) {
	t.Parallel()
	for name, open := range markStores() {
		if name == "memory" {
			continue // a store in one process uses its callers' clock
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sa, sb := open(t)
			var held, calls atomic.Int32
			ahead := journal.New(sb, journal.WithHolder("b"), journal.WithClock(func() time.Time { return time.Now().Add(24 * time.Hour) }))
			b := ahead.TrackingHandler(func(context.Context, *tracking.Notification) error {
				calls.Add(1)
				return nil
			})
			const tn = "9400100000000000001001"
			release := holdCallback(journal.New(sa, journal.WithHolder("a")), &held, tn)
			for _, when := range []int{10, 20} {
				if code := deliver(b, notificationAt(tn, at(when))); code != http.StatusServiceUnavailable {
					t.Errorf("minute %d from the replica a day ahead: %d; want 503 (the lease runs on the store's clock)", when, code)
				}
			}
			if code := release(); code != http.StatusNoContent {
				t.Fatalf("the first replica answered %d; want 204", code)
			}
			if n := calls.Load(); n != 0 {
				t.Fatalf("the replica a day ahead ran its callback %d times during the other's lease; want 0", n)
			}
		})
	}
}

// TestTrackingHandlerLogs: with WithLogger, TrackingHandler logs a refusal
// while another notification is handled (Info), a failed callback (Info)
// and a handled notification (Debug), never the tracking number unless
// WithReferencesInLogs asks for it.
func TestTrackingHandlerLogs(t *testing.T) {
	t.Parallel()
	for _, withRefs := range []bool{false, true} {
		var mu sync.Mutex
		var buf strings.Builder
		logger := slog.New(slog.NewTextHandler(lockedWriter{&mu, &buf}, &slog.HandlerOptions{Level: slog.LevelDebug}))
		opts := []journal.Option{journal.WithLogger(logger)}
		if withRefs {
			opts = append(opts, journal.WithReferencesInLogs())
		}
		store := journal.NewMemoryStore()
		entered, release := make(chan struct{}), make(chan struct{})
		var calls atomic.Int32
		a := journal.New(store, append(opts, journal.WithHolder("a"))...).TrackingHandler(func(context.Context, *tracking.Notification) error {
			switch calls.Add(1) {
			case 1:
				return errors.New("database down")
			case 2:
				close(entered)
				<-release
			}
			return nil
		})
		b := journal.New(store, append(opts, journal.WithHolder("b"))...).TrackingHandler(func(context.Context, *tracking.Notification) error { return nil })
		const tn = "9400100000000000001101"
		body := notificationAt(tn, at(10))
		if code := deliver(a, body); code != http.StatusInternalServerError {
			t.Fatalf("failing callback: %d; want 500", code)
		}
		done := make(chan int)
		go func() { done <- deliver(a, body) }()
		<-entered
		if code := deliver(b, body); code != http.StatusServiceUnavailable {
			t.Fatalf("while a handles it: %d; want 503", code)
		}
		close(release)
		if code := <-done; code != http.StatusNoContent {
			t.Fatalf("redelivery: %d; want 204", code)
		}
		mu.Lock()
		out := buf.String()
		mu.Unlock()
		for _, want := range []string{
			`level=INFO msg="journal: callback failed; the mark moves back" interface=tracking holder=a`,
			`level=INFO msg="journal: refused; another notification of the tracking number is being handled" interface=tracking holder=b`,
			`level=DEBUG msg="journal: tracking notification handled" interface=tracking holder=a`,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("no line %q in:\n%s", want, out)
			}
		}
		if strings.Contains(out, tn) != withRefs {
			t.Errorf("references in logs %v, yet the tracking number appears %v:\n%s", withRefs, strings.Contains(out, tn), out)
		}
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *strings.Builder
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestTrackingHandlerCallbackPanics: a callback that panics moves the mark
// back, so the platform's redelivery is handled at once, not after the
// lease.
func TestTrackingHandlerCallbackPanics(t *testing.T) {
	t.Parallel()
	for name, open := range markStores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, _ := open(t)
			var calls atomic.Int32
			h := journal.New(s).TrackingHandler(func(context.Context, *tracking.Notification) error {
				if calls.Add(1) == 1 {
					panic("callback bug")
				}
				return nil
			})
			body := notificationAt("9400100000000000001201", at(10))
			func() {
				defer func() {
					if r := recover(); r == nil {
						t.Fatal("the callback's panic did not reach the server")
					}
				}()
				deliver(h, body)
			}()
			if code := deliver(h, body); code != http.StatusNoContent || calls.Load() != 2 {
				t.Fatalf("redelivery after the panic: %d after %d calls; want 204 after 2", code, calls.Load())
			}
		})
	}
}
