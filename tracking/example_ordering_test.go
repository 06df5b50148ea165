package tracking_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// httptest: an Example uses the public API only, so its listener is a real loopback server.

// notify posts a notification of status at when to url and returns the
// status code of the answer.
func notify(url, status, when string) int {
	body := `{"tracking_number":"9400100000000000000001","timestamp":"` + when + `","carrier":"POSTAL",` +
		`"status":"` + status + `","status_occurred_at":"` + when + `"}`
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// A notification that arrives after a newer one of the same tracking number
// is stale: acknowledged (so the platform stops sending it) without calling
// the callback, and counted.
func ExampleWithOrdering() {
	h := tracking.NewHandler(func(ctx context.Context, n *tracking.Notification) error {
		fmt.Println("handled:", n.Status)
		return nil
	}, tracking.WithOrdering(tracking.NewMemoryMarks()))
	srv := httptest.NewServer(h)
	defer srv.Close()

	fmt.Println(notify(srv.URL, "Out For Delivery", "2026-03-02T09:00:00Z"))
	fmt.Println(notify(srv.URL, "Moving Through Network", "2026-03-02T08:00:00Z")) // late: stale
	fmt.Println(notify(srv.URL, "Delivered", "2026-03-02T12:30:00Z"))
	fmt.Println("stale:", h.Stale())
	// Output:
	// handled: Out For Delivery
	// 204
	// 204
	// handled: Delivered
	// 204
	// stale: 1
}

// The listener URL carries an unguessable token; the handler answers 404 to
// any other path without reading the body.
func ExampleWithPathToken() {
	h := tracking.NewHandler(func(ctx context.Context, n *tracking.Notification) error {
		fmt.Println("handled:", n.Status)
		return nil
	}, tracking.WithPathToken("s3cr3t-token-from-NewListenerURL"))
	srv := httptest.NewServer(h)
	defer srv.Close()

	fmt.Println(notify(srv.URL+"/hooks/tracking/s3cr3t-token-from-NewListenerURL", "Delivered", "2026-03-02T12:30:00Z"))
	fmt.Println(notify(srv.URL+"/hooks/tracking/guess", "Delivered", "2026-03-02T12:30:00Z"))
	// Output:
	// handled: Delivered
	// 204
	// 404
}

// A listener URL with an unguessable token at its end, and the token to
// give the handler.
func ExampleNewListenerURL() {
	listenerURL, token, err := tracking.NewListenerURL("https://pharmacy.example/hooks/tracking")
	if err != nil {
		log.Fatal(err)
	}
	// Subscribe with listenerURL; serve it with
	// tracking.NewHandler(fn, tracking.WithPathToken(token)); keep token secret.
	fmt.Println(strings.TrimSuffix(listenerURL, token), len(token))
	// Output:
	// https://pharmacy.example/hooks/tracking/ 43
}
