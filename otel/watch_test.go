package rxotel_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
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
	mock := httpmock.NewMockTransport()
	reads := 0
	mock.RegisterResponder(http.MethodGet, platformURL+"/api/v1/orders/ord_secret_1", func(*http.Request) (*http.Response, error) {
		mu.Lock()
		reads++
		st := statuses[0]
		if len(statuses) > 1 {
			statuses = statuses[1:]
		}
		mu.Unlock()
		res := httpmock.NewStringResponse(http.StatusOK, `{"order":{"id":"ord_secret_1","status":"`+st+`"}}`)
		res.Header.Set("Content-Type", "application/json")
		return res, nil
	})
	spans := tracetest.NewSpanRecorder()
	tp := trace.NewTracerProvider(trace.WithSpanProcessor(spans))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	c, err := rxdelivery.NewClient(key, secret, rxdelivery.WithDeliveryURL(platformURL),
		rxdelivery.WithHTTPClient(&http.Client{Transport: mock}), rxotel.New(rxotel.WithTracerProvider(tp)))
	if err != nil {
		t.Fatal(err)
	}

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
	mu.Lock()
	mustEqual(t, "reads the platform answered", 4, reads)
	mu.Unlock()
}
