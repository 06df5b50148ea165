package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
	"unicode"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/spf13/cobra"
)

const sandboxLong = `Serve the SDK's simulator of the platform's four interfaces, so that any client
(this command, the SDK, curl, a program in another language) can be pointed at
it without a real environment. It prints the RXDELIVERY_* lines a client needs,
ready to export, then the control API's URL, and serves until interrupted or
sent SIGTERM, then stops cleanly (exit code 0). --env-file writes the same
lines, credentials included, to a file (mode 0600) once it is listening.

By default it runs on the real clock: delivery orders and tracking events move
every --cadence, and omni requests follow the scenario of their test_meta. With
--manual-clock time stands still until a client advances it through the control
API, so a test is deterministic. Either way the control API can jump the clock
ahead.

Control API, under /_control, with the same key and secret as Basic
credentials (401 without them), JSON in and out (every body is described by
the OpenAPI document api/sandbox.yaml in the SDK's repository):

  GET    /_control/clock                  {"now"}
  POST   /_control/clock/advance          {"seconds":90} or {"duration":"1m30s"} -> {"now"}
  GET    /_control/orders/{id}            {"id","status","tracking_number"}
  PUT    /_control/orders/{id}/status     {"status":"delivered"}
  GET    /_control/requests/{id}          {"id","order_status"}
  PUT    /_control/requests/{id}/status   {"status":"picked_up"} or {"status":"request_incomplete"}
  POST   /_control/tracking               {"tracking_number","status"}: notifies the listener, then 204
  GET    /_control/pharmacies             {"pharmacies":[...]}
  PUT    /_control/pharmacies             {"pharmacies":[{npi,ncpdp,name,preferred,phone_number,fax_number,address}]}
  PUT    /_control/quotes                 {"empty":true}: every quote responds {"quotes":[]}
  POST   /_control/faults                 {"operation":"orders.Create","times":1,"kind":"committed_then_failed"}
  DELETE /_control/faults                 clears queued faults
  GET    /_control/calls[?operation=]     {"calls":[{operation,method,path,query,body,status,fault,received_at,simulated_at}],"counts":{operation:n}}
  DELETE /_control/calls                  empties the call record
  GET    /_control/notifications          {"notifications":[...]}

Fault kinds: rate_limit and rate_limit_date (with "retry_after_seconds"),
unavailable, server_error, status (with "status"), cut, drop, stall (forever,
or "stall_seconds"), malformed, committed_then_failed; with "committed":true a
fault applies after the call was carried out. Operations are named after the
SDK's methods (requests.Create, orders.Cancel, pricing.Quote, ...); "" or
absent means any. The full reference is the documentation of package
rxdeliverytest.

Basic credentials are read in the base64 alphabet each interface's documents
show: URL-safe for omni, delivery and pricing, standard for tracking and the
control API (curl -u writes the standard one); the other alphabet answers 401.

Tracking notifications go to https listener URLs; --insecure-listeners accepts
self-signed certificates of listeners on loopback hosts (and only there), such
as the one 'rxdelivery listen' serves.`

