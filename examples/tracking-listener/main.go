// Tracking-listener receives tracking notifications: it serves a listener
// URL with tracking.NewHandler over https, subscribes a shipment's tracking
// number to it with Tracking.Subscribe, and prints each notification as it
// arrives, until the shipment is delivered.
//
// It shows both sides of the tracking interface: the subscription call, and
// an http.Handler that parses the platform's POSTs, guarded by an
// unguessable token in the URL (the platform does not sign notifications).
// Listener URLs must be https, so the program makes a self-signed
// certificate at start.
//
// Offline, with no RXDELIVERY_* variables set, it runs against the SDK's
// built-in simulator, which is told to trust that certificate. It creates a
// shipping order to get a tracking number; the simulated shipment moves
// once a second, so it is delivered within seconds:
//
//	go run ./examples/tracking-listener
//
// Online, the platform must be able to reach the listener, and a listener
// on this machine's loopback interface is out of its reach. Expose it
// through a public https URL that forwards to it (a tunnel or a reverse
// proxy, accepting the self-signed certificate on its side) and pass that
// URL; notifications are then subscribed at that URL plus the token path:
//
//	go run ./examples/tracking-listener -listen 127.0.0.1:8443 -listener-url https://hooks.example.com
//
// Pass -tracking-number to subscribe an existing shipment instead of
// creating a shipping order (which needs a sandbox environment).
//
// Against a local simulator started with
// go run ./cmd/rxdelivery sandbox --insecure-listeners --cadence 1s --env-file sandbox.env
// (and that file sourced), no public URL is needed: it runs on this
// machine and accepts the self-signed certificate.
package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

func main() {
	var cfg listenerConfig
	flag.StringVar(&cfg.Addr, "listen", "127.0.0.1:0", "`address` the https listener binds (port 0 picks a free one)")
	flag.StringVar(&cfg.PublicURL, "listener-url", "", "public https `URL` that forwards to the listener (needed online)")
	flag.StringVar(&cfg.TrackingNumber, "tracking-number", "", "subscribe this tracking `number` instead of creating a shipping order")
	timeout := flag.Duration("timeout", 3*time.Minute, "give up after this long")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if err := start(ctx, cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "tracking-listener:", err)
		os.Exit(1)
	}
}

// userAgent is the product token the examples add to the SDK's.
const userAgent = "rxdelivery-go-examples"

// start makes the listener's certificate, builds the client from the
// RXDELIVERY_* variables or, when they name no platform, against a
// simulator of the platform started here (the public test kit's, on the
// real clock, one second between the tracking events of a shipment, and
// trusting the certificate), and runs the example with it.
func start(ctx context.Context, cfg listenerConfig, out io.Writer) error {
	cert, err := selfSignedCert()
	if err != nil {
		return fmt.Errorf("making the listener's certificate: %w", err)
	}
	cfg.Cert = cert
	// The simulator POSTs the notifications to the listener, over https:
	// it must trust the listener's self-signed certificate.
	notify := notifyClient(cert.Leaf)
	defer notify.CloseIdleConnections()
	sim, err := rxdeliverytest.StartIfUnconfigured(rxdeliverytest.WithOrderCadence(time.Second), rxdeliverytest.WithListenerClient(notify))
	if err != nil {
		return err
	}
	opts := []rxdelivery.Option{rxdelivery.WithUserAgent(userAgent)}
	if sim != nil {
		defer sim.Close()
		fmt.Fprintf(out, "No platform in the RXDELIVERY_* variables: running against a simulator at %s.\n", sim.URL())
		opts = append(sim.ClientOptions(), opts...)
	} else {
		fmt.Fprintln(out, "Running against the platform the RXDELIVERY_* variables describe.")
	}
	client, err := rxdelivery.NewClientFromEnv(opts...)
	if err != nil {
		return err
	}
	defer client.CloseIdleConnections()
	// Without -tracking-number the example creates a shipping order: never
	// against production.
	if cfg.TrackingNumber == "" && !client.Sandbox() {
		return errors.New("this example creates test deliveries: run it offline, or against a sandbox (" + rxdelivery.EnvSandbox + "=true), or pass -tracking-number")
	}
	return run(ctx, client, cfg, out)
}

// listenerConfig is what run needs besides the client.
type listenerConfig struct {
	// Cert is the listener's TLS certificate.
	Cert tls.Certificate
	// Addr is the address to listen on, such as "127.0.0.1:0".
	Addr string
	// PublicURL is the https base URL at which the platform reaches the
	// listener; empty means the listener's own address.
	PublicURL string
	// TrackingNumber is the shipment to follow; empty creates a shipping
	// order and follows its shipment.
	TrackingNumber string
}

// maxNotifications bounds how many notifications run waits for when the
// shipment is not delivered sooner.
const maxNotifications = 10

