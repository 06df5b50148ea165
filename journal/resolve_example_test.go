package journal_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// An operator records the order a lost create made. Resolve reads the
// order first: another patient's order, or a mistyped id, is refused and
// the claim stays unknown.
func ExampleOrders_Resolve() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	ctx := context.Background()
	orders := journal.New(journal.NewMemoryStore()).Orders(srv.Client().Orders)

	// Two creates are made on the platform, and both answers are lost.
	for _, ref := range []string{"rx-2026-0007", "rx-2026-0008"} {
		params := rxdeliverytest.SamedayOrderParams()
		params.ExternalReferenceNumber = ref
		srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.CommittedThenFailed())
		if _, err := orders.Create(ctx, params); !errors.Is(err, rxdelivery.ErrUnknownOutcome) {
			log.Fatal(err)
		}
	}

	// The other reference's order is refused, saying what was found.
	_, err := orders.Resolve(ctx, "rx-2026-0007", "ord_000002")
	var mismatch *journal.MismatchError
	fmt.Println(errors.As(err, &mismatch), mismatch.ID, mismatch.Status)
	// So is an id the platform does not know.
	_, err = orders.Resolve(ctx, "rx-2026-0007", "ord_00001")
	fmt.Println(errors.Is(err, rxdelivery.ErrNotFound))

	order, err := orders.Resolve(ctx, "rx-2026-0007", "ord_000001")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("recorded", order.ID)
	// Output:
	// true ord_000002 new
	// true
	// recorded ord_000001
}

// An id recorded without verification (Journal.Resolve) that belongs to
// another reference is undone: the claim is unknown again, and the right
// order is then recorded.
func ExampleOrders_Unresolve() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	ctx := context.Background()
	j := journal.New(journal.NewMemoryStore())
	orders := j.Orders(srv.Client().Orders)
	for _, ref := range []string{"rx-2026-0007", "rx-2026-0008"} {
		params := rxdeliverytest.SamedayOrderParams()
		params.ExternalReferenceNumber = ref
		srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.CommittedThenFailed())
		_, _ = orders.Create(ctx, params)
	}
	key := journal.Key{Interface: journal.InterfaceDelivery, Reference: "rx-2026-0007"}
	if err := j.Resolve(ctx, key, "ord_000002"); err != nil { // a wrong id, unchecked
		log.Fatal(err)
	}

	if err := orders.Unresolve(ctx, "rx-2026-0007", "ord_000002"); err != nil {
		log.Fatal(err)
	}
	claim, err := j.Get(ctx, key)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(claim.State)
	if _, err := orders.Resolve(ctx, "rx-2026-0007", "ord_000001"); err != nil {
		log.Fatal(err)
	}
	claim, _ = j.Get(ctx, key)
	fmt.Println(claim.State, claim.ID)
	// Output:
	// unknown
	// created ord_000001
}

// The same for omni requests: Resolve records the request only when it
// carries the claim's reference.
func ExampleRequests_Resolve() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	ctx := context.Background()
	omni := journal.New(journal.NewMemoryStore()).Requests(srv.Client().Requests)
	params := &requests.CreateParams{
		Identifier:              rxdeliverytest.DefaultProgramID,
		ExternalReferenceNumber: "omni-2026-0003",
		NameOfPickup:            "Amoxicillin 500 mg",
		Pharmacy:                requests.PharmacyParams{NCPDP: "5550001"},
		Dropoff: requests.DropoffParams{Name: "Jane Doe", PhoneNumber: "6145550100",
			Address: requests.NewDropoffPlace("ChIJd8BlQ2BZwokRAFUEcm_qrcA")},
		Patient: requests.PatientParams{FirstName: "Jane", LastName: "Doe",
			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29}},
	}
	srv.FailNext(rxdeliverytest.RequestsCreate, 1, rxdeliverytest.CommittedThenFailed())
	if _, err := omni.Create(ctx, params); !errors.Is(err, rxdelivery.ErrUnknownOutcome) {
		log.Fatal(err)
	}
	id := srv.Requests()[0].ID
	request, err := omni.Resolve(ctx, "omni-2026-0003", id)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("recorded", request.ID)
	// Output:
	// recorded req_000001
}

// An operator's record of a request is undone, returning the claim to
// unknown until it is resolved again or freed.
func ExampleRequests_Unresolve() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	ctx := context.Background()
	j := journal.New(journal.NewMemoryStore())
	omni := j.Requests(srv.Client().Requests)
	params := &requests.CreateParams{
		Identifier:              rxdeliverytest.DefaultProgramID,
		ExternalReferenceNumber: "omni-2026-0004",
		NameOfPickup:            "Amoxicillin 500 mg",
		Pharmacy:                requests.PharmacyParams{NCPDP: "5550001"},
		Dropoff: requests.DropoffParams{Name: "Jane Doe", PhoneNumber: "6145550100",
			Address: requests.NewDropoffPlace("ChIJd8BlQ2BZwokRAFUEcm_qrcA")},
		Patient: requests.PatientParams{FirstName: "Jane", LastName: "Doe",
			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29}},
	}
	srv.FailNext(rxdeliverytest.RequestsCreate, 1, rxdeliverytest.CommittedThenFailed())
	_, _ = omni.Create(ctx, params)
	id := srv.Requests()[0].ID
	if _, err := omni.Resolve(ctx, "omni-2026-0004", id); err != nil {
		log.Fatal(err)
	}

	if err := omni.Unresolve(ctx, "omni-2026-0004", id); err != nil {
		log.Fatal(err)
	}
	claim, _ := j.Get(ctx, journal.Key{Interface: journal.InterfaceOmni, Reference: "omni-2026-0004"})
	fmt.Println(claim.State)
	// Output:
	// unknown
}
