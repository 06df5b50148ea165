package rxdeliverytest

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/sandbox"
	"github.com/rxdelivery/rxdelivery-go/internal/simclient"
)

// Default credentials of a [Server] started without [WithCredentials]. Any
// client you build yourself must send them ([Server.NewClient] does).
const (
	DefaultKey    = "rxdeliverytest_key"
	DefaultSecret = "rxdeliverytest_secret"
)

// DefaultStart is the time the manual clock of a [Server] reads when it
// starts, unless [WithStartTime] says otherwise. It is fixed so that
// timestamps in a test's output are the same on every run.
var DefaultStart = time.Date(2026, time.March, 2, 9, 0, 0, 0, time.UTC)

// DefaultOrderCadence is the time between two automatic status changes of a
// delivery order (and between two tracking events of a shipping order)
// unless [WithOrderCadence] says otherwise. Omni requests follow the
// duration_between of their test_meta instead (30 seconds when unset).
const DefaultOrderCadence = 30 * time.Second

// Option configures a [Server].
type Option func(*config)

type config struct {
	key, secret   string
	start         time.Time
	realClock     bool
	cadence       time.Duration
	pharmacies    []Pharmacy
	setPharmacies bool
	clientOpts    []rxdelivery.Option
	listenClient  *http.Client
	listener      net.Listener
	logger        *slog.Logger
	callLimit     int
	// extraRoutes and extraHandlers serve a test-only endpoint beside the
	// documents' (sandbox.Config.ExtraRoutes): set by the endpoint walk
	// test alone (walk_test.go).
	extraRoutes   []sandbox.Route
	extraHandlers map[string]sandbox.Handler
}

// WithCredentials sets the API key and secret the simulator accepts on all
// four interfaces and on its control API ([DefaultKey] and [DefaultSecret]
// otherwise). [Server.Client] authenticates with them.
func WithCredentials(key, secret string) Option {
	return func(c *config) { c.key, c.secret = key, secret }
}

// WithStartTime sets the time the manual clock reads at start
// ([DefaultStart] otherwise). It has no effect with [WithRealClock].
func WithStartTime(t time.Time) Option {
	return func(c *config) { c.start = t }
}

// WithRealClock runs the simulator on real time: scenarios and couriers
// move by themselves, and [Server.Advance] still jumps ahead without
// waiting. A call shows every step due when it arrived, so a status is
// visible from its occurred_at on. Tests rarely want it; standalone servers and demo programs do.
func WithRealClock() Option {
	return func(c *config) { c.realClock = true }
}

// WithOrderCadence sets the time between two automatic status changes of a
// delivery order and between two tracking events of a shipping order
// ([DefaultOrderCadence] otherwise). A negative d turns automatic
// progression off: orders then move only with [Server.SetOrderStatus] and
// [Server.Track].
func WithOrderCadence(d time.Duration) Option {
	return func(c *config) { c.cadence = d }
}

// WithPharmacies replaces the simulator's built-in pharmacies (see
// [BuiltinPharmacies]) from the start. [Server.SetPharmacies] changes them
// later.
func WithPharmacies(list ...Pharmacy) Option {
	return func(c *config) { c.pharmacies, c.setPharmacies = list, true }
}

// WithClientOptions adds options to the client [Server.Client] returns.
// They apply after the kit's own (base URLs, sandbox mode, credentials,
// tiny retry waits), so they may override any of them.
func WithClientOptions(opts ...rxdelivery.Option) Option {
	return func(c *config) { c.clientOpts = append(c.clientOpts, opts...) }
}

// WithListenerClient sets the HTTP client the simulator posts tracking
// notifications with to listener URLs that are not the in-process ones of
// [Server.Listener], such as a real https server started by the test.
// Without it such notifications use a client with default TLS settings.
func WithListenerClient(hc *http.Client) Option {
	return func(c *config) { c.listenClient = hc }
}

// WithListener makes the simulator serve on ln (for instance one listening
// on a fixed address such as 127.0.0.1:8787) instead of a random loopback
// port. The server closes ln when it stops.
func WithListener(ln net.Listener) Option {
	return func(c *config) { c.listener = ln }
}

