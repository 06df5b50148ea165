package journal_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

func notificationBody(tn, status, at string) string {
	return fmt.Sprintf(`{"tracking_number":%q,"timestamp":"2026-03-02T09:00:05Z","carrier":"POSTAL","status":%q,"status_occurred_at":%q}`, tn, status, at)
}

func deliver(h http.Handler, body string) int {
	req := httptest.NewRequest(http.MethodPost, "/hooks/tracking", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

// TestOnceAcrossReplicas delivers the same notifications many times, at
// once, to two replicas' handlers sharing a store: each (tracking number,
// status, status time) reaches the callback once.
func TestOnceAcrossReplicas(t *testing.T) {
	t.Parallel()
	stores := map[string]func(t *testing.T) (journal.Store, journal.Store){
		"memory": func(t *testing.T) (journal.Store, journal.Store) {
			s := journal.NewMemoryStore()
			return s, s
		},
		"sqlite": func(t *testing.T) (journal.Store, journal.Store) {
			path := testdb.SQLitePath(t)
			return testdb.SQLite(t, path), testdb.SQLite(t, path)
		},
		"postgres": func(t *testing.T) (journal.Store, journal.Store) {
			dsn := testdb.NewSchema(t)
			return testdb.OpenPostgres(t, dsn), testdb.OpenPostgres(t, dsn)
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			sa, sb := open(t)
			var mu sync.Mutex
			calls := map[string]int{}
			cb := func(_ context.Context, n *tracking.Notification) error {
				mu.Lock()
				defer mu.Unlock()
				calls[n.TrackingNumber+"/"+string(n.Status)+"/"+n.StatusOccurredAt.Raw]++
				return nil
			}
			replicas := []http.Handler{
				tracking.NewHandler(journal.New(sa, journal.WithHolder("a")).Once(cb)),
				tracking.NewHandler(journal.New(sb, journal.WithHolder("b")).Once(cb)),
			}
			bodies := []string{
				notificationBody("9400100000000000000001", "Accepted", "2026-03-02T09:00:00Z"),
				notificationBody("9400100000000000000001", "Moving Through Network", "2026-03-02T10:00:00Z"),
				// The same instant written with an offset is the same notification.
				notificationBody("9400100000000000000001", "Moving Through Network", "2026-03-02T05:00:00-05:00"),
				notificationBody("9400100000000000000002", "Accepted", "2026-03-02T09:00:00Z"),
			}
			var wg sync.WaitGroup
			var codes sync.Map
			for i := range 40 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					code := deliver(replicas[i%2], bodies[i%len(bodies)])
					v, _ := codes.LoadOrStore(code, new(atomic.Int32))
					v.(*atomic.Int32).Add(1)
				}()
			}
			wg.Wait()
			// Deliveries refused while another replica ran the callback
			// (503) are delivered again by the platform: do that.
			for _, b := range bodies {
				for _, h := range replicas {
					if code := deliver(h, b); code != http.StatusNoContent {
						t.Fatalf("redelivery answered %d; want 204", code)
					}
				}
			}
			if len(calls) != 3 {
				t.Fatalf("callback saw %d distinct notifications: %v; want 3", len(calls), calls)
			}
			for k, n := range calls {
				if n != 1 {
					t.Fatalf("notification %s reached the callback %d times; want once", k, n)
				}
			}
			codes.Range(func(k, v any) bool {
				if k != http.StatusNoContent && k != http.StatusServiceUnavailable {
					t.Errorf("a delivery was answered %v", k)
				}
				return true
			})
		})
	}
}

func TestOnceReleasesOnCallbackFailure(t *testing.T) {
	t.Parallel()
	store := journal.NewMemoryStore()
	var calls atomic.Int32
	fail := errors.New("database down")
	h := tracking.NewHandler(journal.New(store).Once(func(context.Context, *tracking.Notification) error {
		if calls.Add(1) == 1 {
			return fail
		}
		return nil
	}))
	body := notificationBody("9400100000000000000009", "Delivered", "2026-03-02T12:00:00Z")
	if code := deliver(h, body); code != http.StatusInternalServerError {
		t.Fatalf("failed callback answered %d; want 500", code)
	}
	for range 3 {
		if code := deliver(h, body); code != http.StatusNoContent {
			t.Fatalf("redelivery answered %d; want 204", code)
		}
	}
	if n := calls.Load(); n != 2 {
		t.Fatalf("callback ran %d times; want 2 (the failure, then once)", n)
	}
}

