package pharmacies_test

import (
	"context"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/reliability"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// FuzzDecodePharmacies decodes arbitrary bodies as a search page and a
// pharmacy, and as the answers of Search, All, Get and DeliveryInfo:
// nothing panics, a failure is a DecodeError, a decoded value encodes
// again, and the iterator stops when the loop breaks whatever the page
// counts say.
func FuzzDecodePharmacies(f *testing.F) {
	for _, b := range reliability.Fixtures(f, "omni", "pharmac*.json") {
		f.Add(b)
	}
	f.Add(testutil.Fixture(f, "delivery/pharmacy_delivery_info.json"))
	f.Add([]byte(`{"page":1,"total_pages":1000000000,"pharmacies":[{"npi":"1"}]}`))
	f.Add([]byte(`{"pharmacy":{"npi":7,"name":null}}`))

	c, answer := reliability.AnsweringClient(f)
	search := &pharmacies.SearchParams{OriginAddress: "42 Elm Ave, Columbus, OH 43210", PageSize: 3}
	info := &pharmacies.DeliveryInfoParams{Address: rxtypes.Address{
		Street: "42 Elm Avenue", City: "Columbus", State: "OH", Zipcode: "43210",
	}}
	f.Fuzz(func(t *testing.T, in []byte) {
		answer(in)
		var page pharmacies.SearchPage
		if json.Unmarshal(in, &page) == nil {
			reliability.Reencodes(t, &page)
		}
		var ph pharmacies.Pharmacy
		if json.Unmarshal(in, &ph) == nil {
			reliability.Reencodes(t, &ph)
		}
		ctx := context.Background()

		got, err := c.Pharmacies.Search(ctx, search)
		reliability.CheckDecoded(t, err, false)
		if err == nil && (got == nil || got.Pharmacies == nil) {
			t.Fatal("a page without a pharmacy list")
		}
		n := 0
		for _, err := range c.Pharmacies.All(ctx, search) {
			reliability.CheckDecoded(t, err, false)
			if n++; n == 20 {
				break
			}
		}
		_, err = c.Pharmacies.Get(ctx, "1234567")
		reliability.CheckDecoded(t, err, false)
		di, err := c.Pharmacies.DeliveryInfo(ctx, "1234567", info)
		reliability.CheckDecoded(t, err, false)
		if err == nil && !json.Valid(di.Raw) {
			t.Fatal("delivery information kept a body that is not JSON")
		}
	})
}

// FuzzValidateSearchParams checks Validate of the lookup's params against
// the document's rules: origin address or place id or both, a
// place id of at most 255 characters, a page from 1 (0 for the default)
// and a page size from 1 to 100 (0 for the default); and the domain's rule
// for every text field: no control character, line break or bidirectional
// override (docs/validation.md). A value it accepts encodes as a query.
func FuzzValidateSearchParams(f *testing.F) {
	for _, b := range reliability.Fixtures(f, "omni", "pharmacies_search_*.json") {
		var page pharmacies.SearchPage
		if err := json.Unmarshal(b, &page); err != nil {
			f.Fatal(err)
		}
		f.Add(page.FormattedAddress, "", page.Page, page.PageSize)
		f.Add("", "ChIJ"+page.FormattedAddress, 0, 0)
	}
	f.Add("x", "y", -1, 101)
	f.Fuzz(func(t *testing.T, origin, place string, pageNo, size int) {
		p := &pharmacies.SearchParams{OriginAddress: origin, PlaceID: place, Page: pageNo, PageSize: size}
		err := p.Validate()
		reliability.CheckValidated(t, p, err)
		want := (origin != "" || place != "") && utf8.RuneCountInString(place) <= 255 &&
			pageNo >= 0 && size >= 0 && size <= pharmacies.MaxPageSize && oneLine(origin) && oneLine(place)
		if want != (err == nil) {
			t.Fatalf("Validate of %+v: %v, want valid %v", p, err, want)
		}
		if err == nil {
			if _, qerr := core.Query(p); qerr != nil {
				t.Fatalf("accepted params do not encode as a query: %v", qerr)
			}
		}
	})
}

// FuzzValidateDeliveryInfoParams sets string fields of a valid dropoff
// (the delivery information fixture's) to arbitrary values: Validate never
// panics and reports only a *ValidationError.
func FuzzValidateDeliveryInfoParams(f *testing.F) {
	var fixture struct {
		Delivery struct {
			Address rxtypes.Address `json:"address"`
			POD     string          `json:"POD"`
		} `json:"delivery"`
	}
	if err := json.Unmarshal(testutil.Fixture(f, "delivery/pharmacy_delivery_info.json"), &fixture); err != nil {
		f.Fatal(err)
	}
	valid := pharmacies.DeliveryInfoParams{Address: fixture.Delivery.Address, POD: fixture.Delivery.POD}
	if err := valid.Validate(); err != nil {
		f.Fatal(err)
	}
	reliability.AddValidateSeeds(f, 1)
	f.Fuzz(func(t *testing.T, _ uint8, i uint16, v string, j uint16, w string) {
		p := valid
		reliability.SetStrings(&p, i, v, j, w)
		reliability.CheckValidated(t, &p, p.Validate())
	})
}

// oneLine reports whether s holds no C0 or C1 control character, no DEL,
// no Unicode line or paragraph separator and no bidirectional override or
// isolate: the text rule of a one-line field, written here apart from the
// validator it checks.
func oneLine(s string) bool {
	for _, r := range s {
		switch {
		case r < 0x20, r >= 0x7f && r <= 0x9f, r == 0x2028, r == 0x2029,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return false
		}
	}
	return true
}
