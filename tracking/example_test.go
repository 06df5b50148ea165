package tracking_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

func ExampleService_Subscribe() {
	sb := testutil.StartSandbox()
	defer sb.Close()
	client, ctx := sb.Client, context.Background()

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

func ExampleService_GetSubscription() {
	sb := testutil.StartSandbox()
	defer sb.Close()
	client, ctx := sb.Client, context.Background()

	_, err := client.Tracking.GetSubscription(ctx, "9400100000000000000099")
	var apiErr *rxdelivery.APIError
	if errors.Is(err, rxdelivery.ErrNotFound) && errors.As(err, &apiErr) {
		fmt.Println(apiErr.Code == tracking.CodeNotFound)
	}
	// Output:
	// true
}