// run serves the listener, subscribes the shipment to it and prints the
// notifications until the shipment is delivered, maxNotifications arrived,
// or ctx ends.
func run(ctx context.Context, c *rxdelivery.Client, cfg listenerConfig, out io.Writer) error {
	// The listener. Notifications go to a channel read below; the handler
	// never blocks once run has stopped reading.
	notes := make(chan *tracking.Notification, maxNotifications)
	stopped := make(chan struct{})
	token, err := randomToken()
	if err != nil {
		return err
	}
	path := "/hooks/tracking/" + token
	addr, shutdown, err := serveListener(cfg, token, func(_ context.Context, n *tracking.Notification) error {
		// The platform may deliver a notification twice or out of order:
		// a real program stores the status with its StatusOccurredAt and
		// keeps the latest. Returning an error responds 500, so that the
		// platform may deliver it again.
		select {
		case notes <- n:
		case <-stopped:
		}
		return nil
	})
	if err != nil {
		return err
	}
	defer shutdown()
	defer close(stopped) // runs first: unblocks handlers, then shutdown waits for them

	// The token is a secret: it is never printed.
	fmt.Fprintf(out, "Listening at https://%s/hooks/tracking/<token>\n", addr)
	listenerURL := "https://" + addr + path
	if cfg.PublicURL != "" {
		listenerURL = strings.TrimSuffix(cfg.PublicURL, "/") + path
		fmt.Fprintf(out, "Subscribing %s/hooks/tracking/<token>\n", strings.TrimSuffix(cfg.PublicURL, "/"))
	} else {
		fmt.Fprintln(out, "  (on this machine only: a remote platform needs -listener-url)")
	}

	// The shipment.
	number, reference := cfg.TrackingNumber, ""
	if number == "" {
		order, err := createShipment(ctx, c)
		if err != nil {
			return err
		}
		number, reference = order.Shipping.TrackingNumber, order.ID
		fmt.Fprintf(out, "Shipping order %s: %s tracking number %s\n", order.ID, order.Shipping.Carrier, number)
	}

	// The subscription. Subscribing again updates it (same tracking
	// number, new listener URL), so this is safe to repeat.
	sub, err := c.Tracking.Subscribe(ctx, &tracking.SubscribeParams{
		TrackingNumber: number,
		ListenerURL:    listenerURL,
		ReferenceID:    reference, // echoed in every notification
	})
	if err != nil {
		return fmt.Errorf("subscribing %s: %w", number, err)
	}
	verb := "Updated"
	if sub.Created {
		verb = "Created"
	}
	fmt.Fprintf(out, "%s subscription of %s (%s): %s\n", verb, sub.TrackingNumber, sub.Carrier, sub.Status)

	// The notifications.
	for received := 0; received < maxNotifications; {
		select {
		case n := <-notes:
			received++
			fmt.Fprintf(out, "  %s  %-22s %s (ref %s, %d events)\n",
				n.StatusOccurredAt.Local().Format("15:04:05"), n.Status, n.StatusText, n.ReferenceID, len(n.TrackingEvents))
			if n.Status == "Delivered" {
				fmt.Fprintln(out, "Shipment delivered.")
				return nil
			}
		case <-ctx.Done():
			if received > 0 {
				fmt.Fprintf(out, "Stopped waiting after %d notification(s).\n", received)
				return nil
			}
			return noNotification(c, number, ctx.Err())
		}
	}
	fmt.Fprintf(out, "Stopped after %d notifications.\n", maxNotifications)
	return nil
}

// serveListener serves fn's notifications over https on cfg.Addr at
// /hooks/tracking/{token}, and responses 404 to any other token. It returns
// the address it listens on and a function that stops it.
func serveListener(cfg listenerConfig, token string, fn func(context.Context, *tracking.Notification) error) (string, func(), error) {
	h := tracking.NewHandler(fn)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /hooks/tracking/{token}", func(w http.ResponseWriter, r *http.Request) {
		// The platform does not sign notifications: the unguessable token
		// in the URL is what tells it from anyone else. Compare it in
		// constant time.
		if subtle.ConstantTimeCompare([]byte(r.PathValue("token")), []byte(token)) != 1 {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return "", nil, fmt.Errorf("listening on %s: %w", cfg.Addr, err)
	}
	srv := &http.Server{
		Handler:           mux,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cfg.Cert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 10 * time.Second,
	}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.ServeTLS(ln, "", "") // returns http.ErrServerClosed on Shutdown
	}()
	shutdown := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		<-served
	}
	return ln.Addr().String(), shutdown, nil
}

