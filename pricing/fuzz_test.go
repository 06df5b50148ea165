package pricing_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/reliability"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/pricing"
)

// FuzzDecodeQuotes decodes arbitrary bodies as quotes and as the answer of
// Quote ({"quotes": […]}): nothing panics, a failure is a DecodeError, a
// success is a non-nil list, and a decoded quote encodes again.
func FuzzDecodeQuotes(f *testing.F) {
	for _, b := range reliability.Fixtures(f, "pricing", "quotes*.json") {
		f.Add(b)
	}
	f.Add([]byte(`{"quotes":[{"provider":"ups","service":"x","price_usd":"8.45"}]}`))
	f.Add([]byte(`{"quotes":null}`))
	var params pricing.QuoteParams
	if err := json.Unmarshal(testutil.Fixture(f, "pricing/quote_request.json"), &params); err != nil {
		f.Fatal(err)
	}

	c, answer := reliability.AnsweringClient(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		answer(in)
		var q pricing.Quote
		if json.Unmarshal(in, &q) == nil {
			reliability.Reencodes(t, &q)
		}
		quotes, err := c.Pricing.Quote(context.Background(), &params)
		reliability.CheckDecoded(t, err, false)
		if err == nil {
			if quotes == nil {
				t.Fatal("no quotes and no error")
			}
			reliability.Reencodes(t, quotes)
		}
	})
}

// FuzzValidateQuoteParams sets string fields of the valid quote fixtures
// to arbitrary values: Validate never panics, reports only a
// *ValidationError, and a value it accepts encodes as JSON.
func FuzzValidateQuoteParams(f *testing.F) {
	fixtures := reliability.Fixtures(f, "pricing", "quote_request*.json")
	reliability.AddValidateSeeds(f, len(fixtures))
	f.Fuzz(func(t *testing.T, fixture uint8, i uint16, v string, j uint16, w string) {
		var p pricing.QuoteParams
		if err := json.Unmarshal(fixtures[int(fixture)%len(fixtures)], &p); err != nil {
			t.Fatal(err)
		}
		reliability.SetStrings(&p, i, v, j, w)
		reliability.CheckValidated(t, &p, p.Validate())
	})
}
