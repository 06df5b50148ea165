package orders_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/reliability"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/orders"
)

// FuzzDecodeOrder decodes arbitrary bodies as an order, as the answer of
// Get and Create ({"order": …}) and as the answer of GetMany ({"orders":
// […]} or {"objects": […]}): nothing panics, a failure is a DecodeError,
// and a decoded order encodes again.
func FuzzDecodeOrder(f *testing.F) {
	for _, b := range reliability.Fixtures(f, "delivery", "order*.json") {
		f.Add(b)
	}
	f.Add([]byte(`{"order":null}`))
	f.Add([]byte(`{"orders":[{"id":"a","cancellation":{"reason":"x"}}],"objects":[]}`))
	var params orders.CreateParams
	if err := json.Unmarshal(testutil.Fixture(f, "delivery/order_create_sameday_request.json"), &params); err != nil {
		f.Fatal(err)
	}
	c, answer := reliability.AnsweringClient(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		answer(in)
		var o orders.Order
		if json.Unmarshal(in, &o) == nil {
			reliability.Reencodes(t, &o)
		}
		ctx := context.Background()

		got, err := c.Orders.Get(ctx, "ord_1")
		reliability.CheckDecoded(t, err, false)
		if err == nil && got == nil {
			t.Fatal("no order and no error")
		}
		_, err = c.Orders.Create(ctx, &params)
		reliability.CheckDecoded(t, err, true)
		list, err := c.Orders.GetMany(ctx, []string{"ord_1", "ord_2"})
		reliability.CheckDecoded(t, err, false)
		if err == nil && list == nil {
			t.Fatal("no list and no error")
		}
	})
}

// FuzzValidateCreateParams sets string fields of the valid order fixtures
// (one per service level) to arbitrary values: Validate never panics,
// reports only a *ValidationError, and a value it accepts encodes as JSON.
func FuzzValidateCreateParams(f *testing.F) {
	fixtures := reliability.Fixtures(f, "delivery", "order_create_*_request.json")
	reliability.AddValidateSeeds(f, len(fixtures))
	f.Fuzz(func(t *testing.T, fixture uint8, i uint16, v string, j uint16, w string) {
		var p orders.CreateParams
		if err := json.Unmarshal(fixtures[int(fixture)%len(fixtures)], &p); err != nil {
			t.Fatal(err)
		}
		reliability.SetStrings(&p, i, v, j, w)
		reliability.CheckValidated(t, &p, p.Validate())
	})
}

// FuzzValidatePrescription is FuzzValidateCreateParams for the body of
// AddPrescription.
func FuzzValidatePrescription(f *testing.F) {
	fixture := testutil.Fixture(f, "delivery/order_add_prescription_request.json")
	reliability.AddValidateSeeds(f, 1)
	f.Fuzz(func(t *testing.T, _ uint8, i uint16, v string, j uint16, w string) {
		var p orders.Prescription
		if err := json.Unmarshal(fixture, &p); err != nil {
			t.Fatal(err)
		}
		reliability.SetStrings(&p, i, v, j, w)
		reliability.CheckValidated(t, &p, p.Validate())
	})
}
