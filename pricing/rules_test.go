package pricing_test

import (
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/validate/ruletest"
	"github.com/rxdelivery/rxdelivery-go/pricing"
)

// TestRuleTable checks every row of docs/validation.md for pricing quotes:
// a value the documents allow is accepted, one they rule out is refused at
// the row's JSON path.
func TestRuleTable(t *testing.T) {
	t.Parallel()
	type P = pricing.QuoteParams
	dec := rxdelivery.MustDecimal
	ruletest.Run(t, "../docs/validation.md", "PR", (*P).Validate, []ruletest.Case[P]{
		{ID: "PR-01", Base: fullParams, OK: func(p *P) { p.Pickup.Address.ZIPCode = "432101234" }, Bad: func(p *P) { p.Pickup.Address.ZIPCode = "4321" }},
		{ID: "PR-02", Base: fullParams, OK: func(p *P) { p.Dropoff.Address.ZIPCode = "10001" }, Bad: func(p *P) { p.Dropoff.Address.ZIPCode = "" }},
		{ID: "PR-03", Base: fullParams, OK: func(p *P) { p.Providers = []pricing.Provider{pricing.ProviderAll} }, Bad: func(p *P) { p.Providers = []pricing.Provider{"parcela"} }},
		{ID: "PR-04", Base: fullParams, OK: func(p *P) { p.ServiceLevel = pricing.ServiceKeyAll }, Bad: func(p *P) { p.ServiceLevel = "overnight" }},
		{ID: "PR-05", Base: fullParams, OK: func(p *P) { p.PackageDimensions.WeightOz = dec("0.1") }, Bad: func(p *P) { p.PackageDimensions.WeightOz = dec("0") }},
		{ID: "PR-06", Base: fullParams, OK: func(p *P) { p.PackageDimensions.LengthIn = dec("0.5") }, Bad: func(p *P) { p.PackageDimensions.LengthIn = rxdelivery.Decimal{} }},
	})
}
