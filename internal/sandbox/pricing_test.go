package sandbox

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestQuote(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	r := h.do("POST", "/pricing/pricing/v1/quotes", quoteBody())
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	// 4.50 + 13 started ounces * 0.35 + |100-941|/100 = 8 zones * 1.10
	assert.JSONEq(t, `{"quotes":[{"provider":"postal","service":"ground_service","price_usd":17.85}]}`, string(r.body))
	assert.Contains(t, string(r.body), `"price_usd":17.85`, "a JSON number with two decimals")

	// Deterministic, and filters that match keep the quote.
	again := h.do("POST", "/pricing/pricing/v1/quotes", with(quoteBody(), "providers", []string{"postal"}, "service_level", "ground_service"))
	assert.JSONEq(t, string(r.body), string(again.body))

	// Big boxes cost more; ZIP+4 forms normalize.
	big := with(quoteBody(), "package_dimensions", map[string]any{"length_in": 20, "width_in": 10, "height_in": 10, "weight_oz": 1},
		"pickup", map[string]any{"address": map[string]any{"zipcode": "100010001"}},
		"dropoff", map[string]any{"address": map[string]any{"zipcode": " 10001 "}, "name": "Pat", "phone_number": "2125550199"})
	r = h.do("POST", "/pricing/pricing/v1/quotes", big)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	assert.JSONEq(t, `{"quotes":[{"provider":"postal","service":"ground_service","price_usd":9.85}]}`, string(r.body))

	// The documented no-service range gives an empty list.
	r = h.do("POST", "/pricing/pricing/v1/quotes", with(quoteBody(), "dropoff", map[string]any{"address": map[string]any{"zipcode": "00501"}}))
	assert.Equal(t, http.StatusOK, r.status)
	assert.JSONEq(t, `{"quotes":[]}`, string(r.body))
	assert.Equal(t, 4, h.srv.Stats().QuotesServed)
}

func TestQuoteRules(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	dims := func(kv ...any) map[string]any {
		return with(quoteBody(), "package_dimensions", with(quoteBody()["package_dimensions"].(map[string]any), kv...))
	}
	for name, tc := range map[string]struct {
		body map[string]any
		msg  string
	}{
		"bad zip":           {with(quoteBody(), "pickup", map[string]any{"address": map[string]any{"zipcode": "1234"}}), "pickup.address.zipcode: must normalize to a valid 5-digit ZIP code"},
		"missing zip":       {with(quoteBody(), "dropoff", nil), "dropoff.address.zipcode: is required"},
		"zero weight":       {dims("weight_oz", 0), "package_dimensions.weight_oz: must be greater than 0"},
		"missing length":    {dims("length_in", nil), "package_dimensions.length_in: is required"},
		"negative height":   {dims("height_in", -1), "package_dimensions.height_in: must not be negative"},
		"weight as string":  {dims("weight_oz", "12"), "package_dimensions.weight_oz: must be a JSON number"},
		"no dimensions":     {with(quoteBody(), "package_dimensions", nil), "package_dimensions: length_in, width_in, height_in and weight_oz are required"},
		"provider":          {with(quoteBody(), "providers", []string{"all", "parcela"}), "providers: unsupported provider"},
		"service level":     {with(quoteBody(), "service_level", "overnight"), "service_level: must be one of all, ground_service"},
		"package code":      {with(quoteBody(), "package_code", "postal_small_flat_rate_box"), "package_code: is not supported in this version"},
		"signature":         {with(quoteBody(), "signature_requirement", "adult"), "signature_requirement: is not supported in this version"},
		"unknown field":     {with(quoteBody(), "zone", 3), `unknown field "zone"`},
		"providers not arr": {with(quoteBody(), "providers", "postal"), "providers: must be an array"},
	} {
		t.Run(name, func(t *testing.T) {
			r := h.do("POST", "/pricing/pricing/v1/quotes", tc.body)
			require.Equal(t, http.StatusBadRequest, r.status, "%s", r.body)
			e := r.obj(t)["error"].(map[string]any)
			assert.Len(t, e, 1, "pricing errors carry no code")
			assert.Contains(t, e["message"], tc.msg)
		})
	}
	// A null package_code is not "supplied".
	r := h.do("POST", "/pricing/pricing/v1/quotes", `{"pickup":{"address":{"zipcode":"10001"}},"dropoff":{"address":{"zipcode":"10002"}},
		"package_dimensions":{"length_in":1,"width_in":1,"height_in":1,"weight_oz":1},"package_code":null}`)
	assert.Equal(t, http.StatusOK, r.status, "%s", r.body)
}

func TestQuote502ByFault(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	h.srv.InjectFault(Fault{Kind: FaultStatus, Status: http.StatusBadGateway, Interface: Pricing})
	r := h.do("POST", "/pricing/pricing/v1/quotes", quoteBody())
	assert.Equal(t, http.StatusBadGateway, r.status)
	assert.JSONEq(t, `{"error":{"message":"Pricing could not be retrieved from the provider"}}`, string(r.body))
	assert.Equal(t, http.StatusOK, h.do("POST", "/pricing/pricing/v1/quotes", quoteBody()).status)
}
