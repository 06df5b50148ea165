package rxdelivery_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/sandbox"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// httptest: the simulator delivers tracking notifications to a real TLS listener.

// End-to-end tests: the real client against the sandbox simulator, whose
// wire types are its own reading of the documents. Every endpoint, every
// sandbox scenario and every fault switch is exercised here.

func omniParams(scenario requests.Scenario) *requests.CreateParams {
	p := &requests.CreateParams{
		Identifier:              "program-e2e",
		ExternalReferenceNumber: "e2e-" + string(scenario),
		NDC:                     "00002143380",
		Pharmacy:                requests.PharmacyParams{NCPDP: "5550001"},
		Dropoff: requests.DropoffParams{Name: "Jane Doe", PhoneNumber: "6145550100",
			Address: requests.NewDropoffAddress(requests.Address{Street1: "42 Elm Avenue", City: "Columbus", State: "OH", Zipcode: "43210"})},
		Patient: requests.PatientParams{FirstName: "Jane", LastName: "Doe", Gender: rxtypes.GenderFemale,
			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29}},
		Remittance: &requests.RemittanceParams{
			Contact:  &requests.Contact{MobilePhoneNumber: "6145550100", Email: "jane@example.com"},
			Payments: []requests.Payment{{Fee: rxdelivery.MustDecimal("4.99"), Kind: requests.PaymentDeliveryFee}},
		},
	}
	if scenario != "" {
		p.TestMeta = &requests.TestMeta{Scenario: scenario, DurationBetween: 10}
	}
	return p
}

func TestE2ERequests(t *testing.T) {
	t.Parallel()
	sb := testutil.StartSandbox()
	defer sb.Close()
	c, ctx := sb.Client, context.Background()

	created, err := c.Requests.Create(ctx, omniParams(""))
	require.NoError(t, err)
	assert.Equal(t, "e2e-", created.ExternalReferenceNumber)
	assert.Nil(t, created.Order)
	assert.True(t, created.CreatedAt.Valid())

	place := omniParams("")
	place.Dropoff.Address = requests.NewDropoffPlace("ChIJd8BlQ2BZwokRAFUEcm_qrcA")
	place.NDC, place.NameOfPickup = "", "Amoxicillin 500 mg"
	second, err := c.Requests.Create(ctx, place)
	require.NoError(t, err)

	got, err := c.Requests.Get(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, created.ID, got.ID)

	many, err := c.Requests.GetMany(ctx, []string{created.ID, second.ID})
	require.NoError(t, err)
	require.Len(t, many, 2)
	assert.ElementsMatch(t, []string{created.ID, second.ID}, []string{many[0].ID, many[1].ID})

	require.NoError(t, c.Requests.Cancel(ctx, created.ID), "a request without an order can be cancelled")
	_, err = c.Requests.Get(ctx, "req_missing")
	assert.ErrorIs(t, err, rxdelivery.ErrNotFound)
	assert.Equal(t, 2, sb.Server.Stats().RequestsCreated)
}

