// Package simclient holds the options of an SDK client pointed at the
// simulator (internal/sandbox), which the public test kit (rxdeliverytest)
// and the SDK's own test harness (internal/testutil) both give their
// clients.
package simclient

import (
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/sandbox"
)

// URLs returns the options that point a client's four interfaces at the
// simulator serving at root (its URL, such as http://127.0.0.1:40123):
// each interface's base URL is root and the interface's prefix.
func URLs(root string) []rxdelivery.Option {
	return []rxdelivery.Option{
		rxdelivery.WithOmniURL(root + sandbox.Omni.Prefix()),
		rxdelivery.WithDeliveryURL(root + sandbox.Delivery.Prefix()),
		rxdelivery.WithTrackingURL(root + sandbox.Tracking.Prefix()),
		rxdelivery.WithPricingURL(root + sandbox.Pricing.Prefix()),
	}
}

// Options returns the options of a test's client on the simulator serving
// at root: URLs, sandbox mode, and retry waits of a few milliseconds, so
// that tests of retries do not wait.
func Options(root string) []rxdelivery.Option {
	return append(URLs(root),
		rxdelivery.WithSandbox(true),
		rxdelivery.WithRetryWaitMin(time.Millisecond),
		rxdelivery.WithRetryWaitMax(10*time.Millisecond),
	)
}
