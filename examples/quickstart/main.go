// Quickstart creates one omni request (a prescription picked up at a
// pharmacy and delivered to a patient) and follows it until it is
// delivered, printing each status change as it happens.
//
// It shows the SDK's basic loop: tidy up user input with the normalising
// helpers, find a pharmacy that delivers to the patient, create the
// request, then follow it with Requests.Watch until its order reaches a
// final status.
// The request carries a sandbox scenario (test_meta successful_delivery,
// one second between steps), so the whole life cycle takes a few seconds.
//
// Offline, with no RXDELIVERY_* variables set, it runs against the SDK's
// built-in simulator:
//
//	go run ./examples/quickstart
//
// Online, it runs against the sandbox environment the variables describe
// (sandbox scenarios exist only there, so it refuses a production one):
//
//	export RXDELIVERY_API_KEY=... RXDELIVERY_API_SECRET=...
//	export RXDELIVERY_OMNI_URL=https://... RXDELIVERY_SANDBOX=true
//	export RXDELIVERY_PROGRAM_ID=...   # the program identifier you were issued
//	go run ./examples/quickstart
//
// The same variables can point at a local simulator started with
// go run ./cmd/rxdelivery sandbox --env-file sandbox.env (source that file).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := start(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

// userAgent is the product token the examples add to the SDK's.
const userAgent = "rxdelivery-go-examples"

// start builds the client from the RXDELIVERY_* variables or, when they
// name no platform, against a simulator of the platform started here (the
// public test kit's, on the real clock, one second between the steps of an
// order), and runs the example with it.
func start(ctx context.Context, out io.Writer) error {
	sim, err := rxdeliverytest.StartIfUnconfigured(rxdeliverytest.WithOrderCadence(time.Second))
	if err != nil {
		return err
	}
	opts := []rxdelivery.Option{rxdelivery.WithUserAgent(userAgent)}
	programID := strings.TrimSpace(os.Getenv(rxdelivery.EnvProgramID))
	if sim != nil {
		defer sim.Close()
		fmt.Fprintf(out, "No platform in the RXDELIVERY_* variables: running against a simulator at %s.\n", sim.URL())
		opts = append(sim.ClientOptions(), opts...)
		programID = rxdeliverytest.DefaultProgramID
	} else {
		fmt.Fprintln(out, "Running against the platform the RXDELIVERY_* variables describe.")
	}
	client, err := rxdelivery.NewClientFromEnv(opts...)
	if err != nil {
		return err
	}
	defer client.CloseIdleConnections()
	// The example creates deliveries: never against production.
	if !client.Sandbox() {
		return errors.New("this example creates test deliveries: run it offline, or against a sandbox (" + rxdelivery.EnvSandbox + "=true)")
	}
	if programID == "" {
		return errors.New("omni requests need the program identifier the platform issued you: set " + rxdelivery.EnvProgramID)
	}
	return run(ctx, client, programID, out)
}

// pollEvery is the first wait between two reads of the request's status
// (the watch waits up to twice as long while nothing changes). The scenario
// moves once a second; against a real platform, keep the SDK's default
// (rxdelivery.DefaultPollInterval) or longer.
const pollEvery = 500 * time.Millisecond

