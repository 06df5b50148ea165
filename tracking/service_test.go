package tracking_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

const subsURL = testutil.TrackingURL + "/tracking/v1/subscriptions"

func fullParams() *tracking.SubscribeParams {
	return &tracking.SubscribeParams{
		TrackingNumber: "9400111899223344556677",
		ListenerURL:    "https://pharmacy.example.com/hooks/tracking/tok_5f2c9a",
		ReferenceID:    "ord_01HV7Q2M3N4P5R6S7T8V9W0XYZ",
	}
}

func TestSubscribeCreated(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder("POST", subsURL, rec.Wrap(testutil.FixtureResponder(t, 201, "tracking/subscription_enabled.json")))

	p := fullParams()
	before := *p
	sub, err := c.Tracking.Subscribe(context.Background(), p)
	require.NoError(t, err)
	assert.Equal(t, before, *p, "params must not change")

	req := rec.Last(t)
	testutil.TestMethod(t, req, "POST", subsURL)
	testutil.TestBody(t, req, rxdelivery.Tracking, true)
	assert.JSONEq(t, string(testutil.Fixture(t, "tracking/subscribe_request.json")), string(req.Body))

	assert.True(t, sub.Created)
	assert.Equal(t, "ord_01HV7Q2M3N4P5R6S7T8V9W0XYZ", sub.ReferenceID)
	assert.Equal(t, "9400111899223344556677", sub.TrackingNumber)
	assert.Equal(t, tracking.CarrierPostal, sub.Carrier)
	assert.Equal(t, tracking.StatusEnabled, sub.Status)
	assert.Equal(t, "", sub.StatusReason)
	assert.True(t, sub.SubscribedAt.Equal(time.Date(2024, 5, 14, 15, 2, 11, 0, time.UTC)))
	assert.Equal(t, "2024-05-14T15:02:11Z", sub.UpdatedAt.Raw)
	assert.True(t, sub.UpdatedAt.Valid())
	assert.Equal(t, 1, mock.GetTotalCallCount())
}

func TestSubscribeUpdatedAnyTwoXX(t *testing.T) {
	t.Parallel()
	for _, status := range []int{200, 202} {
		env := testutil.Setup(t)
		c, mock := env.Client, env.Mock
		var rec testutil.Recorder
		mock.RegisterResponder("POST", subsURL, rec.Wrap(testutil.FixtureResponder(t, status, "tracking/subscription_suspended.json")))

		sub, err := c.Tracking.Subscribe(context.Background(), &tracking.SubscribeParams{
			TrackingNumber: "1Z999AA10123456784",
			ListenerURL:    "https://pharmacy.example.com/hooks/tracking",
		})
		require.NoError(t, err, status)
		assert.JSONEq(t, string(testutil.Fixture(t, "tracking/subscribe_request_minimal.json")), string(rec.Last(t).Body))
		assert.NotContains(t, string(rec.Last(t).Body), "reference_id")
		assert.False(t, sub.Created, status)
		assert.Equal(t, tracking.CarrierParcelA, sub.Carrier)
		assert.Equal(t, tracking.StatusSuspended, sub.Status)
		assert.Equal(t, "Listener URL returned HTTP 404", sub.StatusReason)
		assert.Equal(t, "", sub.ReferenceID)
		assert.True(t, sub.SubscribedAt.Equal(time.Date(2024, 5, 10, 13, 30, 0, 123e6, time.UTC)))
		assert.True(t, sub.UpdatedAt.Equal(time.Date(2024, 5, 12, 22, 45, 7, 5e8, time.UTC)))
	}
}

func TestSubscribeNoContent(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder("POST", subsURL, httpmock.NewBytesResponder(204, nil))
	sub, err := c.Tracking.Subscribe(context.Background(), fullParams())
	require.NoError(t, err)
	assert.False(t, sub.Created)
	assert.Equal(t, "", sub.TrackingNumber)
}

