package rxotel_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	rxotel "github.com/rxdelivery/rxdelivery-go/otel"
)

// httptest: the benchmark measures what the module adds to a call over a real loopback connection, as users make it.

// BenchmarkOTel measures one order read against a loopback server without
// telemetry and with this module on SDK providers that sample every span
// (batched to an in-memory exporter) and aggregate every metric. The
// difference is what the module adds per call:
//
//	go test -run '^$' -bench OTel -count 8 . | benchstat -col /telemetry -
func BenchmarkOTel(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"order":{"id":"ord_1","status":"new"}}`))
	}))
	defer srv.Close()
	exp := tracetest.NewNoopExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	defer func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) }()

	for _, tc := range []struct {
		name string
		opts []rxdelivery.Option
	}{
		{"telemetry=none", nil},
		{"telemetry=otel", []rxdelivery.Option{rxotel.New(rxotel.WithTracerProvider(tp), rxotel.WithMeterProvider(mp))}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			c, err := rxdelivery.NewClient("key", "secret", append([]rxdelivery.Option{rxdelivery.WithDeliveryURL(srv.URL)}, tc.opts...)...)
			if err != nil {
				b.Fatal(err)
			}
			defer c.CloseIdleConnections()
			ctx := context.Background()
			if _, err := c.Orders.Get(ctx, "ord_1"); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := c.Orders.Get(ctx, "ord_1"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
