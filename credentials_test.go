package rxdelivery_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// The platform enables credentials per interface: a deployment may hold one
// key for tracking and another for everything else. The keys below are
// chosen so that the standard and URL-safe base64 alphabets differ on them.
func TestPerInterfaceCredentials(t *testing.T) {
	t.Parallel()
	const (
		mainKey, mainSecret   = "main-key>>", "main-secret??"
		trackKey, trackSecret = "trk-key>>", "trk-secret??"
	)
	wantTracking := "Basic " + base64.StdEncoding.EncodeToString([]byte(trackKey+":"+trackSecret))
	wantPricing := "Basic " + base64.URLEncoding.EncodeToString([]byte(mainKey+":"+mainSecret))
	require.NotEqual(t, wantTracking, "Basic "+base64.URLEncoding.EncodeToString([]byte(trackKey+":"+trackSecret)),
		"the tracking key must tell the alphabets apart")
	require.NotEqual(t, wantPricing, "Basic "+base64.StdEncoding.EncodeToString([]byte(mainKey+":"+mainSecret)),
		"the main key must tell the alphabets apart")

	mock := httpmock.NewMockTransport()
	c, err := rxdelivery.NewClient(mainKey, mainSecret,
		rxdelivery.WithTrackingURL(testutil.TrackingURL),
		rxdelivery.WithPricingURL(testutil.PricingURL),
		rxdelivery.WithHTTPClient(&http.Client{Transport: mock}),
		rxdelivery.WithRetryWaitMin(time.Millisecond),
		rxdelivery.WithRetryWaitMax(5*time.Millisecond),
		rxdelivery.WithCredentials(rxdelivery.Tracking, trackKey, trackSecret),
	)
	require.NoError(t, err)

	var trackRec, priceRec testutil.Recorder
	mock.RegisterResponder("GET", testutil.TrackingURL+"/tracking/v1/subscriptions",
		trackRec.Wrap(testutil.FixtureResponder(t, 200, "tracking/subscription_enabled.json")))
	mock.RegisterResponder("POST", testutil.TrackingURL+"/tracking/v1/subscriptions",
		trackRec.Wrap(testutil.FixtureResponder(t, 201, "tracking/subscription_enabled.json")))
	mock.RegisterResponder("POST", testutil.PricingURL+"/pricing/v1/quotes",
		priceRec.Wrap(testutil.FixtureResponder(t, 200, "pricing/quotes.json")))

	ctx := context.Background()
	_, err = c.Tracking.GetSubscription(ctx, "9400111899223344556677")
	require.NoError(t, err)
	_, err = c.Tracking.Subscribe(ctx, &tracking.SubscribeParams{
		TrackingNumber: "9400111899223344556677",
		ListenerURL:    "https://pharmacy.example.com/hooks/tracking",
	})
	require.NoError(t, err)
	_, err = c.Pricing.Quote(ctx, &pricing.QuoteParams{
		Pickup:  pricing.Location{Address: pricing.Address{ZIPCode: "43210"}},
		Dropoff: pricing.Location{Address: pricing.Address{ZIPCode: "10001"}},
		PackageDimensions: pricing.PackageDimensions{
			LengthIn: rxdelivery.MustDecimal("10"), WidthIn: rxdelivery.MustDecimal("8"),
			HeightIn: rxdelivery.MustDecimal("4"), WeightOz: rxdelivery.MustDecimal("12.5"),
		},
	})
	require.NoError(t, err)

	require.Len(t, trackRec.Requests(), 2)
	for _, r := range trackRec.Requests() {
		assert.Equal(t, []string{wantTracking}, r.Header.Values("Authorization"), r.Method)
	}
	require.Len(t, priceRec.Requests(), 1)
	assert.Equal(t, []string{wantPricing}, priceRec.Last(t).Header.Values("Authorization"))
}

// A key not enabled for tracking is answered 403 with code forbidden.
func TestTrackingForbiddenCredentials(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithCredentials(rxdelivery.Tracking, "pricing-only", "secret"))
	c, mock := env.Client, env.Mock
	mock.RegisterResponder("GET", testutil.TrackingURL+"/tracking/v1/subscriptions",
		testutil.BytesResponder(403, []byte(`{"error":{"code":"forbidden","message":"Credentials are not enabled for Tracking access"}}`)))

	_, err := c.Tracking.GetSubscription(context.Background(), "9400111899223344556677")
	require.ErrorIs(t, err, rxdelivery.ErrForbidden)
	var apiErr *rxdelivery.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, tracking.CodeForbidden, apiErr.Code)
	assert.Equal(t, "Credentials are not enabled for Tracking access", apiErr.Message)
	assert.Equal(t, rxdelivery.Tracking, apiErr.Interface)
	assert.NotContains(t, err.Error(), "secret")
	assert.Equal(t, 1, mock.GetTotalCallCount(), "a 403 is not retried")
}
