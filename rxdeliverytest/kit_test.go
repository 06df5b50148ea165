package rxdeliverytest_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestStartStopsWithTheTest(t *testing.T) {
	t.Parallel()
	var srv *rxdeliverytest.Server
	t.Run("inner", func(t *testing.T) {
		srv = rxdeliverytest.Start(t)
		_, err := srv.Client().Pharmacies.Get(context.Background(), "5550001")
		require.NoError(t, err)
	})
	// The inner test's cleanup closed the server: its port refuses.
	res, err := http.Get(srv.URL() + "/omni/api/v1/pharmacies/5550001")
	if err == nil {
		res.Body.Close()
	}
	require.Error(t, err)
}

func TestClientIsSandboxWithUserOptions(t *testing.T) {
	t.Parallel()
	var seen atomic.Value
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen.Store(r.Header.Get("User-Agent"))
		return http.DefaultTransport.RoundTrip(r)
	})}
	srv := rxdeliverytest.Start(t, rxdeliverytest.WithCredentials("k1", "s1"),
		rxdeliverytest.WithClientOptions(rxdelivery.WithUserAgent("my-service/1.0"), rxdelivery.WithHTTPClient(hc)))
	assert.True(t, srv.Client().Sandbox())
	_, err := srv.Client().Pharmacies.Get(context.Background(), "5550001")
	require.NoError(t, err)
	assert.Contains(t, seen.Load(), "my-service/1.0")
	key, secret := srv.Credentials()
	assert.Equal(t, [2]string{"k1", "s1"}, [2]string{key, secret})

	other, err := srv.NewClient(rxdelivery.WithCredentials(rxdelivery.Omni, "k1", "wrong"))
	require.NoError(t, err)
	_, err = other.Pharmacies.Get(context.Background(), "5550001")
	assert.ErrorIs(t, err, rxdelivery.ErrUnauthorized)
}

func TestEnvLines(t *testing.T) {
	srv := rxdeliverytest.Start(t)
	lines := srv.EnvLines(true)
	for _, l := range lines {
		name, value, _ := strings.Cut(l, "=")
		t.Setenv(name, value)
	}
	c, err := rxdelivery.NewClientFromEnv()
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	_, err = c.Pharmacies.Get(context.Background(), "5550001")
	require.NoError(t, err)
	assert.NotContains(t, strings.Join(srv.EnvLines(false), "\n"), rxdeliverytest.DefaultSecret)
}

func TestAdvanceMovesOmniScenarioDeterministically(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	ctx := context.Background()
	p := omniParams(requests.ScenarioUnsuccessfulDelivery, 10)
	req, err := srv.Client().Requests.Create(ctx, p)
	require.NoError(t, err)
	var seen []rxtypes.OrderStatus
	for range 5 {
		srv.Advance(10 * time.Second)
		got, err := srv.Client().Requests.Get(ctx, req.ID)
		require.NoError(t, err)
		require.NotNil(t, got.Order)
		seen = append(seen, got.Order.Status)
	}
	assert.Equal(t, []rxtypes.OrderStatus{
		rxtypes.OrderStatusNew, rxtypes.OrderStatusSubmittedToCourier, rxtypes.OrderStatusPickedUp,
		rxtypes.OrderStatusDeliveryAttempted, rxtypes.OrderStatusReturnedToPharmacy,
	}, seen)
	assert.Equal(t, rxdeliverytest.DefaultStart.Add(50*time.Second), srv.Now())
}

func TestRealClockAdvanceJumpsAhead(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t, rxdeliverytest.WithRealClock(), rxdeliverytest.WithOrderCadence(time.Hour))
	ctx := context.Background()
	order, err := srv.Client().Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	require.NoError(t, err)
	before := srv.Now()
	assert.WithinDuration(t, time.Now(), before, time.Minute, "real time")
	srv.Advance(3 * time.Hour)
	st, _ := srv.OrderStatus(order.ID)
	assert.Equal(t, rxtypes.OrderStatusDelivered, st, "three cadences passed at once")
}

