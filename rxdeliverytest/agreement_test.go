package rxdeliverytest_test

import (
	"context"
	"strings"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// The simulator and the SDK read the documents independently. These tests
// send the same params both ways, the SDK's Validate and the simulator
// (through a client with validation off), and require the same verdict: a
// value one accepts and the other refuses is a rule the two readings
// disagree on.

// agree fails the test when exactly one of the two refused.
func agree(t *testing.T, sdkErr, simErr error) {
	t.Helper()
	if (sdkErr == nil) != (simErr == nil) {
		t.Errorf("the readings disagree:\n  SDK validation: %v\n  simulator:      %v", sdkErr, simErr)
	}
}

func noValidation(t *testing.T) (*rxdeliverytest.Server, *rxdelivery.Client) {
	srv := rxdeliverytest.Start(t)
	c, err := srv.NewClient(rxdelivery.WithoutValidation())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return srv, c
}

func TestOrderRulesAgree(t *testing.T) {
	t.Parallel()
	_, c := noValidation(t)
	ondemand := func(p *orders.CreateParams) { p.ServiceLevel = orders.ServiceLevelOndemand }
	cases := map[string]func(p *orders.CreateParams){
		"valid same-day":          func(*orders.CreateParams) {},
		"on-demand with fees":     ondemand,
		"on-demand without fees":  func(p *orders.CreateParams) { ondemand(p); p.DeliveryFee, p.RxAmountDue = nil, nil },
		"same-day without fee":    func(p *orders.CreateParams) { p.DeliveryFee = nil },
		"zero fee":                func(p *orders.CreateParams) { p.DeliveryFee = rxdelivery.Ptr(rxdelivery.MustDecimal("0")) },
		"negative fee":            func(p *orders.CreateParams) { p.DeliveryFee = rxdelivery.Ptr(rxdelivery.MustDecimal("-1")) },
		"on-demand with photo id": func(p *orders.CreateParams) { ondemand(p); p.PhotoIDRequired = rxdelivery.Ptr(true) },
		"on-demand with other items due": func(p *orders.CreateParams) {
			ondemand(p)
			p.OtherItemsAmountDue = rxdelivery.Ptr(rxdelivery.MustDecimal("1"))
		},
		"notes of 280":                      func(p *orders.CreateParams) { p.DeliveryNotes = strings.Repeat("n", 280) },
		"notes of 281":                      func(p *orders.CreateParams) { p.DeliveryNotes = strings.Repeat("n", 281) },
		"reference of 256":                  func(p *orders.CreateParams) { p.ExternalReferenceNumber = strings.Repeat("r", 256) },
		"ZIP of 4 digits":                   func(p *orders.CreateParams) { p.Recipient.Address.Zipcode = "4321" },
		"ZIP of 9 digits":                   func(p *orders.CreateParams) { p.Recipient.Address.Zipcode = "432101234" },
		"state of 3 letters":                func(p *orders.CreateParams) { p.Recipient.Address.State = "OHI" },
		"phone of 9 digits":                 func(p *orders.CreateParams) { p.Recipient.MobilePhoneNumber = "614555010" },
		"recipient description of 72":       func(p *orders.CreateParams) { p.Recipient.Description = strings.Repeat("d", 72) },
		"first name of 31":                  func(p *orders.CreateParams) { p.Patient.FirstName = strings.Repeat("f", 31) },
		"last name of 40":                   func(p *orders.CreateParams) { p.Patient.LastName = strings.Repeat("l", 40) },
		"NDC of 10 digits":                  func(p *orders.CreateParams) { p.Prescriptions[0].NDC = "0002143380" },
		"NCPDP of 6 digits":                 func(p *orders.CreateParams) { p.Pharmacy.NCPDP = "555000" },
		"no prescription":                   func(p *orders.CreateParams) { p.Prescriptions = nil },
		"prescription number of 256":        func(p *orders.CreateParams) { p.Prescriptions[0].Number = strings.Repeat("9", 256) },
		"payer BIN of 256":                  func(p *orders.CreateParams) { p.Prescriptions[0].Payers[0].BIN = strings.Repeat("6", 256) },
		"shipping fields on a same-day one": func(p *orders.CreateParams) { p.Shipping = &orders.ShippingParams{Carrier: orders.CarrierPostal} },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			p := rxdeliverytest.SamedayOrderParams()
			mutate(p)
			_, simErr := c.Orders.Create(context.Background(), p)
			agree(t, p.Validate(), simErr)
		})
	}
}

