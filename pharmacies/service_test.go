package pharmacies_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

const (
	searchURL = testutil.OmniURL + "/api/v1/pharmacies/"
	origin    = "42 Elm Avenue, Columbus, OH 43210"
)

// assertGet checks a lookup: a GET with the headers every call carries.
func assertGet(t *testing.T, c testutil.Captured) {
	t.Helper()
	assert.Equal(t, http.MethodGet, c.Method)
	testutil.TestBody(t, c, rxdelivery.Omni, false)
}

// pagesResponder answers the search with the page fixture named by the
// request's page parameter, and records the pages asked for.
type pagesResponder struct {
	rec   testutil.Recorder
	fails map[string]int // page -> status to fail with
}

func (p *pagesResponder) register(t *testing.T, mock *httpmock.MockTransport) {
	mock.RegisterResponder(http.MethodGet, searchURL, p.rec.Wrap(func(r *http.Request) (*http.Response, error) {
		page := r.URL.Query().Get("page")
		if status, ok := p.fails[page]; ok {
			return httpmock.NewStringResponse(status, `{"error":{"id":"","type":"server_error","message":"lookup failed"}}`), nil
		}
		return testutil.FixtureResponder(t, 200, "omni/pharmacies_search_page"+page+".json")(r)
	}))
}

// pages returns the page parameter of each recorded request.
func (p *pagesResponder) pages(t *testing.T) []string {
	var out []string
	for _, c := range p.rec.Requests() {
		u, err := url.Parse(c.URL)
		require.NoError(t, err)
		out = append(out, u.Query().Get("page"))
	}
	return out
}

func TestSearch(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodGet, searchURL, rec.Wrap(testutil.FixtureResponder(t, 200, "omni/pharmacies_search_page1.json")))
	page, err := client.Pharmacies.Search(context.Background(), &pharmacies.SearchParams{OriginAddress: origin, Page: 1, PageSize: 3})
	require.NoError(t, err)

	req := rec.Last(t)
	assertGet(t, req)
	assert.Equal(t, searchURL+"?origin_address=42+Elm+Avenue%2C+Columbus%2C+OH+43210&page=1&page_size=3", req.URL)

	assert.Equal(t, 7, page.Count)
	assert.Equal(t, 1, page.Page)
	assert.Equal(t, 3, page.PageSize)
	assert.Equal(t, 3, page.TotalPages)
	assert.Equal(t, "42 Elm Ave, Columbus, OH 43210, USA", page.FormattedAddress)
	require.Len(t, page.Pharmacies, 3)

	a := page.Pharmacies[0]
	assert.Equal(t, "1234567890", a.NPI)
	assert.Equal(t, "1234567", a.NCPDP)
	assert.Equal(t, "Elm Street Pharmacy", a.Name)
	assert.True(t, a.Preferred)
	require.NotNil(t, a.DistanceFromOrigin)
	assert.Equal(t, "0.40", a.DistanceFromOrigin.String())
	assert.Equal(t, "6145550110", a.PhoneNumber)
	assert.Equal(t, "6145550111", a.FaxNumber)
	assert.Equal(t, pharmacies.Address{Street1: "100 Main Street", Street2: "Suite 4", City: "Columbus", State: "OH", Zipcode: "43210"}, a.Address)

	b := page.Pharmacies[1]
	assert.Equal(t, "High Street Apothecary", b.Name)
	assert.True(t, b.Preferred)
	assert.Equal(t, "1.25", b.DistanceFromOrigin.String())
	assert.Equal(t, "6145550120", b.PhoneNumber)
	assert.Empty(t, b.FaxNumber, "null fax number")
	assert.Empty(t, b.Address.Street2, "null street2")

	c := page.Pharmacies[2]
	assert.Equal(t, "1234567892", c.NPI)
	assert.Equal(t, "Campus Drug", c.Name)
	assert.False(t, c.Preferred)
	assert.Equal(t, "0.15", c.DistanceFromOrigin.String(), "server order kept: preferred first, then distance")
	assert.Empty(t, c.PhoneNumber)
	assert.Empty(t, c.FaxNumber)
	assert.Equal(t, "43201", c.Address.Zipcode)
}