func TestOnceTakesOverAfterAHolderDied(t *testing.T) {
	t.Parallel()
	store := journal.NewMemoryStore()
	ctx := context.Background()
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(
		notificationBody("9400100000000000000007", "Delivered", "2026-03-02T12:00:00Z")))
	req.Header.Set("Content-Type", "application/json")
	n, err := tracking.ParseNotification(req)
	if err != nil {
		t.Fatal(err)
	}
	// A replica claimed it and died: its lease has ended.
	k := journal.NotificationKey(n)
	if _, _, err := store.Insert(ctx, journal.Claim{Key: k, State: journal.StateInFlight, Token: "dead", Holder: "dead"}); err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	h := tracking.NewHandler(journal.New(store).Once(func(context.Context, *tracking.Notification) error {
		calls.Add(1)
		return nil
	}))
	body := notificationBody("9400100000000000000007", "Delivered", "2026-03-02T12:00:00Z")
	for range 2 {
		if code := deliver(h, body); code != http.StatusNoContent {
			t.Fatalf("delivery answered %d; want 204", code)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("callback ran %d times; want 1", n)
	}
}

// TestOnceWithTheSimulator subscribes a handler through the kit and has the
// simulator deliver one status twice: the callback sees it once.
func TestOnceWithTheSimulator(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	var calls atomic.Int32
	h := tracking.NewHandler(journal.New(journal.NewMemoryStore()).Once(func(context.Context, *tracking.Notification) error {
		calls.Add(1)
		return nil
	}))
	ctx := context.Background()
	const tn = "9400100000000000000042"
	if _, err := srv.Client().Tracking.Subscribe(ctx, &tracking.SubscribeParams{TrackingNumber: tn, ListenerURL: srv.Listener(h)}); err != nil {
		t.Fatal(err)
	}
	srv.Track(tn, tracking.TrackingAccepted)
	srv.Track(tn, tracking.TrackingAccepted) // the same status at the same time
	if got := len(srv.Notifications()); got != 2 {
		t.Fatalf("the simulator delivered %d notifications; want 2", got)
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("callback ran %d times; want 1", n)
	}
	srv.Track(tn, tracking.TrackingMovingThroughNetwork)
	if n := calls.Load(); n != 2 {
		t.Fatalf("callback ran %d times after a new status; want 2", n)
	}
}

// busyLog records the handler's log lines (WithErrorLogger) at every level.
type busyLog struct {
	mu    sync.Mutex
	lines []string
}

func (b *busyLog) Enabled(context.Context, slog.Level) bool { return true }
func (b *busyLog) Handle(_ context.Context, r slog.Record) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.lines = append(b.lines, r.Level.String()+" "+r.Message)
	return nil
}
func (b *busyLog) WithAttrs([]slog.Attr) slog.Handler { return b }
func (b *busyLog) WithGroup(string) slog.Handler      { return b }

func (b *busyLog) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.lines, "\n")
}