func (a *app) sandboxCommand() *cobra.Command {
	var (
		addr, key, secret, envFile string
		cadence                    time.Duration
		manual, insecure, logCalls bool
		pharmacies                 int
	)
	c := &cobra.Command{
		Use:     "sandbox",
		Short:   "Serve the platform's simulator, with its control API, until interrupted",
		Long:    sandboxLong,
		Example: "  rxdelivery sandbox --addr 127.0.0.1:8787 --cadence 5s --insecure-listeners",
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkSandboxCredentials(key, secret); err != nil {
				return err
			}
			if _, _, err := net.SplitHostPort(addr); err != nil {
				return usagef("--addr: want HOST:PORT, such as 127.0.0.1:8787")
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			if ta, ok := ln.Addr().(*net.TCPAddr); !ok || !ta.IP.IsLoopback() {
				// The simulator serves plain http, and the SDK's clients send
				// credentials over plain http to loopback only.
				ln.Close()
				return usagef("--addr: the simulator serves plain http, so it listens on a loopback address only (127.0.0.1:PORT, [::1]:PORT or localhost:PORT)")
			}
			opts := []rxdeliverytest.Option{
				rxdeliverytest.WithListener(ln),
				rxdeliverytest.WithCredentials(key, secret),
				rxdeliverytest.WithOrderCadence(cadence),
				rxdeliverytest.WithListenerClient(notifyClient(insecure)),
			}
			if !manual {
				opts = append(opts, rxdeliverytest.WithRealClock())
			}
			if pharmacies > 0 {
				opts = append(opts, rxdeliverytest.WithPharmacies(rxdeliverytest.GeneratePharmacies(pharmacies)...))
			}
			if logCalls {
				opts = append(opts, rxdeliverytest.WithCallLog(slog.New(slog.NewTextHandler(a.stderr, nil))))
			}
			srv, err := newSimulator(opts)
			if err != nil {
				ln.Close()
				return err
			}
			defer srv.Close()

			// The simulator's own key and secret are printed only when they
			// are the test kit's public defaults; others stay in --env-file.
			public := key == rxdeliverytest.DefaultKey && secret == rxdeliverytest.DefaultSecret
			for _, line := range sandboxEnv(srv, public) {
				fmt.Fprintln(a.stdout, line)
			}
			if !public {
				fmt.Fprintln(a.stdout, "# RXDELIVERY_API_KEY and RXDELIVERY_API_SECRET: the --key and --secret given")
			}
			if envFile != "" {
				if err := writeEnvFile(envFile, sandboxEnv(srv, true)); err != nil {
					return err
				}
			}
			creds := "the key and secret above"
			if !public {
				creds = "the --key and --secret given"
			}
			fmt.Fprintf(a.stdout, "# control API: %s%s (Basic auth with %s)\n", srv.URL(), rxdeliverytest.ControlPrefix, creds)
			fmt.Fprintln(a.stdout, "# interrupt or send SIGTERM to stop")
			<-c.Context().Done()
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8787", "address to listen on (port 0 picks a free one)")
	f.StringVar(&key, "key", rxdeliverytest.DefaultKey, "API key the simulator accepts on all four interfaces and the control API")
	f.StringVar(&secret, "secret", rxdeliverytest.DefaultSecret, "API secret the simulator accepts")
	f.DurationVar(&cadence, "cadence", rxdeliverytest.DefaultOrderCadence, "time between two status changes of a delivery order or tracking events of a shipment (negative: never)")
	f.BoolVar(&manual, "manual-clock", false, "keep time still until the control API advances it")
	f.BoolVar(&insecure, "insecure-listeners", false, "accept self-signed certificates of tracking listener URLs on loopback hosts")
	f.IntVar(&pharmacies, "pharmacies", 0, "serve this many generated pharmacies instead of the built-in twelve")
	f.BoolVar(&logCalls, "log", false, "log one line per call to stderr (operation, route and status only, never queries or bodies)")
	f.StringVar(&envFile, "env-file", "", "also write the RXDELIVERY_* lines, credentials included, to `FILE` (mode 0600) once listening")
	return c
}

// newSimulator starts the simulator. rxdeliverytest.NewServer panics when
// the server or its client cannot be set up (its error for a program): the
// checks before it leave no such case known, and one left is an error, in
// the command's words, not a crash.
func newSimulator(opts []rxdeliverytest.Option) (srv *rxdeliverytest.Server, err error) {
	defer func() {
		if r := recover(); r != nil {
			msg, _ := r.(string)
			srv, err = nil, usagef("the simulator cannot start with these flags: %s", cliWords(strings.TrimPrefix(msg, "rxdeliverytest: ")))
		}
	}()
	return rxdeliverytest.NewServer(opts...), nil
}

// envControlURL names the sandbox's control API in its env file: not a
// variable of the SDK, but of the scripts and tests that drive the
// simulator.
const envControlURL = "RXDELIVERY_SANDBOX_CONTROL_URL"

// sandboxEnv returns the NAME=value lines of every variable a client of
// the simulator needs, and a command of rxdelivery against it: the
// simulator's (base URLs, sandbox mode, and the key and secret when
// secrets), the program id omni requests are created under (the simulator
// takes any; the test kit's), and the control API's URL.
func sandboxEnv(srv *rxdeliverytest.Server, secrets bool) []string {
	return append(srv.EnvLines(secrets),
		rxdelivery.EnvProgramID+"="+rxdeliverytest.DefaultProgramID,
		envControlURL+"="+srv.URL()+rxdeliverytest.ControlPrefix)
}

// checkSandboxCredentials refuses a key and secret no client could send:
// the rules of the SDK's client (and of Basic authentication, RFC 7617),
// checked before the simulator starts. The message never quotes them.
func checkSandboxCredentials(key, secret string) error {
	switch {
	case strings.TrimSpace(key) == "" || strings.TrimSpace(secret) == "":
		return usagef("--key and --secret must not be empty or blank")
	case strings.IndexFunc(key+secret, unicode.IsControl) >= 0:
		return usagef("--key and --secret must not contain control characters")
	case strings.Contains(key, ":"):
		return usagef("--key must not contain a colon, which Basic authentication cannot carry")
	}
	return nil
}

// writeEnvFile writes NAME=value lines as a file a POSIX shell can source,
// one export command a line with the value quoted, whole or not at all: a
// reader waiting for it never sees half of it.
func writeEnvFile(path string, lines []string) error {
	tmp := path + ".tmp"
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(exportLine(l))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(tmp, []byte(b.String()), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

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