func TestE2EScenarios(t *testing.T) {
	t.Parallel()
	cases := []struct {
		scenario requests.Scenario
		steps    []rxtypes.OrderStatus
		check    func(t *testing.T, r *requests.Request)
	}{
		{requests.ScenarioSuccessfulDelivery,
			[]rxtypes.OrderStatus{rxtypes.OrderStatusNew, rxtypes.OrderStatusSubmittedToCourier, rxtypes.OrderStatusPickedUp, rxtypes.OrderStatusDelivered},
			func(t *testing.T, r *requests.Request) {
				require.NotNil(t, r.Order.Pickup)
				require.NotNil(t, r.Order.Delivery)
				assert.True(t, r.Order.Delivery.Succeeded())
				assert.NotEmpty(t, r.Order.Delivery.SignedBy)
				assert.NotEmpty(t, r.Order.CourierCompany)
				assert.False(t, r.DeliveryETA.IsZero())
				require.NotNil(t, r.Status)
				assert.Equal(t, requests.StatusRequestReceived, r.Status.Name)
			}},
		{requests.ScenarioUnsuccessfulDelivery,
			[]rxtypes.OrderStatus{rxtypes.OrderStatusNew, rxtypes.OrderStatusSubmittedToCourier, rxtypes.OrderStatusPickedUp,
				rxtypes.OrderStatusDeliveryAttempted, rxtypes.OrderStatusReturnedToPharmacy},
			func(t *testing.T, r *requests.Request) {
				require.NotNil(t, r.Order.Delivery)
				assert.False(t, r.Order.Delivery.Succeeded())
				require.NotNil(t, r.Order.Return)
				assert.True(t, r.Order.Return.OccurredAt.Valid())
				assert.True(t, r.DeliveryETA.HasTime(), "this scenario's ETA is an ISO 8601 timestamp")
			}},
		{requests.ScenarioIncompleteRequest,
			[]rxtypes.OrderStatus{rxtypes.OrderStatusNew, rxtypes.OrderStatusCancelled},
			func(t *testing.T, r *requests.Request) {
				require.NotNil(t, r.Status)
				assert.Equal(t, requests.StatusRequestIncomplete, r.Status.Name)
				assert.Equal(t, requests.DetailPharmacyOutOfStock, r.Status.Detail)
				assert.NotEmpty(t, r.Order.CancellationReason)
			}},
	}
	for _, tc := range cases {
		t.Run(string(tc.scenario), func(t *testing.T) {
			sb := testutil.StartSandbox()
			defer sb.Close()
			c, ctx := sb.Client, context.Background()
			created, err := c.Requests.Create(ctx, omniParams(tc.scenario))
			require.NoError(t, err)
			var seen []rxtypes.OrderStatus
			var last *requests.Request
			for i := 0; i < len(tc.steps); i++ {
				sb.Clock.Advance(10 * time.Second)
				r, err := c.Requests.Get(ctx, created.ID)
				require.NoError(t, err)
				require.NotNil(t, r.Order, "step %d", i+1)
				seen = append(seen, r.Order.Status)
				last = r
			}
			assert.Equal(t, tc.steps, seen)
			tc.check(t, last)
		})
	}
}

func TestE2ECancelRefusedAfterPickup(t *testing.T) {
	t.Parallel()
	sb := testutil.StartSandbox()
	defer sb.Close()
	c, ctx := sb.Client, context.Background()
	created, err := c.Requests.Create(ctx, omniParams(requests.ScenarioSuccessfulDelivery))
	require.NoError(t, err)
	sb.Clock.Advance(30 * time.Second)
	err = c.Requests.Cancel(ctx, created.ID)
	var apiErr *rxdelivery.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.ErrorIs(t, err, rxdelivery.ErrUnableToCancel)
	assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.Equal(t, created.ID, apiErr.ID)
}

