package pricing

import (
	"context"
	"net/http"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/wiring"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// Service calls the pricing endpoints. Get one from rxdelivery.Client; it is
// safe for concurrent use.
//
// Every method takes per-call options as its trailing arguments
// (rxdelivery.WithRetryMax, WithAttemptTimeout, WithHeader, WithMetadata,
// WithMiddleware, ...): they apply to that call only.
type Service struct {
	b *core.Backend
}

func init() {
	wiring.Pricing = func(b *core.Backend) any { return &Service{b: b} }
}

// quotesPath is the path of the quote endpoint.
const quotesPath = "/pricing/v1/quotes"

// quotesEnvelope is the body of a quote answer: {"quotes": [...]}.
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
// When the provider gives no reliable price the platform answers 502: the
// error is an *rxdelivery.APIError whose Message can be shown to a user and
// that matches rxdelivery.ErrUnavailable.
func (s *Service) Quote(ctx context.Context, p *QuoteParams, opts ...option.CallOption) ([]Quote, error) {
	if err := core.Check(s.b, p, (*QuoteParams).validate); err != nil {
		return nil, core.Refused(opts, err)
	}
	var env quotesEnvelope
	if _, err := s.b.Do(ctx, core.Call{Method: http.MethodPost, Path: quotesPath, Body: p.wire(),
		Op: "pricing.Quote", Route: quotesPath, Opts: core.CallOptions(opts)}, &env); err != nil {
		return nil, err
	}
	if env.Quotes == nil {
		env.Quotes = []Quote{}
	}
	return env.Quotes, nil
}