func TestSearch_PlaceIDAndDefaults(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodGet, searchURL, rec.Wrap(testutil.FixtureResponder(t, 200, "omni/pharmacies_search_empty.json")))
	page, err := client.Pharmacies.Search(context.Background(), &pharmacies.SearchParams{PlaceID: "ChIJ9Q/xz+KOOIgR"})
	require.NoError(t, err)
	assert.Equal(t, searchURL+"?place_id=ChIJ9Q%2Fxz%2BKOOIgR", rec.Last(t).URL)
	assert.Equal(t, 0, page.Count)
	assert.Equal(t, 0, page.TotalPages)
	assert.NotNil(t, page.Pharmacies)
	assert.Empty(t, page.Pharmacies)
}

func TestSearch_NullPharmaciesIsEmpty(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodGet, searchURL, testutil.BytesResponder(200, []byte(`{"count":0,"page":1,"page_size":30,"total_pages":0,"pharmacies":null}`)))
	page, err := client.Pharmacies.Search(context.Background(), &pharmacies.SearchParams{OriginAddress: origin})
	require.NoError(t, err)
	assert.NotNil(t, page.Pharmacies)
}

func TestSearchParams_Validate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		p    pharmacies.SearchParams
		want []string
	}{
		{"origin_address", pharmacies.SearchParams{OriginAddress: origin}, nil},
		{"place_id", pharmacies.SearchParams{PlaceID: "abc"}, nil},
		{"neither origin_address nor place_id", pharmacies.SearchParams{}, []string{"origin_address"}},
		{"both origin_address and place_id", pharmacies.SearchParams{OriginAddress: origin, PlaceID: "abc"}, nil},
		{"place_id 256", pharmacies.SearchParams{PlaceID: strings.Repeat("p", 256)}, []string{"place_id"}},
		{"page negative", pharmacies.SearchParams{OriginAddress: origin, Page: -1}, []string{"page"}},
		{"page_size 1", pharmacies.SearchParams{OriginAddress: origin, PageSize: 1}, nil},
		{"page_size 100", pharmacies.SearchParams{OriginAddress: origin, PageSize: 100}, nil},
		{"page_size 101", pharmacies.SearchParams{OriginAddress: origin, PageSize: 101}, []string{"page_size"}},
		{"page_size negative", pharmacies.SearchParams{OriginAddress: origin, PageSize: -5}, []string{"page_size"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, problemPaths(t, tc.p.Validate()))
		})
	}

	env := testutil.Setup(t)

	client, mock := env.Client, env.Mock
	_, err := client.Pharmacies.Search(context.Background(), &pharmacies.SearchParams{PageSize: 500})
	assert.Equal(t, []string{"origin_address", "page_size"}, problemPaths(t, err))
	_, err = client.Pharmacies.Search(context.Background(), nil)
	assert.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
	assert.Equal(t, 0, mock.GetTotalCallCount())
}

func problemPaths(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var ve *rxdelivery.ValidationError
	require.ErrorAs(t, err, &ve)
	var paths []string
	for _, p := range ve.Problems {
		paths = append(paths, p.Path)
	}
	return paths
}

func TestAll_ThreePages(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	var pr pagesResponder
	pr.register(t, mock)

	var names []string
	for ph, err := range client.Pharmacies.All(context.Background(), &pharmacies.SearchParams{OriginAddress: origin, PageSize: 3}) {
		require.NoError(t, err)
		names = append(names, ph.Name)
	}
	assert.Equal(t, []string{
		"Elm Street Pharmacy", "High Street Apothecary", "Campus Drug",
		"Neighborhood Rx", "Short North Pharmacy", "Olde Towne Drug",
		"Riverside Pharmacy",
	}, names)
	assert.Equal(t, []string{"1", "2", "3"}, pr.pages(t), "stops at total_pages: no fourth request")
	for _, c := range pr.rec.Requests() {
		assertGet(t, c)
		u, _ := url.Parse(c.URL)
		assert.Equal(t, "/api/v1/pharmacies/", u.Path)
		assert.Equal(t, origin, u.Query().Get("origin_address"))
		assert.Equal(t, "3", u.Query().Get("page_size"))
	}
}

