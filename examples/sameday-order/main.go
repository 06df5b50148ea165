// Sameday-order creates a same-day courier delivery order, reads it back,
// adds a second prescription to it and removes it again, then cancels the
// order while it is still cancellable and waits for its final status.
//
// It shows the delivery order interface: the money fields (exact decimals,
// never float64), a prescription with its prescriber and payer, the
// prescription edits allowed before pickup, and cancellation with
// Status.Cancellable and rxdelivery.ErrUnableToCancel.
//
// Offline, with no RXDELIVERY_* variables set, it runs against the SDK's
// built-in simulator:
//
//	go run ./examples/sameday-order
//
// Online, it runs against the sandbox environment that RXDELIVERY_API_KEY,
// RXDELIVERY_API_SECRET, RXDELIVERY_OMNI_URL, RXDELIVERY_DELIVERY_URL and
// RXDELIVERY_SANDBOX=true describe (it refuses a production environment,
// since it creates an order), including a local simulator started with
// go run ./cmd/rxdelivery sandbox --env-file sandbox.env (that file sourced).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := start(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sameday-order:", err)
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
	// The example creates deliveries: never against production.
	if !client.Sandbox() {
		return errors.New("this example creates test deliveries: run it offline, or against a sandbox (" + rxdelivery.EnvSandbox + "=true)")
	}
	return run(ctx, client, out)
}

// The patient's address, where the courier delivers.
var home = rxtypes.Address{Street: "200 Court St", City: "Brooklyn", State: "NY", Zipcode: "11201"}

// run creates, edits and cancels a same-day order, printing each step to
// out.
func run(ctx context.Context, c *rxdelivery.Client, out io.Writer) error {
	pharmacy, err := nearestPharmacy(ctx, c, "200 Court St, Brooklyn, NY 11201")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Pharmacy: %s (NPI %s, NCPDP %s)\n", pharmacy.Name, pharmacy.NPI, pharmacy.NCPDP)

	// Create. A same-day order is the zero ServiceLevel; it needs the
	// delivery fee and the amount due for the prescriptions, both exact
	// decimals written as text.
	ref := "sameday-" + time.Now().UTC().Format("20060102T150405.000000")
	order, err := c.Orders.Create(ctx, &orders.CreateParams{
		DeliveryFee:             rxdelivery.Ptr(rxdelivery.MustDecimal("5.00")),
		RxAmountDue:             rxdelivery.Ptr(rxdelivery.MustDecimal("12.50")),
		ExternalReferenceNumber: ref,
		DeliveryNotes:           "Ring the bell twice.",
		Pharmacy:                orders.Pharmacy{NPI: pharmacy.NPI, NCPDP: pharmacy.NCPDP},
		Recipient: orders.Recipient{
			Description:       "Jane Doe",
			MobilePhoneNumber: "7185550142",
			Address:           home,
		},
		Patient: orders.Patient{
			FirstName:   "Jane",
			LastName:    "Doe",
			Gender:      rxtypes.GenderFemale,
			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29},
		},
		Prescriptions: []orders.Prescription{prescription("RX-1001", "00002143380", "12.50")},
	})
	if err != nil {
		// An ErrUnknownOutcome here means the order may exist although no
		// answer came back: look for ref before creating it again.
		return fmt.Errorf("creating the order (reference %s): %w", ref, err)
	}
	fmt.Fprintf(out, "Created order %s: status %s%s\n", order.ID, order.Status, eta(order))

	// Get returns every field of the order.
	order, err = c.Orders.Get(ctx, order.ID)
	if err != nil {
		return fmt.Errorf("getting order: %w", err)
	}
	fmt.Fprintf(out, "Got order %s: status %s, reference %s%s\n", order.ID, order.Status, order.ExternalReferenceNumber, eta(order))

	// Prescriptions can be added and removed until the courier picks the
	// order up.
	extra := prescription("RX-1002", "00378180110", "0.00")
	order, err = c.Orders.AddPrescription(ctx, order.ID, &extra)
	if err != nil {
		return fmt.Errorf("adding prescription %s: %w", extra.Number, err)
	}
	fmt.Fprintf(out, "Added prescription %s: order status %s\n", extra.Number, order.Status)

	if err := c.Orders.RemovePrescription(ctx, order.ID, extra.Number); err != nil {
		return fmt.Errorf("removing prescription %s: %w", extra.Number, err)
	}
	fmt.Fprintf(out, "Removed prescription %s\n", extra.Number)

	// Cancel while the order is still new or submitted to the courier.
	// The status can move between the Get and the Cancel, so a refusal
	// (ErrUnableToCancel) is still possible and handled.
	order, err = c.Orders.Get(ctx, order.ID)
	if err != nil {
		return fmt.Errorf("getting order: %w", err)
	}
	if !order.Status.Cancellable() {
		fmt.Fprintf(out, "Order %s is %s: too late to cancel\n", order.ID, order.Status)
		return followToEnd(ctx, c, order.ID, out)
	}
	err = c.Orders.Cancel(ctx, order.ID)
	switch {
	case errors.Is(err, rxdelivery.ErrUnableToCancel):
		fmt.Fprintf(out, "Order %s could no longer be cancelled: the courier has it\n", order.ID)
		return followToEnd(ctx, c, order.ID, out)
	case err != nil:
		return fmt.Errorf("cancelling order: %w", err)
	}
	fmt.Fprintf(out, "Cancelled order %s\n", order.ID)

	// Wait reads the order until it reaches a final status (delivered,
	// returned to the pharmacy or cancelled): here at once. It is also how
	// a service follows an order it did not cancel to its end, reading
	// with a growing, jittered interval instead of a loop of its own.
	order, err = c.Orders.Wait(ctx, order.ID)
	if err != nil {
		return fmt.Errorf("waiting for the order's final status: %w", err)
	}
	fmt.Fprintf(out, "Final status: %s", order.Status)
	if cn := order.Cancellation; cn != nil {
		fmt.Fprintf(out, " at %s (%s)", cn.OccurredAt.Local().Format("15:04:05"), cn.Reason)
	}
	fmt.Fprintln(out)
	return nil
}

