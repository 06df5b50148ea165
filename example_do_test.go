package rxdelivery_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// httptest: an Example uses the public API only, so its stand-in platform is a real loopback server.

// Calling an endpoint the SDK does not model yet, with the client's
// credentials, retries and error handling: here the delivery interface's order
// read, decoded into a type of the program's own.
func ExampleClient_Do() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	created, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}

	var out struct {
		Order struct {
			Status string `json:"status"`
		} `json:"order"`
	}
	err = client.Do(ctx, rxdelivery.Request{
		Interface:  rxdelivery.Delivery,
		Method:     "GET",
		Path:       "/api/v1/orders/{id}",
		PathParams: map[string]string{"id": created.ID},
		Visible:    []string{"id"}, // an id the platform minted: errors may show it
		Name:       "orders.GetRaw",
	}, &out)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Order.Status)
	// Output:
	// new
}

// Reading a field the Order model does not know
// from the response as received. The raw response holds the platform's
// words, patient data included: it is read, never logged.
func ExampleWithResponseInto() {
	platform := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"order":{"id":"ord_1","status":"new","priority_window":"2h"}}`)
	}))
	defer platform.Close()
	client, err := rxdelivery.NewClient("key", "secret", rxdelivery.WithDeliveryURL(platform.URL))
	if err != nil {
		log.Fatal(err)
	}

	var raw rxdelivery.RawResponse
	order, err := client.Orders.Get(context.Background(), "ord_1", rxdelivery.WithResponseInto(&raw))
	if err != nil {
		log.Fatal(err)
	}
	var extra struct {
		Order struct {
			PriorityWindow string `json:"priority_window"`
		} `json:"order"`
	}
	if err := json.Unmarshal(raw.Body, &extra); err != nil {
		log.Fatal(err)
	}
	fmt.Println(order.Status, raw.StatusCode, extra.Order.PriorityWindow)
	// Output:
	// new 200 2h
}

// Each attempt of a call, listed after it: a 503 the
// SDK retried, then the order.
func ExampleMetadata_attemptLog() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	created, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}
	srv.FailNext(rxdeliverytest.OrdersGet, 1, rxdeliverytest.Unavailable(0))

	var md rxdelivery.Metadata
	if _, err := client.Orders.Get(ctx, created.ID, rxdelivery.WithMetadata(&md)); err != nil {
		log.Fatal(err)
	}
	for _, a := range md.AttemptLog {
		fmt.Println("attempt", a.Number, a.End, a.StatusCode)
	}
	// Output:
	// attempt 1 response 503
	// attempt 2 response 200
}

// An error names the platform's request id,
// so that the error quoted in a support ticket finds the call.
func ExampleAPIError_requestID() {
	platform := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Request-Id", "req_8f3a9c21")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":{"message":"Order not found"}}`)
	}))
	defer platform.Close()
	client, err := rxdelivery.NewClient("key", "secret", rxdelivery.WithDeliveryURL(platform.URL))
	if err != nil {
		log.Fatal(err)
	}

	_, err = client.Orders.Get(context.Background(), "ord_1")
	var apiErr *rxdelivery.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.RequestID, apiErr.Attempts)
	}
	fmt.Println(err)
	// Output:
	// req_8f3a9c21 1
	// rxdelivery: GET /api/v1/orders/ord_1: 404 Not Found: Order not found (request id req_8f3a9c21)
}

// Reporting the rounds of a watch of many orders:
// the ids each round read, the reads it made, those still open.
func ExampleWithWatchProgress() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	var ids []string
	for range 3 {
		o, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
		if err != nil {
			log.Fatal(err)
		}
		ids = append(ids, o.ID)
	}

	progress := rxdelivery.WithWatchProgress(func(r rxdelivery.WatchRound) {
		if r.Round == 1 {
			fmt.Printf("round 1: %d ids in %d reads, %d open, %d throttled\n", r.Read, r.Batches, r.Open, r.Throttled)
		}
		if r.Open == 0 {
			fmt.Println("all final")
		}
	})
	for _, err := range client.Orders.WatchMany(ctx, ids, rxdelivery.WithPollBatchSize(2), progress) {
		if err != nil {
			log.Fatal(err)
		}
	}
	// Output:
	// round 1: 3 ids in 2 reads, 3 open, 0 throttled
	// all final
}
