package sandbox

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type searchPage struct {
	Count            int    `json:"count"`
	Page             int    `json:"page"`
	PageSize         int    `json:"page_size"`
	TotalPages       int    `json:"total_pages"`
	FormattedAddress string `json:"formatted_address"`
	Pharmacies       []struct {
		NPI                string          `json:"npi"`
		NCPDP              string          `json:"ncpdp"`
		Name               string          `json:"name"`
		Preferred          bool            `json:"preferred"`
		DistanceFromOrigin json.RawMessage `json:"distance_from_origin"`
		PhoneNumber        *string         `json:"phone_number"`
		FaxNumber          *string         `json:"fax_number"`
		Address            map[string]any  `json:"address"`
	} `json:"pharmacies"`
}

func (h *harness) search(q url.Values) (int, searchPage) {
	h.t.Helper()
	r := h.do("GET", "/omni/api/v1/pharmacies/?"+q.Encode(), nil)
	var p searchPage
	if r.status == http.StatusOK {
		require.NoError(h.t, json.Unmarshal(r.body, &p))
	}
	return r.status, p
}

func TestPharmacyLookup(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	status, p := h.search(url.Values{"origin_address": {"1 Test Plaza,  New York, NY 10001"}})
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, 12, p.Count)
	assert.Equal(t, 1, p.Page)
	assert.Equal(t, 30, p.PageSize)
	assert.Equal(t, 1, p.TotalPages)
	assert.Equal(t, "1 Test Plaza, New York, NY 10001, USA", p.FormattedAddress)
	require.Len(t, p.Pharmacies, 12)
	seenRegular := false
	var last float64
	for _, ph := range p.Pharmacies {
		assert.Len(t, ph.NCPDP, 7)
		assert.Len(t, ph.NPI, 10)
		assert.Regexp(t, `^[0-9]+\.[0-9]{2}$`, string(ph.DistanceFromOrigin))
		d, _ := strconv.ParseFloat(string(ph.DistanceFromOrigin), 64)
		if ph.Preferred {
			assert.False(t, seenRegular, "preferred pharmacies come first")
			assert.NotNil(t, ph.PhoneNumber)
			assert.NotNil(t, ph.FaxNumber)
		} else {
			if !seenRegular {
				last = 0
			}
			seenRegular = true
			assert.Nil(t, ph.PhoneNumber)
			assert.Nil(t, ph.FaxNumber)
		}
		assert.GreaterOrEqual(t, d, last, "then by distance")
		last = d
		assert.Contains(t, ph.Address, "street2")
	}

	// Deterministic for the same origin; another origin orders differently.
	_, again := h.search(url.Values{"origin_address": {"1 Test Plaza,  New York, NY 10001"}})
	assert.Equal(t, p, again)
	_, other := h.search(url.Values{"place_id": {"ChIJOwg_06VPwokRYv534QaPC8g"}})
	assert.Equal(t, 12, other.Count)
	assert.NotEqual(t, p.Pharmacies, other.Pharmacies)

	// Paging.
	_, p2 := h.search(url.Values{"place_id": {"abc"}, "page": {"2"}, "page_size": {"5"}})
	assert.Equal(t, 3, p2.TotalPages)
	assert.Len(t, p2.Pharmacies, 5)
	_, p3 := h.search(url.Values{"place_id": {"abc"}, "page": {"3"}, "page_size": {"5"}})
	assert.Len(t, p3.Pharmacies, 2)
	_, p4 := h.search(url.Values{"place_id": {"abc"}, "page": {"4"}, "page_size": {"5"}})
	assert.Empty(t, p4.Pharmacies)
	assert.Equal(t, 12, p4.Count)

	// No-service range.
	_, none := h.search(url.Values{"origin_address": {"1 Nowhere Rd, Holtsville, NY 00501"}})
	assert.Equal(t, 0, none.Count)
	assert.Equal(t, 0, none.TotalPages)
	assert.NotNil(t, none.Pharmacies)
	assert.Empty(t, none.Pharmacies)
}

