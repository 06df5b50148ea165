package tracking_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// notificationBody is a notification of number at minute m.
func notificationBody(number string, m int) []byte {
	at := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC).Add(time.Duration(m) * time.Minute).Format(time.RFC3339)
	return []byte(fmt.Sprintf(`{"tracking_number":%q,"timestamp":%q,"carrier":"POSTAL","status":"In Transit","status_occurred_at":%q}`, number, at, at))
}

// TestOrderingHandsEachNumberItsNotificationsInOrder: 1,000 notifications
// for 50 tracking numbers, each delivered 2 or 3 times, shuffled and sent
// concurrently to two handlers sharing marks. Each number's callback calls
// come in increasing status_occurred_at, the newest notification of each
// number is handled, and none is handled twice.
func TestOrderingHandsEachNumberItsNotificationsInOrder(t *testing.T) {
	t.Parallel()
	marks := tracking.NewMemoryMarks()
	var mu sync.Mutex
	seen := map[string][]time.Time{}
	fn := func(_ context.Context, n *tracking.Notification) error {
		mu.Lock()
		defer mu.Unlock()
		seen[n.TrackingNumber] = append(seen[n.TrackingNumber], n.StatusOccurredAt.Time)
		return nil
	}
	handlers := []*tracking.Handler{
		tracking.NewHandler(fn, tracking.WithOrdering(marks)),
		tracking.NewHandler(fn, tracking.WithOrdering(marks)),
	}
	type delivery struct {
		body    []byte
		handler int
	}
	var deliveries []delivery
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1000; i++ {
		body := notificationBody(fmt.Sprintf("9400%03d", i%50), i/50)
		for c := 0; c < 2+rng.IntN(2); c++ {
			deliveries = append(deliveries, delivery{body, rng.IntN(2)})
		}
	}
	rng.Shuffle(len(deliveries), func(i, j int) { deliveries[i], deliveries[j] = deliveries[j], deliveries[i] })
	var wg sync.WaitGroup
	work := make(chan delivery)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range work {
				rec := httptest.NewRecorder()
				handlers[d.handler].ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/hooks", bytes.NewReader(d.body)))
				if rec.Code != http.StatusNoContent {
					t.Errorf("status %d", rec.Code)
				}
			}
		}()
	}
	for _, d := range deliveries {
		work <- d
	}
	close(work)
	wg.Wait()
	newest := time.Date(2026, 3, 2, 9, 19, 0, 0, time.UTC)
	stale := handlers[0].Stale() + handlers[1].Stale()
	handled := 0
	for i := 0; i < 50; i++ {
		calls := seen[fmt.Sprintf("9400%03d", i)]
		handled += len(calls)
		for k := 1; k < len(calls); k++ {
			if !calls[k].After(calls[k-1]) {
				t.Fatalf("number %d: callback calls out of order: %v", i, calls)
			}
		}
		if len(calls) == 0 || !calls[len(calls)-1].Equal(newest) {
			t.Fatalf("number %d: the newest notification was not handled: %v", i, calls)
		}
	}
	t.Logf("%d deliveries: %d handled in order, %d stale acknowledged", len(deliveries), handled, stale)
	if int64(handled)+stale != int64(len(deliveries)) {
		t.Errorf("%d handled + %d stale != %d deliveries", handled, stale, len(deliveries))
	}
}

// TestOrderingRetreatsWhenTheCallbackFails: a notification whose callback
// failed is processed when the platform delivers it again; a stale one is
// delivered flagged with WithStaleDelivery.
func TestOrderingRetreatsWhenTheCallbackFails(t *testing.T) {
	t.Parallel()
	fail := true
	var got []*tracking.Notification
	h := tracking.NewHandler(func(_ context.Context, n *tracking.Notification) error {
		if fail {
			fail = false
			return errors.New("database down")
		}
		got = append(got, n)
		return nil
	}, tracking.WithOrdering(tracking.NewMemoryMarks()), tracking.WithStaleDelivery())
	post := func(body []byte) int {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/hooks", bytes.NewReader(body)))
		return rec.Code
	}
	if code := post(notificationBody("1", 5)); code != http.StatusInternalServerError {
		t.Fatalf("failing callback: %d", code)
	}
	if code := post(notificationBody("1", 5)); code != http.StatusNoContent || len(got) != 1 || got[0].Stale {
		t.Fatalf("redelivery after a failure: %d, %v", code, got)
	}
	if code := post(notificationBody("1", 3)); code != http.StatusNoContent || len(got) != 2 || !got[1].Stale {
		t.Fatalf("stale delivery: %d, %+v", code, got)
	}
	if h.Stale() != 1 {
		t.Errorf("Stale() = %d", h.Stale())
	}
}

// TestPathToken: only the current and the previous token reach the
// handler; anything else is 404 without its body being read, and the
// token is never logged.
func TestPathToken(t *testing.T) {
	t.Parallel()
	u, token, err := tracking.NewListenerURL("https://pharmacy.example/hooks/tracking/")
	if err != nil || !strings.HasPrefix(u, "https://pharmacy.example/hooks/tracking/") || !strings.HasSuffix(u, "/"+token) || len(token) < 40 {
		t.Fatalf("NewListenerURL: %q %q %v", u, token, err)
	}
	_, other, _ := tracking.NewListenerURL("https://pharmacy.example/hooks/tracking")
	if other == token {
		t.Fatal("two listener URLs with one token")
	}
	calls := 0
	var logs bytes.Buffer
	h := tracking.NewHandler(func(context.Context, *tracking.Notification) error { calls++; return nil },
		tracking.WithPathToken(token, "previous-token"), tracking.WithErrorLogger(slogTo(&logs)))
	for path, want := range map[string]int{
		"/hooks/tracking/" + token:                http.StatusNoContent,
		"/hooks/tracking/previous-token":          http.StatusNoContent,
		"/hooks/tracking/" + token + "x":          http.StatusNotFound,
		"/hooks/tracking/":                        http.StatusNotFound,
		"/hooks/tracking/" + token[:len(token)-1]: http.StatusNotFound,
	} {
		body := &countingReader{r: bytes.NewReader(notificationBody("1", 1))}
		req := httptest.NewRequest(http.MethodPost, path, body)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("%s: %d, want %d", path, rec.Code, want)
		}
		if want == http.StatusNotFound && body.n != 0 {
			t.Errorf("%s: %d bytes of the body read", path, body.n)
		}
	}
	if calls != 2 {
		t.Errorf("%d callback calls, want 2", calls)
	}
	if strings.Contains(logs.String(), token) {
		t.Errorf("the token is in a log line: %s", logs.String())
	}
	if _, _, err := tracking.NewListenerURL("not a url"); err == nil {
		t.Error("a base that is no URL is refused")
	}
}

type countingReader struct {
	r *bytes.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// slogTo is a logger writing every level to w.
func slogTo(w *bytes.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
