package rxdelivery_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// httptest: the benchmark measures a call over a real loopback connection, as users make it.

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

// cannedTransport answers every request at once with one order, in
// process: no network, no server, so that instruction counts of the
// client's own work are steady enough to compare.
type cannedTransport struct{}

func (cannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	body := `{"order":{"id":"ord_1","status":"new"}}`
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

// BenchmarkCannedGetOrder is one order read through the whole client over
// cannedTransport, with no option and no hook: the plain path. It uses
// only API that predates per-call options, so it can be copied into an
// older checkout and compared, such as with
//
//	go test -c -o new.test . && GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind ./new.test -test.run '^$' -test.bench CannedGetOrder -test.benchtime 2000x
//
// and again with 12000x: the difference over 10000 is the instructions
// per call.
func BenchmarkCannedGetOrder(b *testing.B) {
	c, err := rxdelivery.NewClient("key", "secret", rxdelivery.WithDeliveryURL("https://delivery.example.test"),
		rxdelivery.WithHTTPClient(&http.Client{Transport: cannedTransport{}}))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := c.Orders.Get(ctx, "ord_1"); err != nil {
			b.Fatal(err)
		}
	}
}