func TestSubscribeValidation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		p     tracking.SubscribeParams
		paths []string
	}{
		{"empty", tracking.SubscribeParams{}, []string{"tracking_number", "listener_url"}},
		{"blank", tracking.SubscribeParams{TrackingNumber: "  ", ListenerURL: " "}, []string{"tracking_number", "listener_url"}},
		{"http", tracking.SubscribeParams{TrackingNumber: "1", ListenerURL: "http://pharmacy.example.com/hook"}, []string{"listener_url"}},
		{"relative", tracking.SubscribeParams{TrackingNumber: "1", ListenerURL: "/hooks/tracking"}, []string{"listener_url"}},
		{"no host", tracking.SubscribeParams{TrackingNumber: "1", ListenerURL: "https:///hooks"}, []string{"listener_url"}},
		{"opaque", tracking.SubscribeParams{TrackingNumber: "1", ListenerURL: "https:pharmacy.example.com"}, []string{"listener_url"}},
		{"port only", tracking.SubscribeParams{TrackingNumber: "1", ListenerURL: "https://:443/hooks"}, []string{"listener_url"}},
		{"unparsable", tracking.SubscribeParams{TrackingNumber: "1", ListenerURL: "https://pharmacy example.com/%zz"}, []string{"listener_url"}},
		{"ftp", tracking.SubscribeParams{TrackingNumber: "1", ListenerURL: "ftp://pharmacy.example.com/x"}, []string{"listener_url"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := testutil.Setup(t)
			c, mock := env.Client, env.Mock
			p := tc.p
			_, err := c.Tracking.Subscribe(context.Background(), &p)
			require.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
			var ve *rxdelivery.ValidationError
			require.ErrorAs(t, err, &ve)
			require.Len(t, ve.Problems, len(tc.paths), ve.Error())
			for _, path := range tc.paths {
				assert.True(t, ve.Has(path), "%s: %s", path, ve.Error())
			}
			if tc.p.ListenerURL != "" && strings.TrimSpace(tc.p.ListenerURL) != "" {
				assert.NotContains(t, err.Error(), tc.p.ListenerURL, "message must not quote the value")
			}
			assert.Equal(t, 0, mock.GetTotalCallCount())
			assert.Equal(t, err.Error(), p.Validate().Error())
		})
	}
	assert.NoError(t, fullParams().Validate())
	upper := fullParams()
	upper.ListenerURL = "HTTPS://pharmacy.example.com:8443/hooks?x=1"
	assert.NoError(t, upper.Validate())
}

func TestSubscribeNilParams(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	_, err := c.Tracking.Subscribe(context.Background(), nil)
	require.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
	assert.Equal(t, 0, mock.GetTotalCallCount())
}

func TestSubscribeWithoutValidation(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithoutValidation())
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder("POST", subsURL, rec.Wrap(testutil.FixtureResponder(t, 400, "tracking/error_invalid_request.json")))
	_, err := c.Tracking.Subscribe(context.Background(), &tracking.SubscribeParams{ListenerURL: "http://x"})
	var apiErr *rxdelivery.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, tracking.CodeInvalidRequest, apiErr.Code)
	assert.JSONEq(t, `{"tracking_number":"","listener_url":"http://x"}`, string(rec.Last(t).Body))
}

func TestGetSubscription(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponderWithQuery("GET", subsURL, "tracking_number=9400111899223344550000",
		rec.Wrap(testutil.FixtureResponder(t, 200, "tracking/subscription_disabled.json")))

	sub, err := c.Tracking.GetSubscription(context.Background(), "9400111899223344550000")
	require.NoError(t, err)
	req := rec.Last(t)
	testutil.TestMethod(t, req, "GET", subsURL+"?tracking_number=9400111899223344550000")
	testutil.TestBody(t, req, rxdelivery.Tracking, false)

	assert.False(t, sub.Created)
	assert.Equal(t, "", sub.ReferenceID)
	assert.Equal(t, "9400111899223344550000", sub.TrackingNumber)
	assert.Equal(t, tracking.CarrierPostal, sub.Carrier)
	assert.Equal(t, tracking.StatusDisabled, sub.Status)
	assert.Equal(t, "Tracking number delivered", sub.StatusReason)
	assert.True(t, sub.SubscribedAt.Equal(time.Date(2024, 4, 1, 12, 0, 0, 0, time.UTC)))
	assert.True(t, sub.UpdatedAt.Equal(time.Date(2024, 4, 4, 16, 20, 0, 0, time.UTC)))
}

