package rxdelivery

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/header"
	"github.com/rxdelivery/rxdelivery-go/internal/wiring"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// Version is the SDK's version; it is sent in the User-Agent header
// ("rxdelivery-go/" + Version).
const Version = "0.1.0"

// defaultUserAgent is the User-Agent of a client that sets none.
const defaultUserAgent = "rxdelivery-go/" + Version

// Environment variables read by [NewClientFromEnv].
const (
	EnvAPIKey      = "RXDELIVERY_API_KEY"
	EnvAPISecret   = "RXDELIVERY_API_SECRET"
	EnvOmniURL     = "RXDELIVERY_OMNI_URL"
	EnvDeliveryURL = "RXDELIVERY_DELIVERY_URL"
	EnvTrackingURL = "RXDELIVERY_TRACKING_URL"
	EnvPricingURL  = "RXDELIVERY_PRICING_URL"
	EnvSandbox     = "RXDELIVERY_SANDBOX"
	// EnvProgramID holds the omni program identifier (see [WithProgramID]).
	EnvProgramID = "RXDELIVERY_PROGRAM_ID"
)

// Client is the entry point of the SDK: it holds the credentials and base
// URLs of the platform's four interfaces and hands out one service per
// interface. A Client is safe for concurrent use by many goroutines and is
// meant to be made once and shared: it keeps a pool of keep-alive
// connections.
//
// Make a Client with [NewClient] or [NewClientFromEnv]. The zero Client is
// not usable: its service fields are nil, and calling a method through them
// panics with a nil pointer dereference, as calling a method of a nil
// *http.Client does. Its own methods ([Client.Sandbox],
// [Client.CloseIdleConnections]) are safe on the zero value. A nil
// [context.Context] given to any call is refused with a *[ConfigError], as
// net/http refuses one, rather than a panic.
type Client struct {
	// Requests creates, cancels and reads omni requests.
	Requests *requests.Service
	// Orders creates, cancels and reads delivery orders and edits their
	// prescriptions.
	Orders *orders.Service
	// Pharmacies looks up pharmacies and their delivery information.
	Pharmacies *pharmacies.Service
	// Tracking subscribes tracking numbers to notifications.
	Tracking *tracking.Service
	// Pricing quotes delivery prices.
	Pricing *pricing.Service

	shared  *core.Shared
	sandbox bool
	// backends are the interfaces' backends, for Do.
	backends [len(rxtypes.Interfaces)]*core.Backend
}

// NewClient returns a [Client] that authenticates with key and secret on
// every interface ([WithCredentials] overrides them per interface). Base
// URLs are set with options; no host is assumed. A call on an interface
// whose base URL is missing fails with an error that names the option to
// set.
//
// NewClient returns a *[ConfigError], and no client, for what could not be
// sent: an interface with a base URL and no usable credentials (none,
// blank ones, a key with a colon, a control character in either), a base
// URL that is not an absolute http(s) URL or has a port outside 1-65535,
// a header or User-Agent that cannot be sent. Its message names the
// option and never quotes a credential or a header's value.
func NewClient(key, secret string, opts ...Option) (*Client, error) {
	s := defaultSettings()
	applyOptions(s, opts)
	return newClient(key, secret, s)
}