func TestPharmacyLookupBothOriginAndPlace(t *testing.T) {
	t.Parallel()
	// Each is required unless the other is given; neither excludes the
	// other (document 000). The origin address then locates the search.
	h := newHarness(t, Config{})
	long := strings.Repeat("Apartment building wing ", 20) + "1 A St, New York, NY 10001"
	for name, q := range map[string]url.Values{
		"both":        {"origin_address": {"1 A St, New York, NY 10001"}, "place_id": {"ChIJ_x"}},
		"long origin": {"origin_address": {long}}, // the documents set no length limit
	} {
		t.Run(name, func(t *testing.T) {
			r := h.do("GET", "/omni/api/v1/pharmacies?"+q.Encode(), nil)
			require.Equal(t, http.StatusOK, r.status, "%s", r.body)
			assert.NotZero(t, at(r.obj(t), "count"))
		})
	}
}

func TestPharmacyLookupErrors(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	for name, tc := range map[string]struct {
		q      url.Values
		status int
		msg    string
	}{
		"neither":         {url.Values{}, 400, "origin_address or place_id is required"},
		"both, bad place": {url.Values{"origin_address": {"1 A St 10001"}, "place_id": {"no spaces"}}, 422, "place_id: is not a valid place identifier"},
		"no zip":          {url.Values{"origin_address": {"1 A St, New York"}}, 422, "origin_address: must be a street address including a 5-digit ZIP code"},
		"bad place":       {url.Values{"place_id": {"no spaces allowed"}}, 422, "place_id: is not a valid place identifier"},
		"page size high":  {url.Values{"place_id": {"x"}, "page_size": {"101"}}, 422, "page_size: must be between 1 and 100"},
		"page zero":       {url.Values{"place_id": {"x"}, "page": {"0"}}, 422, "page: must be at least 1"},
		"page not int":    {url.Values{"place_id": {"x"}, "page": {"one"}}, 400, "page must be an integer"},
		"unknown param":   {url.Values{"place_id": {"x"}, "radius": {"5"}}, 400, `unknown query parameter "radius"`},
	} {
		t.Run(name, func(t *testing.T) {
			r := h.do("GET", "/omni/api/v1/pharmacies?"+tc.q.Encode(), nil)
			assert.Equal(t, tc.status, r.status)
			assert.Contains(t, at(r.obj(t), "error.message"), tc.msg)
			assert.NotEmpty(t, at(r.obj(t), "error.type"))
		})
	}
}

func TestPharmacyLookupWalksLargeSet(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{Pharmacies: GeneratePharmacies(10000)})
	seen := map[string]bool{}
	pages := 0
	for page := 1; ; page++ {
		status, p := h.search(url.Values{"origin_address": {"1 Test Plaza, New York, NY 10001"}, "page": {strconv.Itoa(page)}, "page_size": {"100"}})
		require.Equal(t, http.StatusOK, status)
		assert.Equal(t, 10000, p.Count)
		assert.Equal(t, 100, p.TotalPages)
		if len(p.Pharmacies) == 0 {
			break
		}
		pages++
		for _, ph := range p.Pharmacies {
			assert.False(t, seen[ph.NCPDP], "no pharmacy twice")
			seen[ph.NCPDP] = true
		}
	}
	assert.Equal(t, 100, pages)
	assert.Len(t, seen, 10000)
}

func TestGetPharmacy(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ph := BuiltinPharmacies()[0]
	for _, id := range []string{ph.NCPDP, ph.NPI} {
		r := h.do("GET", "/omni/api/v1/pharmacies/"+id, nil)
		require.Equal(t, http.StatusOK, r.status)
		m := r.obj(t)
		assert.Equal(t, ph.NCPDP, m["ncpdp"])
		assert.Equal(t, ph.Name, m["name"])
		assert.False(t, has(m, "distance_from_origin"))
		assert.Equal(t, ph.PhoneNumber, m["phone_number"])
	}
	r := h.do("GET", "/omni/api/v1/pharmacies/0000000", nil)
	assert.Equal(t, http.StatusNotFound, r.status)
	assert.Equal(t, "not_found", at(r.obj(t), "error.type"))
}

func TestGeneratedAndBuiltinNPIsHaveCheckDigits(t *testing.T) {
	t.Parallel()
	valid := func(npi string) bool {
		s := "80840" + npi
		sum := 0
		for i := 0; i < len(s); i++ {
			d := int(s[len(s)-1-i] - '0')
			if i%2 == 1 {
				d *= 2
				if d > 9 {
					d -= 9
				}
			}
			sum += d
		}
		return sum%10 == 0
	}
	assert.True(t, valid("1234567893"), "the test's own Luhn is right")
	for _, p := range append(BuiltinPharmacies(), GeneratePharmacies(50)...) {
		assert.True(t, valid(p.NPI), p.NPI)
		assert.Len(t, p.NCPDP, 7)
	}
}