// run creates a sandbox request for the program programID and follows it
// to delivery, printing progress to out.
func run(ctx context.Context, c *rxdelivery.Client, programID string, out io.Writer) error {
	// 1. Input as people type it. The platform wants bare digits: the
	// helpers turn the usual written forms into them, or say why they
	// cannot.
	phone, err := rxdelivery.NormalizePhone("(718) 555-0142")
	if err != nil {
		return fmt.Errorf("phone number: %w", err)
	}
	zip, err := rxdelivery.NormalizeZIP("11201-4321")
	if err != nil {
		return fmt.Errorf("ZIP code: %w", err)
	}
	ndc, err := rxdelivery.NormalizeNDC("0002-1433-80")
	if err != nil {
		return fmt.Errorf("NDC: %w", err)
	}
	fmt.Fprintf(out, "Normalised input: phone %s, ZIP %s, NDC %s\n", phone, zip, ndc)

	// 2. A pharmacy that delivers to the patient: the nearest result of a
	// search around the dropoff address.
	page, err := c.Pharmacies.Search(ctx, &pharmacies.SearchParams{
		OriginAddress: "200 Court St, Brooklyn, NY 11201",
		PageSize:      1,
	})
	if err != nil {
		return fmt.Errorf("searching pharmacies: %w", err)
	}
	if len(page.Pharmacies) == 0 {
		return errors.New("no pharmacy delivers to the dropoff address")
	}
	pharmacy := page.Pharmacies[0]
	fmt.Fprintf(out, "Pharmacy: %s (NCPDP %s)\n", pharmacy.Name, pharmacy.NCPDP)

	// 3. The request. ExternalReferenceNumber is your own reference: make
	// it unique and store it before sending, so that a create whose outcome
	// is unknown can be reconciled instead of sent twice.
	ref := "quickstart-" + time.Now().UTC().Format("20060102T150405.000000")
	req, err := c.Requests.Create(ctx, &requests.CreateParams{
		Identifier:              programID,
		ExternalReferenceNumber: ref,
		NDC:                     ndc,
		Pharmacy:                requests.PharmacyParams{NCPDP: pharmacy.NCPDP},
		Dropoff: requests.DropoffParams{
			Name:        "Jane Doe",
			PhoneNumber: phone,
			Address: requests.NewDropoffAddress(requests.Address{
				Street1: "200 Court St", City: "Brooklyn", State: "NY", Zipcode: zip,
			}),
		},
		Patient: requests.PatientParams{
			FirstName:   "Jane",
			LastName:    "Doe",
			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29},
		},
		// Sandbox only: run the successful_delivery scenario with one
		// second between steps. Leave TestMeta out in production.
		TestMeta: &requests.TestMeta{
			Scenario:        requests.ScenarioSuccessfulDelivery,
			DurationBetween: 1,
		},
	})
	var invalid *rxdelivery.ValidationError
	switch {
	case errors.As(err, &invalid):
		// Nothing was sent; each problem names the field at fault.
		for _, p := range invalid.Problems {
			fmt.Fprintf(out, "  invalid %s\n", p)
		}
		return err
	case errors.Is(err, rxdelivery.ErrUnknownOutcome):
		return fmt.Errorf("the request may or may not exist: reconcile %s before creating it again: %w", ref, err)
	case err != nil:
		return fmt.Errorf("creating the request: %w", err)
	}
	fmt.Fprintf(out, "Created request %s (reference %s)\n", req.ID, ref)

	// 4. Follow it.
	final, err := follow(ctx, c, req.ID, out)
	if err != nil {
		return err
	}

	// 5. The outcome, with the platform's own timestamps.
	o := final.Order
	if o.Status != rxtypes.OrderStatusDelivered {
		return fmt.Errorf("request %s ended with its order %s, not delivered", final.ID, o.Status)
	}
	fmt.Fprintf(out, "Delivered. Created %s", stamp(final.CreatedAt))
	if o.Pickup != nil {
		fmt.Fprintf(out, ", picked up %s", stamp(o.Pickup.OccurredAt))
	}
	if o.Delivery != nil {
		fmt.Fprintf(out, ", delivered %s, signed by %s", stamp(o.Delivery.OccurredAt), o.Delivery.SignedBy)
	}
	fmt.Fprintln(out)
	return nil
}

// follow watches the request until its order reaches a final status or
// ctx ends, printing a line for each change. It returns the request as
// last read.
//
// Requests.Watch does the polling: it reads the request, yields it each
// time its state changes, and ends after a final status (Request.Final).
// Between reads it waits pollEvery at first, longer while nothing changes,
// and follows the platform's Retry-After and the client's rate limits.
func follow(ctx context.Context, c *rxdelivery.Client, id string, out io.Writer) (*requests.Request, error) {
	start := time.Now()
	last := "nothing yet"
	for req, err := range c.Requests.Watch(ctx, id,
		rxdelivery.WithPollInterval(pollEvery), rxdelivery.WithMaxPollInterval(2*pollEvery)) {
		if err != nil {
			return nil, fmt.Errorf("following request %s (last seen: %s): %w", id, last, err)
		}
		last = describe(req)
		now := time.Now()
		fmt.Fprintf(out, "  %s (+%4.1fs)  %s\n", now.Format("15:04:05.000"), now.Sub(start).Seconds(), last)
		if req.Final() {
			return req, nil
		}
	}
	return nil, fmt.Errorf("following request %s: the watch ended before a final status (last seen: %s)", id, last)
}

// describe summarises a request's state in one line.
func describe(r *requests.Request) string {
	s := "request received, no order yet"
	if r.Order != nil {
		s = "order " + r.Order.ID + " " + string(r.Order.Status)
		if r.Order.CourierCompany != "" {
			s += ", courier " + r.Order.CourierCompany
		}
	}
	// The request's own status matters when it is not simply received,
	// such as request_incomplete (pharmacy_out_of_stock).
	if r.Status != nil && r.Status.Name != requests.StatusRequestReceived {
		s += ", request " + string(r.Status.Name)
		if r.Status.Detail != "" {
			s += " (" + string(r.Status.Detail) + ")"
		}
	}
	if !r.DeliveryETA.IsZero() {
		s += ", ETA " + r.DeliveryETA.String()
	}
	return s
}

// stamp formats a platform timestamp in local time, or as sent when it did
// not parse.
func stamp(t rxdelivery.Time) string {
	if !t.Valid() {
		return t.String()
	}
	return t.Local().Format("15:04:05")
}
