// Command sandbox-server serves the SDK's simulator of the platform's four
// interfaces as a standalone process, so that integrators can point any
// client (this SDK, curl, a test in another language) at it without a real
// environment. It is a thin program over the public test kit,
// rxdeliverytest.
//
//	go run ./examples/sandbox-server -addr 127.0.0.1:8787 -key K -secret S
//
// It prints the variables a client needs as shell commands, one
// `export NAME=value` line each with the value quoted for a POSIX shell:
// the credentials it accepts (RXDELIVERY_API_KEY, RXDELIVERY_API_SECRET),
// the four base URLs and RXDELIVERY_SANDBOX. Paste them into the shell
// that runs the client, or save them and read them there:
//
//	go run ./examples/sandbox-server -key K -secret S | tee sandbox.env
//	. ./sandbox.env    # in the client's shell
//
// Lines starting with # (the control API's URL, how to stop) are comments
// to a shell. It serves until interrupted or sent SIGTERM, then stops
// cleanly: calls in progress end, and it exits with status 0.
//
// By default it runs on the real clock: delivery orders and tracking events
// move every -cadence, and omni requests follow the scenario of their
// test_meta. With -manual-clock time stands still until a client advances
// it through the control API, so a test is deterministic. Either way the
// control API can jump the clock ahead.
//
// # Control API
//
// Under the reserved prefix /_control, with the same key and secret as
// Basic credentials (401 without them), JSON in and out:
//
//	GET    /_control/clock                  {"now"}
//	POST   /_control/clock/advance          {"seconds":90} or {"duration":"1m30s"} -> {"now"}
//	GET    /_control/orders/{id}            {"id","status","tracking_number"}
//	PUT    /_control/orders/{id}/status     {"status":"delivered"}
//	GET    /_control/requests/{id}          {"id","order_status"}
//	PUT    /_control/requests/{id}/status   {"status":"picked_up"} or {"status":"request_incomplete"}
//	POST   /_control/tracking               {"tracking_number","status"}: notifies the listener, then 204
//	GET    /_control/pharmacies             {"pharmacies":[...]}
//	PUT    /_control/pharmacies             {"pharmacies":[{npi,ncpdp,name,preferred,phone_number,fax_number,address}]}
//	PUT    /_control/quotes                 {"empty":true}: every quote answers {"quotes":[]}
//	POST   /_control/faults                 {"operation":"orders.Create","times":1,"kind":"committed_then_failed"}
//	DELETE /_control/faults                 clears queued faults
//	GET    /_control/calls[?operation=]     {"calls":[{operation,method,path,query,body,status,fault}]}
//	DELETE /_control/calls                  empties the call record
//	GET    /_control/notifications          {"notifications":[...]}
//
// Fault kinds: rate_limit and rate_limit_date (with "retry_after_seconds"),
// unavailable, server_error, status (with "status"), cut, drop, stall
// (forever, or "stall_seconds"), malformed, committed_then_failed; with
// "committed":true a fault applies after the call was carried out.
// Operations are named after the SDK's methods: requests.Create,
// requests.Cancel, requests.Get, requests.GetMany, pharmacies.Search,
// pharmacies.Get, pharmacies.DeliveryInfo, orders.Create, orders.Cancel,
// orders.Get, orders.GetMany, orders.AddPrescription,
// orders.RemovePrescription, tracking.Subscribe, tracking.GetSubscription,
// pricing.Quote; "" or absent means any. The full reference is the
// documentation of package rxdeliverytest.
//
// # Flags
//
//	-addr host:port        address to listen on (127.0.0.1:8787)
//	-key, -secret          the credentials it accepts (test values by default)
//	-cadence d             time between two steps of a delivery order or a
//	                       shipment's tracking events (negative: never)
//	-manual-clock          time stands still until the control API advances it
//	-insecure-listeners    accept a self-signed certificate from a tracking
//	                       listener on this machine (see below)
//	-pharmacies n          serve n generated pharmacies instead of twelve
//	-log                   one line per call on stderr, without queries or bodies
//
// Tracking notifications go only to https listener URLs, as the tracking
// document requires (a plain http listener URL is refused when subscribing).
// A listener you run on your own machine to test it, such as
// examples/tracking-listener, therefore serves https with a certificate no
// authority signed, and by default the simulator refuses that certificate
// as any client would. -insecure-listeners skips the certificate check for
// listeners whose connection reaches a loopback address (127.0.0.0/8,
// ::1), and only for those: a listener URL whose host name resolves
// elsewhere is still verified. It is for local testing only.
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
	"strings"
	"syscall"
	"time"
	"unicode"

	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

func main() {
	if err := serve(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox-server:", err)
		os.Exit(1)
	}
}

// serve runs the server until the process is interrupted or sent SIGTERM.
func serve(args []string, stdout io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, args, stdout)
}

