package requests_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func exampleParams() *requests.CreateParams {
	return &requests.CreateParams{
		Identifier:              "program-123",
		ExternalReferenceNumber: "rx-2026-000123",
		NameOfPickup:            "Amoxicillin 500 mg",
		Pharmacy:                requests.PharmacyParams{NCPDP: "5550001"},
		Dropoff: requests.DropoffParams{
			Name:        "Jane Doe",
			PhoneNumber: "6145550100",
			Address:     requests.NewDropoffPlace("ChIJd8BlQ2BZwokRAFUEcm_qrcA"),
		},
		Patient: requests.PatientParams{
			FirstName: "Jane", LastName: "Doe", Gender: rxtypes.GenderFemale,
			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29},
		},
		Remittance: &requests.RemittanceParams{
			Contact:  &requests.Contact{MobilePhoneNumber: "6145550100"},
			Payments: []requests.Payment{{Fee: rxdelivery.MustDecimal("4.99"), Kind: requests.PaymentDeliveryFee}},
		},
		TestMeta: &requests.TestMeta{Scenario: requests.ScenarioUnsuccessfulDelivery, DurationBetween: 60},
	}
}

// Creating an omni request: the item to pick up, the pharmacy, the patient
// and where to deliver.
func ExampleService_Create() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	req, err := client.Requests.Create(ctx, exampleParams())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(req.ID, req.ExternalReferenceNumber, req.Order == nil)
	// Output:
	// req_000001 rx-2026-000123 true
}

// A client built with WithProgramID (or from RXDELIVERY_PROGRAM_ID) sends
// its program identifier in every create that leaves Identifier empty.
func ExampleService_Create_programID() {
	srv := rxdeliverytest.NewServer(rxdeliverytest.WithClientOptions(rxdelivery.WithProgramID("program-123")))
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	p := exampleParams()
	p.Identifier = ""
	req, err := client.Requests.Create(ctx, p)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(req.ID, p.Identifier == "")
	// Output:
	// req_000001 true
}

// Reading a request as its sandbox scenario moves its order along, here a
// delivery that fails and returns to the pharmacy.
func ExampleService_Get() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	req, err := client.Requests.Create(ctx, exampleParams())
	if err != nil {
		log.Fatal(err)
	}

	// The unsuccessful_delivery scenario moves one step a minute.
	for i := 0; i < 5; i++ {
		srv.Advance(time.Minute)
		got, err := client.Requests.Get(ctx, req.ID)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(got.Order.Status)
		if got.Order.Delivery != nil && !got.Order.Delivery.Succeeded() {
			fmt.Println("  failed:", got.Order.Delivery.FailureReason != "")
		}
	}
	// Output:
	// new
	// submitted_to_courier
	// picked_up
	// delivery_attempted
	//   failed: true
	// returned_to_pharmacy
	//   failed: true
}

// A cancel refused once the order is picked up: the error matches
// ErrUnableToCancel and names the request.
func ExampleService_Cancel() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	req, err := client.Requests.Create(ctx, exampleParams())
	if err != nil {
		log.Fatal(err)
	}
	srv.Advance(3 * time.Minute) // picked up: too late to cancel

	err = client.Requests.Cancel(ctx, req.ID)
	var apiErr *rxdelivery.APIError
	if errors.Is(err, rxdelivery.ErrUnableToCancel) && errors.As(err, &apiErr) {
		fmt.Println(apiErr.Type, apiErr.ID == req.ID)
	}
	// Output:
	// unable_to_cancel true
}

// Reading several requests in one call.
func ExampleService_GetMany() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	var ids []string
	for i := 0; i < 3; i++ {
		req, err := client.Requests.Create(ctx, exampleParams())
		if err != nil {
			log.Fatal(err)
		}
		ids = append(ids, req.ID)
	}

	reqs, err := client.Requests.GetMany(ctx, ids)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range reqs {
		fmt.Println(r.ID)
	}
	// Output:
	// req_000001
	// req_000002
	// req_000003
}
