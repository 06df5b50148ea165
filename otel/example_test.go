package rxotel_test

import (
	"context"
	"fmt"
	"log"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	rxotel "github.com/rxdelivery/rxdelivery-go/otel"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// Tracing a client's calls: the global tracer provider (here an in-memory
// recorder) receives a span per call and per attempt (the README's
// OpenTelemetry block).
func Example() {
	srv := rxdeliverytest.NewServer(rxdeliverytest.WithCredentials("key", "secret"))
	defer srv.Close()
	key, secret, deliveryURL := "key", "secret", srv.DeliveryURL()
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	old := otel.GetTracerProvider()
	defer otel.SetTracerProvider(old)
	otel.SetTracerProvider(tp)
	ctx := context.Background()
	srv.FailNext(rxdeliverytest.OrdersGet, 1, rxdeliverytest.Unavailable(0))
	created, err := srv.Client().Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}
	orderID := created.ID

	client, err := rxdelivery.NewClient(key, secret,
		rxdelivery.WithDeliveryURL(deliveryURL),
		rxotel.New(), // spans and metrics to the global providers
	)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Orders.Get(ctx, orderID); err != nil {
		log.Fatal(err)
	}

	for _, s := range spans.Ended() {
		fmt.Println(s.Name())
	}
	// Output:
	// orders.Get /api/v1/orders/{id} attempt
	// orders.Get /api/v1/orders/{id} attempt
	// orders.Get /api/v1/orders/{id}
}
