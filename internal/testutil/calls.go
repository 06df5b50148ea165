package testutil

import (
	"context"
	"encoding/json"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// Distinctive patient values the valid calls of Calls send, so that a
// test of a server that echoes what it was sent can look for them in
// error strings, log lines and transcripts.
const (
	PatientFirst   = "Philomena"
	PatientLast    = "Vandersloot"
	PatientStreet  = "4417 Quillfeather Lane"
	PatientStreet2 = "Apt 9Q"
	PatientCity    = "Marrowfield"
	PatientPhone   = "6145557291"
	PatientBirth   = "1947-11-23"
	PatientEmail   = "p.vandersloot@example.org"
	// Reference is the external reference number of the request and of
	// the order.
	Reference = "EXTREF-e2e-77310"
	// RxNumber is the prescription number of the order; RemovePrescription
	// names it in its path, which errors show with the number hidden.
	RxNumber = "RX-e2e-99120"
	// Listener, TrackingNumber and ReferralID are the subscription's.
	Listener       = "https://hooks.example.org/rx/LISTENER-TOKEN-5c8e"
	TrackingNumber = "9400111899229988776655"
	ReferralID     = "REFID-e2e-31d4"
)

// PatientValues returns every patient value above that a call sends: the
// values no log line and no error string may hold (RxNumber aside, which
// is part of a path).
func PatientValues() []string {
	return []string{PatientFirst, PatientLast, PatientStreet, PatientStreet2, PatientCity, PatientPhone,
		PatientBirth, PatientEmail, Reference, Listener, TrackingNumber, ReferralID}
}

// PatientRequest returns valid params of a delivery request for the
// pharmacy ncpdp, carrying the patient values, with the sandbox's
// test_meta.
func PatientRequest(t testing.TB, ncpdp string) *requests.CreateParams {
	t.Helper()
	dob, err := rxdelivery.ParseDate(PatientBirth)
	if err != nil {
		t.Fatal(err)
	}
	addr := requests.Address{Street1: PatientStreet, Street2: PatientStreet2, City: PatientCity, State: "OH", Zipcode: "43210"}
	return &requests.CreateParams{
		Identifier:              "program-e2e",
		ExternalReferenceNumber: Reference,
		NDC:                     "00002143380",
		Pharmacy:                requests.PharmacyParams{NCPDP: ncpdp},
		Dropoff: requests.DropoffParams{
			Name:        PatientFirst + " " + PatientLast,
			PhoneNumber: PatientPhone,
			Address:     requests.NewDropoffAddress(addr),
		},
		Patient: requests.PatientParams{FirstName: PatientFirst, LastName: PatientLast, Gender: rxtypes.GenderFemale, DateOfBirth: dob},
		Remittance: &requests.RemittanceParams{
			Contact:  &requests.Contact{MobilePhoneNumber: PatientPhone, Email: PatientEmail},
			Payments: []requests.Payment{{Fee: rxdelivery.MustDecimal("5.00"), Kind: requests.PaymentCopay}},
		},
		TestMeta: &requests.TestMeta{Scenario: requests.ScenarioSuccessfulDelivery, DurationBetween: 1},
	}
}

// PatientOrder returns valid params of a same-day order (the fixture
// delivery/order_create_sameday_request.json) for the pharmacy npi and
// ncpdp, its recipient, patient and prescription number the patient
// values.
func PatientOrder(t testing.TB, npi, ncpdp string) *orders.CreateParams {
	t.Helper()
	var p orders.CreateParams
	if err := json.Unmarshal(Fixture(t, "delivery/order_create_sameday_request.json"), &p); err != nil {
		t.Fatal(err)
	}
	p.ExternalReferenceNumber = Reference
	p.Pharmacy = orders.Pharmacy{NPI: npi, NCPDP: ncpdp}
	p.Recipient.Description = PatientFirst + " " + PatientLast
	p.Recipient.MobilePhoneNumber = PatientPhone
	p.Recipient.Address = rxtypes.Address{Street: PatientStreet, Street2: PatientStreet2, City: PatientCity, State: "OH", Zipcode: "43210"}
	p.Patient.FirstName, p.Patient.LastName = PatientFirst, PatientLast
	p.Patient.MobilePhoneNumber = PatientPhone
	dob, err := rxdelivery.ParseDate(PatientBirth)
	if err != nil {
		t.Fatal(err)
	}
	p.Patient.DateOfBirth = dob
	p.Prescriptions[0].Number = RxNumber
	return &p
}

// Quote returns valid params of a price quote.
func Quote() *pricing.QuoteParams {
	return &pricing.QuoteParams{
		Pickup:  pricing.Location{Address: pricing.Address{ZIPCode: "43210"}},
		Dropoff: pricing.Location{Address: pricing.Address{ZIPCode: "43215-1234"}},
		PackageDimensions: pricing.PackageDimensions{
			LengthIn: rxdelivery.MustDecimal("10"), WidthIn: rxdelivery.MustDecimal("8"),
			HeightIn: rxdelivery.MustDecimal("4"), WeightOz: rxdelivery.MustDecimal("12.5"),
		},
	}
}

// CallFunc makes one call of an endpoint's service method on c.
type CallFunc func(ctx context.Context, c *rxdelivery.Client, opts ...option.CallOption) error

// Call is the test row of one endpoint of core.Endpoints, the one source
// of the tests that run every endpoint: its valid call, the forms of input
// that end it before anything is sent, what it sends and how errors name
// it.
type Call struct {
	// Name is the endpoint's in core.Endpoints ("orders.Get").
	Name string
	// Interface is the interface the endpoint is on.
	Interface rxdelivery.Interface
	// Call makes the call with valid params carrying the patient values,
	// so that a server may echo them.
	Call CallFunc
	// NilParams, InvalidParams and EmptyID make it with nil params,
	// params that break a rule, and an empty identifier; nil marks a form
	// the endpoint does not take.
	NilParams, InvalidParams, EmptyID CallFunc
	// Method and URL are the request Call sends on the mock client's base
	// URLs, written out so that a change of route, method or interface
	// in core.Endpoints fails.
	Method, URL string
	// Path is Call's path as errors show it: its query dropped, hidden
	// placeholders named.
	Path string
	// Endpoint is the row's endpoint of core.Endpoints, set by
	// CheckCalls.
	Endpoint *core.Endpoint
}

// e0 drops a call's result, keeping its error.
func e0[T any](_ T, err error) error { return err }

// Calls returns the row of every endpoint of core.Endpoints, checked by
// CheckCalls: the rows written below, and for an endpoint that has none
// the row DerivedRow makes from the table and its method (a read or a
// delete by id needs no row here; one that takes params or a query does).
// Each call returns fresh params.
func Calls(t testing.TB) []Call {
	t.Helper()
	return CheckCalls(t, withDerived(t, calls(t)))
}

func calls(t testing.TB) []Call {
	t.Helper()
	req := PatientRequest(t, "5550001")
	req.TestMeta = nil
	order := PatientOrder(t, "1234567890", "5550001")
	rx := PatientOrder(t, "1234567890", "5550001").Prescriptions[0]
	info := &pharmacies.DeliveryInfoParams{Address: rxtypes.Address{
		Street: PatientStreet, City: PatientCity, State: "OH", Zipcode: "43210",
	}}
	search := &pharmacies.SearchParams{OriginAddress: PatientStreet + ", " + PatientCity + ", OH 43210"}
	subscribe := &tracking.SubscribeParams{TrackingNumber: TrackingNumber, ListenerURL: Listener, ReferenceID: ReferralID}
	return []Call{
		{Name: "requests.Create", Interface: rxdelivery.Omni,
			Method: "POST", URL: OmniURL + "/api/v1/requests", Path: "/api/v1/requests",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Requests.Create(ctx, req, o...))
			},
			NilParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Requests.Create(ctx, nil, o...))
			},
			InvalidParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Requests.Create(ctx, &requests.CreateParams{}, o...))
			}},
		{Name: "requests.Cancel", Interface: rxdelivery.Omni,
			Method: "DELETE", URL: OmniURL + "/api/v1/requests/req_1", Path: "/api/v1/requests/req_1",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return c.Requests.Cancel(ctx, "req_1", o...)
			},
			EmptyID: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return c.Requests.Cancel(ctx, "", o...)
			}},
		{Name: "requests.Get", Interface: rxdelivery.Omni,
			Method: "GET", URL: OmniURL + "/api/v1/requests/req_1", Path: "/api/v1/requests/req_1",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Requests.Get(ctx, "req_1", o...))
			},
			EmptyID: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Requests.Get(ctx, " ", o...))
			}},
		{Name: "requests.GetMany", Interface: rxdelivery.Omni,
			Method: "GET", URL: OmniURL + "/api/v1/requests/?ids%5B%5D=req_1&ids%5B%5D=req_2", Path: "/api/v1/requests/",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Requests.GetMany(ctx, []string{"req_1", "req_2"}, o...))
			},
			NilParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Requests.GetMany(ctx, nil, o...))
			},
			EmptyID: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Requests.GetMany(ctx, []string{"req_1", ""}, o...))
			}},
		{Name: "pharmacies.Search", Interface: rxdelivery.Omni,
			Method: "GET", URL: OmniURL + "/api/v1/pharmacies/?origin_address=4417+Quillfeather+Lane%2C+Marrowfield%2C+OH+43210",
			Path: "/api/v1/pharmacies/",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Pharmacies.Search(ctx, search, o...))
			},
			NilParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Pharmacies.Search(ctx, nil, o...))
			},
			InvalidParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Pharmacies.Search(ctx, &pharmacies.SearchParams{}, o...))
			}},
		{Name: "pharmacies.Get", Interface: rxdelivery.Omni,
			Method: "GET", URL: OmniURL + "/api/v1/pharmacies/5550001", Path: "/api/v1/pharmacies/5550001",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Pharmacies.Get(ctx, "5550001", o...))
			},
			InvalidParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Pharmacies.Get(ctx, "55500", o...))
			},
			EmptyID: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Pharmacies.Get(ctx, "", o...))
			}},
		{Name: "pharmacies.DeliveryInfo", Interface: rxdelivery.Delivery,
			Method: "GET", URL: DeliveryURL + "/api/v1/pharmacies/5550001?delivery%5Baddress%5D%5Bcity%5D=Marrowfield&delivery%5Baddress%5D%5Bstate%5D=OH&delivery%5Baddress%5D%5Bstreet%5D=4417+Quillfeather+Lane&delivery%5Baddress%5D%5Bzipcode%5D=43210",
			Path: "/api/v1/pharmacies/5550001",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Pharmacies.DeliveryInfo(ctx, "5550001", info, o...))
			},
			NilParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Pharmacies.DeliveryInfo(ctx, "5550001", nil, o...))
			},
			InvalidParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Pharmacies.DeliveryInfo(ctx, "5550001", &pharmacies.DeliveryInfoParams{}, o...))
			},
			EmptyID: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Pharmacies.DeliveryInfo(ctx, "", &pharmacies.DeliveryInfoParams{}, o...))
			}},
		{Name: "orders.Create", Interface: rxdelivery.Delivery,
			Method: "POST", URL: DeliveryURL + "/api/v1/orders", Path: "/api/v1/orders",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Orders.Create(ctx, order, o...))
			},
			NilParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Orders.Create(ctx, nil, o...))
			},
			InvalidParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Orders.Create(ctx, &orders.CreateParams{}, o...))
			}},
		{Name: "orders.Cancel", Interface: rxdelivery.Delivery,
			Method: "DELETE", URL: DeliveryURL + "/api/v1/orders/ord_1", Path: "/api/v1/orders/ord_1",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return c.Orders.Cancel(ctx, "ord_1", o...)
			},
			EmptyID: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return c.Orders.Cancel(ctx, "", o...)
			}},
		{Name: "orders.Get", Interface: rxdelivery.Delivery,
			Method: "GET", URL: DeliveryURL + "/api/v1/orders/ord_1", Path: "/api/v1/orders/ord_1",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Orders.Get(ctx, "ord_1", o...))
			},
			EmptyID: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Orders.Get(ctx, "..", o...))
			}},
		{Name: "orders.GetMany", Interface: rxdelivery.Delivery,
			Method: "GET", URL: DeliveryURL + "/api/v1/orders?ids%5B%5D=ord_1&ids%5B%5D=ord_2", Path: "/api/v1/orders",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Orders.GetMany(ctx, []string{"ord_1", "ord_2"}, o...))
			},
			NilParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Orders.GetMany(ctx, []string{}, o...))
			},
			EmptyID: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Orders.GetMany(ctx, []string{""}, o...))
			}},
		{Name: "orders.AddPrescription", Interface: rxdelivery.Delivery,
			Method: "POST", URL: DeliveryURL + "/api/v1/orders/ord_1/prescriptions", Path: "/api/v1/orders/ord_1/prescriptions",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Orders.AddPrescription(ctx, "ord_1", &rx, o...))
			},
			NilParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Orders.AddPrescription(ctx, "ord_1", nil, o...))
			},
			InvalidParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Orders.AddPrescription(ctx, "ord_1", &orders.Prescription{}, o...))
			},
			EmptyID: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Orders.AddPrescription(ctx, "", &orders.Prescription{}, o...))
			}},
		{Name: "orders.RemovePrescription", Interface: rxdelivery.Delivery,
			Method: "DELETE", URL: DeliveryURL + "/api/v1/orders/ord_1/prescriptions/" + RxNumber,
			Path: "/api/v1/orders/ord_1/prescriptions/:rx_number",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return c.Orders.RemovePrescription(ctx, "ord_1", RxNumber, o...)
			},
			InvalidParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return c.Orders.RemovePrescription(ctx, "ord_1", "", o...)
			},
			EmptyID: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return c.Orders.RemovePrescription(ctx, "", RxNumber, o...)
			}},
		{Name: "tracking.Subscribe", Interface: rxdelivery.Tracking,
			Method: "POST", URL: TrackingURL + "/tracking/v1/subscriptions", Path: "/tracking/v1/subscriptions",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Tracking.Subscribe(ctx, subscribe, o...))
			},
			NilParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Tracking.Subscribe(ctx, nil, o...))
			},
			InvalidParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Tracking.Subscribe(ctx, &tracking.SubscribeParams{}, o...))
			}},
		{Name: "tracking.GetSubscription", Interface: rxdelivery.Tracking,
			Method: "GET", URL: TrackingURL + "/tracking/v1/subscriptions?tracking_number=" + TrackingNumber,
			Path: "/tracking/v1/subscriptions",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Tracking.GetSubscription(ctx, TrackingNumber, o...))
			},
			EmptyID: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Tracking.GetSubscription(ctx, "", o...))
			}},
		{Name: "pricing.Quote", Interface: rxdelivery.Pricing,
			Method: "POST", URL: PricingURL + "/pricing/v1/quotes", Path: "/pricing/v1/quotes",
			Call: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Pricing.Quote(ctx, Quote(), o...))
			},
			NilParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Pricing.Quote(ctx, nil, o...))
			},
			InvalidParams: func(ctx context.Context, c *rxdelivery.Client, o ...option.CallOption) error {
				return e0(c.Pricing.Quote(ctx, &pricing.QuoteParams{}, o...))
			}},
	}
}

// CheckCalls returns rows with each one's Endpoint set, after checking
// them against core.Endpoints: it fails t, naming each, when an endpoint
// has no row, a row names no endpoint, or a name has two rows.
func CheckCalls(t testing.TB, rows []Call) []Call {
	t.Helper()
	byName := map[string]*core.Endpoint{}
	for _, ep := range core.Endpoints {
		byName[ep.Name] = ep
	}
	ok := true
	seen := map[string]bool{}
	for i := range rows {
		name := rows[i].Name
		if seen[name] {
			t.Errorf("%s has two rows in testutil.Calls", name)
			ok = false
		}
		seen[name] = true
		ep, known := byName[name]
		if !known {
			t.Errorf("testutil.Calls has a row %s, which core.Endpoints does not", name)
			ok = false
		}
		rows[i].Endpoint = ep
	}
	for _, ep := range core.Endpoints {
		if !seen[ep.Name] {
			t.Errorf("core.Endpoints has %s: add its row to testutil.Calls", ep.Name)
			ok = false
		}
	}
	if !ok {
		t.FailNow()
	}
	return rows
}
