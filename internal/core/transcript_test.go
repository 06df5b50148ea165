package core

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rxdelivery/rxdelivery-go/internal/fields"
)

// transcriptCall is a call of path with query and body, on a backend with
// credentials, as the transcript sees it.
func transcriptCall(path, shown, query string, body []byte) *call {
	b := &Backend{secrets: []string{"key-1234", "sec-5678"}}
	return &call{b: b, ep: OrdersGet, path: path, shown: shown, query: query, body: body,
		sc: b.newScrubber(path, shown, query, body)}
}

// TestShowScalar: each safe kind shows a value of its own form and no
// other; a value of a safe kind that the call sent, or a credential, is
// a placeholder; every other value keeps its JSON type as a placeholder.
func TestShowScalar(t *testing.T) {
	t.Parallel()
	c := transcriptCall("/api/v1/orders", "/api/v1/orders", "ids%5B%5D=ord_9&ids%5B%5D=ord_8",
		[]byte(`{"external_reference_number":"MRN-0042","created":"2024-05-01T13:45:10Z","fee":12.50}`))
	num := func(s string) any { return jsonNumber(s) }
	cases := []struct {
		kind fields.Kind
		in   any
		want any
	}{
		{fields.ID, "ord_01HZX5B2P8QW", "ord_01HZX5B2P8QW"},
		{fields.ID, "ord_9", "ord_9"}, // named by the call's ids[]
		{fields.ID, "MRN-0042", "<string 5-16>"},
		{fields.ID, "Marguerite Dubois", "<string 17-64>"},
		{fields.ID, "https://x.test/a?t=1", "<string 17-64>"},
		{fields.ID, "xkey-1234", "<string 5-16>"},
		{fields.ID, num("1234567890"), num("1234567890")},
		{fields.Enum, "delivered", "delivered"},
		{fields.Enum, "submitted to courier", "submitted to courier"},
		{fields.Enum, "Pharmacy Closed for Lunch", "Pharmacy Closed for Lunch"},
		{fields.Enum, "Dubois", "<string 5-16>"},
		{fields.Enum, "Marguerite Dubois", "<string 17-64>"},
		{fields.Enum, "new 1937", "<string 5-16>"},
		{fields.Carrier, "PARCELA 2nd Day Air", "PARCELA 2nd Day Air"},
		{fields.Carrier, "Acme Courier", "<string 5-16>"},
		{fields.Time, "2024-05-01T15:21:02.123456Z", "2024-05-01T15:21:02.123456Z"},
		{fields.Time, "2024-05-02T15:41:07-04:00", "2024-05-02T15:41:07-04:00"},
		{fields.Time, "1937-11-23", "<string 5-16>"},
		{fields.Time, "2024-05-01T13:45:10Z", "<string 17-64>"}, // the call sent it
		{fields.Time, "yesterday at Jane's", "<string 17-64>"},
		{fields.Money, num("12.34"), num("12.34")},
		{fields.Money, num("12.50"), num("99.99")}, // the call sent it
		{fields.Money, "5.00", "5.00"},
		{fields.Count, num("6145557319"), num("9999999999")},
		{fields.Count, num("1e9"), num("9e9")},
		{fields.Count, "three", "<string 5-16>"},
		{fields.Flag, true, true},
		{fields.Flag, "true", "true"},
		{fields.Flag, "Jane", "<string 1-4>"},
		{fields.Patient, true, "<bool>"},
		{fields.Patient, "Jane Doe", "<string 5-16>"},
		{fields.Patient, num("43210"), num("99999")},
		{fields.Patient, nil, nil},
		{fields.Object, "Jane Doe", "<string 5-16>"},
		{fields.Message, "Order is not in a cancellable status (MRN-0042)", "Order is not in a cancellable status (" + Redacted + ")"},
		{fields.Message, num("42"), num("99")},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, c.showScalar(tc.kind, tc.in), "%v %v", tc.kind, tc.in)
	}
}

