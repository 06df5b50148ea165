package orders_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/reliability"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/orders"
)

// fuzzFixtures returns the bytes of the fixtures testdata/dir/pattern,
// without the request bodies (*_request.json) unless pattern names them.
func fuzzFixtures(f *testing.F, dir, pattern string) [][]byte {
	f.Helper()
	names, err := filepath.Glob(filepath.Join(testutil.Root(), "testdata", dir, pattern))
	if err != nil || len(names) == 0 {
		f.Fatalf("no fixtures %s/%s: %v", dir, pattern, err)
	}
	var out [][]byte
	for _, n := range names {
		if strings.HasSuffix(n, "_request.json") && !strings.HasSuffix(pattern, "_request.json") {
			continue
		}
		b, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// fuzzDecodeErr fails unless err, from a call answered 200 with body, is
// nil or a *rxdelivery.DecodeError matching ErrMalformedResponse.
func fuzzDecodeErr(t *testing.T, err error, write bool) {
	t.Helper()
	if err == nil {
		return
	}
	var de *rxdelivery.DecodeError
	if !errors.As(err, &de) || !errors.Is(err, rxdelivery.ErrMalformedResponse) {
		t.Fatalf("a 200 answer failed with %T: %v", err, err)
	}
	if de.UnknownOutcome != write {
		t.Fatalf("UnknownOutcome %v for a call with write %v", de.UnknownOutcome, write)
	}
}

// FuzzDecodeOrder decodes arbitrary bodies as an order, as the answer of
// Get and Create ({"order": …}) and as the answer of GetMany ({"orders":
// […]} or {"objects": […]}): nothing panics, a failure is a DecodeError,
// and a decoded order encodes again.
func FuzzDecodeOrder(f *testing.F) {
	for _, b := range fuzzFixtures(f, "delivery", "order*.json") {
		f.Add(b)
	}
	f.Add([]byte(`{"order":null}`))
	f.Add([]byte(`{"orders":[{"id":"a","cancellation":{"reason":"x"}}],"objects":[]}`))
	params := orderParams(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		var o orders.Order
		if json.Unmarshal(body, &o) == nil {
			if _, err := json.Marshal(&o); err != nil {
				t.Fatalf("a decoded order does not encode: %v", err)
			}
		}
		c, mock := testutil.NewMock(t, rxdelivery.WithRetryMax(0))
		mock.RegisterNoResponder(testutil.BytesResponder(200, body))
		ctx := context.Background()

		got, err := c.Orders.Get(ctx, "ord_1")
		fuzzDecodeErr(t, err, false)
		if err == nil && got == nil {
			t.Fatal("no order and no error")
		}
		_, err = c.Orders.Create(ctx, params)
		fuzzDecodeErr(t, err, true)
		list, err := c.Orders.GetMany(ctx, []string{"ord_1", "ord_2"})
		fuzzDecodeErr(t, err, false)
		if err == nil && list == nil {
			t.Fatal("no list and no error")
		}
	})
}

func orderParams(f *testing.F) *orders.CreateParams {
	var p orders.CreateParams
	if err := json.Unmarshal(testutil.Fixture(f, "delivery/order_create_sameday_request.json"), &p); err != nil {
		f.Fatal(err)
	}
	return &p
}

// FuzzValidateCreateParams sets string fields of the valid order fixtures
// (each service level) to arbitrary values: Validate never panics, reports
// only *ValidationError, and a value it accepts encodes as JSON.
func FuzzValidateCreateParams(f *testing.F) {
	fixtures := fuzzFixtures(f, "delivery", "order_create_*_request.json")
	fuzzValidateSeeds(f, len(fixtures))
	f.Fuzz(func(t *testing.T, fixture uint8, i uint16, v string, j uint16, w string) {
		var p orders.CreateParams
		if err := json.Unmarshal(fixtures[int(fixture)%len(fixtures)], &p); err != nil {
			t.Fatal(err)
		}
		fuzzSetStrings(&p, i, v, j, w)
		fuzzValidated(t, &p, p.Validate())
	})
}

// FuzzValidatePrescription is FuzzValidateCreateParams for the body of
// AddPrescription.
func FuzzValidatePrescription(f *testing.F) {
	fixture := testutil.Fixture(f, "delivery/order_add_prescription_request.json")
	fuzzValidateSeeds(f, 1)
	f.Fuzz(func(t *testing.T, _ uint8, i uint16, v string, j uint16, w string) {
		var p orders.Prescription
		if err := json.Unmarshal(fixture, &p); err != nil {
			t.Fatal(err)
		}
		fuzzSetStrings(&p, i, v, j, w)
		fuzzValidated(t, &p, p.Validate())
	})
}

// fuzzValidateSeeds adds, for every fixture, seeds that empty a field,
// overfill one, and put odd text in one.
func fuzzValidateSeeds(f *testing.F, fixtures int) {
	for k := 0; k < fixtures; k++ {
		for i := uint16(0); i < 40; i += 3 {
			f.Add(uint8(k), i, "", i+1, strings.Repeat("9", 300))
			f.Add(uint8(k), i, "\x00\xff", i+2, " Jane Doe ")
		}
	}
}

// fuzzSetStrings sets string field i to v and string field j to w (field
// numbers wrap around).
func fuzzSetStrings(p any, i uint16, v string, j uint16, w string) {
	fields := reliability.StringFields(p)
	if len(fields) == 0 {
		return
	}
	fields[int(i)%len(fields)].SetString(v)
	fields[int(j)%len(fields)].SetString(w)
}

// fuzzValidated checks the outcome of Validate on p.
func fuzzValidated(t *testing.T, p any, err error) {
	t.Helper()
	if err != nil {
		var ve *rxdelivery.ValidationError
		if !errors.As(err, &ve) || !errors.Is(err, rxdelivery.ErrInvalidParams) || len(ve.Problems) == 0 {
			t.Fatalf("Validate returned %T: %v", err, err)
		}
		return
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("accepted params do not encode: %v", err)
	}
	if !json.Valid(b) {
		t.Fatalf("accepted params encode as invalid JSON: %s", b)
	}
}