func TestGetSubscriptionEscapesQuery(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder("GET", subsURL, rec.Wrap(testutil.FixtureResponder(t, 200, "tracking/subscription_enabled.json")))
	_, err := c.Tracking.GetSubscription(context.Background(), "AB 12+34/56&x=1")
	require.NoError(t, err)
	assert.Equal(t, subsURL+"?tracking_number=AB+12%2B34%2F56%26x%3D1", rec.Last(t).URL)
}

func TestGetSubscriptionUnknownValues(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder("GET", subsURL, testutil.FixtureResponder(t, 200, "tracking/subscription_unknown_values.json"))
	sub, err := c.Tracking.GetSubscription(context.Background(), "9400111899223344551111")
	require.NoError(t, err)
	assert.Equal(t, "ref-42", sub.ReferenceID)
	assert.Equal(t, tracking.Carrier("NEWCARRIER"), sub.Carrier)
	assert.Equal(t, tracking.SubscriptionStatus("PAUSED"), sub.Status)
	assert.Equal(t, "yesterday", sub.SubscribedAt.Raw)
	assert.False(t, sub.SubscribedAt.Valid())
	assert.False(t, sub.UpdatedAt.Valid(), "no offset: kept verbatim, not read as UTC")
	assert.Equal(t, "2024-05-14 15:02:11", sub.UpdatedAt.Raw)
}

func TestGetSubscriptionEmptyTrackingNumber(t *testing.T) {
	t.Parallel()
	for _, opts := range [][]rxdelivery.Option{nil, {rxdelivery.WithoutValidation()}} {
		env := testutil.Setup(t, opts...)
		c, mock := env.Client, env.Mock
		for _, tn := range []string{"", "  "} {
			_, err := c.Tracking.GetSubscription(context.Background(), tn)
			var ve *rxdelivery.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.True(t, ve.Has("tracking_number"))
		}
		assert.Equal(t, 0, mock.GetTotalCallCount())
	}
}

func TestGetSubscriptionNotFound(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder("GET", subsURL, testutil.FixtureResponder(t, 404, "tracking/error_not_found.json"))
	sub, err := c.Tracking.GetSubscription(context.Background(), "9400111899223344556677")
	assert.Nil(t, sub)
	require.ErrorIs(t, err, rxdelivery.ErrNotFound)
	var apiErr *rxdelivery.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, tracking.CodeNotFound, apiErr.Code)
	assert.Equal(t, "Subscription not found", apiErr.Message)
	assert.Equal(t, "/tracking/v1/subscriptions", apiErr.Path)
	assert.Equal(t, rxdelivery.Tracking, apiErr.Interface)
	assert.NotContains(t, err.Error(), "9400111899223344556677", "the query must not appear in the error")
	assert.Equal(t, 1, mock.GetTotalCallCount())
}

