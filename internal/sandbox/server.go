package sandbox

import (
	"net/http"
	"net/http/httptest"
)

// Server is a Sandbox listening on a loopback port (plain http), for tests
// and example programs. It embeds the Sandbox, so faults, stats and test
// helpers are called on it directly.
type Server struct {
	*Sandbox
	ts *httptest.Server
}

// NewServer starts a Sandbox configured by cfg on a random loopback port.
// Call Close when done.
func NewServer(cfg Config) *Server {
	sb := New(cfg)
	return &Server{Sandbox: sb, ts: httptest.NewServer(sb)}
}

// URL returns the server's root URL, such as http://127.0.0.1:40123.
func (s *Server) URL() string { return s.ts.URL }

// BaseURL returns the base URL of one interface: URL() plus the
// interface's Prefix.
func (s *Server) BaseURL(i Interface) string { return s.ts.URL + i.Prefix() }

// OmniURL returns the omni interface's base URL (ending in /omni).
func (s *Server) OmniURL() string { return s.BaseURL(Omni) }

// DeliveryURL returns the delivery interface's base URL (ending in
// /delivery).
func (s *Server) DeliveryURL() string { return s.BaseURL(Delivery) }

// TrackingURL returns the tracking interface's base URL (ending in
// /tracking).
func (s *Server) TrackingURL() string { return s.BaseURL(Tracking) }

// PricingURL returns the pricing interface's base URL (ending in
// /pricing).
func (s *Server) PricingURL() string { return s.BaseURL(Pricing) }

// Client returns an http.Client suited to the server (no proxy, its own
// connection pool).
func (s *Server) Client() *http.Client { return s.ts.Client() }

// Close stops the sandbox (scheduler, notifications, slow faults), then
// the listener, waiting for calls in progress.
func (s *Server) Close() {
	s.Sandbox.Close()
	s.ts.Close()
}