// run parses args, serves the simulator until ctx ends, then shuts down.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("sandbox-server", flag.ContinueOnError)
	fs.SetOutput(stdout)
	addr := fs.String("addr", "127.0.0.1:8787", "address to listen on")
	key := fs.String("key", rxdeliverytest.DefaultKey, "API key the simulator accepts on all four interfaces and the control API")
	secret := fs.String("secret", rxdeliverytest.DefaultSecret, "API secret the simulator accepts")
	cadence := fs.Duration("cadence", rxdeliverytest.DefaultOrderCadence, "time between two status changes of a delivery order or tracking events of a shipment (negative: never)")
	manual := fs.Bool("manual-clock", false, "keep time still until the control API advances it")
	insecure := fs.Bool("insecure-listeners", false, "accept a self-signed certificate from a tracking listener whose connection reaches a loopback address (to test a local https listener; others are still verified)")
	pharmacies := fs.Int("pharmacies", 0, "serve this many generated pharmacies instead of the built-in twelve")
	logCalls := fs.Bool("log", false, "log one line per call to stderr (operation, route and status only, never queries or bodies)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *key == "" || *secret == "" {
		return errors.New("-key and -secret must not be empty")
	}
	if strings.IndexFunc(*key+*secret, unicode.IsControl) >= 0 {
		// A client could not send them in an Authorization header.
		return errors.New("-key and -secret must not contain control characters")
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	opts := []rxdeliverytest.Option{
		rxdeliverytest.WithListener(ln),
		rxdeliverytest.WithCredentials(*key, *secret),
		rxdeliverytest.WithOrderCadence(*cadence),
		rxdeliverytest.WithListenerClient(notifyClient(*insecure)),
	}
	if !*manual {
		opts = append(opts, rxdeliverytest.WithRealClock())
	}
	if *pharmacies > 0 {
		opts = append(opts, rxdeliverytest.WithPharmacies(rxdeliverytest.GeneratePharmacies(*pharmacies)...))
	}
	if *logCalls {
		opts = append(opts, rxdeliverytest.WithCallLog(slog.New(slog.NewTextHandler(os.Stderr, nil))))
	}
	srv := rxdeliverytest.NewServer(opts...)

	// The credentials printed are the ones this local simulator was told
	// to accept on its command line, so that a client can export them.
	for _, line := range srv.EnvLines(true) {
		fmt.Fprintln(stdout, exportLine(line))
	}
	fmt.Fprintf(stdout, "# control API: %s%s (Basic auth with the key and secret above)\n", srv.URL(), rxdeliverytest.ControlPrefix)
	fmt.Fprintln(stdout, "# interrupt or send SIGTERM to stop")

	<-ctx.Done()
	// Close ends stalled calls and notifications in progress, then stops
	// the listener once the calls still running have returned.
	srv.Close()
	return nil
}

// usage opens the -h text; the flags follow it.
const usage = `Usage: sandbox-server [flags]

Serves the platform's simulator and prints the RXDELIVERY_* variables that
point a client at it, as export lines a POSIX shell can run as they are.

Tracking notifications go only to https listener URLs. To test a listener
on this machine, serve it with a self-signed certificate and start the
simulator with -insecure-listeners: the certificate check is then skipped
for listeners reached on a loopback address, and for no other.

Flags:
`

// exportLine turns a NAME=value line into a POSIX shell command that sets
// and exports NAME to exactly value.
func exportLine(line string) string {
	name, value, _ := strings.Cut(line, "=")
	return "export " + name + "=" + shellQuote(value)
}

// shellQuote returns s as one POSIX shell word: unchanged when every byte
// is one a shell takes literally, otherwise in single quotes, inside which
// only a single quote needs care (it closes the quotes, is written
// escaped, and reopens them).
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@%+,=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// notifyClient returns the client the simulator posts tracking
// notifications with. With insecureLoopback it skips certificate
// verification for listeners on loopback only (see dialListener).
func notifyClient(insecureLoopback bool) *http.Client {
	return newNotifyClient(insecureLoopback, (&net.Dialer{Timeout: 10 * time.Second}).DialContext)
}

// newNotifyClient is notifyClient with the dialer of its TCP connections.
func newNotifyClient(insecureLoopback bool, dial func(ctx context.Context, network, addr string) (net.Conn, error)) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if insecureLoopback {
		tr.Proxy = nil
		tr.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			return dialListener(ctx, dial, network, addr)
		}
	}
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}
}

// dialListener opens the TLS connection to a listener. Verification is
// skipped only when the connection's peer is a loopback address: the
// listener's host name, or what a resolver answers for it, does not count.
func dialListener(ctx context.Context, dial func(ctx context.Context, network, addr string) (net.Conn, error), network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	raw, err := dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12, InsecureSkipVerify: peerIsLoopback(raw.RemoteAddr())}
	conn := tls.Client(raw, cfg)
	if err := conn.HandshakeContext(ctx); err != nil {
		raw.Close()
		return nil, err
	}
	return conn, nil
}

// peerIsLoopback reports whether a connection's remote address is a
// loopback address.
func peerIsLoopback(a net.Addr) bool {
	ta, ok := a.(*net.TCPAddr)
	return ok && ta != nil && ta.IP.IsLoopback()
}
