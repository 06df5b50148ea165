package pricing_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/pricing"
)

const quotesURL = testutil.PricingURL + "/pricing/v1/quotes"

func dims(l, w, h, oz string) pricing.PackageDimensions {
	return pricing.PackageDimensions{
		LengthIn: rxdelivery.MustDecimal(l),
		WidthIn:  rxdelivery.MustDecimal(w),
		HeightIn: rxdelivery.MustDecimal(h),
		WeightOz: rxdelivery.MustDecimal(oz),
	}
}

func fullParams() *pricing.QuoteParams {
	return &pricing.QuoteParams{
		Pickup:            pricing.Location{Address: pricing.Address{ZIPCode: "43210-1234"}},
		Dropoff:           pricing.Location{Address: pricing.Address{ZIPCode: "100012345"}},
		Providers:         []pricing.Provider{pricing.ProviderPostal},
		ServiceLevel:      pricing.ServiceKeyGround,
		PackageDimensions: dims("10", "8", "4", "12.5"),
	}
}

func TestQuote(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder("POST", quotesURL, rec.Wrap(testutil.FixtureResponder(t, 200, "pricing/quotes.json")))

	p := fullParams()
	quotes, err := c.Pricing.Quote(context.Background(), p)
	require.NoError(t, err)

	// The caller's params keep their ZIP+4 codes.
	assert.Equal(t, "43210-1234", p.Pickup.Address.ZIPCode)
	assert.Equal(t, "100012345", p.Dropoff.Address.ZIPCode)

	req := rec.Last(t)
	testutil.TestMethod(t, req, "POST", quotesURL)
	testutil.TestBody(t, req, rxdelivery.Pricing, true)
	assert.JSONEq(t, string(testutil.Fixture(t, "pricing/quote_request.json")), string(req.Body))
	assert.Contains(t, string(req.Body), `"weight_oz":12.5`, "measures go as JSON numbers")

	require.Len(t, quotes, 1)
	assert.Equal(t, pricing.ProviderPostal, quotes[0].Provider)
	assert.Equal(t, pricing.ServiceKeyGround, quotes[0].Service)
	assert.Equal(t, "8.45", quotes[0].PriceUSD.String())
	assert.Equal(t, 0, quotes[0].PriceUSD.Cmp(rxdelivery.DecimalFromCents(845)))
	assert.Equal(t, 1, mock.GetTotalCallCount())
}

func TestQuoteMinimal(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder("POST", quotesURL, rec.Wrap(testutil.FixtureResponder(t, 200, "pricing/quotes_multiple.json")))

	quotes, err := c.Pricing.Quote(context.Background(), &pricing.QuoteParams{
		Pickup:            pricing.Location{Address: pricing.Address{ZIPCode: " 43210 "}},
		Dropoff:           pricing.Location{Address: pricing.Address{ZIPCode: "10001"}},
		PackageDimensions: dims("6", "4", "2.5", "3.2"),
	})
	require.NoError(t, err)
	body := string(rec.Last(t).Body)
	assert.JSONEq(t, string(testutil.Fixture(t, "pricing/quote_request_minimal.json")), body)
	assert.NotContains(t, body, "providers")
	assert.NotContains(t, body, "service_level")

	require.Len(t, quotes, 2)
	assert.Equal(t, "12.10", quotes[0].PriceUSD.String())
	assert.Equal(t, pricing.Provider("newprovider"), quotes[1].Provider)
	assert.Equal(t, pricing.ServiceKey("overnight"), quotes[1].Service)
	assert.Equal(t, "31.999", quotes[1].PriceUSD.String())
}

func TestQuoteEmpty(t *testing.T) {
	t.Parallel()
	for _, body := range []string{"", `{"quotes":null}`, `{}`} {
		env := testutil.Setup(t)
		c, mock := env.Client, env.Mock
		if body == "" {
			mock.RegisterResponder("POST", quotesURL, testutil.FixtureResponder(t, 200, "pricing/quotes_empty.json"))
		} else {
			mock.RegisterResponder("POST", quotesURL, testutil.BytesResponder(200, []byte(body)))
		}
		quotes, err := c.Pricing.Quote(context.Background(), fullParams())
		require.NoError(t, err, "an empty list is not an error")
		require.NotNil(t, quotes)
		assert.Empty(t, quotes)
	}
}

