package testutil

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
)

// Env is what every service test starts from: a client whose four
// interfaces go to an httpmock transport of the test's own (unit tests of
// one endpoint), and, on first use, a simulator with a client of its own
// (end-to-end tests). Nothing in it is shared with another test, so tests
// that use it run with t.Parallel.
type Env struct {
	// Client is a sandbox-mode client on the four mock base URLs (OmniURL,
	// DeliveryURL, TrackingURL, PricingURL) with 1 ms retry waits.
	Client *rxdelivery.Client
	// Mock answers Client's requests: register a responder per endpoint.
	// A request without one fails with httpmock's "no responder" error.
	Mock *httpmock.MockTransport

	t    testing.TB
	opts []rxdelivery.Option
	kit  *Sandbox
}

// Setup returns the Env of test t; opts apply to both clients, last.
func Setup(t testing.TB, opts ...rxdelivery.Option) *Env {
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
	return &Env{Client: c, Mock: mock, t: t, opts: opts}
}

// Kit returns a simulator on a manual clock with a client on it, started
// on first use and closed when the test ends.
func (e *Env) Kit() *Sandbox {
	if e.kit == nil {
		e.kit = StartSandbox(e.opts...)
		e.t.Cleanup(e.kit.Close)
	}
	return e.kit
}

// Serve answers every request of Client that no responder of Expect takes
// with h, run on a recorder in the call's goroutine: a scripted handler
// serves a wire-format test without a socket. A call whose context ends
// first fails with the context's error, and a HEAD gets no body, as over a
// connection.
func (e *Env) Serve(h http.Handler) {
	e.Mock.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if err := r.Context().Err(); err != nil {
			return nil, err
		}
		resp := rec.Result()
		resp.Request = r
		if r.Method == http.MethodHead {
			resp.Body = http.NoBody // a server sends no body to a HEAD
		}
		return resp, nil
	})
}

// Expect registers responder for method and url on the mock and returns
// the Recorder of what it receives.
func (e *Env) Expect(method, url string, responder httpmock.Responder) *Recorder {
	rec := new(Recorder)
	e.Mock.RegisterResponder(method, url, rec.Wrap(responder))
	return rec
}

// WantAuth is the Authorization header the mock client sends to iface:
// Basic key:secret, in the base64 alphabet the interface takes (standard
// for tracking, URL-safe for the others).
func WantAuth(iface rxdelivery.Interface) string {
	return "Basic " + iface.DefaultAuthEncoding().EncodeToString([]byte(Key+":"+Secret))
}

// AssertHeaders checks the headers every call to iface carries: the
// credentials, Accept and the SDK's User-Agent, each once; Content-Type,
// once, exactly when the call has a body, and no body otherwise.
func AssertHeaders(t testing.TB, c Captured, iface rxdelivery.Interface, withBody bool) {
	t.Helper()
	if got := c.Header.Values("Authorization"); len(got) != 1 || got[0] != WantAuth(iface) {
		t.Errorf("Authorization %q, want one %q", got, WantAuth(iface))
	}
	if got := c.Header.Values("Accept"); len(got) != 1 || got[0] != "application/json" {
		t.Errorf("Accept %q, want one application/json", got)
	}
	if ua := c.Header.Get("User-Agent"); !strings.HasPrefix(ua, "rxdelivery-go/") {
		t.Errorf("User-Agent %q, want rxdelivery-go/…", ua)
	}
	ct := c.Header.Get("Content-Type")
	switch {
	case withBody && (ct != "application/json" || len(c.Header.Values("Content-Type")) != 1):
		t.Errorf("Content-Type %q, want one application/json", c.Header.Values("Content-Type"))
	case !withBody && ct != "":
		t.Errorf("Content-Type %q on a call without a body", ct)
	case !withBody && len(c.Body) != 0:
		t.Errorf("a call without a body sent %q", c.Body)
	}
}

// AssertBodyFixture checks that c's body is the JSON of testdata/fixture,
// compared as JSON values (key order and spacing aside).
func AssertBodyFixture(t testing.TB, c Captured, fixture string) {
	t.Helper()
	var got, want any
	if err := json.Unmarshal(c.Body, &got); err != nil {
		t.Fatalf("the body is not JSON: %v", err)
	}
	if err := json.Unmarshal(Fixture(t, fixture), &want); err != nil {
		t.Fatalf("fixture %s: %v", fixture, err)
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("body differs from %s:\n got %s\nwant %s", fixture, g, w)
	}
}