func TestErrorCodes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		status   int
		code     string
		sentinel error
		calls    int // 1 + retries for the statuses a safe call retries
	}{
		{400, tracking.CodeInvalidRequest, rxdelivery.ErrBadRequest, 1},
		{401, tracking.CodeUnauthorized, rxdelivery.ErrUnauthorized, 1},
		{403, tracking.CodeForbidden, rxdelivery.ErrForbidden, 1},
		{404, tracking.CodeNotFound, rxdelivery.ErrNotFound, 1},
		{405, tracking.CodeMethodNotAllowed, nil, 1},
		{406, tracking.CodeNotAcceptable, nil, 1},
		{429, tracking.CodeRateLimitExceeded, rxdelivery.ErrRateLimited, 4},
		{500, tracking.CodeInternalError, nil, 4},
		{502, tracking.CodeBadGateway, rxdelivery.ErrUnavailable, 4},
		{503, tracking.CodeServiceUnavailable, rxdelivery.ErrUnavailable, 4},
	}
	calls := map[string]func(*rxdelivery.Client) error{
		"subscribe": func(c *rxdelivery.Client) error {
			_, err := c.Tracking.Subscribe(context.Background(), fullParams())
			return err
		},
		"get": func(c *rxdelivery.Client) error {
			_, err := c.Tracking.GetSubscription(context.Background(), "9400111899223344556677")
			return err
		},
	}
	for _, tc := range cases {
		for name, call := range calls {
			t.Run(tc.code+"/"+name, func(t *testing.T) {
				env := testutil.Setup(t)
				c, mock := env.Client, env.Mock
				fixture := testutil.Fixture(t, "tracking/error_"+tc.code+".json")
				mock.RegisterResponder("POST", subsURL, testutil.BytesResponder(tc.status, fixture))
				mock.RegisterResponder("GET", subsURL, testutil.BytesResponder(tc.status, fixture))
				err := call(c)
				var apiErr *rxdelivery.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, tc.status, apiErr.StatusCode)
				assert.Equal(t, tc.code, apiErr.Code)
				assert.NotEmpty(t, apiErr.Message)
				assert.Contains(t, err.Error(), tc.code)
				assert.False(t, apiErr.UnknownOutcome, "subscribe is not a side-effecting write")
				assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
				if tc.sentinel != nil {
					assert.ErrorIs(t, err, tc.sentinel)
				}
				assert.Equal(t, tc.calls, mock.GetTotalCallCount())
			})
		}
	}
}

func TestUnauthorizedMessages(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{
		"Authorization header is required", "Authorization scheme must be Basic",
		"Invalid authorization credentials", "API key is invalid", "API secret is invalid",
		"API credentials are disabled",
	} {
		env := testutil.Setup(t)
		c, mock := env.Client, env.Mock
		body := `{"error":{"code":"unauthorized","message":"` + msg + `"}}`
		mock.RegisterResponder("GET", subsURL, testutil.BytesResponder(401, []byte(body)))
		_, err := c.Tracking.GetSubscription(context.Background(), "1")
		var apiErr *rxdelivery.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, msg, apiErr.Message)
		assert.ErrorIs(t, err, rxdelivery.ErrUnauthorized)
		assert.NotContains(t, err.Error(), testutil.Secret)
	}
}

func TestRateLimitedRetryAfter(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder("POST", subsURL, func(*http.Request) (*http.Response, error) {
		r := httpmock.NewBytesResponse(429, testutil.Fixture(t, "tracking/error_rate_limit_exceeded.json"))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Retry-After", "1")
		return r, nil
	})
	_, err := c.Tracking.Subscribe(context.Background(), fullParams())
	var apiErr *rxdelivery.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.ErrorIs(t, err, rxdelivery.ErrRateLimited)
	assert.Equal(t, time.Second, apiErr.RetryAfter)
	assert.Equal(t, tracking.CodeRateLimitExceeded, apiErr.Code)
	assert.Equal(t, 1, mock.GetTotalCallCount(), "a wait above the cap is not slept")
}

func TestRetryThenSuccess(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	n := 0
	mock.RegisterResponder("POST", subsURL, rec.Wrap(func(r *http.Request) (*http.Response, error) {
		n++
		if n == 1 {
			return testutil.FixtureResponder(t, 503, "tracking/error_service_unavailable.json")(r)
		}
		return testutil.FixtureResponder(t, 200, "tracking/subscription_enabled.json")(r)
	}))
	sub, err := c.Tracking.Subscribe(context.Background(), fullParams())
	require.NoError(t, err)
	assert.Equal(t, tracking.StatusEnabled, sub.Status)
	reqs := rec.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, reqs[0].Body, reqs[1].Body, "the body is replayed intact")
}

func TestNoBaseURL(t *testing.T) {
	t.Parallel()
	c, err := rxdelivery.NewClient("k", "s")
	require.NoError(t, err)
	_, err = c.Tracking.GetSubscription(context.Background(), "1")
	assert.True(t, errors.Is(err, rxdelivery.ErrNoBaseURL), err)
}