// WithCallLog makes the simulator log one line per call it serves to l:
// operation, method, route template and status, never a query, a body or a
// header.
func WithCallLog(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// DefaultCallRecordLimit is the number of calls [Server.Calls] keeps (the
// latest) unless [WithCallRecordLimit] says otherwise.
const DefaultCallRecordLimit = 10000

// WithCallRecordLimit sets how many calls [Server.Calls] keeps, the latest
// ones ([DefaultCallRecordLimit] otherwise); n below zero keeps every call,
// for a test that makes more and needs each, and zero is the default.
// [Server.CallCounts] counts every call whatever the limit. The limit
// bounds the record of notifications ([Server.Notifications]) too.
func WithCallRecordLimit(n int) Option {
	return func(c *config) { c.callLimit = n }
}

// advancer is the clock of a Server.
type advancer interface {
	sandbox.Clock
	Advance(d time.Duration)
}

// Server is a running simulator of the platform's four interfaces (omni
// requests and pharmacy lookup, delivery orders, tracking subscriptions,
// pricing quotes) on a loopback port, with a client pointed at it and the
// controls a test needs. It is safe for concurrent use.
type Server struct {
	sb        *sandbox.Sandbox
	ts        *httptest.Server
	clock     advancer
	key       string
	secret    string
	client    *rxdelivery.Client
	clientOps []rxdelivery.Option
	listeners *listenerTransport
	closeOnce sync.Once
	// realClock is true with WithRealClock: the watches of the server's
	// clients then sleep in real time (PollClock).
	realClock bool
}

// Start starts a [Server] configured by opts and stops it when the test
// ends (through tb.Cleanup). It fails the test when the server or its
// client cannot be set up.
func Start(tb testing.TB, opts ...Option) *Server {
	tb.Helper()
	s, err := newServer(opts)
	if err != nil {
		tb.Fatalf("rxdeliverytest: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}

// NewServer starts a [Server] configured by opts, for code that has no
// [testing.TB] (an Example function, a program). Call [Server.Close] when
// done. It panics when the server or its client cannot be set up.
func NewServer(opts ...Option) *Server {
	s, err := newServer(opts)
	if err != nil {
		panic("rxdeliverytest: " + err.Error())
	}
	return s
}

func newServer(opts []Option) (*Server, error) {
	cfg := config{key: DefaultKey, secret: DefaultSecret, start: DefaultStart, cadence: DefaultOrderCadence, callLimit: DefaultCallRecordLimit}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.key == "" || cfg.secret == "" {
		return nil, fmt.Errorf("WithCredentials needs a non-empty key and secret")
	}
	s := &Server{key: cfg.key, secret: cfg.secret, listeners: newListenerTransport(cfg.listenClient), realClock: cfg.realClock}
	if cfg.realClock {
		s.clock = sandbox.NewShiftClock()
	} else {
		start := cfg.start
		if start.IsZero() {
			start = DefaultStart
		}
		s.clock = sandbox.NewManualClock(start)
	}
	sc := sandbox.Config{
		Key:          cfg.key,
		Secret:       cfg.secret,
		Clock:        s.clock,
		OrderCadence: cfg.cadence,
		NotifyClient: &http.Client{Transport: s.listeners, Timeout: 10 * time.Second},
		Logger:       cfg.logger,
		MaxCalls:     cfg.callLimit,

		ExtraRoutes:   cfg.extraRoutes,
		ExtraHandlers: cfg.extraHandlers,
	}
	if cfg.setPharmacies {
		sc.Pharmacies = toSandboxPharmacies(cfg.pharmacies)
		if sc.Pharmacies == nil {
			sc.Pharmacies = []sandbox.Pharmacy{}
		}
	}
	s.sb = sandbox.New(sc)

	mux := http.NewServeMux()
	mux.Handle(ControlPrefix+"/", s.controlHandler())
	mux.Handle("/", s.sb)
	s.ts = httptest.NewUnstartedServer(sandbox.Observe(mux))
	if cfg.listener != nil {
		_ = s.ts.Listener.Close()
		s.ts.Listener = cfg.listener
	}
	s.ts.Config.ReadHeaderTimeout = 10 * time.Second
	s.ts.Start()

	s.clientOps = cfg.clientOpts
	c, err := s.NewClient()
	if err != nil {
		s.Close()
		return nil, err
	}
	s.client = c
	return s, nil
}

// Close stops the simulator: it ends stalled calls and notifications in
// progress, stops the listener and drops the client's idle connections. It
// may be called more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.sb.Close()
		s.ts.Close()
		if s.client != nil {
			s.client.CloseIdleConnections()
		}
		s.listeners.closeIdle()
	})
}

// Client returns the client pointed at the simulator: sandbox mode, the
// server's credentials on all four interfaces, retry waits of a few
// milliseconds, watches that wait on [Server.PollClock], then the options
// of [WithClientOptions]. Every call returns the same client.
func (s *Server) Client() *rxdelivery.Client { return s.client }

// NewClient returns a further client pointed at the simulator, built as
// [Server.Client]'s was and then with opts (for instance to test with other
// retry settings or another logger). Close the server, or call the client's
// [rxdelivery.Client.CloseIdleConnections], when done.
func (s *Server) NewClient(opts ...rxdelivery.Option) (*rxdelivery.Client, error) {
	base := append(simclient.Options(s.URL()), rxdelivery.WithClock(s.PollClock()))
	all := append(append(base, s.clientOps...), opts...)
	return rxdelivery.NewClient(s.key, s.secret, all...)
}

// URL returns the server's root URL, such as http://127.0.0.1:40123.
func (s *Server) URL() string { return s.ts.URL }

// OmniURL returns the base URL of the omni interface (URL()+"/omni").
func (s *Server) OmniURL() string { return s.ts.URL + sandbox.Omni.Prefix() }

// DeliveryURL returns the base URL of the delivery interface
// (URL()+"/delivery").
func (s *Server) DeliveryURL() string { return s.ts.URL + sandbox.Delivery.Prefix() }

// TrackingURL returns the base URL of the tracking interface
// (URL()+"/tracking").
func (s *Server) TrackingURL() string { return s.ts.URL + sandbox.Tracking.Prefix() }

// PricingURL returns the base URL of the pricing interface
// (URL()+"/pricing").
func (s *Server) PricingURL() string { return s.ts.URL + sandbox.Pricing.Prefix() }

// Credentials returns the API key and secret the simulator accepts.
func (s *Server) Credentials() (key, secret string) { return s.key, s.secret }

// EnvLines returns the RXDELIVERY_* lines (NAME=value) that point
// [rxdelivery.NewClientFromEnv], or a program in another language, at the
// simulator. With secrets false the key and secret lines are left out.
func (s *Server) EnvLines(secrets bool) []string {
	lines := []string{}
	if secrets {
		lines = append(lines, rxdelivery.EnvAPIKey+"="+s.key, rxdelivery.EnvAPISecret+"="+s.secret)
	}
	return append(lines,
		rxdelivery.EnvOmniURL+"="+s.OmniURL(),
		rxdelivery.EnvDeliveryURL+"="+s.DeliveryURL(),
		rxdelivery.EnvTrackingURL+"="+s.TrackingURL(),
		rxdelivery.EnvPricingURL+"="+s.PricingURL(),
		rxdelivery.EnvSandbox+"=true",
	)
}

// Now returns the simulator's current time.
func (s *Server) Now() time.Time { return s.clock.Now().UTC() }

// Advance moves the simulator's clock forward by d and, before returning,
// applies every transition that became due, in time order: omni scenario
// steps, courier progress of delivery orders, tracking events of shipping
// orders, and the tracking notifications they cause (delivered to their
// listeners, including in-process ones, before Advance returns). Nothing
// sleeps. A d of zero or less does not move the clock.
func (s *Server) Advance(d time.Duration) { s.clock.Advance(d) }

// trimPrefix returns path without its interface prefix.
func trimPrefix(path string) string {
	for _, i := range sandbox.Interfaces {
		if p := i.Prefix(); strings.HasPrefix(path, p+"/") {
			return path[len(p):]
		}
	}
	return path
}