func TestE2EOrders(t *testing.T) {
	t.Parallel()
	sb := testutil.StartSandbox()
	defer sb.Close()
	c, ctx := sb.Client, context.Background()

	order, err := c.Orders.Create(ctx, testutil.SamedayOrder())
	require.NoError(t, err)
	assert.Equal(t, rxtypes.OrderStatusNew, order.Status)
	require.NotNil(t, order.ETA)

	sb.Clock.Advance(30 * time.Second)
	got, err := c.Orders.Get(ctx, order.ID)
	require.NoError(t, err)
	assert.Equal(t, rxtypes.OrderStatusSubmittedToCourier, got.Status, "the simulator writes it with spaces")

	rx := testutil.SamedayOrder().Prescriptions[0]
	rx.Number = "RX/2"
	added, err := c.Orders.AddPrescription(ctx, order.ID, &rx)
	require.NoError(t, err)
	assert.Equal(t, order.ID, added.ID)
	require.NoError(t, c.Orders.RemovePrescription(ctx, order.ID, "RX/2"), "a number with a slash is escaped")
	assert.ErrorIs(t, c.Orders.RemovePrescription(ctx, order.ID, "RX/2"), rxdelivery.ErrNotFound)

	other, err := c.Orders.Create(ctx, testutil.SamedayOrder())
	require.NoError(t, err)
	list, err := c.Orders.GetMany(ctx, []string{order.ID, other.ID})
	require.NoError(t, err)
	require.Len(t, list, 2)

	require.NoError(t, c.Orders.Cancel(ctx, other.ID))
	cancelled, err := c.Orders.Get(ctx, other.ID)
	require.NoError(t, err)
	assert.Equal(t, rxtypes.OrderStatusCancelled, cancelled.Status)
	require.NotNil(t, cancelled.Cancellation)
	assert.NotEmpty(t, cancelled.Cancellation.Reason, "read from the sample's key, reason")

	sb.Clock.Advance(2 * 30 * time.Second)
	delivered, err := c.Orders.Get(ctx, order.ID)
	require.NoError(t, err)
	assert.Equal(t, rxtypes.OrderStatusDelivered, delivered.Status)
	require.NotNil(t, delivered.Delivery)
	assert.True(t, delivered.Delivery.Succeeded())
	err = c.Orders.Cancel(ctx, order.ID)
	assert.ErrorIs(t, err, rxdelivery.ErrUnableToCancel)
	assert.ErrorIs(t, err, rxdelivery.ErrBadRequest)
}

func TestE2EShippingAndTrackingNotifications(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []*tracking.Notification
	listener := httptest.NewTLSServer(tracking.NewHandler(func(_ context.Context, n *tracking.Notification) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, n)
		return nil
	}))
	defer listener.Close()
	sb := testutil.StartSandboxWith(sandbox.Config{NotifyClient: listener.Client()})
	defer sb.Close()
	c, ctx := sb.Client, context.Background()

	p := testutil.SamedayOrder()
	p.ServiceLevel, p.DeliveryFee, p.RxAmountDue = orders.ServiceLevelShipping, nil, nil
	p.Patient.HomePhoneNumber = "6145550101"
	p.ServiceDate = rxdelivery.Ptr(rxdelivery.DateOf(testutil.SandboxStart))
	p.Shipping = &orders.ShippingParams{
		Carrier: orders.CarrierParcelA, CarrierService: orders.CarrierServiceParcelANextDayAir,
		Signature: orders.SignatureAdultRequired, SaturdayDelivery: rxdelivery.Ptr(true),
		Weight:     orders.Weight{Unit: orders.WeightUnitPound, Value: rxdelivery.MustDecimal("1.5")},
		Dimensions: &orders.Dimensions{Unit: orders.DimensionUnitInch, Length: rxdelivery.MustDecimal("10"), Width: rxdelivery.MustDecimal("8"), Height: rxdelivery.MustDecimal("4")},
	}
	created, err := c.Orders.Create(ctx, p)
	require.NoError(t, err)
	order, err := c.Orders.Get(ctx, created.ID)
	require.NoError(t, err)
	require.NotNil(t, order.Shipping)
	assert.Nil(t, order.Pickup)
	assert.Equal(t, orders.CarrierParcelA, order.Shipping.Carrier)
	assert.True(t, order.Shipping.SaturdayDelivery)
	assert.Equal(t, 1, order.Shipping.Cost.Sign())
	tn := order.Shipping.TrackingNumber
	require.NotEmpty(t, tn)

	sub, err := c.Tracking.Subscribe(ctx, &tracking.SubscribeParams{TrackingNumber: tn, ListenerURL: listener.URL + "/hooks", ReferenceID: "ref-1"})
	require.NoError(t, err)
	assert.True(t, sub.Created)
	assert.Equal(t, tracking.StatusEnabled, sub.Status)
	again, err := c.Tracking.Subscribe(ctx, &tracking.SubscribeParams{TrackingNumber: tn, ListenerURL: listener.URL + "/hooks"})
	require.NoError(t, err)
	assert.False(t, again.Created, "the second subscribe updates")
	read, err := c.Tracking.GetSubscription(ctx, tn)
	require.NoError(t, err)
	assert.Equal(t, tn, read.TrackingNumber)

	sb.Clock.Advance(4 * 30 * time.Second)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, got, 4)
	assert.Equal(t, tracking.TrackingAccepted, got[0].Status)
	assert.Equal(t, tn, got[3].TrackingNumber)
	assert.Equal(t, tracking.TrackingStatus("Delivered"), got[3].Status)
	assert.NotEmpty(t, got[3].TrackingEvents)

	delivered, err := c.Orders.Get(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, rxtypes.OrderStatusDelivered, delivered.Status)
	require.NotNil(t, delivered.Shipping.Delivery)
}

