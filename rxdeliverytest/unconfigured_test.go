package rxdeliverytest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// platformVars are the variables StartIfUnconfigured reads.
var platformVars = []string{
	rxdelivery.EnvAPIKey, rxdelivery.EnvAPISecret,
	rxdelivery.EnvOmniURL, rxdelivery.EnvDeliveryURL, rxdelivery.EnvTrackingURL, rxdelivery.EnvPricingURL,
	"RXDELIVERY_OMNI_API_KEY", "RXDELIVERY_OMNI_API_SECRET",
	"RXDELIVERY_DELIVERY_API_KEY", "RXDELIVERY_DELIVERY_API_SECRET",
	"RXDELIVERY_TRACKING_API_KEY", "RXDELIVERY_TRACKING_API_SECRET",
	"RXDELIVERY_PRICING_API_KEY", "RXDELIVERY_PRICING_API_SECRET",
}

// clearPlatform unsets every RXDELIVERY_* variable for the test.
func clearPlatform(t *testing.T) {
	t.Helper()
	for _, v := range append(platformVars, rxdelivery.EnvSandbox, rxdelivery.EnvProgramID) {
		t.Setenv(v, "")
	}
}

func TestStartIfUnconfiguredStartsASimulatorForNewClientFromEnv(t *testing.T) {
	clearPlatform(t)
	sim, err := rxdeliverytest.StartIfUnconfigured(rxdeliverytest.WithOrderCadence(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if sim == nil {
		t.Fatal("no simulator started with no RXDELIVERY_* variable set")
	}
	defer sim.Close()
	client, err := rxdelivery.NewClientFromEnv(sim.ClientOptions()...)
	if err != nil {
		t.Fatalf("NewClientFromEnv with the simulator's options: %v", err)
	}
	defer client.CloseIdleConnections()
	if !client.Sandbox() {
		t.Error("the client is not in sandbox mode")
	}
	ctx := context.Background()

	// Every interface answers with the server's credentials, and an omni
	// request gets the default program identifier.
	if _, err := client.Pharmacies.Search(ctx, &pharmacies.SearchParams{OriginAddress: "42 Elm Avenue, Columbus, OH 43210"}); err != nil {
		t.Fatalf("omni: %v", err)
	}
	if _, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams()); err != nil {
		t.Fatalf("delivery: %v", err)
	}
	req, err := client.Requests.Create(ctx, &requests.CreateParams{
		ExternalReferenceNumber: "ref-1",
		NDC:                     "00002143380",
		Pharmacy:                requests.PharmacyParams{NCPDP: "5550001"},
		Dropoff: requests.DropoffParams{
			Name: "Jane Doe", PhoneNumber: "6145550100",
			Address: requests.NewDropoffAddress(requests.Address{Street1: "42 Elm Avenue", City: "Columbus", State: "OH", Zipcode: "43210"}),
		},
		Patient: requests.PatientParams{FirstName: "Jane", LastName: "Doe", DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29}},
	})
	if err != nil {
		t.Fatalf("omni request: %v", err)
	}
	calls := sim.CallsTo(rxdeliverytest.RequestsCreate)
	if len(calls) != 1 || calls[0].Body["identifier"] != rxdeliverytest.DefaultProgramID {
		t.Fatalf("request %s sent as %+v; want the identifier %s", req.ID, calls, rxdeliverytest.DefaultProgramID)
	}

	// The simulator runs on the real clock.
	if d := time.Since(sim.Now()); d < -time.Minute || d > time.Minute {
		t.Errorf("the simulator's clock reads %v, %v from now: not the real clock", sim.Now(), d)
	}
}

func TestStartIfUnconfiguredStartsNothingWhenAPlatformIsConfigured(t *testing.T) {
	for _, name := range platformVars {
		t.Run(name, func(t *testing.T) {
			clearPlatform(t)
			t.Setenv(name, "set")
			sim, err := rxdeliverytest.StartIfUnconfigured()
			if sim != nil || err != nil {
				if sim != nil {
					sim.Close()
				}
				t.Fatalf("with %s set: started a simulator %t, error %v; want neither", name, sim != nil, err)
			}
		})
	}
	t.Run("sandbox and program id alone", func(t *testing.T) {
		clearPlatform(t)
		t.Setenv(rxdelivery.EnvSandbox, "true")
		t.Setenv(rxdelivery.EnvProgramID, "prog_1")
		sim, err := rxdeliverytest.StartIfUnconfigured()
		if err != nil || sim == nil {
			t.Fatalf("started a simulator %t, error %v; want a simulator: these variables name no platform", sim != nil, err)
		}
		sim.Close()
	})
}

func TestStartIfUnconfiguredReportsASetupError(t *testing.T) {
	clearPlatform(t)
	sim, err := rxdeliverytest.StartIfUnconfigured(rxdeliverytest.WithCredentials("", ""))
	if err == nil || sim != nil {
		t.Fatalf("started a simulator %t, error %v; want an error for empty credentials", sim != nil, err)
	}
}

// A program that runs against the platform the RXDELIVERY_* variables
// describe, or against a simulator when they describe none, so that it
// works with no setup (the repository's example programs start this way).
func ExampleStartIfUnconfigured() {
	sim, err := rxdeliverytest.StartIfUnconfigured(rxdeliverytest.WithOrderCadence(time.Second))
	if err != nil {
		log.Fatal(err)
	}
	opts := []rxdelivery.Option{rxdelivery.WithUserAgent("my-demo/1.0")}
	if sim != nil {
		defer sim.Close()
		fmt.Fprintln(os.Stderr, "no platform configured: running against a simulator at", sim.URL())
		opts = append(sim.ClientOptions(), opts...)
	}
	client, err := rxdelivery.NewClientFromEnv(opts...)
	if err != nil {
		log.Fatal(err)
	}
	defer client.CloseIdleConnections()

	page, err := client.Pharmacies.Search(context.Background(), &pharmacies.SearchParams{
		OriginAddress: "42 Elm Avenue, Columbus, OH 43210",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(page.Pharmacies) > 0)
}

func TestClientOptionsEndWithTheServersClientOptions(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t, rxdeliverytest.WithClientOptions(rxdelivery.WithRetryMax(0)))
	client, err := rxdelivery.NewClient("", "", srv.ClientOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	defer client.CloseIdleConnections()
	srv.FailNext(rxdeliverytest.OrdersGet, 1, rxdeliverytest.Unavailable(0))
	_, err = client.Orders.Get(context.Background(), "ord_1")
	if !errors.Is(err, rxdelivery.ErrUnavailable) {
		t.Fatalf("got %v; want the 503 itself, since WithRetryMax(0) leaves no retry", err)
	}
	if n := len(srv.CallsTo(rxdeliverytest.OrdersGet)); n != 1 {
		t.Fatalf("%d gets sent; want 1", n)
	}
}
