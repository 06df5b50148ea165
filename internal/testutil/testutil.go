// Package testutil holds the helpers the SDK's tests share: a client wired
// to an httpmock transport, fixture loading from testdata/, and a recorder
// of what went over the wire.
//
//	c, mock := testutil.NewMock(t)
//	mock.RegisterResponder("GET", testutil.OmniURL+"/api/v1/requests/r1",
//		testutil.FixtureResponder(t, 200, "omni/request_new.json"))
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
	"time"

	"github.com/jarcoal/httpmock"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
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

// NewMock returns a sandbox client on the four mock base URLs whose HTTP
// transport is a fresh httpmock transport, inside the retrying client (so
// retries are exercised), with 1ms retry waits. opts apply last.
func NewMock(t testing.TB, opts ...rxdelivery.Option) (*rxdelivery.Client, *httpmock.MockTransport) {
	t.Helper()
	mock := httpmock.NewMockTransport()
	base := []rxdelivery.Option{
		rxdelivery.WithOmniURL(OmniURL),
		rxdelivery.WithDeliveryURL(DeliveryURL),
		rxdelivery.WithTrackingURL(TrackingURL),
		rxdelivery.WithPricingURL(PricingURL),
		rxdelivery.WithSandbox(true),
		rxdelivery.WithHTTPClient(&http.Client{Transport: mock}),
		rxdelivery.WithRetryWaitMin(time.Millisecond),
		rxdelivery.WithRetryWaitMax(5 * time.Millisecond),
	}
	c, err := rxdelivery.NewClient(Key, Secret, append(base, opts...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c, mock
}

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

// FixtureResponder answers with status and the fixture's bytes as JSON.
func FixtureResponder(t testing.TB, status int, name string) httpmock.Responder {
	body := Fixture(t, name)
	return BytesResponder(status, body)
}

// BytesResponder answers with status and body as JSON.
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