func TestE2EPharmaciesAndPricing(t *testing.T) {
	t.Parallel()
	sb := testutil.StartSandbox()
	defer sb.Close()
	c, ctx := sb.Client, context.Background()

	page, err := c.Pharmacies.Search(ctx, &pharmacies.SearchParams{OriginAddress: "42 Elm Avenue, Columbus, OH 43210", PageSize: 100})
	require.NoError(t, err)
	assert.Equal(t, 12, page.Count)
	require.Len(t, page.Pharmacies, 12)
	assert.True(t, page.Pharmacies[0].Preferred)
	var walked []string
	for ph, err := range c.Pharmacies.All(ctx, &pharmacies.SearchParams{PlaceID: "ChIJd8BlQ2BZwokRAFUEcm_qrcA", PageSize: 5}) {
		require.NoError(t, err)
		walked = append(walked, ph.NCPDP)
	}
	assert.Len(t, walked, 12)
	ph, err := c.Pharmacies.Get(ctx, page.Pharmacies[0].NPI)
	require.NoError(t, err)
	assert.Equal(t, page.Pharmacies[0].NCPDP, ph.NCPDP)
	assert.Nil(t, ph.DistanceFromOrigin)
	info, err := c.Pharmacies.DeliveryInfo(ctx, ph.NCPDP, &pharmacies.DeliveryInfoParams{
		Address: rxtypes.Address{Street: "42 Elm Avenue", City: "Columbus", State: "OH", Zipcode: "43210"},
		POD:     "required", SaturdayDelivery: true,
	})
	require.NoError(t, err)
	assert.Equal(t, ph.NCPDP, info.NCPDP)
	assert.Contains(t, string(info.Raw), `"saturday_delivery":true`)

	dims := pricing.PackageDimensions{LengthIn: rxdelivery.MustDecimal("10"), WidthIn: rxdelivery.MustDecimal("8"),
		HeightIn: rxdelivery.MustDecimal("4"), WeightOz: rxdelivery.MustDecimal("12.5")}
	quotes, err := c.Pricing.Quote(ctx, &pricing.QuoteParams{
		Pickup: pricing.Location{Address: pricing.Address{ZIPCode: "43210-1234"}}, Dropoff: pricing.Location{Address: pricing.Address{ZIPCode: "100011234"}},
		Providers: []pricing.Provider{pricing.ProviderPostal}, ServiceLevel: pricing.ServiceKeyGround, PackageDimensions: dims,
	})
	require.NoError(t, err)
	require.Len(t, quotes, 1)
	assert.Equal(t, pricing.ProviderPostal, quotes[0].Provider)
	none, err := c.Pricing.Quote(ctx, &pricing.QuoteParams{
		Pickup: pricing.Location{Address: pricing.Address{ZIPCode: "43210"}}, Dropoff: pricing.Location{Address: pricing.Address{ZIPCode: "00501"}},
		PackageDimensions: dims,
	})
	require.NoError(t, err)
	assert.NotNil(t, none)
	assert.Empty(t, none)
}

