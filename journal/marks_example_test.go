package journal_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// Two replicas of a listener share the journal's store (here in memory;
// pgstore for replicas on several hosts). Each notification reaches the
// callback once, in increasing status_occurred_at, whichever replica the
// platform delivers it to; a late or repeated one is acknowledged without
// calling it.
func ExampleJournal_TrackingHandler() {
	store := journal.NewMemoryStore()
	callback := func(_ context.Context, n *tracking.Notification) error {
		fmt.Printf("  callback: %s at %s\n", n.Status, n.StatusOccurredAt.Format(time.Kitchen))
		return nil
	}
	replicas := []http.Handler{
		journal.New(store, journal.WithHolder("replica-a")).TrackingHandler(callback),
		journal.New(store, journal.WithHolder("replica-b")).TrackingHandler(callback),
	}

	for i, n := range []struct{ status, at string }{
		{"Accepted", "2026-03-02T09:00:00Z"},
		{"Delivered", "2026-03-02T15:00:00Z"},
		{"Out for Delivery", "2026-03-02T11:00:00Z"}, // late: stale
		{"Delivered", "2026-03-02T15:00:00Z"},        // again: handled already
	} {
		body := fmt.Sprintf(`{"tracking_number":"9400100000000000000001","timestamp":"2026-03-02T15:00:05Z",`+
			`"carrier":"POSTAL","status":%q,"status_occurred_at":%q}`, n.status, n.at)
		rec := httptest.NewRecorder()
		replicas[i%2].ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/hooks/tracking", strings.NewReader(body)))
		fmt.Printf("%s to replica %d: %d\n", n.status, i%2, rec.Code)
	}
	// Output:
	//   callback: Accepted at 9:00AM
	// Accepted to replica 0: 204
	//   callback: Delivered at 3:00PM
	// Delivered to replica 1: 204
	// Out for Delivery to replica 0: 204
	// Delivered to replica 1: 204
}

// Marks kept in the journal's store order one listener's notifications
// across the processes sharing it; the callback is the caller's own.
func ExampleJournal_Marks() {
	store := journal.NewMemoryStore() // sqlitestore or pgstore to share it
	handler := tracking.NewHandler(func(_ context.Context, n *tracking.Notification) error {
		fmt.Println("callback:", n.Status)
		return nil
	}, tracking.WithOrdering(journal.New(store).Marks()))

	for _, n := range []struct{ status, at string }{
		{"Moving Through Network", "2026-03-02T12:00:00Z"},
		{"Accepted", "2026-03-02T09:00:00Z"}, // older than the mark: stale
	} {
		body := fmt.Sprintf(`{"tracking_number":"9400100000000000000001","timestamp":"2026-03-02T12:00:05Z",`+
			`"carrier":"POSTAL","status":%q,"status_occurred_at":%q}`, n.status, n.at)
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/hooks/tracking", strings.NewReader(body)))
		fmt.Println(n.status+":", rec.Code)
	}
	fmt.Println("stale:", handler.Stale())
	// Output:
	// callback: Moving Through Network
	// Moving Through Network: 204
	// Accepted: 204
	// stale: 1
}
