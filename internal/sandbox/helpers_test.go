package sandbox

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const (
	testKey    = "test-key"
	testSecret = "test-secret"
	cadence    = 30 * time.Second
)

// harness is a Server on a ManualClock with helpers to call it.
type harness struct {
	t     *testing.T
	srv   *Server
	clock *ManualClock
}

func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	clock, _ := cfg.Clock.(*ManualClock)
	if cfg.Clock == nil {
		clock = NewManualClock(time.Time{})
		cfg.Clock = clock
	}
	if cfg.Key == "" && cfg.Credentials == nil {
		cfg.Key, cfg.Secret = testKey, testSecret
	}
	srv := NewServer(cfg)
	t.Cleanup(srv.Close)
	return &harness{t: t, srv: srv, clock: clock}
}

// resp is an answer read in full.
type resp struct {
	status int
	header http.Header
	body   []byte
}

// obj decodes the body as a JSON object.
func (r resp) obj(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.body, &m), "body: %s", r.body)
	return m
}

func basicAuth(key, secret string, enc *base64.Encoding) string {
	return "Basic " + enc.EncodeToString([]byte(key+":"+secret))
}

// do sends a call. body is nil, a string (sent as is) or a value encoded as
// JSON. hdr holds header name/value pairs that replace the defaults (Basic
// auth with the test credentials in the URL-safe alphabet, Accept and, with
// a body, Content-Type application/json); an empty value removes the header.
func (h *harness) do(method, path string, body any, hdr ...string) resp {
	h.t.Helper()
	r, err := h.try(h.srv.Client(), method, path, body, hdr...)
	require.NoError(h.t, err)
	return r
}

// try is do with a given client, returning the transport or read error.
func (h *harness) try(client *http.Client, method, path string, body any, hdr ...string) (resp, error) {
	h.t.Helper()
	var rd io.Reader
	if body != nil {
		switch b := body.(type) {
		case string:
			rd = strings.NewReader(b)
		case []byte:
			rd = bytes.NewReader(b)
		default:
			enc, err := json.Marshal(b)
			require.NoError(h.t, err)
			rd = bytes.NewReader(enc)
		}
	}
	req, err := http.NewRequest(method, h.srv.URL()+path, rd)
	require.NoError(h.t, err)
	req.Header.Set("Authorization", basicAuth(testKey, testSecret, base64.URLEncoding))
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	res, err := client.Do(req)
	if err != nil {
		return resp{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return resp{status: res.StatusCode, header: res.Header, body: b}, err
}

// at walks a decoded JSON value along a dotted path; numeric parts index
// arrays.
func at(v any, path string) any {
	for _, p := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// has reports whether a decoded object has key (even with a null value).
func has(m map[string]any, key string) bool {
	_, ok := m[key]
	return ok
}

// ---- sample bodies (fictitious data) ----

func omniBody() map[string]any {
	return map[string]any{
		"identifier":                "program-1",
		"external_reference_number": "ext-1",
		"ndc":                       "00002143380",
		"pharmacy":                  map[string]any{"ncpdp": "5550001"},
		"dropoff": map[string]any{
			"name":         "Pat Example",
			"phone_number": "2125550199",
			"address": map[string]any{
				"street1": "1 Test Plaza", "city": "New York", "state": "NY", "zipcode": "10001",
			},
		},
		"patient": map[string]any{
			"first_name": "Pat", "last_name": "Example", "gender": "unspecified", "date_of_birth": "1980-02-29",
		},
		"remittance": map[string]any{
			"contact":  map[string]any{"mobile_phone_number": "2125550198", "email": "pat@example.com"},
			"payments": []any{map[string]any{"fee": json.Number("5.00"), "kind": "delivery_fee"}},
		},
	}
}

func deliveryAddress() map[string]any {
	return map[string]any{"street": "1 Test Plaza", "city": "New York", "state": "NY", "zipcode": "10001"}
}

func prescription(number string) map[string]any {
	return map[string]any{
		"number": number, "ndc": "00002143380", "refrigeration": "none",
		"days_supply": 30, "fill_quantity": json.Number("30.0"), "fill_number": 1, "patient_pay": json.Number("10.00"),
		"prescriber": map[string]any{"first_name": "Doc", "last_name": "Example", "npi": "1234567893", "address": deliveryAddress()},
		"payers": []any{map[string]any{
			"bin": "610014", "pcn": "ADV", "rx_group": "GRP1", "coverage_type": "primary", "government_plan_indicator": false,
		}},
	}
}

// orderBody returns a valid create-order body of a level ("" for same-day).
func orderBody(level string) map[string]any {
	b := map[string]any{
		"pharmacy":      map[string]any{"npi": "1234567893", "ncpdp": "5550001"},
		"recipient":     map[string]any{"description": "Pat Example", "mobile_phone_number": "2125550199", "address": deliveryAddress()},
		"patient":       map[string]any{"first_name": "Pat", "last_name": "Example", "gender": "female", "date_of_birth": "1980-01-01", "mobile_phone_number": "2125550199"},
		"prescriptions": []any{prescription("RX1")},
	}
	switch level {
	case "":
		b["delivery_fee"] = json.Number("5.00")
		b["rx_amount_due"] = json.Number("0.00")
		b["photo_id_required"] = true
	case "ondemand":
		b["service_level"] = "ondemand"
		b["ready_at"] = "2025-01-06T10:00:00-05:00"
	case "shipping":
		b["service_level"] = "shipping"
		b["service_date"] = "2025-01-07"
		b["shipping"] = map[string]any{
			"carrier": "POSTAL", "carrier_service": "POSTAL Priority Mail", "signature": "none",
			"weight":     map[string]any{"unit": "ounce", "value": json.Number("12")},
			"dimensions": map[string]any{"unit": "inch", "length": 10, "width": 6, "height": 4},
		}
	}
	return b
}

func quoteBody() map[string]any {
	return map[string]any{
		"pickup":             map[string]any{"address": map[string]any{"zipcode": "10001"}},
		"dropoff":            map[string]any{"address": map[string]any{"zipcode": "94105-1234"}},
		"package_dimensions": map[string]any{"length_in": 10, "width_in": 6, "height_in": 4, "weight_oz": json.Number("12.5")},
	}
}

// createRequest creates an omni request and returns its id.
func (h *harness) createRequest(body map[string]any) string {
	h.t.Helper()
	r := h.do("POST", "/omni/api/v1/requests", body)
	require.Equal(h.t, http.StatusOK, r.status, "%s", r.body)
	return at(r.obj(h.t), "request.id").(string)
}

// createOrder creates a delivery order and returns its id.
func (h *harness) createOrder(body map[string]any) string {
	h.t.Helper()
	r := h.do("POST", "/delivery/api/v1/orders", body)
	require.Equal(h.t, http.StatusOK, r.status, "%s", r.body)
	return at(r.obj(h.t), "order.id").(string)
}

// sub copies a map one level deep and sets keys (nil value deletes).
func with(m map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
		} else {
			out[kv[i].(string)] = kv[i+1]
		}
	}
	return out
}
