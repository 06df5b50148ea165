package rxdeliverytest

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// answerFunc answers requests in process: no socket.
type answerFunc func(*http.Request) (*http.Response, error)

func (f answerFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func jsonAnswer(status int, body string) *http.Response {
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(body))}
}

// A value kept as an identifier when it came is replaced in the whole
// cassette once a later exchange shows it in a patient field; the
// operation is found from the route alone when no hook named it.
func TestRecorderJudgesKeptValuesAgainAtSave(t *testing.T) {
	t.Parallel()
	const phone = "6145557291"
	rec := NewRecorder(answerFunc(func(r *http.Request) (*http.Response, error) {
		if r.Method == http.MethodGet {
			return jsonAnswer(200, `{"order": {"id": "`+phone+`", "status": "new"}}`), nil
		}
		return jsonAnswer(200, `{"order": {"id": "ord_000002", "status": "new"}}`), nil
	}))
	get, _ := http.NewRequest(http.MethodGet, "https://platform.example/delivery/api/v1/orders/ord_000001", nil)
	post, _ := http.NewRequest(http.MethodPost, "https://platform.example/delivery/api/v1/orders", strings.NewReader(`{"patient": {"mobile_phone_number": "`+phone+`"}}`))
	for _, r := range []*http.Request{get, post} {
		resp, err := rec.RoundTrip(r)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	}
	path := filepath.Join(t.TempDir(), "c.json")
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), phone) {
		t.Errorf("the cassette holds the phone number:\n%s", data)
	}
	for _, want := range []string{`"operation": "orders.Get"`, `"operation": "orders.Create"`, `"id": "ord_000001"`, `"id": "<patient.mobile_phone_number#1>"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the cassette lacks %s:\n%s", want, data)
		}
	}
	if err := CheckCassette(data); err != nil {
		t.Error(err)
	}
	for _, edit := range [][2]string{
		{`"operation": "orders.Get"`, `"operation": "Vandersloot"`},
		{`"route": "/api/v1/orders/{id}"`, `"route": "/api/v1/orders/Vandersloot"`},
		{`"method": "GET"`, `"method": "Vandersloot"`},
		{`"path": {`, `"path": {"Vandersloot": "x", `},
	} {
		changed := strings.Replace(string(data), edit[0], edit[1], 1)
		if changed == string(data) {
			t.Errorf("nothing to edit for %s", edit[0])
			continue
		}
		if err := CheckCassette([]byte(changed)); err == nil || strings.Contains(err.Error(), "Vandersloot") {
			t.Errorf("edit of %s: got %v", edit[0], err)
		}
	}
}