func TestQuoteValidation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		edit  func(p *pricing.QuoteParams)
		paths []string
	}{
		{"zero value", func(p *pricing.QuoteParams) { *p = pricing.QuoteParams{} }, []string{
			"pickup.address.zipcode", "dropoff.address.zipcode",
			"package_dimensions.length_in", "package_dimensions.width_in",
			"package_dimensions.height_in", "package_dimensions.weight_oz",
		}},
		{"bad zips", func(p *pricing.QuoteParams) {
			p.Pickup.Address.ZIPCode = "4321"
			p.Dropoff.Address.ZIPCode = "10001-23"
		}, []string{"pickup.address.zipcode", "dropoff.address.zipcode"}},
		{"letters", func(p *pricing.QuoteParams) { p.Dropoff.Address.ZIPCode = "ABCDE" }, []string{"dropoff.address.zipcode"}},
		{"zero weight", func(p *pricing.QuoteParams) { p.PackageDimensions.WeightOz = rxdelivery.MustDecimal("0.00") },
			[]string{"package_dimensions.weight_oz"}},
		{"negative measures", func(p *pricing.QuoteParams) {
			p.PackageDimensions.LengthIn = rxdelivery.MustDecimal("-1")
			p.PackageDimensions.HeightIn = rxdelivery.MustDecimal("0")
		}, []string{"package_dimensions.length_in", "package_dimensions.height_in"}},
		{"missing width", func(p *pricing.QuoteParams) { p.PackageDimensions.WidthIn = rxdelivery.Decimal{} },
			[]string{"package_dimensions.width_in"}},
		{"providers", func(p *pricing.QuoteParams) {
			p.Providers = []pricing.Provider{pricing.ProviderAll, "parcela", ""}
		}, []string{"providers[1]", "providers[2]"}},
		{"service level", func(p *pricing.QuoteParams) { p.ServiceLevel = "overnight" }, []string{"service_level"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := testutil.Setup(t)
			c, mock := env.Client, env.Mock
			p := fullParams()
			tc.edit(p)
			_, err := c.Pricing.Quote(context.Background(), p)
			require.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
			var ve *rxdelivery.ValidationError
			require.ErrorAs(t, err, &ve)
			require.Len(t, ve.Problems, len(tc.paths), ve.Error())
			for i, path := range tc.paths {
				assert.Equal(t, path, ve.Problems[i].Path)
			}
			assert.Equal(t, 0, mock.GetTotalCallCount())
			assert.Equal(t, err.Error(), p.Validate().Error())
		})
	}
	t.Run("messages do not quote values", func(t *testing.T) {
		p := fullParams()
		p.Pickup.Address.ZIPCode = "98765-43"
		err := p.Validate()
		require.Error(t, err)
		assert.NotContains(t, err.Error(), "98765")
	})
	assert.NoError(t, fullParams().Validate())
	p := fullParams()
	p.Providers = []pricing.Provider{pricing.ProviderAll, pricing.ProviderPostal}
	p.ServiceLevel = pricing.ServiceKeyAll
	assert.NoError(t, p.Validate())
}

func TestQuoteNilParams(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	_, err := c.Pricing.Quote(context.Background(), nil)
	require.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
	assert.Equal(t, 0, mock.GetTotalCallCount())
}

func TestQuoteWithoutValidation(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithoutValidation())
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder("POST", quotesURL, rec.Wrap(testutil.FixtureResponder(t, 400, "pricing/error_bad_request.json")))
	p := fullParams()
	p.Dropoff.Address.ZIPCode = "1234"
	p.PackageDimensions.WeightOz = rxdelivery.MustDecimal("0")
	_, err := c.Pricing.Quote(context.Background(), p)
	var apiErr *rxdelivery.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.ErrorIs(t, err, rxdelivery.ErrBadRequest)
	assert.Equal(t, "Weight must be greater than zero", apiErr.Message)
	assert.Equal(t, "", apiErr.Code)
	body := string(rec.Last(t).Body)
	assert.Contains(t, body, `"pickup":{"address":{"zipcode":"43210"}}`, "a valid ZIP+4 is still cut")
	assert.Contains(t, body, `"dropoff":{"address":{"zipcode":"1234"}}`, "an invalid ZIP goes as given")
	assert.Contains(t, body, `"weight_oz":0`)
}

func TestQuoteErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		status   int
		fixture  string
		message  string
		sentinel error
		calls    int
	}{
		{400, "bad_request", "Weight must be greater than zero", rxdelivery.ErrBadRequest, 1},
		{401, "unauthorized", "API key is missing or invalid", rxdelivery.ErrUnauthorized, 1},
		{403, "forbidden", "API key is not enabled for Pricing", rxdelivery.ErrForbidden, 1},
		{404, "not_found", "Not found", rxdelivery.ErrNotFound, 1},
		{405, "method_not_allowed", "Method not allowed", nil, 1},
		{406, "not_acceptable", "Accept header must be application/json", nil, 1},
		{429, "rate_limited", "Too many requests, retry shortly", rxdelivery.ErrRateLimited, 4},
		{500, "internal_error", "Internal server error", nil, 4},
		{502, "bad_gateway", "Pricing could not be retrieved from the provider", rxdelivery.ErrUnavailable, 4},
		{503, "service_unavailable", "Service temporarily unavailable", rxdelivery.ErrUnavailable, 4},
	}
	for _, tc := range cases {
		t.Run(tc.fixture, func(t *testing.T) {
			env := testutil.Setup(t)
			c, mock := env.Client, env.Mock
			mock.RegisterResponder("POST", quotesURL, testutil.FixtureResponder(t, tc.status, "pricing/error_"+tc.fixture+".json"))
			quotes, err := c.Pricing.Quote(context.Background(), fullParams())
			assert.Nil(t, quotes)
			var apiErr *rxdelivery.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tc.status, apiErr.StatusCode)
			assert.Equal(t, tc.message, apiErr.Message)
			assert.Equal(t, "", apiErr.Code, "pricing errors carry no code")
			assert.Equal(t, rxdelivery.Pricing, apiErr.Interface)
			assert.Equal(t, "/pricing/v1/quotes", apiErr.Path)
			assert.False(t, apiErr.UnknownOutcome, "a quote has no side effect")
			if tc.sentinel != nil {
				assert.ErrorIs(t, err, tc.sentinel)
			}
			assert.Equal(t, tc.calls, mock.GetTotalCallCount())
		})
	}
}

func TestQuoteBadGateway(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithRetryMax(0))
	c, mock := env.Client, env.Mock
	mock.RegisterResponder("POST", quotesURL, testutil.FixtureResponder(t, 502, "pricing/error_bad_gateway.json"))
	_, err := c.Pricing.Quote(context.Background(), fullParams())
	var apiErr *rxdelivery.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "Pricing could not be retrieved from the provider", apiErr.Message)
	assert.ErrorIs(t, err, rxdelivery.ErrUnavailable)
	assert.Equal(t, http.StatusBadGateway, apiErr.StatusCode)
}

func TestQuoteRateLimitedRetryAfter(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder("POST", quotesURL, func(*http.Request) (*http.Response, error) {
		r := httpmock.NewBytesResponse(429, testutil.Fixture(t, "pricing/error_rate_limited.json"))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Retry-After", "1")
		return r, nil
	})
	_, err := c.Pricing.Quote(context.Background(), fullParams())
	var apiErr *rxdelivery.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.ErrorIs(t, err, rxdelivery.ErrRateLimited)
	assert.Equal(t, time.Second, apiErr.RetryAfter)
	assert.Equal(t, "Too many requests, retry shortly", apiErr.Message)
	assert.Equal(t, 1, mock.GetTotalCallCount(), "a wait above the cap is not slept")
}

func TestQuoteRetriedBodyIntact(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	n := 0
	mock.RegisterResponder("POST", quotesURL, rec.Wrap(func(r *http.Request) (*http.Response, error) {
		n++
		if n < 3 {
			return testutil.FixtureResponder(t, 502, "pricing/error_bad_gateway.json")(r)
		}
		return testutil.FixtureResponder(t, 200, "pricing/quotes.json")(r)
	}))
	quotes, err := c.Pricing.Quote(context.Background(), fullParams())
	require.NoError(t, err)
	assert.Len(t, quotes, 1)
	reqs := rec.Requests()
	require.Len(t, reqs, 3)
	for _, r := range reqs {
		assert.JSONEq(t, string(testutil.Fixture(t, "pricing/quote_request.json")), string(r.Body))
	}
}

func TestQuoteMalformed(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder("POST", quotesURL, testutil.BytesResponder(200, []byte(`{"quotes":[{"price_usd":"eight"}]}`)))
	_, err := c.Pricing.Quote(context.Background(), fullParams())
	assert.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
}
