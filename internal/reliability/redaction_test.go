package reliability_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"strings"
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

// Distinctive credentials and patient values: none may appear in a log
// line or an error string. The patient values are testutil's, which the
// rows of testutil.Calls send.
const (
	e2eKey       = "KEY-e2e-4b1d93c7"
	e2eSecret    = "SECRET-e2e-a07f52de"
	e2eFirst     = testutil.PatientFirst
	e2eLast      = testutil.PatientLast
	e2eStreet    = testutil.PatientStreet
	e2eStreet2   = testutil.PatientStreet2
	e2eCity      = testutil.PatientCity
	e2ePhone     = testutil.PatientPhone
	e2eBirth     = testutil.PatientBirth
	e2eEmail     = testutil.PatientEmail
	e2eReference = testutil.Reference
	// e2eRxNumber is not in e2eSecrets: RemovePrescription names it in
	// its path, and errors and debug lines show paths by design.
	e2eRxNumber   = testutil.RxNumber
	e2eListener   = testutil.Listener
	e2eTracking   = testutil.TrackingNumber
	e2eReferralID = testutil.ReferralID
)

func e2eSecrets() []string {
	return []string{
		e2eKey, e2eSecret, e2eFirst, e2eLast, e2eStreet, e2eStreet2, e2eCity, e2ePhone, e2eBirth,
		e2eEmail, e2eReference, e2eListener, e2eTracking, "9400000000000000000000", "LISTENER-TOKEN", e2eReferralID,
		base64.StdEncoding.EncodeToString([]byte(e2eKey + ":" + e2eSecret)),
		base64.URLEncoding.EncodeToString([]byte(e2eKey + ":" + e2eSecret)),
		"Quillfeather", // a query-escaped street keeps this part
	}
}

