package rxdelivery_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// httptest: an Example uses the public API only, so its stand-in platform is a real loopback server.

// The examples in this file hold every Go block of the README, verbatim
// (TestReadmeBlocksAreCompiled checks it), with the setup around them that
// points the client at the sandbox simulator.

// A first program: a client from the RXDELIVERY_* variables (here pointed
// at the test kit's simulator) creates an omni request with a sandbox
// scenario and reads it again once the simulator has delivered its order.
// It is the README's quickstart.
func Example() {
	srv := rxdeliverytest.NewServer(rxdeliverytest.WithCredentials("key", "secret"))
	defer srv.Close()
	for k, v := range map[string]string{
		rxdelivery.EnvAPIKey: "key", rxdelivery.EnvAPISecret: "secret", rxdelivery.EnvSandbox: "1",
		rxdelivery.EnvOmniURL: srv.OmniURL(), rxdelivery.EnvDeliveryURL: srv.DeliveryURL(),
	} {
		os.Setenv(k, v)
		defer os.Unsetenv(k)
	}
	ctx := context.Background()

	client, err := rxdelivery.NewClientFromEnv()
	if err != nil {
		log.Fatal(err)
	}
	dob, _ := rxdelivery.ParseDate("1980-02-29")
	req, err := client.Requests.Create(ctx, &requests.CreateParams{
		Identifier:              "program-123",
		ExternalReferenceNumber: "rx-2024-000123",
		NDC:                     "00002143380",
		Pharmacy:                requests.PharmacyParams{NCPDP: "5550001"},
		Dropoff: requests.DropoffParams{
			Name:        "Jane Doe",
			PhoneNumber: "6145550100",
			Address: requests.NewDropoffAddress(requests.Address{
				Street1: "123 Main St", City: "Columbus", State: "OH", Zipcode: "43210",
			}),
		},
		Patient:  requests.PatientParams{FirstName: "Jane", LastName: "Doe", DateOfBirth: dob},
		TestMeta: &requests.TestMeta{Scenario: requests.ScenarioSuccessfulDelivery, DurationBetween: 1},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("created", req.ID)

	srv.Advance(4 * time.Second)
	got, err := client.Requests.Get(ctx, req.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("order", got.Order.Status)
	// Output:
	// created req_000001
	// order delivered
}

// Configuration: the client's credentials and base URLs from the
// environment, with options that override them (the README's
// configuration block).
func Example_configuration() {
	srv := rxdeliverytest.NewServer(rxdeliverytest.WithCredentials("key", "secret"))
	defer srv.Close()
	key, secret := "key", "secret"
	trackingKey, trackingSecret := "key", "secret"
	omniURL, deliveryURL, trackingURL := srv.OmniURL(), srv.DeliveryURL(), srv.TrackingURL()

	client, err := rxdelivery.NewClient(key, secret,
		rxdelivery.WithOmniURL(omniURL),
		rxdelivery.WithDeliveryURL(deliveryURL),
		rxdelivery.WithCredentials(rxdelivery.Tracking, trackingKey, trackingSecret),
		rxdelivery.WithTrackingURL(trackingURL),
		rxdelivery.WithRetryWaitMax(10*time.Second),
		rxdelivery.WithLogger(slog.Default()),
		rxdelivery.WithUserAgent("acme-pharmacy/2.1"),
	)

	if err != nil {
		log.Fatal(err)
	}
	_, err = client.Pricing.Quote(context.Background(), nil)
	fmt.Println(err)
	// Output:
	// rxdelivery: invalid params: params are required
}

// Telling errors apart: errors.Is with the sentinel errors for what went
// wrong, errors.As for the platform's words and the request id (the
// README's error-handling block).
func Example_errors() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	order, createErr := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if createErr != nil {
		log.Fatal(createErr)
	}
	orderID := order.ID
	if setErr := srv.SetOrderStatus(orderID, "picked_up"); setErr != nil {
		log.Fatal(setErr)
	}

	err := client.Orders.Cancel(ctx, orderID)
	var apiErr *rxdelivery.APIError
	switch {
	case err == nil:
		fmt.Println("cancelled")
	case errors.Is(err, rxdelivery.ErrUnableToCancel):
		fmt.Println("too late to cancel: the courier has it")
	case errors.Is(err, rxdelivery.ErrNotFound):
		fmt.Println("no such order")
	case errors.Is(err, rxdelivery.ErrUnknownOutcome):
		fmt.Println("no answer: get the order before trying again")
	case errors.As(err, &apiErr):
		fmt.Println("platform said", apiErr.StatusCode, apiErr.Message)
	default:
		fmt.Println("failed:", err)
	}
	// Output:
	// too late to cancel: the courier has it
}

// Receiving tracking notifications: an HTTP handler that checks each
// notification and hands it to the program's code (the README's
// notification handler).
func Example_notifications() {
	handler := tracking.NewHandler(func(ctx context.Context, n *tracking.Notification) error {
		log.Printf("%s is now %s (at %s)", n.TrackingNumber, n.Status, n.StatusOccurredAt)
		return nil
	}, tracking.WithMaxBodyBytes(64<<10))
	mux := http.NewServeMux()
	mux.Handle("/hooks/tracking", handler)

	log.SetOutput(os.Stdout)
	log.SetFlags(0)
	defer log.SetOutput(os.Stderr)
	defer log.SetFlags(log.LstdFlags)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	body := `{"tracking_number":"9400100000000000000001","timestamp":"2026-03-02T09:00:00Z","carrier":"POSTAL",
		"status":"Accepted","status_occurred_at":"2026-03-02T08:59:00Z"}`
	resp, err := srv.Client().Post(srv.URL+"/hooks/tracking", "application/json", strings.NewReader(body))
	if err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode)
	// Output:
	// 9400100000000000000001 is now Accepted (at 2026-03-02T08:59:00Z)
	// 204
}

// Tidying a record exported by a pharmacy system (NDC, phone, ZIP, date
// written month/day/year) into the forms the platform accepts, as the
// README shows.
func Example_normalizeRecord() {
	rec := struct{ NDC, Phone, ZIP, State string }{"0002-1433-80", "(614) 555-0100", "43210-1234", "OH"}
	ndc, err := rxdelivery.NormalizeNDC(rec.NDC)
	if err != nil {
		log.Fatalf("ndc: %v", err)
	}
	phone, err := rxdelivery.NormalizePhone(rec.Phone)
	if err != nil {
		log.Fatalf("phone: %v", err)
	}
	zip, err := rxdelivery.NormalizeZIP(rec.ZIP)
	if err != nil {
		log.Fatalf("zip: %v", err)
	}
	if !rxdelivery.IsState(rec.State) {
		log.Fatalf("state: unknown code")
	}
	fmt.Println(ndc, phone, zip)

	// The normalised values pass the order's validation.
	p := rxdeliverytest.SamedayOrderParams()
	p.Prescriptions[0].NDC = ndc
	p.Patient.MobilePhoneNumber = phone
	p.Recipient.Address.Zipcode = zip
	fmt.Println(p.Validate())
	// Output:
	// 00002143380 6145550100 432101234
	// <nil>
}

// Invalid params are refused before anything is sent, with one error that
// lists every problem, each with its JSON path.
func Example_validation() {
	p := rxdeliverytest.SamedayOrderParams()
	p.Recipient.Address.Zipcode = "4321"
	p.Patient.MobilePhoneNumber = "614-555"
	err := p.Validate()
	fmt.Println(err)
	var ve *rxdelivery.ValidationError
	if errors.As(err, &ve) {
		for _, pr := range ve.Problems {
			fmt.Println(pr.Path)
		}
	}
	// Output:
	// rxdelivery: invalid params: recipient.address.zipcode: must be 5 or 9 digits; patient.mobile_phone_number: must be 10 digits
	// recipient.address.zipcode
	// patient.mobile_phone_number
}

// TestDeliveryReachesThePatient is the README's "Testing your code" block,
// run as the test it shows.
func TestDeliveryReachesThePatient(t *testing.T) {
	srv := rxdeliverytest.Start(t) // stopped when the test ends
	client, ctx := srv.Client(), context.Background()

	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		t.Fatal(err)
	}
	srv.Advance(3 * rxdeliverytest.DefaultOrderCadence) // submitted, picked up, delivered: no sleeping
	if st, _ := srv.OrderStatus(order.ID); st != rxtypes.OrderStatusDelivered {
		t.Fatalf("status %s, want delivered", st)
	}
	if sent := srv.CallsTo(rxdeliverytest.OrdersCreate)[0].Body; sent["external_reference_number"] != "rx-2026-0001" {
		t.Fatalf("sent %v", sent)
	}

	// The next create is carried out, then answered 500: the caller cannot
	// know whether the order exists, and must reconcile, not create again.
	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.CommittedThenFailed())
	_, err = client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if !errors.Is(err, rxdelivery.ErrUnknownOutcome) {
		t.Fatalf("got %v, want an unknown outcome", err)
	}
	if n := len(srv.Orders()); n != 2 {
		t.Fatalf("%d orders, want 2", n)
	}
}