// noNotification explains a wait that ended without any notification,
// with the subscription's status as the platform reports it.
func noNotification(c *rxdelivery.Client, number string, cause error) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sub, err := c.Tracking.GetSubscription(ctx, number)
	if err != nil {
		return fmt.Errorf("no notification arrived (%w); reading the subscription failed too: %w", cause, err)
	}
	msg := fmt.Sprintf("no notification arrived: subscription %s", sub.Status)
	if sub.StatusReason != "" {
		msg += " (" + sub.StatusReason + ")"
	}
	return fmt.Errorf("%s: %w", msg, cause)
}

// randomToken returns 128 random bits in hex.
func randomToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// createShipment creates a shipping order and returns it once its
// shipping data (tracking number, label) is available.
func createShipment(ctx context.Context, c *rxdelivery.Client) (*orders.Order, error) {
	page, err := c.Pharmacies.Search(ctx, &pharmacies.SearchParams{OriginAddress: "200 Court St, Brooklyn, NY 11201", PageSize: 1})
	if err != nil {
		return nil, fmt.Errorf("searching pharmacies: %w", err)
	}
	if len(page.Pharmacies) == 0 {
		return nil, errors.New("no pharmacy found")
	}
	ph := page.Pharmacies[0]
	prescriberAddress := rxtypes.Address{Street: "1 Clinic Plaza", City: "Brooklyn", State: "NY", Zipcode: "11201"}
	order, err := c.Orders.Create(ctx, &orders.CreateParams{
		ServiceLevel:            orders.ServiceLevelShipping,
		ExternalReferenceNumber: "tracking-" + time.Now().UTC().Format("20060102T150405.000000"),
		Pharmacy:                orders.Pharmacy{NPI: ph.NPI, NCPDP: ph.NCPDP},
		Recipient: orders.Recipient{
			Description: "Jane Doe",
			Address:     rxtypes.Address{Street: "44 Lake Shore Dr", City: "Chicago", State: "IL", Zipcode: "60611"},
		},
		Patient: orders.Patient{
			FirstName: "Jane", LastName: "Doe", Gender: rxtypes.GenderFemale,
			DateOfBirth:       rxdelivery.Date{Year: 1980, Month: time.February, Day: 29},
			MobilePhoneNumber: "3125550199",
		},
		Shipping: &orders.ShippingParams{
			Carrier:        orders.CarrierParcelA,
			CarrierService: orders.CarrierServiceParcelAGround,
			Signature:      orders.SignatureNone,
			Weight:         orders.Weight{Unit: orders.WeightUnitOunce, Value: rxdelivery.MustDecimal("12")},
			Dimensions: &orders.Dimensions{
				Unit:   orders.DimensionUnitInch,
				Length: rxdelivery.MustDecimal("10"),
				Width:  rxdelivery.MustDecimal("8"),
				Height: rxdelivery.MustDecimal("4"),
			},
		},
		Prescriptions: []orders.Prescription{{
			Number: "RX-3001", NDC: "00002143380", Refrigeration: orders.RefrigerationNone,
			DaysSupply: 30, FillQuantity: rxdelivery.MustDecimal("30"), FillNumber: rxdelivery.Ptr(0), PatientPay: rxdelivery.Ptr(rxdelivery.MustDecimal("0.00")),
			Prescriber: orders.Prescriber{FirstName: "Alex", LastName: "Smith", NPI: "1234567893", Address: prescriberAddress},
			Payers: []orders.Payer{{
				BIN: "610014", PCN: "PCN01", RxGroup: "GRP100",
				CoverageType: orders.CoverageTypePrimary, GovernmentPlanIndicator: rxdelivery.Ptr(false),
			}},
		}},
	})
	if err != nil {
		return nil, fmt.Errorf("creating the shipping order: %w", err)
	}
	// The create response has no shipping data; Get has it.
	for {
		got, err := c.Orders.Get(ctx, order.ID)
		if err != nil {
			return nil, fmt.Errorf("getting order %s: %w", order.ID, err)
		}
		if got.Shipping != nil && got.Shipping.TrackingNumber != "" {
			return got, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the tracking number of order %s: %w", order.ID, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// selfSignedCert returns a new certificate and key for a listener on
// loopback (localhost, 127.0.0.1 and ::1), valid for a day. Listener URLs
// must be https; a real deployment uses a certificate from a public
// authority instead, which the platform trusts.
func selfSignedCert() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return tls.Certificate{}, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "tracking-listener example"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true, // it signs itself
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, nil
}

// notifyClient returns an HTTP client that trusts the system's roots and
// cert: the simulator posts notifications with it.
func notifyClient(cert *x509.Certificate) *http.Client {
	roots, err := x509.SystemCertPool()
	if err != nil || roots == nil {
		roots = x509.NewCertPool()
	}
	roots.AddCert(cert)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil // the listener is on loopback
	tr.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}
}