func TestAll_EarlyBreak(t *testing.T) {
	t.Parallel()
	for _, stopAfter := range []int{1, 3, 4, 6} {
		t.Run(strconv.Itoa(stopAfter), func(t *testing.T) {
			env := testutil.Setup(t)
			client, mock := env.Client, env.Mock
			var pr pagesResponder
			pr.register(t, mock)
			n := 0
			for _, err := range client.Pharmacies.All(context.Background(), &pharmacies.SearchParams{OriginAddress: origin}) {
				require.NoError(t, err)
				n++
				if n == stopAfter {
					break
				}
			}
			assert.Equal(t, stopAfter, n)
			// Pages hold 3 pharmacies: breaking on the k-th pharmacy
			// fetches only the pages up to the one that holds it.
			lastPage := (stopAfter + 2) / 3
			var want []string
			for i := 1; i <= lastPage; i++ {
				want = append(want, strconv.Itoa(i))
			}
			assert.Equal(t, want, pr.pages(t))
			assert.Equal(t, lastPage, mock.GetTotalCallCount())
		})
	}
}

func TestAll_SecondPageFails(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithRetryMax(0))
	client, mock := env.Client, env.Mock
	pr := pagesResponder{fails: map[string]int{"2": 500}}
	pr.register(t, mock)

	var names []string
	var errs []error
	for ph, err := range client.Pharmacies.All(context.Background(), &pharmacies.SearchParams{OriginAddress: origin}) {
		if err != nil {
			errs = append(errs, err)
			assert.Equal(t, pharmacies.Pharmacy{}, ph)
			continue // the iterator ends by itself after the error
		}
		names = append(names, ph.Name)
	}
	assert.Equal(t, []string{"Elm Street Pharmacy", "High Street Apothecary", "Campus Drug"}, names)
	require.Len(t, errs, 1, "the error is yielded once")
	var ae *rxdelivery.APIError
	require.ErrorAs(t, errs[0], &ae)
	assert.Equal(t, 500, ae.StatusCode)
	assert.Equal(t, "lookup failed", ae.Message)
	assert.Equal(t, []string{"1", "2"}, pr.pages(t), "no page after the failing one")
}

func TestAll_SecondPageFailsAfterRetries(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	pr := pagesResponder{fails: map[string]int{"2": 503}}
	pr.register(t, mock)
	var errs []error
	n := 0
	for _, err := range client.Pharmacies.All(context.Background(), &pharmacies.SearchParams{PlaceID: "abc"}) {
		if err != nil {
			errs = append(errs, err)
		} else {
			n++
		}
	}
	assert.Equal(t, 3, n)
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], rxdelivery.ErrUnavailable)
	assert.Equal(t, []string{"1", "2", "2", "2", "2"}, pr.pages(t), "a read is retried; the iterator is not")
}

func TestAll_BreakOnError(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithRetryMax(0))
	client, mock := env.Client, env.Mock
	pr := pagesResponder{fails: map[string]int{"1": 404}}
	pr.register(t, mock)
	calls := 0
	for _, err := range client.Pharmacies.All(context.Background(), &pharmacies.SearchParams{OriginAddress: origin}) {
		calls++
		assert.ErrorIs(t, err, rxdelivery.ErrNotFound)
		break
	}
	assert.Equal(t, 1, calls)
	assert.Equal(t, 1, mock.GetTotalCallCount())
}

func TestAll_StartsAtPage(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	var pr pagesResponder
	pr.register(t, mock)
	p := &pharmacies.SearchParams{OriginAddress: origin, Page: 2}
	n := 0
	for _, err := range client.Pharmacies.All(context.Background(), p) {
		require.NoError(t, err)
		n++
	}
	assert.Equal(t, 4, n)
	assert.Equal(t, []string{"2", "3"}, pr.pages(t))
	assert.Equal(t, 2, p.Page, "the caller's params are not changed")
}

func TestAll_EmptyResult(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodGet, searchURL, testutil.FixtureResponder(t, 200, "omni/pharmacies_search_empty.json"))
	for range client.Pharmacies.All(context.Background(), &pharmacies.SearchParams{OriginAddress: origin}) {
		t.Fatal("nothing to yield")
	}
	assert.Equal(t, 1, mock.GetTotalCallCount())
}

