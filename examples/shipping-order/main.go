// Shipping-order creates a shipping order (a package sent by a ground
// carrier instead of a courier), then reads it back and prints what the
// pharmacy needs to ship it: the label, the tracking number and the cost.
//
// It shows the carrier options of a shipping order (carrier, carrier
// service, signature, weight and dimensions) and that the label data
// arrives with Get, not with the create response.
//
// Offline, with no RXDELIVERY_* variables set, it runs against the SDK's
// built-in simulator:
//
//	go run ./examples/shipping-order
//
// Online, it runs against the sandbox environment that RXDELIVERY_API_KEY,
// RXDELIVERY_API_SECRET, RXDELIVERY_OMNI_URL, RXDELIVERY_DELIVERY_URL and
// RXDELIVERY_SANDBOX=true describe (it refuses a production environment,
// since it buys a label), including a local simulator started with
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
		fmt.Fprintln(os.Stderr, "shipping-order:", err)
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

// pollEvery is how often run asks whether the label is ready.
const pollEvery = 500 * time.Millisecond

// run creates a shipping order and prints its label, tracking number and
// cost to out.
func run(ctx context.Context, c *rxdelivery.Client, out io.Writer) error {
	// The dispensing pharmacy: any pharmacy can ship; this one is found
	// with a search around Brooklyn.
	pharmacy, err := nearestPharmacy(ctx, c, "200 Court St, Brooklyn, NY 11201")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Pharmacy: %s (NPI %s, NCPDP %s)\n", pharmacy.Name, pharmacy.NPI, pharmacy.NCPDP)

	ref := "shipping-" + time.Now().UTC().Format("20060102T150405.000000")
	now := time.Now()
	today := rxdelivery.Date{Year: now.Year(), Month: now.Month(), Day: now.Day()}
	order, err := c.Orders.Create(ctx, &orders.CreateParams{
		ServiceLevel:            orders.ServiceLevelShipping,
		ServiceDate:             &today,
		ExternalReferenceNumber: ref,
		Pharmacy:                orders.Pharmacy{NPI: pharmacy.NPI, NCPDP: pharmacy.NCPDP},
		Recipient: orders.Recipient{
			Description: "Jane Doe",
			Address:     rxtypes.Address{Street: "44 Lake Shore Dr", City: "Chicago", State: "IL", Zipcode: "60611"},
		},
		Patient: orders.Patient{
			FirstName:   "Jane",
			LastName:    "Doe",
			Gender:      rxtypes.GenderFemale,
			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29},
			// Shipping orders need a patient phone number, mobile or home.
			MobilePhoneNumber: "3125550199",
		},
		Shipping: &orders.ShippingParams{
			Carrier:        orders.CarrierParcelA,
			CarrierService: orders.CarrierServiceParcelAGround, // must be a service of Carrier
			Signature:      orders.SignatureRequired,           // must be one Carrier offers
			Weight:         orders.Weight{Unit: orders.WeightUnitOunce, Value: rxdelivery.MustDecimal("12")},
			// Without a PackageCode, the dimensions are required.
			Dimensions: &orders.Dimensions{
				Unit:   orders.DimensionUnitInch,
				Length: rxdelivery.MustDecimal("10"),
				Width:  rxdelivery.MustDecimal("8"),
				Height: rxdelivery.MustDecimal("4"),
			},
		},
		Prescriptions: []orders.Prescription{{
			Number:        "RX-2001",
			NDC:           "00002143380",
			Refrigeration: orders.RefrigerationNone,
			DaysSupply:    90,
			FillQuantity:  rxdelivery.MustDecimal("90"),
			FillNumber:    rxdelivery.Ptr(0),
			PatientPay:    rxdelivery.Ptr(rxdelivery.MustDecimal("0.00")),
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
		}},
	})
	var invalid *rxdelivery.ValidationError
	switch {
	case errors.As(err, &invalid):
		// Nothing was sent. The carrier rules (services, signatures,
		// Saturday delivery, weight limits) are checked here too.
		for _, p := range invalid.Problems {
			fmt.Fprintf(out, "  invalid %s\n", p)
		}
		return err
	case err != nil:
		// An ErrUnknownOutcome here means the order (and its label) may
		// exist although no response came back: look for ref before creating
		// it again, or the patient gets two parcels.
		return fmt.Errorf("creating the shipping order (reference %s): %w", ref, err)
	}
	fmt.Fprintf(out, "Created shipping order %s: status %s\n", order.ID, order.Status)

	// The create response has no shipping data: Get the order until the label
	// is there.
	order, err = waitForLabel(ctx, c, order.ID)
	if err != nil {
		return err
	}
	sh := order.Shipping
	fmt.Fprintf(out, "Carrier:         %s (%s)\n", sh.Carrier, sh.CarrierService)
	fmt.Fprintf(out, "Tracking number: %s\n", sh.TrackingNumber)
	fmt.Fprintf(out, "Tracking page:   %s\n", sh.TrackingURL)
	fmt.Fprintf(out, "Label:           %s\n", sh.LabelPDF)
	fmt.Fprintf(out, "Cost:            $%s\n", sh.Cost)
	return nil
}

// waitForLabel gets the order until its shipping data carries a tracking
// number and a label, or ctx ends.
func waitForLabel(ctx context.Context, c *rxdelivery.Client, id string) (*orders.Order, error) {
	ticker := time.NewTicker(pollEvery)
	defer ticker.Stop()
	for {
		order, err := c.Orders.Get(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("getting order %s: %w", id, err)
		}
		if sh := order.Shipping; sh != nil && sh.TrackingNumber != "" && sh.LabelPDF != "" {
			return order, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the label of order %s: %w", id, ctx.Err())
		case <-ticker.C:
		}
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