// TestE2EFaultSwitches drives every fault switch of the simulator through
// the real client and checks the SDK's answer to each.
func TestE2EFaultSwitches(t *testing.T) {
	t.Parallel()
	quote := func(t *testing.T, sb *testutil.Sandbox, ctx context.Context) error {
		_, err := sb.Client.Pricing.Quote(ctx, &pricing.QuoteParams{
			Pickup: pricing.Location{Address: pricing.Address{ZIPCode: "43210"}}, Dropoff: pricing.Location{Address: pricing.Address{ZIPCode: "10001"}},
			PackageDimensions: pricing.PackageDimensions{LengthIn: rxdelivery.MustDecimal("1"), WidthIn: rxdelivery.MustDecimal("1"),
				HeightIn: rxdelivery.MustDecimal("1"), WeightOz: rxdelivery.MustDecimal("1")},
		})
		return err
	}
	create := func(t *testing.T, sb *testutil.Sandbox, ctx context.Context) error {
		_, err := sb.Client.Orders.Create(ctx, testutil.SamedayOrder())
		return err
	}
	cases := []struct {
		name    string
		fault   sandbox.Fault
		call    func(*testing.T, *testutil.Sandbox, context.Context) error
		timeout time.Duration
		check   func(t *testing.T, err error, sb *testutil.Sandbox)
	}{
		{"429 then success", sandbox.Fault{Kind: sandbox.FaultRateLimit, RetryAfter: 0}, quote, 0,
			func(t *testing.T, err error, sb *testutil.Sandbox) {
				assert.NoError(t, err)
				assert.Equal(t, 2, sb.Server.Stats().CallsTo("POST", "/pricing/pricing/v1/quotes"))
			}},
		{"429 above the cap", sandbox.Fault{Kind: sandbox.FaultRateLimit, RetryAfter: time.Minute}, quote, 0,
			func(t *testing.T, err error, sb *testutil.Sandbox) {
				var apiErr *rxdelivery.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.ErrorIs(t, err, rxdelivery.ErrRateLimited)
				assert.Equal(t, time.Minute, apiErr.RetryAfter)
				assert.Equal(t, "POST", apiErr.Method)
				assert.Equal(t, "/pricing/v1/quotes", apiErr.Path)
			}},
		{"429 as an HTTP date above the cap", sandbox.Fault{Kind: sandbox.FaultRateLimit, RetryAfter: time.Minute, RetryAfterDate: true}, quote, 0,
			func(t *testing.T, err error, sb *testutil.Sandbox) {
				var apiErr *rxdelivery.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.InDelta(t, time.Minute.Seconds(), apiErr.RetryAfter.Seconds(), 2)
			}},
		{"503 on a create is retried", sandbox.Fault{Kind: sandbox.FaultUnavailable}, create, 0,
			func(t *testing.T, err error, sb *testutil.Sandbox) {
				assert.NoError(t, err)
				assert.Equal(t, 1, sb.Server.Stats().OrdersCreated)
				assert.Equal(t, 0, sb.Server.Stats().DuplicateCreates)
			}},
		{"500 after the create is an unknown outcome, sent once", sandbox.Fault{Kind: sandbox.FaultStatus, Status: 500, After: true}, create, 0,
			func(t *testing.T, err error, sb *testutil.Sandbox) {
				assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
				assert.Equal(t, 1, sb.Server.Stats().OrdersCreated)
				assert.Equal(t, 1, sb.Server.Stats().CallsTo("POST", "/delivery/api/v1/orders"))
			}},
		{"slow past the deadline", sandbox.Fault{Kind: sandbox.FaultSlow, Delay: 5 * time.Second}, quote, 200 * time.Millisecond,
			func(t *testing.T, err error, sb *testutil.Sandbox) {
				var te *rxdelivery.TransportError
				require.ErrorAs(t, err, &te)
				assert.ErrorIs(t, err, context.DeadlineExceeded)
			}},
		{"cut mid-body on a quote is sent again", sandbox.Fault{Kind: sandbox.FaultCut, After: true}, quote, 0,
			func(t *testing.T, err error, sb *testutil.Sandbox) {
				assert.NoError(t, err)
				assert.Equal(t, 2, sb.Server.Stats().CallsTo("POST", "/pricing/pricing/v1/quotes"))
			}},
		{"cut mid-body on a create", sandbox.Fault{Kind: sandbox.FaultCut, After: true}, create, 0,
			func(t *testing.T, err error, sb *testutil.Sandbox) {
				assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
				assert.Equal(t, 1, sb.Server.Stats().OrdersCreated)
				assert.Equal(t, 0, sb.Server.Stats().DuplicateCreates)
			}},
		{"dropped connection on a create", sandbox.Fault{Kind: sandbox.FaultDrop, After: true}, create, 0,
			func(t *testing.T, err error, sb *testutil.Sandbox) {
				assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
				assert.Equal(t, 0, sb.Server.Stats().DuplicateCreates)
			}},
		{"malformed JSON", sandbox.Fault{Kind: sandbox.FaultMalformed}, quote, 0,
			func(t *testing.T, err error, sb *testutil.Sandbox) {
				var de *rxdelivery.DecodeError
				require.ErrorAs(t, err, &de)
				assert.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
				assert.Contains(t, err.Error(), "POST /pricing/v1/quotes: 200 OK")
			}},
		{"502 from the pricing provider", sandbox.Fault{Kind: sandbox.FaultStatus, Status: 502, Times: -1,
			Message: "pricing could not be retrieved from the provider"}, quote, 0,
			func(t *testing.T, err error, sb *testutil.Sandbox) {
				var apiErr *rxdelivery.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.ErrorIs(t, err, rxdelivery.ErrUnavailable)
				assert.Equal(t, "pricing could not be retrieved from the provider", apiErr.Message)
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sb := testutil.StartSandbox(rxdelivery.WithRetryWaitMax(time.Second))
			defer sb.Close()
			sb.Server.InjectFault(tc.fault)
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			err := tc.call(t, sb, ctx)
			tc.check(t, err, sb)
			assert.GreaterOrEqual(t, sb.Server.Stats().FaultsApplied, 1)
		})
	}
}