// lockedBuffer is a log sink safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRedactionEndToEnd runs the whole flow against the sandbox simulator
// with a debug logger: a request with a scenario followed to delivery, an
// order, a pharmacy search from the patient's address, a tracking
// subscription, a pricing quote, refused cancellations, invalid params and
// injected faults. No credential or patient value may appear in any log
// line or error string.
func TestRedactionEndToEnd(t *testing.T) {
	t.Parallel()
	clock := sandbox.NewManualClock(time.Time{})
	srv := sandbox.NewServer(sandbox.Config{Key: e2eKey, Secret: e2eSecret, Clock: clock})
	t.Cleanup(srv.Close)
	ph := sandbox.BuiltinPharmacies()[0]

	var logs lockedBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := rxdelivery.NewClient(e2eKey, e2eSecret,
		rxdelivery.WithOmniURL(srv.OmniURL()),
		rxdelivery.WithDeliveryURL(srv.DeliveryURL()),
		rxdelivery.WithTrackingURL(srv.TrackingURL()),
		rxdelivery.WithPricingURL(srv.PricingURL()),
		rxdelivery.WithSandbox(true),
		rxdelivery.WithLogger(logger),
		rxdelivery.WithRetryWaitMin(time.Millisecond),
		rxdelivery.WithRetryWaitMax(5*time.Millisecond),
	)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	ctx := context.Background()

	var errs []error
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}

	// A request with a scenario, followed to delivery.
	req, err := c.Requests.Create(ctx, e2eRequest(t, ph.NCPDP))
	require.NoError(t, err)
	status := ""
	for i := 0; i < 20 && status != "delivered"; i++ {
		clock.Advance(time.Second)
		got, err := c.Requests.Get(ctx, req.ID)
		require.NoError(t, err)
		if got.Order != nil {
			status = string(got.Order.Status)
		}
	}
	require.Equal(t, "delivered", status, "the scenario ran to delivery")
	many, err := c.Requests.GetMany(ctx, []string{req.ID})
	require.NoError(t, err)
	require.Len(t, many, 1)
	err = c.Requests.Cancel(ctx, req.ID)
	require.ErrorIs(t, err, rxdelivery.ErrUnableToCancel)
	keep(err)

	// A same-day order, picked up, then a refused cancellation.
	order, err := c.Orders.Create(ctx, e2eOrder(t, ph.NPI, ph.NCPDP))
	require.NoError(t, err)
	clock.Advance(2 * sandbox.DefaultCadence)
	got, err := c.Orders.Get(ctx, order.ID)
	require.NoError(t, err)
	require.Equal(t, rxtypes.OrderStatusPickedUp, got.Status)
	err = c.Orders.Cancel(ctx, order.ID)
	require.ErrorIs(t, err, rxdelivery.ErrUnableToCancel)
	keep(err)
	err = c.Orders.RemovePrescription(ctx, order.ID, e2eRxNumber)
	require.Error(t, err)
	keep(err)

	// Pharmacy lookups from the patient's address (a query string).
	search := &pharmacies.SearchParams{OriginAddress: e2eStreet + ", " + e2eCity + ", OH 43210", PageSize: 2}
	page, err := c.Pharmacies.Search(ctx, search)
	require.NoError(t, err)
	require.NotEmpty(t, page.Pharmacies)
	n := 0
	for _, err := range c.Pharmacies.All(ctx, search) {
		require.NoError(t, err)
		if n++; n == 5 {
			break
		}
	}
	info, err := c.Pharmacies.DeliveryInfo(ctx, ph.NCPDP, &pharmacies.DeliveryInfoParams{
		Address: rxtypes.Address{Street: e2eStreet, Street2: e2eStreet2, City: e2eCity, State: "OH", Zipcode: "43210"},
	})
	require.NoError(t, err)
	require.NotEmpty(t, info.Raw)

	// Tracking and pricing.
	_, err = c.Tracking.Subscribe(ctx, &tracking.SubscribeParams{TrackingNumber: e2eTracking, ListenerURL: e2eListener, ReferenceID: e2eReferralID})
	require.NoError(t, err)
	_, err = c.Tracking.GetSubscription(ctx, e2eTracking)
	require.NoError(t, err)
	_, err = c.Tracking.GetSubscription(ctx, "9400000000000000000000")
	require.ErrorIs(t, err, rxdelivery.ErrNotFound)
	keep(err)
	quotes, err := c.Pricing.Quote(ctx, e2eQuote())
	require.NoError(t, err)
	require.NotEmpty(t, quotes)

	// Faults on the calls that carry patient data.
	for _, f := range []sandbox.Fault{
		{Kind: sandbox.FaultStatus, Status: http.StatusInternalServerError, After: true, Method: http.MethodPost},
		{Kind: sandbox.FaultCut, After: true, Method: http.MethodPost},
		{Kind: sandbox.FaultDrop, Method: http.MethodPost},
		{Kind: sandbox.FaultMalformed, After: true, Method: http.MethodPost},
		{Kind: sandbox.FaultRateLimit, Times: -1, RetryAfter: time.Second},
		{Kind: sandbox.FaultUnavailable, Times: -1},
	} {
		srv.ClearFaults()
		srv.InjectFault(f)
		_, err = c.Requests.Create(ctx, e2eRequest(t, ph.NCPDP))
		require.Error(t, err, "%s", f.Kind)
		keep(err)
		srv.ClearFaults()
		srv.InjectFault(f)
		_, err = c.Orders.Create(ctx, e2eOrder(t, ph.NPI, ph.NCPDP))
		require.Error(t, err, "%s", f.Kind)
		keep(err)
		if f.Method == "" {
			_, err = c.Pharmacies.Search(ctx, search)
			require.Error(t, err, "%s", f.Kind)
			keep(err)
		}
	}
	srv.ClearFaults()
	// The 429s' Retry-After pauses the interfaces: the slow call below is
	// to end by its own deadline, not be refused by the pause.
	for _, iface := range []rxdelivery.Interface{rxdelivery.Omni, rxdelivery.Delivery} {
		for !c.LimiterState(iface).PausedUntil.IsZero() {
			time.Sleep(10 * time.Millisecond)
		}
	}
	srv.InjectFault(sandbox.Fault{Kind: sandbox.FaultSlow, Delay: time.Minute, Times: -1})
	sctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	_, err = c.Pharmacies.Search(sctx, search)
	cancel()
	require.ErrorIs(t, err, context.DeadlineExceeded)
	keep(err)
	srv.ClearFaults()

	// Invalid params carrying patient values: the problems name paths.
	bad := e2eRequest(t, ph.NCPDP)
	bad.Patient.FirstName = strings.Repeat(e2eFirst, 4)
	bad.Dropoff.PhoneNumber = e2ePhone + "0"
	bad.Remittance.Contact.Email = e2eEmail + "@"
	_, err = c.Requests.Create(ctx, bad)
	require.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
	keep(err)
	badOrder := e2eOrder(t, ph.NPI, ph.NCPDP)
	badOrder.Recipient.Address.Zipcode = e2eStreet
	badOrder.Patient.MobilePhoneNumber = e2eCity
	_, err = c.Orders.Create(ctx, badOrder)
	require.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
	keep(err)

	// Sanity: the debug logger saw every attempt, with paths.
	out := logs.String()
	require.Contains(t, out, "/api/v1/pharmacies/")
	require.Contains(t, out, "/api/v1/requests")
	require.Contains(t, out, "/pricing/v1/quotes")
	require.GreaterOrEqual(t, len(errs), 20)

	for _, e := range errs {
		for _, v := range e2eSecrets() {
			assert.NotContains(t, e.Error(), v, "error %q", e)
		}
		var ve *rxdelivery.ValidationError
		if !errors.As(e, &ve) {
			assert.NotContains(t, e.Error(), "origin_address=")
		}
	}
	for _, line := range strings.Split(out, "\n") {
		for _, v := range e2eSecrets() {
			assert.NotContains(t, line, v)
		}
		assert.NotContains(t, line, "Basic ")
		assert.NotContains(t, line, "origin_address")
		assert.NotContains(t, line, "?")
	}
}

func e2eRequest(t *testing.T, ncpdp string) *requests.CreateParams {
	return testutil.PatientRequest(t, ncpdp)
}

func e2eOrder(t *testing.T, npi, ncpdp string) *orders.CreateParams {
	return testutil.PatientOrder(t, npi, ncpdp)
}

func e2eQuote() *pricing.QuoteParams { return testutil.Quote() }
