package sandbox

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// probe is one cheap authenticated call per interface.
var probes = map[Interface]struct{ method, path string }{
	Omni:     {"GET", "/omni/api/v1/pharmacies/5550001"},
	Delivery: {"GET", "/delivery/api/v1/orders/none"},
	Tracking: {"GET", "/tracking/tracking/v1/subscriptions?tracking_number=x"},
	Pricing:  {"POST", "/pricing/pricing/v1/quotes"},
}

// errorKeys returns the sorted member names of an error body.
func errorKeys(t *testing.T, r resp) []string {
	t.Helper()
	e, ok := r.obj(t)["error"].(map[string]any)
	require.True(t, ok, "%s", r.body)
	var keys []string
	for k := range e {
		keys = append(keys, k)
	}
	return keys
}

func TestAuthenticationPerInterface(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Key: testKey, Secret: testSecret, Credentials: []Credentials{
		{Key: "omni-only", Secret: "s1", Interfaces: []Interface{Omni}},
		{Key: "off", Secret: "s2", Disabled: true},
	}})
	shapes := map[Interface][]string{
		Omni: {"id", "type", "message"}, Delivery: {"message"}, Tracking: {"code", "message"}, Pricing: {"message"},
	}
	cases := []struct {
		name, auth string
		status     int
		msg        string
	}{
		{"missing", "", 401, "Authorization header is required"},
		{"scheme", "Bearer abc", 401, "Authorization scheme must be Basic"},
		{"garbage", "Basic !!!", 401, "Invalid authorization credentials"},
		{"no colon", "Basic " + base64.StdEncoding.EncodeToString([]byte("nocolon")), 401, "Invalid authorization credentials"},
		{"unknown key", basicAuth("who", "x", base64.URLEncoding), 401, "API key is invalid"},
		{"wrong secret", basicAuth(testKey, "nope", base64.URLEncoding), 401, "API secret is invalid"},
		{"disabled", basicAuth("off", "s2", base64.URLEncoding), 401, "API credentials are disabled"},
	}
	for iface, p := range probes {
		for _, tc := range cases {
			t.Run(string(iface)+"/"+tc.name, func(t *testing.T) {
				r := h.do(p.method, p.path, nil, "Authorization", tc.auth)
				require.Equal(t, tc.status, r.status, "%s", r.body)
				assert.ElementsMatch(t, shapes[iface], errorKeys(t, r))
				assert.Equal(t, tc.msg, at(r.obj(t), "error.message"))
				if iface == Tracking || iface == Omni {
					code := at(r.obj(t), "error.code")
					if iface == Omni {
						code = at(r.obj(t), "error.type")
					}
					assert.Equal(t, "unauthorized", code)
				}
				assert.NotContains(t, string(r.body), "nope", "no credentials in messages")
			})
		}
		t.Run(string(iface)+"/not enabled", func(t *testing.T) {
			r := h.do(p.method, p.path, nil, "Authorization", basicAuth("omni-only", "s1", base64.StdEncoding))
			if iface == Omni {
				assert.NotEqual(t, http.StatusForbidden, r.status)
				return
			}
			assert.Equal(t, http.StatusForbidden, r.status)
			assert.ElementsMatch(t, shapes[iface], errorKeys(t, r))
			if iface == Tracking {
				assert.Equal(t, "forbidden", at(r.obj(t), "error.code"))
			}
		})
	}
}

func TestDefaultCredentials(t *testing.T) {
	t.Parallel()
	srv := NewServer(Config{Clock: NewManualClock(DefaultManualStart)})
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.OmniURL()+"/api/v1/pharmacies/5550001", nil)
	req.SetBasicAuth(DefaultKey, DefaultSecret)
	res, err := srv.Client().Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)
}

func TestRoutingStatuses(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	r := h.do("GET", "/nowhere/api/v1/requests", nil)
	assert.Equal(t, http.StatusNotFound, r.status)
	assert.JSONEq(t, `{"error":{"message":"Not found"}}`, string(r.body))

	r = h.do("GET", "/omni/api/v2/requests", nil)
	assert.Equal(t, http.StatusNotFound, r.status)
	assert.Equal(t, "not_found", at(r.obj(t), "error.type"))
	r = h.do("GET", "/delivery/api/v1/orders//prescriptions", nil)
	assert.Equal(t, http.StatusNotFound, r.status)

	for _, tc := range []struct{ method, path, allow string }{
		{"PUT", "/omni/api/v1/requests", "GET, POST"},
		{"POST", "/omni/api/v1/requests/x", "DELETE, GET"},
		{"DELETE", "/omni/api/v1/pharmacies/", "GET"},
		{"PATCH", "/delivery/api/v1/orders/x/", "DELETE, GET"},
		{"GET", "/delivery/api/v1/orders/x/prescriptions", "POST"},
		{"GET", "/delivery/api/v1/orders/x/prescriptions/y", "DELETE"},
		{"POST", "/delivery/api/v1/pharmacies/x", "GET"},
		{"GET", "/pricing/pricing/v1/quotes", "POST"},
	} {
		r := h.do(tc.method, tc.path, nil)
		assert.Equal(t, http.StatusMethodNotAllowed, r.status, tc.path)
		assert.Equal(t, tc.allow, r.header.Get("Allow"), tc.path)
	}

	for accept, want := range map[string]int{
		"text/html":                          406,
		"application/xml, text/plain":        406,
		"*/*":                                200,
		"application/*":                      200,
		"text/html, application/json; q=0.9": 200,
		"APPLICATION/JSON":                   200,
	} {
		r := h.do("GET", "/omni/api/v1/pharmacies/5550001", nil, "Accept", accept)
		assert.Equal(t, want, r.status, accept)
		if want == 406 {
			assert.Equal(t, "not_acceptable", at(r.obj(t), "error.type"))
		}
	}
	r = h.do("GET", "/omni/api/v1/pharmacies/5550001", nil, "Accept", "")
	assert.Equal(t, http.StatusOK, r.status, "no Accept header is fine")
	r = h.do("GET", "/omni/api/v1/pharmacies/5550001/", nil)
	assert.Equal(t, http.StatusOK, r.status, "one trailing slash is accepted")
	r = h.do("GET", "/delivery/api/v1/orders/x", nil, "Accept", "text/csv")
	assert.Equal(t, http.StatusNotAcceptable, r.status)
	assert.JSONEq(t, `{"error":{"message":"Accept must allow application/json"}}`, string(r.body))
}

