// Package testutil is the harness of the SDK's tests: Setup gives a test a
// client on an httpmock transport of its own (answered by responders, or
// by a scripted http.Handler through Env.Serve, without a socket) and, on
// first use, a simulator; the assertions every service test makes
// (method and URL, credentials and headers, a body against a fixture);
// fixture loading from testdata/; a recorder of what went over the
// wire; and Calls, the row of every endpoint that the tests running every
// endpoint share.
//
//	env := testutil.Setup(t)
//	rec := env.Expect("GET", testutil.OmniURL+"/api/v1/requests/r1",
//		testutil.FixtureResponder(t, 200, "omni/request_new.json"))
//	_, err := env.Client.Requests.Get(ctx, "r1")
//	testutil.TestMethod(t, rec.Last(t), "GET", testutil.OmniURL+"/api/v1/requests/r1")
//	testutil.TestBody(t, rec.Last(t), rxdelivery.Omni, false)
package testutil

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/jarcoal/httpmock"
)

// Base URLs of the mock client's interfaces.
const (
	OmniURL     = "https://omni.rxdelivery.test"
	DeliveryURL = "https://delivery.rxdelivery.test"
	TrackingURL = "https://tracking.rxdelivery.test"
	PricingURL  = "https://pricing.rxdelivery.test"
)

// Credentials of the mock client.
const (
	Key    = "test-key"
	Secret = "test-secret"
)

// Root returns the module's root directory.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Fixture returns the bytes of testdata/name.
func Fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Root(), "testdata", filepath.FromSlash(name)))
	if err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	return b
}

// FixtureResponder responds with status and the fixture's bytes as JSON.
func FixtureResponder(t testing.TB, status int, name string) httpmock.Responder {
	body := Fixture(t, name)
	return BytesResponder(status, body)
}

// BytesResponder responds with status and body as JSON.
func BytesResponder(status int, body []byte) httpmock.Responder {
	return func(*http.Request) (*http.Response, error) {
		r := httpmock.NewBytesResponse(status, body)
		r.Header.Set("Content-Type", "application/json")
		return r, nil
	}
}

// Captured is one request as it went over the wire.
type Captured struct {
	Method string
	// URL is the full URL, query included.
	URL    string
	Header http.Header
	Body   []byte
}

// Recorder wraps a responder and keeps every request it answers.
type Recorder struct {
	mu   sync.Mutex
	reqs []Captured
}

// Wrap returns a responder that records the request and then calls next.
func (r *Recorder) Wrap(next httpmock.Responder) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		var body []byte
		if req.Body != nil {
			body, _ = io.ReadAll(req.Body)
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		r.mu.Lock()
		r.reqs = append(r.reqs, Captured{Method: req.Method, URL: req.URL.String(), Header: req.Header.Clone(), Body: body})
		r.mu.Unlock()
		return next(req)
	}
}

// Requests returns the recorded requests in order.
func (r *Recorder) Requests() []Captured {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Captured(nil), r.reqs...)
}

// Last returns the last recorded request; it fails the test when there is
// none.
func (r *Recorder) Last(t testing.TB) Captured {
	t.Helper()
	reqs := r.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request was recorded")
	}
	return reqs[len(reqs)-1]
}