// TestPlaceholderResponse: a response keeps its shape; a field is judged
// under the key of the object (or list) that holds it, so "type" is shown
// in an ETA and an error and hidden in a recipient identification; keys
// that are not field names become placeholders themselves; an error's id
// is shown only when the call's path names it, as APIError.ID is.
func TestPlaceholderResponse(t *testing.T) {
	t.Parallel()
	c := transcriptCall("/api/v1/orders/ord_1", "/api/v1/orders/ord_1", "", nil)
	in := `{"order":{"id":"ord_1","status":"delivered","eta":{"type":"delivery","arrival_at":"2024-05-02T15:45:00-04:00"},` +
		`"delivery":{"signed_by":"Jane Doe","recipient_identification":{"number":"D1234567","type":"Driver's License","qualifier":"06","jurisdiction_code":"OH"}},` +
		`"shipping":{"tracking_number":"9400111899223197428490","carrier":"POSTAL","cost":7.25,"saturday_delivery":false}},` +
		`"requests":[{"request":{"status":{"name":"request_received","detail":"Jane Doe"}}}],` +
		`"error":{"id":"req_1","type":"unable_to_cancel","code":"not_found","message":"Order is not in a cancellable status"},` +
		`"Jane Doe":1,"extra_note":"Leave with neighbour","a 123":null}`
	want := `{"<key 5-16 #1>":9,"<key 5-16 #2>":null,"error":{"code":"not_found","id":"[redacted]","message":"Order is not in a cancellable status","type":"unable_to_cancel"},` +
		`"extra_note":"<string 17-64>","order":{"delivery":{"recipient_identification":{"jurisdiction_code":"<string 1-4>","number":"<string 5-16>","qualifier":"06","type":"<string 5-16>"},"signed_by":"<string 5-16>"},` +
		`"eta":{"arrival_at":"2024-05-02T15:45:00-04:00","type":"delivery"},"id":"ord_1","shipping":{"carrier":"POSTAL","cost":7.25,"saturday_delivery":false,"tracking_number":"<string 17-64>"},"status":"delivered"},` +
		`"requests":[{"request":{"status":{"detail":"<string 5-16>","name":"request_received"}}}]}`
	assert.Equal(t, want, string(c.placeholderJSON([]byte(in), true)))

	// A request body: every string and number replaced, a boolean kept
	// only in a Flag field.
	req := `{"saturday_delivery":true,"payers":[{"government_plan_indicator":true,"bin":"610014"}],"fee":5.00}`
	assert.Equal(t, `{"fee":9.99,"payers":[{"bin":"<string 5-16>","government_plan_indicator":"<bool>"}],"saturday_delivery":true}`,
		string(c.placeholderJSON([]byte(req), false)))
}

// TestTranscribeResponseHeadersAndBodies: headers of known meaning are
// shown in their form, every other header as a placeholder; a body that
// is not JSON, or too long to show, is not shown, and the body is put
// back whole for the call.
func TestTranscribeResponseHeadersAndBodies(t *testing.T) {
	t.Parallel()
	c := transcriptCall("/api/v1/orders/ord_1", "/api/v1/orders/ord_1", "", nil)
	resp := func(body string, h map[string]string) *http.Response {
		r := &http.Response{StatusCode: 503, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(body))}
		for k, v := range h {
			r.Header.Set(k, v)
		}
		return r
	}
	var out bytes.Buffer
	r := resp("<html>Jane Doe, 42 Elm Avenue</html>", map[string]string{
		"Content-Type":   "text/html; charset=utf-8; name=Jane",
		"Retry-After":    "120",
		"Date":           "Sat, 28 Nov 2026 17:53:54 GMT",
		"X-Request-Id":   "Jane Doe",
		"Set-Cookie":     "session=abc",
		"X-Echo":         "42 Elm Avenue",
		"Content-Length": "36",
	})
	c.transcribeResponse(&out, nil, r, nil)
	got := out.String()
	for _, want := range []string{"< 503 Service Unavailable\n", "< Content-Type: text/html; charset=utf-8\n", "< Retry-After: 120\n",
		"< Date: Sat, 28 Nov 2026 17:53:54 GMT\n", "< X-Request-Id: <string 5-16>\n", "< request id: <string 5-16>\n",
		"< Set-Cookie: <string 5-16>\n", "< X-Echo: <string 5-16>\n", "< Content-Length: 36\n", "< <not JSON: 36 bytes>\n"} {
		assert.Contains(t, got, want)
	}
	for _, v := range []string{"Jane", "Elm", "abc"} {
		assert.NotContains(t, got, v)
	}
	body, _ := io.ReadAll(r.Body)
	assert.Equal(t, "<html>Jane Doe, 42 Elm Avenue</html>", string(body))

	out.Reset()
	long := `{"note":"` + strings.Repeat("Jane ", maxTranscriptBody/5) + `"}`
	c.transcribeResponse(&out, nil, resp(long, nil), nil)
	assert.Contains(t, out.String(), "< <body over 64 KiB: not shown>\n")
	assert.NotContains(t, out.String(), "Jane")
}

