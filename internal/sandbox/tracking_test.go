package sandbox

import (
	"encoding/base64"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSubscribeCreateUpdateAndGet(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	body := map[string]any{"tracking_number": "9400111899223333444455", "listener_url": "https://example.test/hook", "reference_id": "ref-1"}
	r := h.do("POST", "/tracking/tracking/v1/subscriptions", body)
	require.Equal(t, http.StatusCreated, r.status, "%s", r.body)
	sub := r.obj(t)
	assert.Equal(t, "ref-1", sub["reference_id"])
	assert.Equal(t, "POSTAL", sub["carrier"])
	assert.Equal(t, "ENABLED", sub["subscription_status"])
	assert.True(t, has(sub, "subscription_status_reason"))
	assert.Nil(t, sub["subscription_status_reason"])
	assert.Equal(t, "2025-01-06T14:00:00.000Z", sub["subscribed_at"])
	assert.Equal(t, sub["subscribed_at"], sub["updated_at"])

	h.clock.Advance(time.Minute)
	r = h.do("POST", "/tracking/tracking/v1/subscriptions", with(body, "reference_id", nil))
	require.Equal(t, http.StatusOK, r.status, "an update answers 200")
	sub = r.obj(t)
	assert.False(t, has(sub, "reference_id"), "absent input gives no value")
	assert.Equal(t, "2025-01-06T14:01:00.000Z", sub["updated_at"])
	assert.Equal(t, "2025-01-06T14:00:00.000Z", sub["subscribed_at"])

	r = h.do("GET", "/tracking/tracking/v1/subscriptions?tracking_number=9400111899223333444455", nil)
	require.Equal(t, http.StatusOK, r.status)
	assert.Equal(t, "9400111899223333444455", r.obj(t)["tracking_number"])

	r = h.do("POST", "/tracking/tracking/v1/subscriptions", map[string]any{"tracking_number": "1z999aa10123456784", "listener_url": "https://example.test/h"})
	assert.Equal(t, "PARCELA", r.obj(t)["carrier"])

	r = h.do("GET", "/tracking/tracking/v1/subscriptions?tracking_number=missing", nil)
	assert.Equal(t, http.StatusNotFound, r.status)
	assert.JSONEq(t, `{"error":{"code":"not_found","message":"Subscription not found"}}`, string(r.body))
	r = h.do("GET", "/tracking/tracking/v1/subscriptions", nil)
	assert.Equal(t, http.StatusBadRequest, r.status)
	assert.Equal(t, "invalid_request", at(r.obj(t), "error.code"))

	st := h.srv.Stats()
	assert.Equal(t, 2, st.SubscriptionsCreated)
	assert.Equal(t, 1, st.SubscriptionsUpdated)
}

func TestSubscribeErrors(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	for name, tc := range map[string]struct {
		body   string
		hdr    []string
		status int
		code   string
		msg    string
	}{
		"missing number":   {`{"listener_url":"https://x.test"}`, nil, 400, "invalid_request", "tracking_number is required"},
		"number not str":   {`{"tracking_number":123,"listener_url":"https://x.test"}`, nil, 400, "invalid_request", "tracking_number must be a string"},
		"not json":         {`{"tracking_number":`, nil, 400, "invalid_request", "not valid JSON"},
		"content type":     {`{"tracking_number":"1","listener_url":"https://x.test"}`, []string{"Content-Type", "text/plain"}, 400, "invalid_request", "Content-Type must be application/json"},
		"no content type":  {`{"tracking_number":"1","listener_url":"https://x.test"}`, []string{"Content-Type", ""}, 400, "invalid_request", "Content-Type"},
		"http listener":    {`{"tracking_number":"1","listener_url":"http://x.test"}`, nil, 400, "invalid_request", "listener_url must be an HTTPS URL"},
		"missing listener": {`{"tracking_number":"1"}`, nil, 400, "invalid_request", "listener_url is required"},
		"ref not string":   {`{"tracking_number":"1","listener_url":"https://x.test","reference_id":5}`, nil, 400, "invalid_request", "reference_id must be a string"},
		"accept":           {`{"tracking_number":"1","listener_url":"https://x.test"}`, []string{"Accept", "text/html"}, 406, "not_acceptable", "Accept"},
	} {
		t.Run(name, func(t *testing.T) {
			r := h.do("POST", "/tracking/tracking/v1/subscriptions", tc.body, tc.hdr...)
			assert.Equal(t, tc.status, r.status)
			e := r.obj(t)["error"].(map[string]any)
			assert.Equal(t, tc.code, e["code"])
			assert.Contains(t, e["message"], tc.msg)
		})
	}
	r := h.do("PUT", "/tracking/tracking/v1/subscriptions", `{}`)
	assert.Equal(t, http.StatusMethodNotAllowed, r.status)
	assert.Equal(t, "GET, POST", r.header.Get("Allow"))
	assert.Equal(t, "method_not_allowed", at(r.obj(t), "error.code"))
}

func TestInvalidListenerURLSuspends(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	h.do("POST", "/tracking/tracking/v1/subscriptions", map[string]any{"tracking_number": "9402", "listener_url": "https://example.test/ok"})
	// Only reachable through the internals: subscribe refuses such URLs.
	h.srv.mu.Lock()
	h.srv.subs["9402"].listenerURL = "https://%zz"
	h.srv.mu.Unlock()
	h.srv.EmitTracking("9402", "Accepted")
	status, reason, _ := h.srv.SubscriptionStatus("9402")
	assert.Equal(t, "SUSPENDED", status)
	assert.Equal(t, "Listener URL is invalid", reason)
}

// TestEachInterfaceReadsItsAlphabet: tracking reads Basic credentials in
// the standard base64 alphabet and omni, delivery and pricing in the
// URL-safe one (padded or not), as the documents' examples give them;
// credentials in the other alphabet are refused with the answer to
// undecodable credentials, so a client sending the wrong one fails in
// testing. The key and secret make both alphabet-specific characters
// appear.
func TestEachInterfaceReadsItsAlphabet(t *testing.T) {
	t.Parallel()
	const key, secret = "a>>>b?", "c>d?"
	require.Equal(t, "Basic YT4+PmI/OmM+ZD8=", basicAuth(key, secret, base64.StdEncoding), "both alphabet-specific characters and padding")
	h := newHarness(t, Config{Key: key, Secret: secret})
	std := []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding}
	url := []*base64.Encoding{base64.URLEncoding, base64.RawURLEncoding}
	paths := map[Interface]string{
		Tracking: "/tracking/tracking/v1/subscriptions?tracking_number=x",
		Omni:     "/omni/api/v1/requests/req_none",
		Delivery: "/delivery/api/v1/orders/ord_none",
		Pricing:  "/pricing/pricing/v1/none",
	}
	for iface, path := range paths {
		good, bad := url, std
		if iface == Tracking {
			good, bad = std, url
		}
		for _, enc := range good {
			r := h.do("GET", path, nil, "Authorization", basicAuth(key, secret, enc))
			assert.Equal(t, http.StatusNotFound, r.status, "%s: authenticated, %s", iface, r.body)
		}
		for _, enc := range bad {
			r := h.do("GET", path, nil, "Authorization", basicAuth(key, secret, enc))
			assert.Equal(t, http.StatusUnauthorized, r.status, "%s: the other alphabet", iface)
			assert.Contains(t, string(r.body), "Invalid authorization credentials", "%s", iface)
		}
	}
}