// Following a delivery: watching an omni request until its order reaches
// a final status, each change printed as it comes (the README's
// "Following a delivery").
func Example_followingADelivery() {
	srv := rxdeliverytest.NewServer() // its client's waits move the simulator's clock
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		log.Fatal(err)
	}
	orderID, openIDs := order.ID, []string{order.ID}

	// Each status change, the first read included, until a final status.
	for o, err := range client.Orders.Watch(ctx, orderID) {
		if err != nil {
			log.Fatal(err) // a 404, a status the documents do not list (ErrUnknownStatus), ctx's end
		}
		fmt.Println("order", o.Status)
	}

	// Only the end (delivered, returned_to_pharmacy or cancelled), or a
	// condition of yours with orders.Until.
	done, err := client.Orders.Wait(ctx, orderID, rxdelivery.WithPollInterval(30*time.Second))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("waited:", done.Status)

	// Many at once: get-many reads in batches, never one read per order.
	for o, err := range client.Orders.WatchMany(ctx, openIDs) {
		if err != nil {
			log.Print(err) // ErrNotFound for an order no longer listed; the others go on
			continue
		}
		fmt.Println(o.ID, o.Status)
	}
	// Output:
	// order new
	// order submitted_to_courier
	// order picked_up
	// order delivered
	// waited: delivered
	// ord_000001 delivered
}
