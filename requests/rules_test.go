package requests_test

import (
	"strings"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/validate/ruletest"
	"github.com/rxdelivery/rxdelivery-go/requests"
)

// TestRuleTable checks every row of docs/validation.md for omni requests:
// a value the documents allow is accepted, one they rule out is refused at
// the row's JSON path.
func TestRuleTable(t *testing.T) {
	t.Parallel()
	type P = requests.CreateParams
	long := func(n int) string { return strings.Repeat("x", n) }
	dec := rxdelivery.MustDecimal
	base, place, remit := createParams, placeParams, remittanceParams
	tomorrow := rxdelivery.DateOf(time.Now().AddDate(0, 0, 2))
	ruletest.Run(t, "../docs/validation.md", "OM", (*P).Validate, []ruletest.Case[P]{
		{ID: "OM-01", Base: base, OK: func(p *P) { p.Identifier = "p" }, Bad: func(p *P) { p.Identifier = " " }},
		{ID: "OM-02", Base: base, OK: func(p *P) { p.ExternalReferenceNumber = long(255) }, Bad: func(p *P) { p.ExternalReferenceNumber = long(256) }},
		{ID: "OM-03", Base: base, OK: func(p *P) { p.NDC = "00002143380" }, Bad: func(p *P) { p.NDC = "0000214338" }},
		{ID: "OM-04", Base: base, OK: func(p *P) { p.NDC, p.NameOfPickup = "", "Amoxicillin" }, Bad: func(p *P) { p.NDC, p.NameOfPickup = "", "" }},
		{ID: "OM-05", Base: base, OK: func(p *P) { p.Pharmacy.NCPDP = "0000001" }, Bad: func(p *P) { p.Pharmacy.NCPDP = "123456" }},
		{ID: "OM-06", Base: base, OK: func(p *P) { p.Pickup.Name = long(71) }, Bad: func(p *P) { p.Pickup.Name = long(72) }},
		{ID: "OM-07", Base: base, OK: func(p *P) { p.Pickup = nil }, Bad: func(p *P) { p.Pickup.PhoneNumber = "614555010" }},
		{ID: "OM-08", Base: base, OK: func(p *P) { p.Pickup.Address.State = "oh" }, Bad: func(p *P) { p.Pickup.Address.Street1 = "" }},
		{ID: "OM-09", Base: base, OK: func(p *P) { p.Dropoff.Name = long(71) }, Bad: func(p *P) { p.Dropoff.Name = long(72) }},
		{ID: "OM-10", Base: base, OK: func(p *P) { p.Dropoff.PhoneNumber = "2125550100" }, Bad: func(p *P) { p.Dropoff.PhoneNumber = "" }},
		{ID: "OM-11", Base: base, OK: func(p *P) { p.Dropoff.Address = requests.NewDropoffPlace("ChIJ") }, Bad: func(p *P) { p.Dropoff.Address = requests.DropoffAddress{} }},
		{ID: "OM-12", Base: place, Bad: func(p *P) { p.Dropoff.Address.City = "Columbus" }},
		{ID: "OM-13", Base: place, OK: func(p *P) { p.Dropoff.Address.PlaceID = long(255) }, Bad: func(p *P) { p.Dropoff.Address.PlaceID = long(256) }},
		{ID: "OM-14", Base: base, OK: func(p *P) { p.Dropoff.Address.Street1 = long(255) }, Bad: func(p *P) { p.Dropoff.Address.Street1 = "" }},
		{ID: "OM-15", Base: base, OK: func(p *P) { p.Dropoff.Address.Street2 = "" }, Bad: func(p *P) { p.Dropoff.Address.Street2 = long(256) }},
		{ID: "OM-16", Base: base, OK: func(p *P) { p.Dropoff.Address.City = long(255) }, Bad: func(p *P) { p.Dropoff.Address.City = long(256) }},
		{ID: "OM-17", Base: base, OK: func(p *P) { p.Dropoff.Address.State = "oh" }, Bad: func(p *P) { p.Dropoff.Address.State = "Ohio" }},
		{ID: "OM-18", Base: base, OK: func(p *P) { p.Dropoff.Address.Zipcode = "43210-1234" }, Bad: func(p *P) { p.Dropoff.Address.Zipcode = "4321" }},
		{ID: "OM-19", Base: base, OK: func(p *P) { p.Patient.FirstName = long(30) }, Bad: func(p *P) { p.Patient.FirstName = long(31) }},
		{ID: "OM-20", Base: base, OK: func(p *P) { p.Patient.LastName = long(40) }, Bad: func(p *P) { p.Patient.LastName = long(41) }},
		{ID: "OM-21", Base: base, OK: func(p *P) { p.Patient.Gender = "" }, Bad: func(p *P) { p.Patient.Gender = "f" }},
		{ID: "OM-22", Base: base, OK: func(p *P) { p.Patient.DateOfBirth = rxdelivery.Date{Year: 2000, Month: 2, Day: 29} }, Bad: func(p *P) { p.Patient.DateOfBirth = rxdelivery.Date{Year: 2001, Month: 2, Day: 29} }},
		{ID: "OM-23", Base: base, OK: func(p *P) { p.Patient.DateOfBirth = rxdelivery.DateOf(time.Now().UTC()) }, Bad: func(p *P) { p.Patient.DateOfBirth = tomorrow }},
		{ID: "OM-24", Base: remit, Bad: func(p *P) { p.Remittance.Contact = nil }},
		{ID: "OM-25", Base: remit, Bad: func(p *P) { p.Remittance.Payments = nil }},
		{ID: "OM-26", Base: remit, OK: func(p *P) { p.Remittance.Contact.MobilePhoneNumber = "2125550100" }, Bad: func(p *P) { p.Remittance.Contact.MobilePhoneNumber = "" }},
		{ID: "OM-27", Base: remit, OK: func(p *P) { p.Remittance.Contact.Email = "jane@localhost" }, Bad: func(p *P) { p.Remittance.Contact.Email = long(256) }},
		{ID: "OM-28", Base: remit, OK: func(p *P) { p.Remittance.Payments[0].Fee = dec("0.01") }, Bad: func(p *P) { p.Remittance.Payments[0].Fee = dec("0.00") }},
		{ID: "OM-29", Base: remit, OK: func(p *P) { p.Remittance.Payments[0].Kind = requests.PaymentCopay }, Bad: func(p *P) { p.Remittance.Payments[0].Kind = "tip" }},
		{ID: "OM-30", Base: remit, OK: func(p *P) { p.TestMeta.Scenario = requests.ScenarioIncompleteRequest }, Bad: func(p *P) { p.TestMeta.Scenario = "" }},
		{ID: "OM-31", Base: remit, OK: func(p *P) { p.TestMeta.DurationBetween = 900 }, Bad: func(p *P) { p.TestMeta.DurationBetween = 901 }},
	})
}