// TestBusyNotificationIsAnswered503AndLoggedAsBusy: a notification whose
// tracking number another replica is handling (TrackingHandler), or that
// another replica is handling itself (Once), never reaches the callback; the
// handler answers 503 with a Retry-After and logs it at info level as
// busy, not at error level as a failed callback.
func TestBusyNotificationIsAnswered503AndLoggedAsBusy(t *testing.T) {
	t.Parallel()
	const tn = "9400100000000000000801"
	held := func(t *testing.T, h http.Handler, entered chan struct{}, body string) func() {
		done := make(chan int)
		go func() { done <- deliver(h, body) }()
		<-entered
		return func() {
			if code := <-done; code != http.StatusNoContent {
				t.Errorf("the replica holding the number answered %d; want 204", code)
			}
		}
	}
	for _, kind := range []string{"TrackingHandler", "Once"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			store := journal.NewMemoryStore()
			entered, release := make(chan struct{}), make(chan struct{})
			var calls atomic.Int32
			hold := func(context.Context, *tracking.Notification) error {
				calls.Add(1)
				close(entered)
				<-release
				return nil
			}
			count := func(context.Context, *tracking.Notification) error {
				calls.Add(1)
				return nil
			}
			logs := &busyLog{}
			logger := tracking.WithErrorLogger(slog.New(logs))
			a, b := journal.New(store, journal.WithHolder("a")), journal.New(store, journal.WithHolder("b"))
			var ha, hb http.Handler
			first, second := notificationAt(tn, at(10)), notificationAt(tn, at(20))
			if kind == "Once" {
				ha, hb = tracking.NewHandler(a.Once(hold)), tracking.NewHandler(b.Once(count), logger)
				second = first // Once refuses the very notification in flight elsewhere
			} else {
				ha, hb = a.TrackingHandler(hold), b.TrackingHandler(count, logger)
			}
			wait := held(t, ha, entered, first)
			req := httptest.NewRequest(http.MethodPost, "/hooks/tracking", strings.NewReader(second))
			rec := httptest.NewRecorder()
			hb.ServeHTTP(rec, req)
			close(release)
			wait()
			if rec.Code != http.StatusServiceUnavailable {
				t.Errorf("busy notification answered %d; want 503", rec.Code)
			}
			if got := rec.Header().Get("Retry-After"); got != "1" {
				t.Errorf("Retry-After %q; want \"1\"", got)
			}
			if n := calls.Load(); n != 1 {
				t.Errorf("callbacks ran %d times; want 1 (the held one)", n)
			}
			out := logs.String()
			if strings.Contains(out, "ERROR") || strings.Contains(out, "callback failed") {
				t.Errorf("a busy notification was logged as a failure:\n%s", out)
			}
			if !strings.Contains(out, "INFO rxdelivery: tracking notification busy") {
				t.Errorf("no info line saying busy:\n%s", out)
			}
		})
	}
}

// TestTrackingHandlerOrderAfterAFailedCallback pins the README's ordering
// sentence across replicas: the calls that succeed for a tracking number
// come in increasing status_occurred_at, and after a failed call an older
// notification, delivered to the other replica before the failed one's
// redelivery, reaches the callback (the failed call processed nothing).
func TestTrackingHandlerOrderAfterAFailedCallback(t *testing.T) {
	t.Parallel()
	store := journal.NewMemoryStore()
	var mu sync.Mutex
	var calls, successes []string
	cb := func(_ context.Context, n *tracking.Notification) error {
		mu.Lock()
		defer mu.Unlock()
		m := n.StatusOccurredAt.Format("15:04")
		calls = append(calls, m)
		if m == "09:30" && len(calls) == 2 {
			return errors.New("database down")
		}
		successes = append(successes, m)
		return nil
	}
	a := journal.New(store, journal.WithHolder("a")).TrackingHandler(cb)
	b := journal.New(store, journal.WithHolder("b")).TrackingHandler(cb)
	const tn = "9400100000000000000901"
	for _, d := range []struct {
		h    http.Handler
		at   string
		code int
	}{
		{a, "09:10", http.StatusNoContent},
		{a, "09:30", http.StatusInternalServerError},
		{b, "09:20", http.StatusNoContent},
		{b, "09:30", http.StatusNoContent},
		{a, "09:20", http.StatusNoContent}, // stale now
	} {
		if code := deliver(d.h, notificationBody(tn, "Moving Through Network", "2026-03-02T"+d.at+":00Z")); code != d.code {
			t.Fatalf("%s answered %d; want %d", d.at, code, d.code)
		}
	}
	if fmt.Sprint(calls) != "[09:10 09:30 09:20 09:30]" || fmt.Sprint(successes) != "[09:10 09:20 09:30]" {
		t.Fatalf("calls %v, successes %v; want [09:10 09:30 09:20 09:30] and [09:10 09:20 09:30]", calls, successes)
	}
}
