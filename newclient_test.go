package rxdelivery_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
)

var allInterfaces = []rxdelivery.Interface{rxdelivery.Omni, rxdelivery.Delivery, rxdelivery.Tracking, rxdelivery.Pricing}

// TestNewClientRefusesAnInterfaceWithoutUsableCredentials checks that
// every interface configured with a base URL and no usable credentials is
// refused by NewClient with a *ConfigError, as NewClientFromEnv refuses
// it, whatever the options' order: no key and secret at all, empty ones
// given per interface over a client-wide pair, blank ones, a key with a
// colon (Basic authentication cannot carry it) or a control character in
// either (a line break read from a file). A client built anyway would send
// every call with credentials the platform refuses. The message names the
// interface and never quotes a key or a secret.
func TestNewClientRefusesAnInterfaceWithoutUsableCredentials(t *testing.T) {
	const u = "http://127.0.0.1:8787"
	type build func(iface rxdelivery.Interface) (*rxdelivery.Client, error)
	cases := map[string]build{
		"no key and secret": func(i rxdelivery.Interface) (*rxdelivery.Client, error) {
			return rxdelivery.NewClient("", "", rxdelivery.WithBaseURL(i, u))
		},
		"empty own pair over a client-wide one": func(i rxdelivery.Interface) (*rxdelivery.Client, error) {
			return rxdelivery.NewClient("key-0001", "secret-0001", rxdelivery.WithCredentials(i, "", ""), rxdelivery.WithBaseURL(i, u))
		},
		"empty own pair, URL first": func(i rxdelivery.Interface) (*rxdelivery.Client, error) {
			return rxdelivery.NewClient("key-0001", "secret-0001", rxdelivery.WithBaseURL(i, u), rxdelivery.WithCredentials(i, "", ""))
		},
		"blank key": func(i rxdelivery.Interface) (*rxdelivery.Client, error) {
			return rxdelivery.NewClient(" ", "secret-0001", rxdelivery.WithBaseURL(i, u))
		},
		"blank own secret": func(i rxdelivery.Interface) (*rxdelivery.Client, error) {
			return rxdelivery.NewClient("", "", rxdelivery.WithBaseURL(i, u), rxdelivery.WithCredentials(i, "key-0001", "\t"))
		},
		"key with a colon": func(i rxdelivery.Interface) (*rxdelivery.Client, error) {
			return rxdelivery.NewClient("key-0001:x", "secret-0001", rxdelivery.WithBaseURL(i, u))
		},
		"secret with a line break": func(i rxdelivery.Interface) (*rxdelivery.Client, error) {
			return rxdelivery.NewClient("key-0001", "secret-0001\n", rxdelivery.WithBaseURL(i, u))
		},
		"own key with a NUL": func(i rxdelivery.Interface) (*rxdelivery.Client, error) {
			return rxdelivery.NewClient("", "", rxdelivery.WithCredentials(i, "key-0001\x00", "secret-0001"), rxdelivery.WithBaseURL(i, u))
		},
		"from the environment, own key with a line break": func(i rxdelivery.Interface) (*rxdelivery.Client, error) {
			t.Setenv(rxdelivery.EnvAPIKey, "")
			t.Setenv(rxdelivery.EnvAPISecret, "")
			for _, other := range allInterfaces {
				t.Setenv(envOf(other, "URL"), "")
			}
			t.Setenv(envOf(i, "URL"), u)
			t.Setenv(envOf(i, "API_KEY"), "key-0001\r\n")
			t.Setenv(envOf(i, "API_SECRET"), "secret-0001")
			return rxdelivery.NewClientFromEnv()
		},
	}
	for name, mk := range cases {
		for _, iface := range allInterfaces {
			c, err := mk(iface)
			var ce *rxdelivery.ConfigError
			require.ErrorAs(t, err, &ce, "%s, %s", name, iface)
			assert.Nil(t, c)
			assert.Contains(t, err.Error(), iface.String(), name)
			assert.NotContains(t, err.Error(), "0001", "%s: the message quotes no credential", name)
		}
	}

	// What remains valid: an interface without a base URL needs no
	// credentials, and one with its own is enough.
	c, err := rxdelivery.NewClient("", "")
	require.NoError(t, err, "a client with no base URL at all (its calls name the option to set)")
	_, err = c.Orders.Get(context.Background(), "ord_1")
	require.ErrorIs(t, err, rxdelivery.ErrNoBaseURL)
	_, err = rxdelivery.NewClient("", "", rxdelivery.WithTrackingURL(u), rxdelivery.WithCredentials(rxdelivery.Tracking, "trk key", "trk:secret ~é"))
	require.NoError(t, err, "spaces, a colon in the secret and text beyond ASCII are credentials Basic carries")
	_, err = rxdelivery.NewClient("", "", rxdelivery.WithCredentials(rxdelivery.Pricing, "", ""))
	require.NoError(t, err, "empty credentials of an interface without a base URL")
}

// envOf is the variable NewClientFromEnv reads for iface: suffix "URL" or
// "API_KEY".
func envOf(iface rxdelivery.Interface, suffix string) string {
	return "RXDELIVERY_" + strings.ToUpper(iface.String()) + "_" + suffix
}
