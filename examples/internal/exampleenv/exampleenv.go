// Package exampleenv connects the example programs to a platform
// environment, so that no example repeats that bootstrap.
//
// When RXDELIVERY_API_KEY is set, Connect builds the client from the
// RXDELIVERY_* variables with rxdelivery.NewClientFromEnv, exactly as a
// service would. When it is not, Connect starts the SDK's simulator on a
// loopback port with the public test kit (rxdeliverytest), on the real clock
// and a one-second order cadence so that deliveries finish in seconds, and
// points a sandbox client at it. Either way
// the example code receives a plain *rxdelivery.Client.
package exampleenv

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// EnvProgramID names the variable holding the program identifier the
// platform issued to the caller; omni requests carry it in their identifier
// field. It is read only when the examples run against a real environment.
const EnvProgramID = rxdelivery.EnvProgramID

// Vars lists the environment variables the examples read: those of
// rxdelivery.NewClientFromEnv and EnvProgramID. Tests clear them to force
// the offline mode.
var Vars = []string{
	rxdelivery.EnvAPIKey,
	rxdelivery.EnvAPISecret,
	rxdelivery.EnvOmniURL,
	rxdelivery.EnvDeliveryURL,
	rxdelivery.EnvTrackingURL,
	rxdelivery.EnvPricingURL,
	rxdelivery.EnvSandbox,
	EnvProgramID,
}

// DefaultOrderCadence is the time between two automatic status changes of a
// simulated delivery order (and between two tracking events of a simulated
// shipment) when ConnectOptions.OrderCadence is zero.
const DefaultOrderCadence = time.Second

// Offline settings: the credentials the simulator accepts and the program
// identifier the examples send to it.
const (
	offlineKey       = "example_key"
	offlineSecret    = "example_secret"
	offlineProgramID = "prog_example"
)

// userAgent is the product token the examples add to the SDK's.
const userAgent = "rxdelivery-go-examples"

// ConnectOptions tunes Connect. The zero value is what most examples use.
type ConnectOptions struct {
	// TrustListenerCert is a certificate the simulator trusts when it POSTs
	// tracking notifications to a listener URL, typically the self-signed
	// certificate of a listener on loopback. Offline only; nil keeps the
	// system's roots.
	TrustListenerCert *x509.Certificate
	// OrderCadence is the time between two automatic status changes of a
	// simulated order. Offline only; zero means DefaultOrderCadence.
	OrderCadence time.Duration
	// ClientOptions are applied after the ones Connect sets, online and
	// offline; tests use them to shorten retries, for instance.
	ClientOptions []rxdelivery.Option
	// Log receives the line that says which environment is used; nil means
	// os.Stdout.
	Log io.Writer
}

// Env is a connected client and, offline, the simulator behind it.
type Env struct {
	// Client is the SDK client to use.
	Client *rxdelivery.Client
	// Offline is true when Client talks to the built-in simulator.
	Offline bool
	// Sim is the built-in simulator; nil when Offline is false. Examples use
	// it only to inject failures that a real platform cannot be asked for.
	Sim *rxdeliverytest.Server
	// ProgramID is the program identifier for omni requests: the value of
	// RXDELIVERY_PROGRAM_ID online, a fixed one offline.
	ProgramID string

	notify    *http.Client
	closeOnce sync.Once
}

// Connect is ConnectWith with the zero ConnectOptions.
func Connect(ctx context.Context) (*Env, error) {
	return ConnectWith(ctx, ConnectOptions{})
}

// ConnectWith returns an Env for the environment the variables describe, or
// for a newly started simulator when RXDELIVERY_API_KEY is empty, and
// prints one line saying which. Call Close when done.
func ConnectWith(ctx context.Context, o ConnectOptions) (*Env, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	log := o.Log
	if log == nil {
		log = os.Stdout
	}
	if os.Getenv(rxdelivery.EnvAPIKey) != "" {
		return connectOnline(log, o)
	}
	return connectOffline(log, o)
}

