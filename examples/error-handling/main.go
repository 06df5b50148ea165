// Error-handling provokes each kind of failure the SDK reports and shows
// how a program tells them apart with errors.Is and errors.As:
//
//   - invalid params: a *rxdelivery.ValidationError listing every problem
//     with its JSON path, returned before anything is sent;
//   - not found: rxdelivery.ErrNotFound;
//   - outcome unknown: rxdelivery.ErrUnknownOutcome, a create that may have
//     taken effect although it failed, to reconcile by
//     external_reference_number instead of sending again;
//   - unable to cancel: rxdelivery.ErrUnableToCancel, an order past a
//     cancellable status;
//   - rate limited: rxdelivery.ErrRateLimited, with the platform's
//     Retry-After in the *rxdelivery.APIError.
//
// Offline, with no RXDELIVERY_* variables set, it runs against the SDK's
// built-in simulator, in which it first arranges a lost create response and
// a 429 with a Retry-After longer than the client will wait:
//
//	go run ./examples/error-handling
//
// Online, it runs against the sandbox environment the RXDELIVERY_* variables
// describe (RXDELIVERY_PROGRAM_ID too, for omni requests; it refuses a
// production environment). A real platform cannot be asked to fail, so
// there the unknown-outcome and rate-limit steps usually report that the
// call went through.
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
	"github.com/rxdelivery/rxdelivery-go/pricing"
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
		fmt.Fprintln(os.Stderr, "error-handling:", err)
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
		injectFaults(sim)
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

// injectFaults arranges, in the simulator, the failures a real platform
// cannot be asked for: the first omni create is carried out but answered
// 500 (so its outcome is unknown to the client), and the first pricing call
// is answered 429 with a Retry-After of two minutes, longer than the
// client's wait cap (30 seconds by default), so the client gives up at once
// instead of sleeping.
func injectFaults(sim *rxdeliverytest.Server) {
	sim.FailNext(rxdeliverytest.RequestsCreate, 1, rxdeliverytest.CommittedThenFailed())
	sim.FailNext(rxdeliverytest.PricingQuote, 1, rxdeliverytest.RateLimited(2*time.Minute))
}

// pollEvery is how often run asks for a request's status.
const pollEvery = 500 * time.Millisecond