func TestAll_EmptyPageEndsTheWalk(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodGet, searchURL, func(r *http.Request) (*http.Response, error) {
		if r.URL.Query().Get("page") == "1" {
			return testutil.FixtureResponder(t, 200, "omni/pharmacies_search_page1.json")(r)
		}
		return httpmock.NewStringResponse(200, `{"count":7,"page":2,"page_size":3,"total_pages":3,"pharmacies":[]}`), nil
	})
	n := 0
	for _, err := range client.Pharmacies.All(context.Background(), &pharmacies.SearchParams{OriginAddress: origin}) {
		require.NoError(t, err)
		n++
	}
	assert.Equal(t, 3, n)
	assert.Equal(t, 2, mock.GetTotalCallCount())
}

func TestAll_InvalidParams(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	for _, p := range []*pharmacies.SearchParams{nil, {}} {
		var errs []error
		for _, err := range client.Pharmacies.All(context.Background(), p) {
			errs = append(errs, err)
		}
		require.Len(t, errs, 1)
		assert.ErrorIs(t, errs[0], rxdelivery.ErrInvalidParams)
	}
	assert.Equal(t, 0, mock.GetTotalCallCount())
}

func TestAll_ContextCancelled(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	var pr pagesResponder
	pr.register(t, mock)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var errs []error
	n := 0
	for _, err := range client.Pharmacies.All(ctx, &pharmacies.SearchParams{OriginAddress: origin}) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		n++
		if n == 3 {
			cancel()
		}
	}
	assert.Equal(t, 3, n)
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], context.Canceled)
	assert.Equal(t, []string{"1"}, pr.pages(t))
}

func TestGet(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodGet, searchURL+"1234567", rec.Wrap(testutil.FixtureResponder(t, 200, "omni/pharmacy.json")))
	ph, err := client.Pharmacies.Get(context.Background(), "1234567")
	require.NoError(t, err)
	req := rec.Last(t)
	assertGet(t, req)
	assert.Equal(t, searchURL+"1234567", req.URL)

	assert.Equal(t, "1234567890", ph.NPI)
	assert.Equal(t, "1234567", ph.NCPDP)
	assert.Equal(t, "Elm Street Pharmacy", ph.Name)
	assert.True(t, ph.Preferred)
	assert.Nil(t, ph.DistanceFromOrigin, "no distance in the single-pharmacy answer")
	assert.Equal(t, "6145550110", ph.PhoneNumber)
	assert.Equal(t, "6145550111", ph.FaxNumber)
	assert.Equal(t, pharmacies.Address{Street1: "100 Main Street", Street2: "Suite 4", City: "Columbus", State: "OH", Zipcode: "43210"}, ph.Address)
}

func TestGet_ByNPINotPreferred(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodGet, searchURL+"1234567892", testutil.FixtureResponder(t, 200, "omni/pharmacy_not_preferred.json"))
	ph, err := client.Pharmacies.Get(context.Background(), "1234567892")
	require.NoError(t, err)
	assert.Equal(t, "Campus Drug", ph.Name)
	assert.False(t, ph.Preferred)
	assert.Empty(t, ph.PhoneNumber)
	assert.Empty(t, ph.FaxNumber)
	assert.Empty(t, ph.Address.Street2)
	assert.Nil(t, ph.DistanceFromOrigin)
}

func TestGet_NotFound(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodGet, searchURL+"7654321",
		testutil.BytesResponder(404, []byte(`{"error":{"id":"7654321","type":"not_found","message":"Pharmacy not found"}}`)))
	_, err := client.Pharmacies.Get(context.Background(), "7654321")
	var ae *rxdelivery.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "not_found", ae.Type)
	assert.ErrorIs(t, err, rxdelivery.ErrNotFound)
}

func TestGet_ID(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	for _, id := range []string{"", " ", "12345", "12345678", "123456789a"} {
		_, err := client.Pharmacies.Get(context.Background(), id)
		assert.Equal(t, []string{"id"}, problemPaths(t, err), "id %q", id)
	}
	assert.Equal(t, 0, mock.GetTotalCallCount())

	// Without validation only the empty id is refused; the id is escaped.
	env = testutil.Setup(t, rxdelivery.WithoutValidation())
	client, mock = env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterNoResponder(rec.Wrap(testutil.FixtureResponder(t, 200, "omni/pharmacy.json")))
	_, err := client.Pharmacies.Get(context.Background(), "")
	assert.Equal(t, []string{"id"}, problemPaths(t, err))
	assert.Equal(t, 0, mock.GetTotalCallCount())
	_, err = client.Pharmacies.Get(context.Background(), "ab/c d")
	require.NoError(t, err)
	assert.Equal(t, searchURL+"ab%2Fc%20d", rec.Last(t).URL)
}