func TestStateControl(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	ctx := context.Background()
	c := srv.Client()

	order, err := c.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	require.NoError(t, err)
	for _, st := range []rxtypes.OrderStatus{rxtypes.OrderStatusSubmittedToCourier, rxtypes.OrderStatusDeliveryAttempted, rxtypes.OrderStatusReturnedToPharmacy, rxtypes.OrderStatusCancelled, rxtypes.OrderStatusNew} {
		require.NoError(t, srv.SetOrderStatus(order.ID, st))
		got, err := c.Orders.Get(ctx, order.ID)
		require.NoError(t, err)
		assert.Equal(t, st, got.Status)
	}
	srv.Advance(time.Hour)
	st, _ := srv.OrderStatus(order.ID)
	assert.Equal(t, rxtypes.OrderStatusNew, st, "a status set by hand stays")
	assert.Error(t, srv.SetOrderStatus(order.ID, "lost"))
	assert.Error(t, srv.SetOrderStatus("ord_nope", rxtypes.OrderStatusNew))

	req, err := c.Requests.Create(ctx, omniParams("", 0))
	require.NoError(t, err)
	require.NoError(t, srv.SetRequestOrderStatus(req.ID, rxtypes.OrderStatusPickedUp))
	got, err := c.Requests.Get(ctx, req.ID)
	require.NoError(t, err)
	assert.Equal(t, rxtypes.OrderStatusPickedUp, got.Order.Status)
	require.NoError(t, srv.SetRequestIncomplete(req.ID))
	got, err = c.Requests.Get(ctx, req.ID)
	require.NoError(t, err)
	assert.Equal(t, requests.StatusRequestIncomplete, got.Status.Name)
	assert.Equal(t, rxtypes.OrderStatusCancelled, got.Order.Status)
	assert.Equal(t, []rxdeliverytest.RequestState{{ID: req.ID, ExternalReferenceNumber: "rx-kit-1", OrderStatus: rxtypes.OrderStatusCancelled}}, srv.Requests())

	srv.SetPharmacies()
	_, err = c.Pharmacies.Get(ctx, "5550001")
	assert.ErrorIs(t, err, rxdelivery.ErrNotFound)
	srv.SetPharmacies(rxdeliverytest.BuiltinPharmacies()...)
	_, err = c.Pharmacies.Get(ctx, "5550001")
	assert.NoError(t, err)
}

func TestShippingOrderNotifiesInProcessListener(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	ctx := context.Background()
	c := srv.Client()
	p := shippingOrderParams()
	order, err := c.Orders.Create(ctx, p)
	require.NoError(t, err)
	tn, ok := srv.TrackingNumber(order.ID)
	require.True(t, ok)

	var got []string
	var tlsSeen bool
	h := tracking.NewHandler(func(_ context.Context, n *tracking.Notification) error {
		got = append(got, string(n.Status))
		return nil
	})
	url := srv.Listener(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tlsSeen = r.TLS != nil
		h.ServeHTTP(w, r)
	}))
	assert.True(t, strings.HasPrefix(url, "https://"))
	_, err = c.Tracking.Subscribe(ctx, &tracking.SubscribeParams{TrackingNumber: tn, ListenerURL: url})
	require.NoError(t, err)

	srv.Advance(4 * rxdeliverytest.DefaultOrderCadence)
	assert.Equal(t, []string{"Accepted", "Moving Through Network", "Out for Delivery", "Delivered"}, got, "delivered before Advance returned")
	assert.True(t, tlsSeen)
	st, _ := srv.OrderStatus(order.ID)
	assert.Equal(t, rxtypes.OrderStatusDelivered, st)
	sub, _ := srv.SubscriptionStatus(tn)
	assert.Equal(t, tracking.StatusEnabled, sub)
	require.Len(t, srv.Notifications(), 4)
	assert.Equal(t, http.StatusNoContent, srv.Notifications()[3].StatusCode)
}