// TestE2EAuthFailures checks the simulator's 401 and 403 through the
// client's sentinels.
func TestE2EAuthFailures(t *testing.T) {
	t.Parallel()
	sb := testutil.StartSandboxWith(sandbox.Config{Credentials: []sandbox.Credentials{
		{Key: "trk", Secret: "trk-secret", Interfaces: []sandbox.Interface{sandbox.Tracking}},
	}})
	defer sb.Close()
	wrong, err := rxdelivery.NewClient("key", "wrong", rxdelivery.WithOmniURL(sb.Server.OmniURL()))
	require.NoError(t, err)
	_, err = wrong.Requests.Get(context.Background(), "req_1")
	assert.ErrorIs(t, err, rxdelivery.ErrUnauthorized)

	trackingOnly, err := rxdelivery.NewClient("trk", "trk-secret", rxdelivery.WithPricingURL(sb.Server.PricingURL()),
		rxdelivery.WithTrackingURL(sb.Server.TrackingURL()))
	require.NoError(t, err)
	_, err = trackingOnly.Tracking.GetSubscription(context.Background(), "9400100000000000000001")
	assert.ErrorIs(t, err, rxdelivery.ErrNotFound, "the key is enabled for tracking")
	_, err = trackingOnly.Pricing.Quote(context.Background(), &pricing.QuoteParams{
		Pickup: pricing.Location{Address: pricing.Address{ZIPCode: "43210"}}, Dropoff: pricing.Location{Address: pricing.Address{ZIPCode: "10001"}},
		PackageDimensions: pricing.PackageDimensions{LengthIn: rxdelivery.MustDecimal("1"), WidthIn: rxdelivery.MustDecimal("1"),
			HeightIn: rxdelivery.MustDecimal("1"), WeightOz: rxdelivery.MustDecimal("1")},
	})
	assert.ErrorIs(t, err, rxdelivery.ErrForbidden, "the key is not enabled for pricing")
	assert.False(t, errors.Is(err, rxdelivery.ErrUnknownOutcome))
}
