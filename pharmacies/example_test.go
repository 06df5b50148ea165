package pharmacies_test

import (
	"context"
	"fmt"
	"log"

	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Every pharmacy that delivers to an address, page after page, in one
// loop.
func ExampleService_All() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	// All fetches pages as the loop asks for them; breaking stops it.
	n, preferred := 0, 0
	for ph, err := range client.Pharmacies.All(ctx, &pharmacies.SearchParams{
		OriginAddress: "123 Main St, Columbus, OH 43210",
		PageSize:      5,
	}) {
		if err != nil {
			log.Fatal(err)
		}
		n++
		if ph.Preferred {
			preferred++
		}
	}
	fmt.Println(n, "pharmacies,", preferred, "preferred")
	// Output:
	// 12 pharmacies, 3 preferred
}

// One page of the pharmacies that deliver to an address, with the totals.
func ExampleService_Search() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	page, err := client.Pharmacies.Search(ctx, &pharmacies.SearchParams{
		OriginAddress: "123 Main St, Columbus, OH 43210",
		PageSize:      5,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(page.Count, page.Page, page.TotalPages, len(page.Pharmacies))
	first := page.Pharmacies[0]
	fmt.Println(first.Preferred, first.DistanceFromOrigin != nil, first.PhoneNumber != "")
	// Output:
	// 12 1 3 5
	// true true true
}

// One pharmacy by its NCPDP identifier (or a 10-digit NPI).
func ExampleService_Get() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	ph, err := client.Pharmacies.Get(ctx, "5550001")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ph.NCPDP, ph.DistanceFromOrigin == nil)
	// Output:
	// 5550001 true
}

// A pharmacy's delivery information for an address, read from the raw
// answer, whose schema the documents do not show.
func ExampleService_DeliveryInfo() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	info, err := client.Pharmacies.DeliveryInfo(ctx, "5550001", &pharmacies.DeliveryInfoParams{
		Address: rxtypes.Address{Street: "42 Elm Avenue", City: "Columbus", State: "OH", Zipcode: "43210"},
	})
	if err != nil {
		log.Fatal(err)
	}
	// The document does not show this answer's schema: read what you
	// need from the raw body.
	var body struct {
		Deliverable bool `json:"deliverable"`
	}
	if err := info.Decode(&body); err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.NCPDP, body.Deliverable)
	// Output:
	// 5550001 true
}

// Walking the search page by page, to show a long walk's progress.
func ExampleService_Pages() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()

	// Pages yields each page whole: a long walk can show its progress.
	for page, err := range client.Pharmacies.Pages(ctx, &pharmacies.SearchParams{
		OriginAddress: "123 Main St, Columbus, OH 43210",
		PageSize:      5,
	}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("page %d of %d: %d of %d pharmacies\n",
			page.Page, page.TotalPages, len(page.Pharmacies), page.Count)
	}
	// Output:
	// page 1 of 3: 5 of 12 pharmacies
	// page 2 of 3: 5 of 12 pharmacies
	// page 3 of 3: 2 of 12 pharmacies
}