func TestFaults(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	quote := func(t *testing.T, srv *rxdeliverytest.Server) error {
		_, err := srv.Client().Pharmacies.Get(ctx, "5550001")
		return err
	}
	cases := []struct {
		name  string
		fault rxdeliverytest.Fault
		n     int
		check func(t *testing.T, err error)
	}{
		{"429 seconds", rxdeliverytest.RateLimited(3 * time.Second), 1, func(t *testing.T, err error) {
			var apiErr *rxdelivery.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
			assert.Equal(t, 3*time.Second, apiErr.RetryAfter)
		}},
		{"429 date", rxdeliverytest.RateLimitedUntil(time.Hour), 1, func(t *testing.T, err error) {
			var apiErr *rxdelivery.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.InDelta(t, time.Hour.Seconds(), apiErr.RetryAfter.Seconds(), 5)
		}},
		{"503 beyond retries", rxdeliverytest.Unavailable(0), -1, func(t *testing.T, err error) {
			assert.ErrorIs(t, err, rxdelivery.ErrUnavailable)
		}},
		{"500 beyond retries", rxdeliverytest.ServerError(), -1, func(t *testing.T, err error) {
			var apiErr *rxdelivery.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, 500, apiErr.StatusCode)
		}},
		{"502", rxdeliverytest.StatusError(502), -1, func(t *testing.T, err error) {
			var apiErr *rxdelivery.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, 502, apiErr.StatusCode)
		}},
		{"malformed", rxdeliverytest.Malformed(), -1, func(t *testing.T, err error) {
			assert.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
		}},
		{"cut", rxdeliverytest.Cut(), -1, func(t *testing.T, err error) { assert.Error(t, err) }},
		{"drop", rxdeliverytest.Drop(), -1, func(t *testing.T, err error) { assert.Error(t, err) }},
		{"one 503 is retried", rxdeliverytest.Unavailable(0), 1, func(t *testing.T, err error) { assert.NoError(t, err) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := rxdeliverytest.Start(t)
			srv.FailNext(rxdeliverytest.PricingQuote, -1, rxdeliverytest.ServerError()) // another operation: untouched
			srv.FailNext(rxdeliverytest.PharmaciesGet, tc.n, tc.fault)
			tc.check(t, quote(t, srv))
			calls := srv.CallsTo(rxdeliverytest.PharmaciesGet)
			require.NotEmpty(t, calls)
			assert.Equal(t, tc.fault.String(), calls[0].Fault)
			srv.ClearFaults()
			// A Retry-After pauses the client's calls to the interface
			// until it ends, on the server's clock.
			srv.Advance(2 * time.Hour)
			assert.NoError(t, quote(t, srv), "cleared")
		})
	}
}

func TestStallEndsWithTheClientOrTheServer(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	srv.FailNext(rxdeliverytest.OrdersGet, -1, rxdeliverytest.Stall())
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := srv.Client().Orders.Get(ctx, "ord_1")
	assert.ErrorIs(t, err, context.DeadlineExceeded)

	done := make(chan error, 1)
	wrote := make(chan struct{}, 1)
	traced := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
		WroteRequest: func(httptrace.WroteRequestInfo) {
			select {
			case wrote <- struct{}{}:
			default:
			}
		},
	})
	go func() {
		_, err := srv.Client().Orders.Get(traced, "ord_1")
		done <- err
	}()
	<-wrote // the call is on the server's side
	srv.Close()
	select {
	case err := <-done:
		assert.Error(t, err)
	case <-time.After(20 * time.Second):
		t.Fatal("Close did not end a stalled call")
	}
}

func TestCommittedThenFailedCreatesOnce(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	ctx := context.Background()
	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.CommittedThenFailed())
	_, err := srv.Client().Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	require.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.Len(t, srv.Orders(), 1, "the create was carried out")
	assert.Len(t, srv.CallsTo(rxdeliverytest.OrdersCreate), 1, "and not sent again")

	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.Committed(rxdeliverytest.Cut()))
	_, err = srv.Client().Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	require.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.Len(t, srv.Orders(), 2)
	assert.Equal(t, "committed, then cut", srv.CallsTo(rxdeliverytest.OrdersCreate)[1].Fault)
}