func deliveryAddress() rxtypes.Address {
	return rxtypes.Address{Street: "42 Elm Avenue", Street2: "Apt 3B", City: "Columbus", State: "OH", Zipcode: "43210"}
}

func TestDeliveryInfo(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	var rec testutil.Recorder
	endpoint := testutil.DeliveryURL + "/api/v1/pharmacies/1234567890"
	mock.RegisterResponder(http.MethodGet, endpoint, rec.Wrap(testutil.FixtureResponder(t, 200, "delivery/pharmacy_delivery_info.json")))
	info, err := client.Pharmacies.DeliveryInfo(context.Background(), "1234567890", &pharmacies.DeliveryInfoParams{
		Address:          deliveryAddress(),
		POD:              "required",
		Package:          "parcelb_small_box_onerate",
		SaturdayDelivery: true,
	})
	require.NoError(t, err)

	req := rec.Last(t)
	assertGet(t, req)
	assert.Equal(t, endpoint+"?POD=required"+
		"&delivery%5Baddress%5D%5Bcity%5D=Columbus"+
		"&delivery%5Baddress%5D%5Bstate%5D=OH"+
		"&delivery%5Baddress%5D%5Bstreet2%5D=Apt+3B"+
		"&delivery%5Baddress%5D%5Bstreet%5D=42+Elm+Avenue"+
		"&delivery%5Baddress%5D%5Bzipcode%5D=43210"+
		"&package=parcelb_small_box_onerate"+
		"&saturday%5Bdelivery%5D=true", req.URL)
	u, err := url.Parse(req.URL)
	require.NoError(t, err)
	assert.Equal(t, url.Values{
		"delivery[address][street]":  {"42 Elm Avenue"},
		"delivery[address][street2]": {"Apt 3B"},
		"delivery[address][city]":    {"Columbus"},
		"delivery[address][state]":   {"OH"},
		"delivery[address][zipcode]": {"43210"},
		"POD":                        {"required"},
		"package":                    {"parcelb_small_box_onerate"},
		"saturday[delivery]":         {"true"},
	}, u.Query())

	assert.JSONEq(t, string(testutil.Fixture(t, "delivery/pharmacy_delivery_info.json")), string(info.Raw))
	assert.Equal(t, "1234567890", info.NPI)
	assert.Equal(t, "1234567", info.NCPDP)
	assert.Equal(t, "Elm Street Pharmacy", info.Name)
	var custom struct {
		Deliverable   bool     `json:"deliverable"`
		ServiceLevels []string `json:"service_levels"`
	}
	require.NoError(t, info.Decode(&custom))
	assert.True(t, custom.Deliverable)
	assert.Equal(t, []string{"sameday", "ondemand", "shipping"}, custom.ServiceLevels)
}

func TestDeliveryInfo_OnlyAddress(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodGet, testutil.DeliveryURL+"/api/v1/pharmacies/1234567",
		rec.Wrap(testutil.BytesResponder(200, []byte(`{"pharmacy":{"npi":1234567890,"ncpdp":"1234567","name":"Elm Street Pharmacy"}}`))))
	a := deliveryAddress()
	a.Street2 = ""
	info, err := client.Pharmacies.DeliveryInfo(context.Background(), "1234567", &pharmacies.DeliveryInfoParams{Address: a})
	require.NoError(t, err)
	u, err := url.Parse(rec.Last(t).URL)
	require.NoError(t, err)
	assert.Equal(t, url.Values{
		"delivery[address][street]":  {"42 Elm Avenue"},
		"delivery[address][city]":    {"Columbus"},
		"delivery[address][state]":   {"OH"},
		"delivery[address][zipcode]": {"43210"},
	}, u.Query(), "no POD, package or saturday[delivery] when not set")
	assert.Equal(t, "1234567890", info.NPI, "read from a nested pharmacy object, number or string")
	assert.Equal(t, "1234567", info.NCPDP)
	assert.Equal(t, "Elm Street Pharmacy", info.Name)
}