func TestRequestRulesAgree(t *testing.T) {
	t.Parallel()
	_, c := noValidation(t)
	cases := map[string]func(p *requests.CreateParams){
		"valid":                     func(*requests.CreateParams) {},
		"neither ndc nor name":      func(p *requests.CreateParams) { p.NameOfPickup = "" },
		"ndc instead of name":       func(p *requests.CreateParams) { p.NameOfPickup, p.NDC = "", "00002143380" },
		"reference of 256":          func(p *requests.CreateParams) { p.ExternalReferenceNumber = strings.Repeat("r", 256) },
		"dropoff name of 72":        func(p *requests.CreateParams) { p.Dropoff.Name = strings.Repeat("n", 72) },
		"dropoff phone of 11":       func(p *requests.CreateParams) { p.Dropoff.PhoneNumber = "61455501000" },
		"place id of 256":           func(p *requests.CreateParams) { p.Dropoff.Address = requests.NewDropoffPlace(strings.Repeat("p", 256)) },
		"first name of 31":          func(p *requests.CreateParams) { p.Patient.FirstName = strings.Repeat("f", 31) },
		"zero payment":              func(p *requests.CreateParams) { p.Remittance = remittance("0") },
		"positive payment":          func(p *requests.CreateParams) { p.Remittance = remittance("4.99") },
		"scenario every 900 s":      func(p *requests.CreateParams) { p.TestMeta = testMeta(900) },
		"scenario every 901 s":      func(p *requests.CreateParams) { p.TestMeta = testMeta(901) },
		"NCPDP of 8 digits":         func(p *requests.CreateParams) { p.Pharmacy.NCPDP = "55500010" },
		"unknown pharmacy, pickup":  func(p *requests.CreateParams) { p.Pharmacy.NCPDP = "9999999"; p.Pickup = pickup() },
		"dropoff address, full one": func(p *requests.CreateParams) { p.Dropoff.Address = requests.NewDropoffAddress(fullAddress()) },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			p := omniParams("", 0)
			mutate(p)
			_, simErr := c.Requests.Create(context.Background(), p)
			agree(t, p.Validate(), simErr)
		})
	}
}

func TestQuoteRulesAgree(t *testing.T) {
	t.Parallel()
	_, c := noValidation(t)
	cases := map[string]func(p *pricing.QuoteParams){
		"valid":            func(*pricing.QuoteParams) {},
		"ZIP+4":            func(p *pricing.QuoteParams) { p.Pickup.Address.ZIPCode = "43210-1234" },
		"ZIP of 4":         func(p *pricing.QuoteParams) { p.Dropoff.Address.ZIPCode = "1000" },
		"zero weight":      func(p *pricing.QuoteParams) { p.PackageDimensions.WeightOz = rxdelivery.MustDecimal("0") },
		"negative weight":  func(p *pricing.QuoteParams) { p.PackageDimensions.WeightOz = rxdelivery.MustDecimal("-2") },
		"unknown provider": func(p *pricing.QuoteParams) { p.Providers = []pricing.Provider{"parcela"} },
		"postal provider":  func(p *pricing.QuoteParams) { p.Providers = []pricing.Provider{pricing.ProviderPostal} },
		"unknown service":  func(p *pricing.QuoteParams) { p.ServiceLevel = "overnight" },
		"negative length":  func(p *pricing.QuoteParams) { p.PackageDimensions.LengthIn = rxdelivery.MustDecimal("-1") },
		"ground service":   func(p *pricing.QuoteParams) { p.ServiceLevel = pricing.ServiceKeyGround },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			p := quoteParams()
			mutate(p)
			_, simErr := c.Pricing.Quote(context.Background(), p)
			agree(t, p.Validate(), simErr)
		})
	}
}

// Pharmacy lookups. Two refusals are the platform's own and no client can
// predict them: an origin address the geocoder cannot read (the simulator:
// no 5-digit ZIP code) and an invalid place identifier (the simulator:
// characters outside letters, digits, '_', '-', ':'). The SDK leaves them
// to the platform, so they are not compared here.
func TestPharmacySearchRulesAgree(t *testing.T) {
	t.Parallel()
	_, c := noValidation(t)
	const origin = "1 Main St, Columbus, OH 43210"
	cases := map[string]pharmacies.SearchParams{
		"origin":           {OriginAddress: origin},
		"place":            {PlaceID: "ChIJ_agree"},
		"both":             {OriginAddress: origin, PlaceID: "ChIJ_agree"},
		"neither":          {},
		"long origin":      {OriginAddress: strings.Repeat("Building wing ", 30) + origin},
		"place id of 256":  {PlaceID: strings.Repeat("p", 256)},
		"page size of 100": {PlaceID: "x", PageSize: 100},
		"page size of 101": {PlaceID: "x", PageSize: 101},
		"page 2":           {PlaceID: "x", Page: 2},
	}
	for name, p := range cases {
		t.Run(name, func(t *testing.T) {
			_, simErr := c.Pharmacies.Search(context.Background(), &p)
			agree(t, p.Validate(), simErr)
		})
	}
}

func remittance(fee string) *requests.RemittanceParams {
	return &requests.RemittanceParams{
		Contact:  &requests.Contact{MobilePhoneNumber: "6145550100"},
		Payments: []requests.Payment{{Fee: rxdelivery.MustDecimal(fee), Kind: requests.PaymentDeliveryFee}},
	}
}

func testMeta(every int) *requests.TestMeta {
	return &requests.TestMeta{Scenario: requests.ScenarioSuccessfulDelivery, DurationBetween: every}
}

func fullAddress() requests.Address {
	return requests.Address{Street1: "1 Main St", City: "Columbus", State: "OH", Zipcode: "43210"}
}

func pickup() *requests.PickupParams {
	return &requests.PickupParams{Name: "Corner Clinic", PhoneNumber: "6145550101", Address: fullAddress()}
}