func TestCallsAreRecordedAndLoggedWithoutQueries(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}), nil))
	h := newHarness(t, Config{Logger: logger, MaxCalls: 3})
	h.do("GET", "/omni/api/v1/pharmacies/?origin_address=1+Secret+Lane+10001", nil)
	h.do("GET", "/omni/api/v1/requests/abc", nil)
	h.do("GET", "/delivery/api/v1/orders/ord_1/prescriptions/RX-SECRET", nil)
	h.do("GET", "/tracking/tracking/v1/subscriptions?tracking_number=1", nil)
	st := h.srv.Stats()
	require.Len(t, st.Calls, 3, "capped by MaxCalls, oldest dropped")
	first := st.Calls[0]
	assert.False(t, first.ReceivedAt.IsZero(), "the receive time is recorded")
	assert.Equal(t, h.clock.Now(), first.SimulatedAt, "the sandbox clock's time is recorded")
	first.ReceivedAt, first.SimulatedAt = time.Time{}, time.Time{}
	assert.Equal(t, Call{Interface: Omni, Operation: OpRequestsGet, Method: "GET", Path: "/omni/api/v1/requests/abc", Route: "/omni/api/v1/requests/{id}", Status: 404}, first)
	assert.Equal(t, "/delivery/api/v1/orders/{id}/prescriptions/{rx_number}", st.Calls[1].Route)
	assert.Empty(t, st.Calls[1].Operation, "no operation is GET on that route")
	assert.Equal(t, "tracking_number=1", st.Calls[2].Query)
	assert.Equal(t, 1, st.CallsTo("GET", "/tracking/"))
	assert.Equal(t, 0, st.CallsTo("POST", "/tracking/"))
	assert.Equal(t, 3, st.CallsTo("", "/"))

	mu.Lock()
	log := buf.String()
	mu.Unlock()
	assert.Contains(t, log, "route=/omni/api/v1/pharmacies")
	for _, secret := range []string{"Secret", "RX-SECRET", testSecret, "Basic"} {
		assert.NotContains(t, log, secret)
	}
}

func TestCallRecordKeepsBodyAndNoCredential(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	body := map[string]any{"tracking_number": "9400100000000000000001", "listener_url": "https://listener.example/hook"}
	r := h.do("POST", "/tracking/tracking/v1/subscriptions", body)
	require.Equal(t, http.StatusCreated, r.status, "%s", r.body)
	calls := h.srv.Stats().Calls
	require.Len(t, calls, 1)
	c := calls[0]
	assert.Equal(t, OpTrackingSubscribe, c.Operation)
	assert.JSONEq(t, `{"tracking_number":"9400100000000000000001","listener_url":"https://listener.example/hook"}`, string(c.Body))
	assert.NotContains(t, fmt.Sprintf("%+v", c), testSecret)
	assert.NotContains(t, fmt.Sprintf("%+v", c), testKey)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestHandlerWithoutServer(t *testing.T) {
	t.Parallel()
	sb := New(Config{Key: "k", Secret: "s", Clock: NewManualClock(DefaultManualStart)})
	defer sb.Close()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/pricing/pricing/v1/quotes", strings.NewReader(`{}`))
	req.SetBasicAuth("k", "s")
	req.Header.Set("Content-Type", "application/json")
	sb.Handler().ServeHTTP(rec, req)
	assert.Equal(t, http.StatusBadRequest, rec.Code)
}

func TestServerURLs(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	u := h.srv.URL()
	assert.Equal(t, u+"/omni", h.srv.OmniURL())
	assert.Equal(t, u+"/delivery", h.srv.DeliveryURL())
	assert.Equal(t, u+"/tracking", h.srv.TrackingURL())
	assert.Equal(t, u+"/pricing", h.srv.PricingURL())
	assert.Equal(t, u+"/pricing", h.srv.BaseURL(Pricing))
}

func TestCentsEncoding(t *testing.T) {
	t.Parallel()
	for c, want := range map[cents]string{0: "0.00", 5: "0.05", 1234: "12.34", -250: "-2.50", 100000: "1000.00"} {
		b, err := c.MarshalJSON()
		require.NoError(t, err)
		assert.Equal(t, want, string(b))
	}
}