func TestDeliveryInfo(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	ph := BuiltinPharmacies()[0]
	q := url.Values{
		"delivery[address][street]":  {"1 Test Plaza"},
		"delivery[address][city]":    {"New York"},
		"delivery[address][state]":   {"NY"},
		"delivery[address][zipcode]": {"10001"},
	}
	r := h.do("GET", "/delivery/api/v1/pharmacies/"+ph.NPI+"?"+q.Encode(), nil)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	m := r.obj(t)
	assert.Equal(t, ph.NCPDP, m["ncpdp"])
	assert.Equal(t, true, m["deliverable"])
	assert.Equal(t, "required", m["proof_of_delivery"], "preferred pharmacy default")
	assert.Contains(t, m["service_levels"], "shipping")
	assert.Nil(t, m["package"])
	assert.Equal(t, false, m["saturday_delivery"])

	q.Set("POD", "adult_required")
	q.Set("package", "postal_small_flat_rate_box")
	q.Set("saturday[delivery]", "true")
	m = h.do("GET", "/delivery/api/v1/pharmacies/"+ph.NCPDP+"?"+q.Encode(), nil).obj(t)
	assert.Equal(t, "adult_required", m["proof_of_delivery"])
	assert.Equal(t, "postal_small_flat_rate_box", m["package"])
	assert.Equal(t, true, m["saturday_delivery"])

	q.Set("delivery[address][zipcode]", "00501")
	m = h.do("GET", "/delivery/api/v1/pharmacies/"+ph.NCPDP+"?"+q.Encode(), nil).obj(t)
	assert.Equal(t, false, m["deliverable"])
	assert.Empty(t, m["service_levels"])
	assert.Nil(t, m["estimated_delivery_fee"])

	bad := url.Values{"delivery[address][zipcode]": {"1"}, "saturday[delivery]": {"maybe"}}
	r = h.do("GET", "/delivery/api/v1/pharmacies/"+ph.NCPDP+"?"+bad.Encode(), nil)
	assert.Equal(t, http.StatusBadRequest, r.status)
	msg := at(r.obj(t), "error.message").(string)
	assert.Contains(t, msg, "delivery[address][street]: is required")
	assert.Contains(t, msg, "delivery[address][zipcode]: must be 5 or 9 digits")
	assert.Contains(t, msg, "saturday[delivery]: must be true or false")

	r = h.do("GET", "/delivery/api/v1/pharmacies/"+ph.NCPDP+"?delivery.address.street=x", nil)
	assert.Equal(t, http.StatusBadRequest, r.status, "dotted keys are not the documented encoding")
	r = h.do("GET", "/delivery/api/v1/pharmacies/1111111?"+q.Encode(), nil)
	assert.Equal(t, http.StatusNotFound, r.status)
	assert.JSONEq(t, `{"error":{"message":"Pharmacy not found"}}`, string(r.body))
}

func TestDeliveryInfoFeeAndLevels(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	// Walk pharmacies until each branch of the level rule is seen.
	sawNear, sawFar := false, false
	for _, ph := range BuiltinPharmacies() {
		q := url.Values{
			"delivery[address][street]": {"9 Far Rd"}, "delivery[address][city]": {"X"},
			"delivery[address][state]": {"NY"}, "delivery[address][zipcode]": {"123456789"},
		}
		var m struct {
			Distance float64  `json:"distance_from_pharmacy"`
			Levels   []string `json:"service_levels"`
			Fee      *float64 `json:"estimated_delivery_fee"`
		}
		require.NoError(t, json.Unmarshal(h.do("GET", "/delivery/api/v1/pharmacies/"+ph.NCPDP+"?"+q.Encode(), nil).body, &m))
		if m.Distance <= 15 {
			sawNear = true
			assert.Contains(t, m.Levels, "sameday")
			require.NotNil(t, m.Fee)
			assert.Greater(t, *m.Fee, 4.98)
		} else {
			sawFar = true
			assert.Equal(t, []string{"shipping"}, m.Levels)
			assert.Nil(t, m.Fee)
		}
		if m.Distance <= 8 {
			assert.Contains(t, m.Levels, "ondemand")
		}
	}
	assert.True(t, sawNear && sawFar, "the built-in set exercises both branches")
}