// jsonNumber is a decoded JSON number, as the transcript's walk sees one.
func jsonNumber(s string) json.Number { return json.Number(s) }

// TestTranscribeRequestHeaders: credentials are never shown, the SDK's own
// headers are, and a header the caller added shows its name only.
func TestTranscribeRequestHeaders(t *testing.T) {
	t.Parallel()
	c := transcriptCall("/api/v1/orders/ord_1", "/api/v1/orders/ord_1", "", nil)
	r, _ := http.NewRequest("GET", "https://x.test/api/v1/orders/ord_1", nil)
	r.Header.Set("Authorization", "Basic a2V5LTEyMzQ6c2VjLTU2Nzg=")
	r.Header.Set("Accept", "application/json")
	r.Header.Set("User-Agent", "rxdelivery-go/0.2.0 pharmacy-app/1.4")
	r.Header.Set("X-Patient-Ref", "MRN-0042 Dubois")
	var out bytes.Buffer
	c.transcribeRequest(&out, r, 1)
	got := out.String()
	for _, want := range []string{"> Authorization: [credentials]\n", "> Accept: application/json\n",
		"> User-Agent: rxdelivery-go/0.2.0 pharmacy-app/1.4\n", "> X-Patient-Ref: <string 5-16>\n"} {
		assert.Contains(t, got, want)
	}
	assert.NotContains(t, got, "Dubois")
	assert.NotContains(t, got, "a2V5")
}

// TestSafeRequestID: a request id is kept in the forms of a generated
// identifier (a UUID, hex, a short prefix and a random token) and dropped
// when it holds a word, a name, a value the call sent or a credential.
func TestSafeRequestID(t *testing.T) {
	t.Parallel()
	c := transcriptCall("/api/v1/orders", "/api/v1/orders", "",
		[]byte(`{"external_reference_number":"MRN-0042","recipient":{"description":"Jane Roe"}}`))
	for id, kept := range map[string]bool{
		"3f2a9c1e-7b4d-4e2a-9c1e-0a1b2c3d4e5f": true,
		"req-8f3a9c21":                         true,
		"req_5T1Qp8u9hH0lA9":                   true,
		"01HZX9K2M4":                           false, // a run of three letters: read it from Metadata.Header
		"Jane-Roe-1975":                        false, // a name, though the call did not send it
		"jane-1975":                            false,
		"MRN-0042":                             false, // a value the call sent
		"key-1234":                             false, // a credential
		"abcdef":                               false, // no digit
		"req 8f3a":                             false, // two tokens
		"":                                     false,
	} {
		got := c.safeRequestID(http.Header{"X-Request-Id": {id}})
		if (got == id && id != "") != kept {
			t.Errorf("safeRequestID(%q) = %q, want kept %v", id, got, kept)
		}
	}
}