func TestDeliveryInfo_UntypedBodies(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`[]`, `"ok"`, `{"npi":{"x":1},"name":true}`, `{"pharmacy":"x"}`} {
		env := testutil.Setup(t)
		client, mock := env.Client, env.Mock
		mock.RegisterResponder(http.MethodGet, testutil.DeliveryURL+"/api/v1/pharmacies/1234567", testutil.BytesResponder(200, []byte(body)))
		info, err := client.Pharmacies.DeliveryInfo(context.Background(), "1234567", &pharmacies.DeliveryInfoParams{Address: deliveryAddress()})
		require.NoError(t, err, body)
		assert.Equal(t, json.RawMessage(body), info.Raw)
		assert.Empty(t, info.NPI)
		assert.Empty(t, info.NCPDP)
		assert.Empty(t, info.Name)
	}

	env := testutil.Setup(t)

	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodGet, testutil.DeliveryURL+"/api/v1/pharmacies/1234567", testutil.BytesResponder(200, []byte(`not json`)))
	_, err := client.Pharmacies.DeliveryInfo(context.Background(), "1234567", &pharmacies.DeliveryInfoParams{Address: deliveryAddress()})
	assert.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
}

func TestDeliveryInfoParams_Validate(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 256)
	cases := []struct {
		name   string
		mutate func(a *rxtypes.Address)
		want   []string
	}{
		{"valid", func(*rxtypes.Address) {}, nil},
		{"street required", func(a *rxtypes.Address) { a.Street = "" }, []string{"delivery.address.street"}},
		{"street 256", func(a *rxtypes.Address) { a.Street = long }, []string{"delivery.address.street"}},
		{"street2 256", func(a *rxtypes.Address) { a.Street2 = long }, []string{"delivery.address.street2"}},
		{"city required", func(a *rxtypes.Address) { a.City = "" }, []string{"delivery.address.city"}},
		{"city 256", func(a *rxtypes.Address) { a.City = long }, []string{"delivery.address.city"}},
		{"state longer than 2", func(a *rxtypes.Address) { a.State = "Ohio" }, []string{"delivery.address.state"}},
		{"zipcode 4 digits", func(a *rxtypes.Address) { a.Zipcode = "4321" }, []string{"delivery.address.zipcode"}},
		{"zipcode 9 digits", func(a *rxtypes.Address) { a.Zipcode = "432101234" }, nil},
		{"all missing", func(a *rxtypes.Address) { *a = rxtypes.Address{} }, []string{
			"delivery.address.street", "delivery.address.city", "delivery.address.state", "delivery.address.zipcode",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &pharmacies.DeliveryInfoParams{Address: deliveryAddress()}
			tc.mutate(&p.Address)
			assert.Equal(t, tc.want, problemPaths(t, p.Validate()))
		})
	}

	env := testutil.Setup(t)

	client, mock := env.Client, env.Mock
	ctx := context.Background()
	_, err := client.Pharmacies.DeliveryInfo(ctx, "1234567", &pharmacies.DeliveryInfoParams{})
	assert.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
	_, err = client.Pharmacies.DeliveryInfo(ctx, "1234567", nil)
	assert.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
	_, err = client.Pharmacies.DeliveryInfo(ctx, "", &pharmacies.DeliveryInfoParams{Address: deliveryAddress()})
	assert.Equal(t, []string{"id"}, problemPaths(t, err))
	_, err = client.Pharmacies.DeliveryInfo(ctx, "123", &pharmacies.DeliveryInfoParams{Address: deliveryAddress()})
	assert.Equal(t, []string{"id"}, problemPaths(t, err))
	assert.Equal(t, 0, mock.GetTotalCallCount())
}

func TestDeliveryInfo_UsesDeliveryBaseURL(t *testing.T) {
	t.Parallel()
	client, err := rxdelivery.NewClient("k", "s", rxdelivery.WithOmniURL(testutil.OmniURL))
	require.NoError(t, err)
	_, err = client.Pharmacies.DeliveryInfo(context.Background(), "1234567", &pharmacies.DeliveryInfoParams{Address: deliveryAddress()})
	assert.ErrorIs(t, err, rxdelivery.ErrNoBaseURL)
	var ce *rxdelivery.ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Error(), "WithDeliveryURL")
}