// NewClientFromEnv returns a [Client] configured from the environment:
// RXDELIVERY_API_KEY and RXDELIVERY_API_SECRET, RXDELIVERY_OMNI_URL,
// RXDELIVERY_DELIVERY_URL, RXDELIVERY_TRACKING_URL, RXDELIVERY_PRICING_URL,
// RXDELIVERY_SANDBOX ("1" or "true" marks a sandbox) and
// RXDELIVERY_PROGRAM_ID (the omni program identifier, as [WithProgramID]
// sets it). Per-interface credentials may be given as
// RXDELIVERY_TRACKING_API_KEY and RXDELIVERY_TRACKING_API_SECRET (likewise
// OMNI, DELIVERY, PRICING). Options apply after the environment.
//
// RXDELIVERY_API_KEY and RXDELIVERY_API_SECRET are needed only for an
// interface that has a base URL and no credentials of its own: a process
// that talks to tracking alone may set RXDELIVERY_TRACKING_URL and the
// tracking key and secret, and nothing else. The error for missing
// credentials names the interfaces that lack them.
func NewClientFromEnv(opts ...Option) (*Client, error) {
	s := defaultSettings()
	key, secret := os.Getenv(EnvAPIKey), os.Getenv(EnvAPISecret)
	if (key == "") != (secret == "") {
		return nil, &rxtypes.ConfigError{Message: EnvAPIKey + " and " + EnvAPISecret + " must be set together"}
	}
	for _, iface := range rxtypes.Interfaces {
		s.urls[iface] = strings.TrimSpace(os.Getenv(iface.URLEnv()))
		prefix := "RXDELIVERY_" + strings.ToUpper(iface.String()) + "_API_"
		k, sec := os.Getenv(prefix+"KEY"), os.Getenv(prefix+"SECRET")
		if k != "" || sec != "" {
			s.creds[iface] = &core.Credentials{Key: k, Secret: sec}
		}
	}
	s.programID = strings.TrimSpace(os.Getenv(EnvProgramID))
	if v := strings.TrimSpace(os.Getenv(EnvSandbox)); v != "" {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return nil, &rxtypes.ConfigError{Message: EnvSandbox + " must be 1, true, 0 or false"}
		}
		s.cfg.Sandbox = on
	}
	applyOptions(s, opts)
	if key == "" {
		if err := s.uncoveredInterfaces(); err != nil {
			return nil, err
		}
	}
	return newClient(key, secret, s)
}

// uncoveredInterfaces returns a *ConfigError when no client-wide key is
// set and some interface with a base URL has no credentials of its own, or
// when no interface has a base URL at all; nil otherwise.
func (s *settings) uncoveredInterfaces() error {
	var missing []string
	configured := 0
	for _, iface := range rxtypes.Interfaces {
		if s.urls[iface] == "" {
			continue
		}
		configured++
		if s.creds[iface] == nil {
			missing = append(missing, iface.String())
		}
	}
	switch {
	case configured == 0:
		return &rxtypes.ConfigError{Message: EnvAPIKey + " and " + EnvAPISecret + " must be set, or an interface's base URL with its own key and secret"}
	case len(missing) > 0:
		return &rxtypes.ConfigError{Message: EnvAPIKey + " and " + EnvAPISecret + " must be set: the " +
			strings.Join(missing, ", ") + " interface has a base URL and no key of its own (RXDELIVERY_<INTERFACE>_API_KEY)"}
	}
	return nil
}

func defaultSettings() *settings {
	return &settings{
		retryBudget: DefaultRetryBudget,
		cfg: core.Config{
			RetryWaitMin: core.DefaultRetryWaitMin,
			RetryWaitMax: core.DefaultRetryWaitMax,
			MaxPause:     DefaultMaxPause,
			Validate:     true,
		},
	}
}

// callDefaults returns the defaults of every call of the client s
// configures: its call options applied once, with DefaultAttemptTimeout
// when none sets the bound (NewShared puts DefaultRetryMax in when none
// sets the retries).
func (s *settings) callDefaults() (option.Settings, error) {
	defaults, err := option.ClientDefaults(s.calls)
	if err == nil && defaults.AttemptTimeout == nil {
		defaults.AttemptTimeout = ptr(DefaultAttemptTimeout)
	}
	return defaults, err
}

