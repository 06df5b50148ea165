package tracking_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http/httptest"
	"strings"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// httptest: an Example uses the public API only, so its listener is a real loopback server.

// Subscribing a tracking number to notifications sent to a listener URL.
func ExampleService_Subscribe() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	sub, err := client.Tracking.Subscribe(ctx, &tracking.SubscribeParams{
		TrackingNumber: "9400100000000000000001",
		ListenerURL:    "https://hooks.example.com/tracking/3f9c2e",
		ReferenceID:    "rx-2026-0001",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sub.Created, sub.Status, sub.Carrier)
	// Output:
	// true ENABLED POSTAL
}

// Reading a subscription back; a tracking number never subscribed is not
// found, with the interface's own error code.
func ExampleService_GetSubscription() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	_, err := client.Tracking.GetSubscription(ctx, "9400100000000000000099")
	var apiErr *rxdelivery.APIError
	if errors.Is(err, rxdelivery.ErrNotFound) && errors.As(err, &apiErr) {
		fmt.Println(apiErr.Code == tracking.CodeNotFound)
	}
	// Output:
	// true
}

// Serving the listener URL: each notification reaches the callback once
// read; a body that is not a notification is answered 400.
func ExampleNewHandler() {
	handler := tracking.NewHandler(func(ctx context.Context, n *tracking.Notification) error {
		fmt.Println(n.TrackingNumber, n.Status, len(n.TrackingEvents))
		return nil // an error answers 500, so the platform may deliver again
	})
	srv := httptest.NewServer(handler)
	defer srv.Close()

	body := `{"tracking_number":"9400100000000000000001","timestamp":"2026-03-02T09:00:00Z","carrier":"POSTAL",
		"status":"Moving Through Network","status_occurred_at":"2026-03-02T08:59:00Z",
		"tracking_events":[{"status":"Accepted","status_occurred_at":"2026-03-01T17:00:00Z"},
			{"status":"Moving Through Network","status_occurred_at":"2026-03-02T08:59:00Z"}]}`
	// Any Content-Type: the body is what must be a notification.
	for _, body := range []string{body, `{"tracking_number":""}`} {
		resp, err := srv.Client().Post(srv.URL, "text/plain", strings.NewReader(body))
		if err != nil {
			log.Fatal(err)
		}
		resp.Body.Close()
		fmt.Println(resp.StatusCode)
	}
	// Output:
	// 9400100000000000000001 Moving Through Network 2
	// 204
	// 400
}
