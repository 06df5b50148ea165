package rxtypes_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// httptest: an Example uses the public API only, so its stand-in platform is a real loopback server.

// Give each reader of a refused order its own words: the
// operator's log gets the error, whose text keeps the platform's words
// and removes the patient's street; the pharmacist who typed the order
// gets the platform's whole message, street included, from Platform.
func ExampleAPIError_Platform() {
	platform := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		fmt.Fprint(w, `{"error":{"message":"Dropoff address 12 Elm St could not be geocoded; check the house number"}}`)
	}))
	defer platform.Close()
	client, err := rxdelivery.NewClient("key", "secret", rxdelivery.WithDeliveryURL(platform.URL))
	if err != nil {
		log.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // a stable output for the example
			}
			return a
		},
	}))

	_, err = client.Orders.Create(context.Background(), rxdeliverytest.SamedayOrderParams())
	var apiErr *rxdelivery.APIError
	if errors.As(err, &apiErr) {
		// For the operator's log: the safe rendering.
		logger.Error("order refused", "err", err)
		// For the person at the counter, who typed the address: the
		// platform's words, whole. Patient data: shown, never logged.
		fmt.Println("Tell the pharmacist:", apiErr.Platform().Text())
		// An accident in a log line shows nothing of them.
		logger.Error("order refused", "platform", apiErr.Platform())
	}
	// Output:
	// level=ERROR msg="order refused" err="rxdelivery: POST /api/v1/orders: 422 Unprocessable Entity: Dropoff address [redacted] could not be geocoded; check the house number"
	// Tell the pharmacist: Dropoff address 12 Elm St could not be geocoded; check the house number
	// level=ERROR msg="order refused" platform="[platform's words withheld]"
}
