package rxdelivery_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// BenchmarkCallOptions measures one order read against a loopback server:
// with nothing (the plain path every call took before per-call options
// existed), with a client-wide attempt hook that does nothing, and with
// per-call options. Compare with
//
//	go test -run '^$' -bench CallOptions -count 8 . | benchstat -col /with -
func BenchmarkCallOptions(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"order":{"id":"ord_1","status":"new"}}`))
	}))
	defer srv.Close()
	noop := func(next option.AttemptFunc) option.AttemptFunc { return next }
	newClient := func(opts ...rxdelivery.Option) *rxdelivery.Client {
		c, err := rxdelivery.NewClient("key", "secret", append([]rxdelivery.Option{rxdelivery.WithDeliveryURL(srv.URL)}, opts...)...)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(c.CloseIdleConnections)
		return c
	}
	plain, hooked := newClient(), newClient(rxdelivery.WithMiddleware(noop))
	var md rxdelivery.Metadata
	cases := []struct {
		name string
		c    *rxdelivery.Client
		opts []rxdelivery.CallOption
	}{
		{"with=nothing", plain, nil},
		{"with=client-noop-hook", hooked, nil},
		{"with=call-options", plain, []rxdelivery.CallOption{rxdelivery.WithRetryMax(1), rxdelivery.WithHeader("X-Trace", "t"), rxdelivery.WithMetadata(&md)}},
	}
	ctx := context.Background()
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			if _, err := tc.c.Orders.Get(ctx, "ord_1", tc.opts...); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := tc.c.Orders.Get(ctx, "ord_1", tc.opts...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
