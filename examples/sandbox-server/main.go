// Command sandbox-server serves the SDK's simulator of the platform's four
// interfaces as a standalone process, so that integrators can point any
// client (this SDK, curl, another language) at it without credentials or
// network access.
//
//	go run ./examples/sandbox-server -addr 127.0.0.1:8787 -key K -secret S
//
// It prints the base URLs as RXDELIVERY_* lines ready to export, then
// serves until interrupted. It runs on the real clock: delivery orders and
// tracking events move every -cadence, and omni requests follow the
// scenario named in their test_meta. Tracking notifications go to https
// listener URLs; -insecure-listeners accepts self-signed certificates of
// listeners on loopback hosts (and only there).
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/sandbox"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox-server:", err)
		os.Exit(1)
	}
}

// run parses args, serves the simulator until ctx ends, then shuts down.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("sandbox-server", flag.ContinueOnError)
	fs.SetOutput(stdout)
	addr := fs.String("addr", "127.0.0.1:8787", "address to listen on")
	key := fs.String("key", sandbox.DefaultKey, "API key the simulator accepts on all four interfaces")
	secret := fs.String("secret", sandbox.DefaultSecret, "API secret the simulator accepts")
	cadence := fs.Duration("cadence", sandbox.DefaultCadence, "time between two status changes of a delivery order or tracking events of a shipment (negative: never)")
	insecure := fs.Bool("insecure-listeners", false, "accept self-signed certificates of tracking listener URLs on loopback hosts")
	pharmacies := fs.Int("pharmacies", 0, "serve this many generated pharmacies instead of the built-in twelve")
	logCalls := fs.Bool("log", false, "log one line per call to stderr (route and status only, never queries or bodies)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}

	cfg := sandbox.Config{
		Key:          *key,
		Secret:       *secret,
		OrderCadence: *cadence,
		NotifyClient: notifyClient(*insecure),
	}
	if *pharmacies > 0 {
		cfg.Pharmacies = sandbox.GeneratePharmacies(*pharmacies)
	}
	if *logCalls {
		cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	sb := sandbox.New(cfg)
	srv := &http.Server{Handler: sb, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	base := "http://" + ln.Addr().String()
	fmt.Fprintf(stdout, "RXDELIVERY_OMNI_URL=%s%s\n", base, sandbox.Omni.Prefix())
	fmt.Fprintf(stdout, "RXDELIVERY_DELIVERY_URL=%s%s\n", base, sandbox.Delivery.Prefix())
	fmt.Fprintf(stdout, "RXDELIVERY_TRACKING_URL=%s%s\n", base, sandbox.Tracking.Prefix())
	fmt.Fprintf(stdout, "RXDELIVERY_PRICING_URL=%s%s\n", base, sandbox.Pricing.Prefix())
	fmt.Fprintln(stdout, "RXDELIVERY_SANDBOX=1")
	fmt.Fprintln(stdout, "# also set RXDELIVERY_API_KEY and RXDELIVERY_API_SECRET to the -key and -secret values; interrupt to stop")

	select {
	case <-ctx.Done():
	case err := <-served:
		sb.Close()
		return err
	}
	// Close the simulator first: it ends slow faults and notifications in
	// progress, so that Shutdown does not wait for them.
	sb.Close()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdownCtx)
	<-served
	return err
}

// notifyClient returns the client the simulator posts tracking
// notifications with. With insecureLoopback it skips certificate
// verification for listeners on loopback hosts only.
func notifyClient(insecureLoopback bool) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if insecureLoopback {
		tr.Proxy = nil
		dialer := &net.Dialer{Timeout: 10 * time.Second}
		tr.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			cfg := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
			cfg.InsecureSkipVerify = isLoopback(host)
			d := &tls.Dialer{NetDialer: dialer, Config: cfg}
			return d.DialContext(ctx, network, addr)
		}
	}
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}
}

// isLoopback reports whether host is localhost or a loopback IP address.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
