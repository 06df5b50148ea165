package jsonx_test

import (
	"encoding/json"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// decoders are the decoders BenchmarkUnmarshal compares: jsonx.Unmarshal
// (whichever decoder this Go release builds it on), encoding/json, and,
// on Go 1.27 and later, the pinned module as well (bench_go127_test.go),
// so that both sides of the seam run in one binary on one Go release.
var decoders = []struct {
	name string
	fn   func([]byte, any) error
}{
	{"jsonx", jsonx.Unmarshal},
	{"encoding-json", json.Unmarshal},
}

// repeat builds {"key":[...]} with n members taken in turn from the list
// under key in fixture.
func repeat(b *testing.B, fixture, key string, n int, extra map[string]any) []byte {
	b.Helper()
	var in map[string][]json.RawMessage
	if err := json.Unmarshal(testutil.Fixture(b, fixture), &in); err != nil {
		// The fixture has other members than the list: read only it.
		var only map[string]json.RawMessage
		if err := json.Unmarshal(testutil.Fixture(b, fixture), &only); err != nil {
			b.Fatal(err)
		}
		var list []json.RawMessage
		if err := json.Unmarshal(only[key], &list); err != nil {
			b.Fatal(err)
		}
		in = map[string][]json.RawMessage{key: list}
	}
	items := make([]json.RawMessage, n)
	for i := range items {
		items[i] = in[key][i%len(in[key])]
	}
	out := map[string]any{key: items}
	for k, v := range extra {
		out[k] = v
	}
	data, err := json.Marshal(out)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkUnmarshal decodes the answers the SDK decodes most (one order,
// 50 orders of a get-many, a search page of 100 pharmacies, a tracking
// notification) with each decoder. Run it for a few rounds and compare
// with benchstat -col /decoder.
func BenchmarkUnmarshal(b *testing.B) {
	type orderEnvelope struct {
		Order *orders.Order `json:"order"`
	}
	type ordersEnvelope struct {
		Orders []orders.Order `json:"orders"`
	}
	inputs := []struct {
		name string
		data []byte
		into func() any
	}{
		{"order", testutil.Fixture(b, "delivery/order_delivered.json"), func() any { return new(orderEnvelope) }},
		{"orders50", repeat(b, "delivery/orders_get_many.json", "orders", 50, nil), func() any { return new(ordersEnvelope) }},
		{"pharmacies100", repeat(b, "omni/pharmacies_search_page1.json", "pharmacies", 100,
			map[string]any{"count": 1000, "page": 1, "page_size": 100}), func() any { return new(pharmacies.SearchPage) }},
		{"notification", testutil.Fixture(b, "tracking/notification.json"), func() any { return new(tracking.Notification) }},
	}
	for _, in := range inputs {
		for _, d := range decoders {
			b.Run("in="+in.name+"/decoder="+d.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(in.data)))
				for i := 0; i < b.N; i++ {
					if err := d.fn(in.data, in.into()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