// run goes through the error classes one step at a time, printing what
// each call returned to out. It fails only on an error that no step
// expects.
func run(ctx context.Context, c *rxdelivery.Client, programID string, out io.Writer) error {
	steps := []struct {
		name string
		fn   func(context.Context, *rxdelivery.Client, string, io.Writer) error
	}{
		{"invalid params", invalidParams},
		{"not found", notFound},
		{"outcome unknown", unknownOutcome},
		{"unable to cancel", unableToCancel},
		{"rate limited", rateLimited},
	}
	for _, s := range steps {
		fmt.Fprintf(out, "== %s\n", s.name)
		if err := s.fn(ctx, c, programID, out); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	return nil
}

// invalidParams sends a request with several mistakes. Validation reports
// all of them at once, each with its JSON path, and nothing leaves the
// process.
func invalidParams(ctx context.Context, c *rxdelivery.Client, programID string, out io.Writer) error {
	_, err := c.Requests.Create(ctx, &requests.CreateParams{
		Identifier:              programID,
		ExternalReferenceNumber: reference("invalid"),
		NDC:                     "0002-1433-80", // hyphens: use rxdelivery.NormalizeNDC
		Pharmacy:                requests.PharmacyParams{NCPDP: "12345"},
		Dropoff: requests.DropoffParams{
			Name:        "Jane Doe",
			PhoneNumber: "555-0142", // no area code
			Address: requests.NewDropoffAddress(requests.Address{
				Street1: "200 Court St", City: "Brooklyn", State: "New York", Zipcode: "1120",
			}),
		},
		Patient: requests.PatientParams{LastName: "Doe"}, // no first name, no date of birth
	})
	var invalid *rxdelivery.ValidationError
	if !errors.As(err, &invalid) {
		return unexpected(err)
	}
	fmt.Fprintf(out, "%s: %d problems, nothing sent\n", classify(err), len(invalid.Problems))
	for _, p := range invalid.Problems {
		fmt.Fprintf(out, "  %-30s %s\n", p.Path, p.Message)
	}
	return nil
}

// notFound gets an order that does not exist.
func notFound(ctx context.Context, c *rxdelivery.Client, _ string, out io.Writer) error {
	_, err := c.Orders.Get(ctx, "ord_does_not_exist")
	var apiErr *rxdelivery.APIError
	if !errors.Is(err, rxdelivery.ErrNotFound) || !errors.As(err, &apiErr) {
		return unexpected(err)
	}
	fmt.Fprintf(out, "%s: %d %q\n", classify(err), apiErr.StatusCode, apiErr.Message)
	return nil
}

// unknownOutcome creates a request whose response may be lost.
//
// A create, cancel or prescription change that fails after it may have
// reached the platform (a 500, a cut connection, a timeout) matches
// ErrUnknownOutcome. The SDK never retries such a call, because a retry
// could create a second delivery. Reconcile instead:
//
//  1. Before sending, store the attempt in your own database under its
//     external_reference_number (unique per delivery, not per attempt).
//  2. On success, store the returned id next to it.
//  3. On ErrUnknownOutcome, mark the attempt "unknown" and do not create
//     again yet. The platform has no lookup by reference, so find out
//     whether it exists from the platform's side (its portal or support
//     can search by external_reference_number); requests whose ids you hold
//     can be checked in one call with Requests.GetMany.
//  4. Only when you know it was not created, create it again with the same
//     external_reference_number.
func unknownOutcome(ctx context.Context, c *rxdelivery.Client, programID string, out io.Writer) error {
	p, err := requestParams(ctx, c, programID, "unknown")
	if err != nil {
		return err
	}
	req, err := c.Requests.Create(ctx, p)
	switch {
	case errors.Is(err, rxdelivery.ErrUnknownOutcome):
		fmt.Fprintf(out, "%s: reference %s must be reconciled before any new attempt\n", classify(err), p.ExternalReferenceNumber)
		fmt.Fprintf(out, "  (%v)\n", err)
		return nil
	case err != nil:
		return unexpected(err)
	}
	// No failure this time: clean up the request we did not need.
	fmt.Fprintf(out, "the create went through (request %s); cancelling it\n", req.ID)
	if err := c.Requests.Cancel(ctx, req.ID); err != nil {
		return fmt.Errorf("cancelling request %s: %w", req.ID, err)
	}
	return nil
}

// unableToCancel creates a sandbox request that is delivered within
// seconds, waits until its order is past a cancellable status (picked up),
// then tries to cancel it.
func unableToCancel(ctx context.Context, c *rxdelivery.Client, programID string, out io.Writer) error {
	p, err := requestParams(ctx, c, programID, "late-cancel")
	if err != nil {
		return err
	}
	p.TestMeta = &requests.TestMeta{Scenario: requests.ScenarioSuccessfulDelivery, DurationBetween: 1}
	req, err := c.Requests.Create(ctx, p)
	if err != nil {
		return fmt.Errorf("creating the request: %w", err)
	}
	fmt.Fprintf(out, "created request %s; waiting for the courier to pick it up\n", req.ID)
	if err := waitPastCancellable(ctx, c, req.ID, out); err != nil {
		return err
	}
	err = c.Requests.Cancel(ctx, req.ID)
	var apiErr *rxdelivery.APIError
	if !errors.Is(err, rxdelivery.ErrUnableToCancel) || !errors.As(err, &apiErr) {
		return unexpected(err)
	}
	fmt.Fprintf(out, "%s: %d %s %q\n", classify(err), apiErr.StatusCode, apiErr.Type, apiErr.Message)
	return nil
}

// waitPastCancellable follows the request with Requests.Watch until its
// order is neither new nor submitted to a courier. The watch reads it
// every pollEvery and follows the platform's Retry-After and the client's
// rate limits between reads.
func waitPastCancellable(ctx context.Context, c *rxdelivery.Client, id string, out io.Writer) error {
	for req, err := range c.Requests.Watch(ctx, id, rxdelivery.WithPollInterval(pollEvery), rxdelivery.WithMaxPollInterval(pollEvery)) {
		if err != nil {
			return fmt.Errorf("waiting for request %s: %w", id, err)
		}
		if o := req.Order; o != nil && o.Status != rxtypes.OrderStatusNew && o.Status != rxtypes.OrderStatusSubmittedToCourier {
			fmt.Fprintf(out, "order %s is %s\n", o.ID, o.Status)
			return nil
		}
	}
	return fmt.Errorf("waiting for request %s: the watch ended before the courier picked it up", id)
}

// rateLimited asks for a quote. When the platform responds 429 with a
// Retry-After longer than the client's wait cap (WithRetryWaitMax) or than
// the context allows, the client does not sleep: it returns at once with
// the platform's Retry-After, and the caller decides (queue the work,
// tell the user, try later).
func rateLimited(ctx context.Context, c *rxdelivery.Client, _ string, out io.Writer) error {
	quotes, err := c.Pricing.Quote(ctx, &pricing.QuoteParams{
		Pickup:  pricing.Location{Address: pricing.Address{ZIPCode: "11201"}},
		Dropoff: pricing.Location{Address: pricing.Address{ZIPCode: "60611"}},
		PackageDimensions: pricing.PackageDimensions{
			LengthIn: rxdelivery.MustDecimal("10"),
			WidthIn:  rxdelivery.MustDecimal("8"),
			HeightIn: rxdelivery.MustDecimal("4"),
			WeightOz: rxdelivery.MustDecimal("12"),
		},
	})
	var apiErr *rxdelivery.APIError
	switch {
	case errors.Is(err, rxdelivery.ErrRateLimited) && errors.As(err, &apiErr):
		fmt.Fprintf(out, "%s: the platform asks to wait %s before the next call\n", classify(err), apiErr.RetryAfter)
		return nil
	case err != nil:
		return unexpected(err)
	}
	fmt.Fprintf(out, "no rate limit this time: %d quote(s)\n", len(quotes))
	return nil
}

// classify says what kind of failure err is and what a program should do
// about it. The order matters: an error can match several sentinels (a
// failed create answered 500 is both a platform error and of unknown
// outcome).
func classify(err error) string {
	var (
		invalid   *rxdelivery.ValidationError
		apiErr    *rxdelivery.APIError
		transport *rxdelivery.TransportError
	)
	switch {
	case err == nil:
		return "success"
	case errors.As(err, &invalid):
		return "invalid params (fix the input)"
	case errors.Is(err, rxdelivery.ErrUnknownOutcome):
		return "outcome unknown (reconcile, do not resend)"
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "gave up waiting (context ended)"
	case errors.Is(err, rxdelivery.ErrRateLimited):
		return "rate limited (retry after the wait the platform gave)"
	case errors.Is(err, rxdelivery.ErrUnableToCancel):
		return "unable to cancel (the delivery is under way)"
	case errors.Is(err, rxdelivery.ErrNotFound):
		return "not found (check the id)"
	case errors.Is(err, rxdelivery.ErrUnauthorized), errors.Is(err, rxdelivery.ErrForbidden):
		return "credentials refused (check the key, secret and enabled interfaces)"
	case errors.Is(err, rxdelivery.ErrUnavailable):
		return "platform unavailable (retry later)"
	case errors.Is(err, rxdelivery.ErrBadRequest):
		return "refused by the platform (fix the input)"
	case errors.As(err, &transport):
		return "network failure (retry later)"
	case errors.As(err, &apiErr):
		return fmt.Sprintf("platform error %d", apiErr.StatusCode)
	default:
		return "unexpected error"
	}
}

// unexpected wraps an outcome that the step did not expect.
func unexpected(err error) error {
	if err == nil {
		return errors.New("the call succeeded where a failure was expected")
	}
	return fmt.Errorf("unexpected %s: %w", classify(err), err)
}

// requestParams returns valid params for an omni request to a pharmacy
// that delivers to the patient, with a fresh reference.
func requestParams(ctx context.Context, c *rxdelivery.Client, programID, label string) (*requests.CreateParams, error) {
	page, err := c.Pharmacies.Search(ctx, &pharmacies.SearchParams{OriginAddress: "200 Court St, Brooklyn, NY 11201", PageSize: 1})
	if err != nil {
		return nil, fmt.Errorf("searching pharmacies: %w", err)
	}
	if len(page.Pharmacies) == 0 {
		return nil, errors.New("no pharmacy delivers to the dropoff address")
	}
	return &requests.CreateParams{
		Identifier:              programID,
		ExternalReferenceNumber: reference(label),
		NDC:                     "00002143380",
		Pharmacy:                requests.PharmacyParams{NCPDP: page.Pharmacies[0].NCPDP},
		Dropoff: requests.DropoffParams{
			Name:        "Jane Doe",
			PhoneNumber: "7185550142",
			Address: requests.NewDropoffAddress(requests.Address{
				Street1: "200 Court St", City: "Brooklyn", State: "NY", Zipcode: "11201",
			}),
		},
		Patient: requests.PatientParams{
			FirstName:   "Jane",
			LastName:    "Doe",
			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29},
		},
	}, nil
}

// reference returns a unique external reference number.
func reference(label string) string {
	return "errors-" + label + "-" + time.Now().UTC().Format("20060102T150405.000000")
}