// followToEnd prints each status of the order id until it reaches a final
// one (delivered, returned to the pharmacy or cancelled). Orders.Watch does
// the polling: reads only, a wait that grows while nothing changes, the
// platform's Retry-After and the client's rate limits followed.
func followToEnd(ctx context.Context, c *rxdelivery.Client, id string, out io.Writer) error {
	for o, err := range c.Orders.Watch(ctx, id, rxdelivery.WithPollInterval(pollEvery)) {
		if err != nil {
			return fmt.Errorf("following order %s: %w", id, err)
		}
		fmt.Fprintf(out, "Order %s: %s%s\n", o.ID, o.Status, eta(o))
	}
	return nil
}

// pollEvery is the first wait between two reads of an order being
// followed. The simulator's orders move once a second; against a real
// platform keep the SDK's default (rxdelivery.DefaultPollInterval).
const pollEvery = 500 * time.Millisecond

// prescription returns a prescription numbered number for the drug ndc,
// with its prescriber and one payer.
func prescription(number, ndc, patientPay string) orders.Prescription {
	return orders.Prescription{
		Number:        number,
		NDC:           ndc,
		Refrigeration: orders.RefrigerationNone,
		DaysSupply:    30,
		FillQuantity:  rxdelivery.MustDecimal("30"),
		FillNumber:    rxdelivery.Ptr(0), // the original fill
		PatientPay:    rxdelivery.Ptr(rxdelivery.MustDecimal(patientPay)),
		DateOfService: time.Now().Format(time.DateOnly),
		Prescriber: orders.Prescriber{
			FirstName: "Alex",
			LastName:  "Smith",
			NPI:       "1234567893",
			Address:   rxtypes.Address{Street: "1 Clinic Plaza", City: "Brooklyn", State: "NY", Zipcode: "11201"},
		},
		Payers: []orders.Payer{{
			BIN:                     "610014",
			PCN:                     "PCN01",
			RxGroup:                 "GRP100",
			CoverageType:            orders.CoverageTypePrimary,
			GovernmentPlanIndicator: rxdelivery.Ptr(false),
		}},
	}
}

// nearestPharmacy returns the first pharmacy a search around address
// lists: preferred pharmacies come first, then the nearest.
func nearestPharmacy(ctx context.Context, c *rxdelivery.Client, address string) (*pharmacies.Pharmacy, error) {
	page, err := c.Pharmacies.Search(ctx, &pharmacies.SearchParams{OriginAddress: address, PageSize: 1})
	if err != nil {
		return nil, fmt.Errorf("searching pharmacies: %w", err)
	}
	if len(page.Pharmacies) == 0 {
		return nil, errors.New("no pharmacy delivers to " + address)
	}
	return &page.Pharmacies[0], nil
}

// eta describes an order's latest estimate of arrival, if it has one.
func eta(o *orders.Order) string {
	if o.ETA == nil || !o.ETA.ArrivalAt.Valid() {
		return ""
	}
	return fmt.Sprintf(", %s ETA %s", o.ETA.Type, o.ETA.ArrivalAt.Local().Format("15:04"))
}
