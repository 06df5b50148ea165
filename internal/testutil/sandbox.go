package testutil

import (
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/sandbox"
	"github.com/rxdelivery/rxdelivery-go/internal/simclient"
)

// SandboxStart is the instant a sandbox started by StartSandbox reads on
// its manual clock.
var SandboxStart = time.Date(2026, time.March, 2, 9, 0, 0, 0, time.UTC)

// Sandbox is a simulator with a manual clock and a client pointed at it.
type Sandbox struct {
	// Server is the running simulator.
	Server *sandbox.Server
	// Clock drives the simulator's scenarios: Advance moves them on.
	Clock *sandbox.ManualClock
	// Client is a sandbox-mode client on the simulator's four interfaces.
	Client *rxdelivery.Client
}

// StartSandbox starts a simulator on a manual clock and returns it with a
// client (key "key", secret "secret", tiny retry waits). opts apply last.
// Call Close when done.
func StartSandbox(opts ...rxdelivery.Option) *Sandbox {
	return StartSandboxWith(sandbox.Config{}, opts...)
}

// StartSandboxWith is StartSandbox with a simulator configured by cfg; its
// key, secret and clock are set as StartSandbox sets them.
func StartSandboxWith(cfg sandbox.Config, opts ...rxdelivery.Option) *Sandbox {
	clock := sandbox.NewManualClock(SandboxStart)
	cfg.Key, cfg.Secret, cfg.Clock = "key", "secret", clock
	srv := sandbox.NewServer(cfg)
	client, err := rxdelivery.NewClient("key", "secret", append(simclient.Options(srv.URL()), opts...)...)
	if err != nil {
		srv.Close()
		panic("testutil: " + err.Error())
	}
	return &Sandbox{Server: srv, Clock: clock, Client: client}
}

// Close stops the simulator and drops the client's idle connections.
func (s *Sandbox) Close() {
	s.Client.CloseIdleConnections()
	s.Server.Close()
}