func connectOnline(log io.Writer, o ConnectOptions) (*Env, error) {
	opts := append([]rxdelivery.Option{rxdelivery.WithUserAgent(userAgent)}, o.ClientOptions...)
	c, err := rxdelivery.NewClientFromEnv(opts...)
	if err != nil {
		return nil, err
	}
	program := strings.TrimSpace(os.Getenv(EnvProgramID))
	kind := "a production environment"
	if c.Sandbox() {
		kind = "a sandbox environment"
	}
	fmt.Fprintf(log, "Running against %s configured by the RXDELIVERY_* variables.\n", kind)
	return &Env{Client: c, ProgramID: program}, nil
}

func connectOffline(log io.Writer, o ConnectOptions) (*Env, error) {
	cadence := o.OrderCadence
	if cadence <= 0 {
		cadence = DefaultOrderCadence
	}
	notify := notifyClient(o.TrustListenerCert)
	sim := rxdeliverytest.NewServer(
		rxdeliverytest.WithCredentials(offlineKey, offlineSecret),
		rxdeliverytest.WithRealClock(),
		rxdeliverytest.WithOrderCadence(cadence),
		rxdeliverytest.WithListenerClient(notify),
	)
	// The client is built as a program builds its own, with the SDK's
	// default retry waits, rather than the kit's test client.
	opts := append([]rxdelivery.Option{
		rxdelivery.WithOmniURL(sim.OmniURL()),
		rxdelivery.WithDeliveryURL(sim.DeliveryURL()),
		rxdelivery.WithTrackingURL(sim.TrackingURL()),
		rxdelivery.WithPricingURL(sim.PricingURL()),
		rxdelivery.WithSandbox(true),
		rxdelivery.WithUserAgent(userAgent),
	}, o.ClientOptions...)
	c, err := rxdelivery.NewClient(offlineKey, offlineSecret, opts...)
	if err != nil {
		sim.Close()
		notify.CloseIdleConnections()
		return nil, err
	}
	fmt.Fprintf(log, "No %s set: running against the built-in simulator at %s.\n", rxdelivery.EnvAPIKey, sim.URL())
	return &Env{Client: c, Offline: true, Sim: sim, ProgramID: offlineProgramID, notify: notify}, nil
}

// notifyClient returns the HTTP client the simulator posts notifications
// with: it trusts the system's roots plus cert, when given.
func notifyClient(cert *x509.Certificate) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil // the listener is on loopback
	if cert != nil {
		roots, err := x509.SystemCertPool()
		if err != nil || roots == nil {
			roots = x509.NewCertPool()
		}
		roots.AddCert(cert)
		tr.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}
}

// RequireSandbox returns an error unless the client is configured for a
// sandbox environment. Examples that create deliveries call it first, so
// that they never create a real one.
func (e *Env) RequireSandbox() error {
	if e.Client.Sandbox() {
		return nil
	}
	return errors.New("this example creates test deliveries: run it offline, or against a sandbox (" +
		rxdelivery.EnvSandbox + "=true)")
}

// RequireProgramID returns an error when no program identifier is known,
// which happens online when RXDELIVERY_PROGRAM_ID is unset. Examples that
// create omni requests call it first.
func (e *Env) RequireProgramID() error {
	if e.ProgramID != "" {
		return nil
	}
	return errors.New("omni requests need the program identifier the platform issued you: set " + EnvProgramID)
}

// Close stops the simulator, if any, and releases the connections of the
// client. It may be called more than once.
func (e *Env) Close() {
	if e == nil {
		return
	}
	e.closeOnce.Do(func() {
		if e.Client != nil {
			e.Client.CloseIdleConnections()
		}
		if e.Sim != nil {
			e.Sim.Close()
		}
		if e.notify != nil {
			e.notify.CloseIdleConnections()
		}
	})
}

// Program is the body of an example program: it is given a context that
// ends on interrupt or when the program's time is up, and the connected
// environment.
type Program func(ctx context.Context, env *Env) error

// Run connects with o, runs p under a context that ends on interrupt or
// after timeout, closes the environment and returns p's error. Tests call it
// where main calls Main.
func Run(timeout time.Duration, o ConnectOptions, p Program) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	env, err := ConnectWith(ctx, o)
	if err != nil {
		return err
	}
	defer env.Close()
	return p(ctx, env)
}

// Main is Run for a program's main function: when p fails it prints
// "name: error" to standard error and exits with status 1.
func Main(name string, timeout time.Duration, o ConnectOptions, p Program) {
	if err := Run(timeout, o, p); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}
