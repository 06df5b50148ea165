package pharmacies_test

import (
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/validate/ruletest"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// TestRuleTable checks every row of docs/validation.md for the pharmacy
// lookup and the delivery information: a value the documents allow is
// accepted, one they rule out is refused at the row's JSON path.
func TestRuleTable(t *testing.T) {
	t.Parallel()
	long := func(n int) string { return strings.Repeat("x", n) }
	type S = pharmacies.SearchParams
	search := func() *S { return &S{OriginAddress: "100 High St, Columbus, OH 43210"} }
	ruletest.Run(t, "../docs/validation.md", "PH", (*S).Validate, []ruletest.Case[S]{
		{ID: "PH-01", Base: search, OK: func(p *S) { p.PlaceID = "ChIJ" }, Bad: func(p *S) { p.OriginAddress = "" }},
		{ID: "PH-02", Base: search, OK: func(p *S) { p.PlaceID = long(255) }, Bad: func(p *S) { p.PlaceID = long(256) }},
		{ID: "PH-03", Base: search, OK: func(p *S) { p.Page = 1 }, Bad: func(p *S) { p.Page = -1 }},
		{ID: "PH-04", Base: search, OK: func(p *S) { p.PageSize = 100 }, Bad: func(p *S) { p.PageSize = 101 }},
	})

	type D = pharmacies.DeliveryInfoParams
	info := func() *D {
		return &D{Address: rxtypes.Address{Street: "42 Elm Avenue", City: "Columbus", State: "OH", Zipcode: "43210"}}
	}
	ruletest.Run(t, "../docs/validation.md", "DI", (*D).Validate, []ruletest.Case[D]{
		{ID: "DI-01", Base: info, OK: func(p *D) { p.Address.Street = long(255) }, Bad: func(p *D) { p.Address.Street = "" }},
		{ID: "DI-02", Base: info, OK: func(p *D) { p.Address.Street2 = long(255) }, Bad: func(p *D) { p.Address.Street2 = long(256) }},
		{ID: "DI-03", Base: info, OK: func(p *D) { p.Address.City = long(255) }, Bad: func(p *D) { p.Address.City = long(256) }},
		{ID: "DI-04", Base: info, OK: func(p *D) { p.Address.State = "oh" }, Bad: func(p *D) { p.Address.State = "ZZ" }},
		{ID: "DI-05", Base: info, OK: func(p *D) { p.Address.Zipcode = "43210-1234" }, Bad: func(p *D) { p.Address.Zipcode = "43210-12" }},
	})
}
