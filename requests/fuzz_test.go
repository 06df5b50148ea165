package requests_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/reliability"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/requests"
)

// FuzzDecodeRequest decodes arbitrary bodies as a request, as the answer
// of Get and Create ({"request": …}) and as the answer of GetMany
// ({"requests": [{"request": …}, …]}, bare entries and nulls included):
// nothing panics, a failure is a DecodeError, and a decoded request
// encodes again.
func FuzzDecodeRequest(f *testing.F) {
	for _, b := range reliability.Fixtures(f, "omni", "request*.json") {
		f.Add(b)
	}
	f.Add([]byte(`{"requests":[null,{"id":"r1"},{"request":{"id":"r2","delivery_eta":"soon"}}]}`))
	f.Add([]byte(`{"request":{"id":"r1","status":{"name":1},"order":{"status":null}}}`))
	var params requests.CreateParams
	if err := json.Unmarshal(testutil.Fixture(f, "omni/request_create_request.json"), &params); err != nil {
		f.Fatal(err)
	}
	c, answer := reliability.AnsweringClient(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		answer(in)
		var r requests.Request
		if json.Unmarshal(in, &r) == nil {
			reliability.Reencodes(t, &r)
		}
		ctx := context.Background()

		got, err := c.Requests.Get(ctx, "req_1")
		reliability.CheckDecoded(t, err, false)
		if err == nil && got == nil {
			t.Fatal("no request and no error")
		}
		_, err = c.Requests.Create(ctx, &params)
		reliability.CheckDecoded(t, err, true)
		list, err := c.Requests.GetMany(ctx, []string{"req_1", "req_2"})
		reliability.CheckDecoded(t, err, false)
		if err == nil && list == nil {
			t.Fatal("no list and no error")
		}
	})
}

// FuzzValidateCreateParams sets string fields of the valid request
// fixtures (street address, place id, remittance) to arbitrary values:
// Validate never panics, reports only a *ValidationError, and a value it
// accepts encodes as JSON.
func FuzzValidateCreateParams(f *testing.F) {
	fixtures := reliability.Fixtures(f, "omni", "request_create*_request.json")
	reliability.AddValidateSeeds(f, len(fixtures))
	f.Fuzz(func(t *testing.T, fixture uint8, i uint16, v string, j uint16, w string) {
		var p requests.CreateParams
		if err := json.Unmarshal(fixtures[int(fixture)%len(fixtures)], &p); err != nil {
			t.Fatal(err)
		}
		reliability.SetStrings(&p, i, v, j, w)
		reliability.CheckValidated(t, &p, p.Validate())
	})
}
