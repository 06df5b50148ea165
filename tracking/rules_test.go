package tracking_test

import (
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/validate/ruletest"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// TestRuleTable checks every row of docs/validation.md for tracking
// subscriptions: a value the documents allow is accepted, one they rule
// out is refused at the row's JSON path.
func TestRuleTable(t *testing.T) {
	t.Parallel()
	type P = tracking.SubscribeParams
	base := func() *P {
		return &P{TrackingNumber: "9400111899223344551111", ListenerURL: "https://pharmacy.example.com/hooks/tracking"}
	}
	ruletest.Run(t, "../docs/validation.md", "TR", (*P).Validate, []ruletest.Case[P]{
		{ID: "TR-01", Base: base, OK: func(p *P) { p.TrackingNumber = "1Z999" }, Bad: func(p *P) { p.TrackingNumber = " " }},
		{ID: "TR-02", Base: base, OK: func(p *P) { p.ListenerURL = "https://user:token@pharmacy.example.com:8443/hook?x=1" }, Bad: func(p *P) { p.ListenerURL = "http://pharmacy.example.com/hook" }},
	})
}
