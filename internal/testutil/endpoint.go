package testutil

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
)

// BaseURL returns the mock client's base URL of iface.
func BaseURL(iface rxdelivery.Interface) string {
	switch iface {
	case rxdelivery.Omni:
		return OmniURL
	case rxdelivery.Delivery:
		return DeliveryURL
	case rxdelivery.Tracking:
		return TrackingURL
	default:
		return PricingURL
	}
}

// RoutePattern returns a pattern matching the paths of route: each
// placeholder ("{id}") stands for one non-empty path segment.
func RoutePattern(route string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for {
		open := strings.IndexByte(route, '{')
		end := strings.IndexByte(route, '}')
		if open < 0 || end < open {
			break
		}
		b.WriteString(regexp.QuoteMeta(route[:open]))
		b.WriteString("[^/]+")
		route = route[end+1:]
	}
	b.WriteString(regexp.QuoteMeta(route))
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// TestMethod checks that c was sent with method to url, the base URL of
// its interface, path and query, as a literal of the test: a change of
// route or interface in the endpoint table shows here.
func TestMethod(t testing.TB, c Captured, method, url string) {
	t.Helper()
	if c.Method != method || c.URL != url {
		t.Errorf("sent %s %s, want %s %s", c.Method, c.URL, method, url)
	}
}

// TestBody checks the headers and body of c: a JSON object with
// Content-Type application/json when withBody, no body and no Content-Type
// otherwise, and the credentials, Accept and User-Agent of every call.
func TestBody(t testing.TB, c Captured, iface rxdelivery.Interface, withBody bool) {
	t.Helper()
	AssertHeaders(t, c, iface, withBody)
	if withBody && (len(c.Body) == 0 || c.Body[0] != '{') {
		t.Errorf("body %q, want a JSON object", c.Body)
	}
}

// ErrorResponder fails every request with err before any response, as a
// refused or reset connection does.
func ErrorResponder(err error) func(*http.Request) (*http.Response, error) {
	return func(*http.Request) (*http.Response, error) { return nil, err }
}
