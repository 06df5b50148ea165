package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rxdelivery/rxdelivery-go/tracking"
	"github.com/spf13/cobra"
)

const listenLong = `Serve a local https listener for tracking notifications and print each one it
gets, through the SDK's handler (tracking.NewHandler): a notification at or
before the latest one of its tracking number is printed marked stale. It is for
trying a listener against the sandbox ('rxdelivery sandbox --insecure-listeners'
accepts its self-signed certificate on loopback).

The listener URL ends in a fresh secret token; anything else gets 404. The
token is never printed: --url-file writes the whole URL to a file (mode 0600)
for 'rxdelivery tracking subscribe --listener-url-file', and --subscribe
subscribes tracking numbers to it directly. It serves until interrupted, or
until --count notifications have arrived.`

func (a *app) listenCommand() *cobra.Command {
	var (
		addr, base, urlFile, ref string
		subscribe                []string
		count                    int
	)
	c := &cobra.Command{
		Use:     "listen",
		Short:   "Receive tracking notifications locally and print each one",
		Long:    listenLong,
		Example: "  rxdelivery listen --subscribe 9400100000000000000000 --count 5",
		RunE: func(c *cobra.Command, _ []string) error {
			if count < 0 {
				return usagef("--count must not be negative")
			}
			ctx, cancel := a.context(c)
			defer cancel()
			cert, err := selfSignedCert()
			if err != nil {
				return fmt.Errorf("making the listener's certificate: %w", err)
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			if base == "" {
				base = "https://" + ln.Addr().String() + "/hooks/tracking"
			}
			listenerURL, token, err := tracking.NewListenerURL(strings.TrimSuffix(base, "/"))
			if err != nil {
				ln.Close()
				return usagef("--public-url: %w", err)
			}

			var mu sync.Mutex
			received := 0
			enough := make(chan struct{})
			h := tracking.NewHandler(func(_ context.Context, n *tracking.Notification) error {
				mu.Lock()
				defer mu.Unlock()
				if a.jsonOut {
					_ = a.printJSONLine(notificationJSON{Notification: n, Stale: n.Stale})
				} else {
					a.printNotification(n)
				}
				received++
				if count > 0 && received == count {
					close(enough)
				}
				return nil
			}, tracking.WithPathToken(token), tracking.WithOrdering(tracking.NewMemoryMarks()), tracking.WithStaleDelivery(),
				tracking.WithErrorLogger(slog.New(slog.NewTextHandler(a.stderr, nil))))
			srv := &http.Server{
				Handler:           h,
				TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
				ReadHeaderTimeout: 10 * time.Second,
				ErrorLog:          nil,
			}
			served := make(chan error, 1)
			go func() { served <- srv.ServeTLS(ln, "", "") }()
			defer func() {
				sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer scancel()
				_ = srv.Shutdown(sctx)
			}()

			fmt.Fprintf(a.stderr, "listening at %s/<token> (self-signed certificate)\n", strings.TrimSuffix(base, "/"))
			if urlFile != "" {
				if err := writeSecretFile(urlFile, listenerURL+"\n"); err != nil {
					return err
				}
				fmt.Fprintf(a.stderr, "listener URL written to %s\n", urlFile)
			}
			if len(subscribe) > 0 {
				client, err := a.client(c)
				if err != nil {
					return err
				}
				for _, tn := range subscribe {
					sub, err := client.Tracking.Subscribe(ctx, &tracking.SubscribeParams{TrackingNumber: tn, ListenerURL: listenerURL, ReferenceID: ref})
					if err != nil {
						return fmt.Errorf("subscribing %s: %w", tn, err)
					}
					fmt.Fprintf(a.stderr, "subscribed %s (%s): %s\n", sub.TrackingNumber, sub.Carrier, sub.Status)
				}
			}
			select {
			case <-ctx.Done():
				return nil
			case <-enough:
				return nil
			case err := <-served:
				if errors.Is(err, http.ErrServerClosed) {
					return nil
				}
				return err
			}
		},
	}
	f := c.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:0", "address the https listener binds (port 0 picks a free one)")
	f.StringVar(&base, "public-url", "", "the https base `URL` the platform reaches the listener at (default: its own address plus /hooks/tracking)")
	f.StringVar(&urlFile, "url-file", "", "write the listener URL, token included, to `FILE` (mode 0600)")
	f.StringSliceVar(&subscribe, "subscribe", nil, "subscribe this tracking `NUMBER` to the listener (repeatable)")
	f.StringVar(&ref, "reference-id", "", "reference given with --subscribe, echoed in every notification")
	f.IntVar(&count, "count", 0, "stop after this many notifications (0: serve until interrupted)")
	return c
}

// printNotification prints one notification as a line: when its status
// occurred, the tracking number, the carrier, the status (marked when
// stale), its text and the subscription's reference.
func (a *app) printNotification(n *tracking.Notification) {
	stale := ""
	if n.Stale {
		stale = " (stale)"
	}
	fmt.Fprintf(a.stdout, "%s  %s  %s  %s%s  %s  ref=%s\n", when(n.StatusOccurredAt), oneLine(n.TrackingNumber), oneLine(string(n.Carrier)),
		oneLine(string(n.Status)), stale, oneLine(dash(n.StatusText)), oneLine(dash(n.ReferenceID)))
}

// notificationJSON is a notification as --json prints it, with the stale
// mark the handler set.
type notificationJSON struct {
	*tracking.Notification
	Stale bool `json:"stale"`
}

// printJSONLine writes v as one line of JSON.
func (a *app) printJSONLine(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = a.stdout.Write(append(b, '\n'))
	return err
}

func writeSecretFile(path, content string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// selfSignedCert makes the listener's certificate for the loopback
// addresses and localhost, valid for a day.
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
		Subject:               pkix.Name{CommonName: "rxdelivery listen"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
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