func TestCallRecordHasNoCredential(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t, rxdeliverytest.WithCredentials("key-AAAA", "secret-BBBB"))
	ctx := context.Background()
	_, err := srv.Client().Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	require.NoError(t, err)
	_, err = srv.Client().Pharmacies.Search(ctx, &pharmaciesSearch)
	require.NoError(t, err)
	calls := srv.Calls()
	require.Len(t, calls, 2)
	dump := fmt.Sprintf("%#v", calls)
	basic := base64.StdEncoding.EncodeToString([]byte("key-AAAA:secret-BBBB"))
	for _, secret := range []string{"key-AAAA", "secret-BBBB", basic, "Basic"} {
		assert.NotContains(t, dump, secret)
	}
	assert.Equal(t, rxdeliverytest.PharmaciesSearch, calls[1].Operation)
	assert.Equal(t, "/api/v1/pharmacies/", calls[1].Path)
	assert.Equal(t, "ChIJ_kit", calls[1].Query.Get("place_id"))
	assert.Nil(t, calls[1].Body)
	srv.ResetCalls()
	assert.Empty(t, srv.Calls())
}

func TestEmptyQuotes(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	srv.SetEmptyQuotes(true)
	_, err := srv.Client().Pricing.Quote(context.Background(), quoteParams())
	require.NoError(t, err)
	c := srv.CallsTo(rxdeliverytest.PricingQuote)[0]
	assert.Equal(t, 200, c.Status)
	srv.SetEmptyQuotes(false)
	q, err := srv.Client().Pricing.Quote(context.Background(), quoteParams())
	require.NoError(t, err)
	assert.Len(t, q, 1)
}

// TestOperationsAreTheEndpoints holds the kit's operations to the
// descriptors, both generated from api/: one distinct name per endpoint.
func TestOperationsAreTheEndpoints(t *testing.T) {
	t.Parallel()
	var want []rxdeliverytest.Operation
	for _, e := range core.Endpoints {
		want = append(want, rxdeliverytest.Operation(e.Name))
	}
	ops := rxdeliverytest.Operations()
	assert.Equal(t, want, ops)
	seen := map[rxdeliverytest.Operation]bool{}
	for _, o := range ops {
		assert.NotEmpty(t, o)
		assert.False(t, seen[o], "%s twice", o)
		seen[o] = true
	}
}

// ---- helpers ----

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func omniParams(scenario requests.Scenario, every int) *requests.CreateParams {
	p := &requests.CreateParams{
		Identifier:              "program-kit",
		ExternalReferenceNumber: "rx-kit-1",
		NameOfPickup:            "Amoxicillin 500 mg",
		Pharmacy:                requests.PharmacyParams{NCPDP: "5550001"},
		Dropoff: requests.DropoffParams{
			Name: "Jane Doe", PhoneNumber: "6145550100",
			Address: requests.NewDropoffPlace("ChIJ_kit"),
		},
		Patient: requests.PatientParams{
			FirstName: "Jane", LastName: "Doe",
			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29},
		},
	}
	if scenario != "" {
		p.TestMeta = &requests.TestMeta{Scenario: scenario, DurationBetween: every}
	}
	return p
}

var pharmaciesSearch = pharmacies.SearchParams{PlaceID: "ChIJ_kit"}

func quoteParams() *pricing.QuoteParams {
	return &pricing.QuoteParams{
		Pickup:  pricing.Location{Address: pricing.Address{ZIPCode: "43210"}},
		Dropoff: pricing.Location{Address: pricing.Address{ZIPCode: "10001"}},
		PackageDimensions: pricing.PackageDimensions{
			LengthIn: rxdelivery.MustDecimal("10"), WidthIn: rxdelivery.MustDecimal("8"),
			HeightIn: rxdelivery.MustDecimal("4"), WeightOz: rxdelivery.MustDecimal("12"),
		},
	}
}

// shippingOrderParams is a valid shipping order: the same-day params with
// a postal carrier's service, package and weight in place of the fees.
func shippingOrderParams() *orders.CreateParams {
	p := rxdeliverytest.SamedayOrderParams()
	p.DeliveryFee, p.RxAmountDue = nil, nil
	p.ServiceLevel = orders.ServiceLevelShipping
	p.Patient.MobilePhoneNumber = "6145550100"
	p.Shipping = &orders.ShippingParams{
		Carrier: orders.CarrierPostal, CarrierService: orders.CarrierServicePostalPriorityMail, Signature: orders.SignatureNone,
		Weight: orders.Weight{Unit: orders.WeightUnitOunce, Value: rxdelivery.MustDecimal("8")}, PackageCode: orders.PackagePostalSmallFlatRateBox,
	}
	return p
}
