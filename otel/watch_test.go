package rxotel_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	rxotel "github.com/rxdelivery/rxdelivery-go/otel"
)

// A watch has one call span per poll, each named by the templated route,
// never the order id.
func TestWatchHasOneCallSpanPerPoll(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	statuses := []string{"new", "new", "picked_up", "delivered"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		st := statuses[0]
		if len(statuses) > 1 {
			statuses = statuses[1:]
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"order":{"id":"ord_secret_1","status":"` + st + `"}}`))
	}))
	t.Cleanup(srv.Close)
	spans := tracetest.NewSpanRecorder()
	tp := trace.NewTracerProvider(trace.WithSpanProcessor(spans))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	c, err := rxdelivery.NewClient(key, secret, rxdelivery.WithDeliveryURL(srv.URL),
		rxotel.New(rxotel.WithTracerProvider(tp)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)

	o, err := c.Orders.Wait(context.Background(), "ord_secret_1", rxdelivery.WithPollInterval(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, "status", "delivered", string(o.Status))
	calls := 0
	for _, s := range spans.Ended() {
		if strings.HasSuffix(s.Name(), " attempt") {
			continue
		}
		calls++
		mustEqual(t, "call span name", "orders.Get /api/v1/orders/{id}", s.Name())
		for _, kv := range s.Attributes() {
			if strings.Contains(kv.Value.Emit(), "ord_secret_1") {
				t.Errorf("attribute %s holds the order id", kv.Key)
			}
		}
	}
	mustEqual(t, "call spans, one per poll", 4, calls)
}
