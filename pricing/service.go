package pricing

import (
	"context"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/wiring"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// Service asks the pricing interface for delivery quotes. A program gets
// it as client.Pricing; it is safe for concurrent use, and [Service.Quote]
// takes per-call options last (rxdelivery.CallOption).
type Service struct {
	b *core.Backend
}

func init() {
	wiring.Pricing = func(b *core.Backend) any { return &Service{b: b} }
}

// quotesEnvelope is the body of a quote response: {"quotes": [...]}.
type quotesEnvelope struct {
	Quotes []Quote `json:"quotes"`
}

// Quote returns the delivery price quotes for a package between two ZIP
// codes (POST /pricing/v1/quotes). A valid request that no quote matches
// gives an empty, non-nil slice and no error.
//
// ZIP codes are sent as 5 digits: a ZIP+4 such as "43210-1234" or
// "432101234" is cut to "43210" on a copy; p itself is never changed. A
// quote only informs a decision: it creates no request, reserves no rate
// and buys no label. The call has no side effect, so it is retried like a
// read on 429, 5xx and transport failures.
//
// When the provider gives no reliable price the platform responds with 502: the
// error is an *rxdelivery.APIError whose Message can be shown to a user and
// that matches rxdelivery.ErrUnavailable.
func (s *Service) Quote(ctx context.Context, p *QuoteParams, opts ...option.CallOption) ([]Quote, error) {
	var env quotesEnvelope
	r := core.Request{Endpoint: core.PricingQuote, Check: core.Params(p, (*QuoteParams).validate), Out: &env, Opts: opts}
	if p != nil {
		r.Body = p.wire()
	}
	if err := s.b.Execute(ctx, r); err != nil {
		return nil, err
	}
	if env.Quotes == nil {
		env.Quotes = []Quote{}
	}
	return env.Quotes, nil
}