func newClient(key, secret string, s *settings) (*Client, error) {
	if (key == "") != (secret == "") {
		return nil, &rxtypes.ConfigError{Message: "the API key and secret must be given together"}
	}
	ua := defaultUserAgent
	if t := strings.TrimSpace(s.userAgent); t != "" {
		if !header.ValidValue(t) {
			return nil, &rxtypes.ConfigError{Message: "WithUserAgent: the product token has a line break or another control character; it cannot be sent in the User-Agent header"}
		}
		ua = t + " " + ua
	}
	if s.cfg.RetryWaitMin > s.cfg.RetryWaitMax {
		s.cfg.RetryWaitMin = s.cfg.RetryWaitMax
	}
	defaults, err := s.callDefaults()
	if err != nil {
		return nil, err
	}
	var limits [len(rxtypes.Interfaces)]*core.Limiter
	for i, l := range s.limits {
		if l != nil {
			limits[i] = core.NewLimiter(l.perSecond, l.burst)
		}
	}
	cfg := s.cfg
	cfg.UserAgent, cfg.Defaults, cfg.RateLimits = ua, defaults, limits
	cfg.RetryBudget = core.NewBudget(s.retryBudget)
	shared := core.NewShared(cfg)
	var backends [len(rxtypes.Interfaces)]*core.Backend
	for _, iface := range rxtypes.Interfaces {
		creds, err := s.credentials(iface, key, secret)
		if err != nil {
			return nil, err
		}
		b, err := shared.NewBackend(iface, s.urls[iface], creds, s.enc[iface])
		if err != nil {
			return nil, err
		}
		backends[iface] = b
	}
	return &Client{
		Requests:   wiring.Requests(backends[Omni], s.programID).(*requests.Service),
		Orders:     wiring.Orders(backends[Delivery]).(*orders.Service),
		Pharmacies: wiring.Pharmacies(backends[Omni], backends[Delivery]).(*pharmacies.Service),
		Tracking:   wiring.Tracking(backends[Tracking]).(*tracking.Service),
		Pricing:    wiring.Pricing(backends[Pricing]).(*pricing.Service),
		shared:     shared,
		sandbox:    s.cfg.Sandbox,
		backends:   backends,
	}, nil
}

// credentials returns the credentials of iface: its own (WithCredentials,
// RXDELIVERY_<INTERFACE>_API_KEY) or the client's key and secret. It
// refuses an interface that has a base URL and no usable credentials, so
// that a client never sends a call without them: no key and secret, or a
// blank one, a key with a colon, or a control character in either (which
// Basic authentication cannot carry, RFC 7617). The messages never quote
// a key or a secret.
func (s *settings) credentials(iface rxtypes.Interface, key, secret string) (core.Credentials, error) {
	creds := core.Credentials{Key: key, Secret: secret}
	own := s.creds[iface]
	if own != nil {
		if (own.Key == "") != (own.Secret == "") {
			return creds, &rxtypes.ConfigError{Message: fmt.Sprintf("the %s API key and secret must be given together", iface)}
		}
		creds = *own
	}
	if s.urls[iface] == "" {
		return creds, nil
	}
	fix := "pass a key and secret to NewClient, or use WithCredentials(" + interfaceName(iface) + ", key, secret)"
	if own != nil {
		fix = "fix the key and secret given to WithCredentials(" + interfaceName(iface) + ", ...)"
	}
	switch {
	case creds.Key == "" && creds.Secret == "":
		return creds, &rxtypes.ConfigError{Message: fmt.Sprintf("the %s interface has a base URL and no API key and secret: %s", iface, fix)}
	case strings.TrimSpace(creds.Key) == "" || strings.TrimSpace(creds.Secret) == "":
		return creds, &rxtypes.ConfigError{Message: fmt.Sprintf("the %s API key or secret is blank: %s", iface, fix)}
	case strings.Contains(creds.Key, ":"):
		return creds, &rxtypes.ConfigError{Message: fmt.Sprintf("the %s API key has a colon, which Basic authentication cannot carry: %s", iface, fix)}
	case hasControl(creds.Key) || hasControl(creds.Secret):
		return creds, &rxtypes.ConfigError{Message: fmt.Sprintf("the %s API key or secret has a line break or another control character: %s", iface, fix)}
	}
	return creds, nil
}

// interfaceName is the name of iface's constant, as a caller writes it.
func interfaceName(iface rxtypes.Interface) string {
	switch iface {
	case Omni:
		return "rxdelivery.Omni"
	case Delivery:
		return "rxdelivery.Delivery"
	case Tracking:
		return "rxdelivery.Tracking"
	}
	return "rxdelivery.Pricing"
}

// hasControl reports whether s holds a control character (RFC 5234's
// CTL: below space, or DEL), which no credential has: most often a line
// break read with it from a file.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// Sandbox reports whether the client was configured for a sandbox
// environment.
func (c *Client) Sandbox() bool { return c.sandbox }

// CloseIdleConnections closes the idle keep-alive connections of the
// client's pool. Calls made afterwards open new ones. It is rarely needed:
// a long-running process keeps one Client for its lifetime.
func (c *Client) CloseIdleConnections() {
	if c != nil && c.shared != nil {
		c.shared.CloseIdleConnections()
	}
}

func ptr[T any](v T) *T { return &v }
