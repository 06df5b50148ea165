package sandbox

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Pharmacy is one pharmacy the sandbox knows, for Config.Pharmacies.
type Pharmacy struct {
	// NPI is the 10-digit National Provider Identifier.
	NPI string
	// NCPDP is the 7-digit pharmacy identifier.
	NCPDP string
	// Name is the pharmacy's name.
	Name string
	// Preferred marks a preferred partner: it is listed first in lookups and
	// its phone and fax numbers are returned.
	Preferred bool
	// PhoneNumber and FaxNumber (10 digits) are returned only when
	// Preferred; otherwise the wire carries null.
	PhoneNumber, FaxNumber string
	// Address is the pharmacy's address.
	Address PharmacyAddress
}

// PharmacyAddress is a pharmacy's address; an empty Street2 is sent as
// null.
type PharmacyAddress struct {
	// Street1, Street2, City, State (two letters) and Zipcode (5 or 9
	// digits) are sent as the address members of the same names.
	Street1, Street2, City, State, Zipcode string
}

// BuiltinPharmacies returns the twelve pharmacies a Sandbox knows by
// default (three of them preferred). Their NCPDP identifiers are 5550001 to
// 5550012; their NPIs carry a valid check digit.
func BuiltinPharmacies() []Pharmacy {
	type row struct {
		name, street1, street2, city, state, zip string
		preferred                                bool
	}
	rows := []row{
		{"Maple Street Pharmacy", "120 Maple St", "", "Brooklyn", "NY", "11201", true},
		{"Harbor Drug", "45 Harbor Rd", "Suite 2", "Jersey City", "NJ", "07302", false},
		{"Cedar Grove Apothecary", "9 Cedar Ave", "", "Newark", "NJ", "07102", false},
		{"Northside Pharmacy", "300 North Blvd", "", "Bronx", "NY", "10451", true},
		{"Riverbend Rx", "77 River Ln", "", "Hoboken", "NJ", "07030", false},
		{"Lakeview Pharmacy", "1500 Lake Dr", "Unit B", "Queens", "NY", "11101", false},
		{"Summit Health Pharmacy", "8 Summit Pl", "", "Yonkers", "NY", "10701", false},
		{"Oak Park Drug", "210 Oak St", "", "Manhattan", "NY", "10001", true},
		{"Willow Creek Pharmacy", "64 Willow Way", "", "Staten Island", "NY", "10301", false},
		{"Bayside Apothecary", "5 Bay Terrace", "", "Bayonne", "NJ", "07002", false},
		{"Pinecrest Pharmacy", "410 Pine St", "Floor 1", "White Plains", "NY", "10601", false},
		{"Union Square Rx", "33 Union Sq", "", "Manhattan", "NY", "10003", false},
	}
	out := make([]Pharmacy, len(rows))
	for i, r := range rows {
		p := Pharmacy{
			NPI:       npiWithCheckDigit(fmt.Sprintf("1555%05d", i+1)),
			NCPDP:     fmt.Sprintf("555%04d", i+1),
			Name:      r.name,
			Preferred: r.preferred,
			Address:   PharmacyAddress{Street1: r.street1, Street2: r.street2, City: r.city, State: r.state, Zipcode: r.zip},
		}
		if r.preferred {
			p.PhoneNumber = fmt.Sprintf("212555%04d", 100+i)
			p.FaxNumber = fmt.Sprintf("212555%04d", 200+i)
		}
		out[i] = p
	}
	return out
}

// GeneratePharmacies returns n deterministic pharmacies (one in ten
// preferred) for Config.Pharmacies, to test paging over a large set. Their
// NCPDP identifiers are 2000000 upward and their NPIs carry a valid check
// digit.
func GeneratePharmacies(n int) []Pharmacy {
	cities := []struct{ city, state, zip string }{
		{"Albany", "NY", "12207"}, {"Trenton", "NJ", "08608"}, {"Hartford", "CT", "06103"},
		{"Providence", "RI", "02903"}, {"Boston", "MA", "02108"}, {"Philadelphia", "PA", "19103"},
	}
	out := make([]Pharmacy, n)
	for i := range out {
		c := cities[i%len(cities)]
		p := Pharmacy{
			NPI:       npiWithCheckDigit(fmt.Sprintf("%09d", 200000000+i)),
			NCPDP:     fmt.Sprintf("%07d", 2000000+i),
			Name:      fmt.Sprintf("Sandbox Pharmacy %05d", i+1),
			Preferred: i%10 == 0,
			Address:   PharmacyAddress{Street1: fmt.Sprintf("%d Main St", 1+i%999), City: c.city, State: c.state, Zipcode: c.zip},
		}
		if p.Preferred {
			p.PhoneNumber = fmt.Sprintf("555%07d", i%10000000)
			p.FaxNumber = fmt.Sprintf("556%07d", i%10000000)
		}
		out[i] = p
	}
	return out
}

// npiWithCheckDigit appends to nine digits the NPI check digit: the Luhn
// digit of the number prefixed with 80840.
func npiWithCheckDigit(base9 string) string {
	payload := "80840" + base9
	sum := 0
	for i := len(payload) - 1; i >= 0; i-- {
		d := int(payload[i] - '0')
		if (len(payload)-1-i)%2 == 0 { // rightmost payload digit is doubled
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return base9 + strconv.Itoa((10-sum%10)%10)
}

// ---- wire ----

type pharmacyOut struct {
	NPI                string             `json:"npi"`
	NCPDP              string             `json:"ncpdp"`
	Name               string             `json:"name"`
	Preferred          bool               `json:"preferred"`
	DistanceFromOrigin *cents             `json:"distance_from_origin,omitempty"`
	PhoneNumber        *string            `json:"phone_number"`
	FaxNumber          *string            `json:"fax_number"`
	Address            pharmacyAddressOut `json:"address"`
}

type pharmacyAddressOut struct {
	Street1 string  `json:"street1"`
	Street2 *string `json:"street2"`
	City    string  `json:"city"`
	State   string  `json:"state"`
	Zipcode string  `json:"zipcode"`
}

func renderPharmacy(p Pharmacy, distance *cents) pharmacyOut {
	out := pharmacyOut{
		NPI:                p.NPI,
		NCPDP:              p.NCPDP,
		Name:               p.Name,
		Preferred:          p.Preferred,
		DistanceFromOrigin: distance,
		Address: pharmacyAddressOut{
			Street1: p.Address.Street1, City: p.Address.City, State: p.Address.State, Zipcode: p.Address.Zipcode,
		},
	}
	if p.Address.Street2 != "" {
		out.Address.Street2 = strp(p.Address.Street2)
	}
	if p.Preferred {
		out.PhoneNumber, out.FaxNumber = strp(p.PhoneNumber), strp(p.FaxNumber)
	}
	return out
}

type searchOut struct {
	Count            int           `json:"count"`
	Page             int           `json:"page"`
	PageSize         int           `json:"page_size"`
	TotalPages       int           `json:"total_pages"`
	FormattedAddress string        `json:"formatted_address"`
	Pharmacies       []pharmacyOut `json:"pharmacies"`
}

// pharmacySet is the pharmacies a sandbox knows, with an index by NCPDP and
// NPI. It is never changed once built: SetPharmacies swaps in a new one.
type pharmacySet struct {
	list  []Pharmacy
	index map[string]int // NCPDP and NPI to index in list
}

func newPharmacySet(list []Pharmacy) *pharmacySet {
	ps := &pharmacySet{list: append([]Pharmacy(nil), list...), index: make(map[string]int, 2*len(list))}
	for i, p := range ps.list {
		ps.index[p.NCPDP] = i
		ps.index[p.NPI] = i
	}
	return ps
}

// SetPharmacies replaces the pharmacies the sandbox knows (lookups, gets,
// delivery information, and the known-pharmacy rule of omni creates); list
// is copied. An empty list makes every lookup answer count 0.
func (s *Sandbox) SetPharmacies(list []Pharmacy) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pharm.Store(newPharmacySet(list))
	s.lookup = lookupCache{}
}

// Pharmacies returns a copy of the pharmacies the sandbox knows.
func (s *Sandbox) Pharmacies() []Pharmacy {
	return append([]Pharmacy(nil), s.pharm.Load().list...)
}

// ---- distances ----

// distance is a deterministic pseudo-distance in hundredths of a mile, in
// [0.10, 25.00), between an origin key and a pharmacy.
func distance(originKey, ncpdp string) cents {
	h := fnv.New64a()
	h.Write([]byte(originKey))
	h.Write([]byte{0})
	h.Write([]byte(ncpdp))
	return cents(10 + h.Sum64()%2490)
}

// lookupCache keeps the ordering of the last origin searched, so that paging
// through a large set does not sort it again on every page.
type lookupCache struct {
	set   *pharmacySet
	key   string
	order []int
	dist  []cents // by pharmacy index
}

// orderedLocked returns the pharmacies' indices in lookup order (preferred
// first, then by distance, then by NCPDP) and their distances. The caller
// holds s.mu.
func (s *Sandbox) orderedLocked(set *pharmacySet, originKey string) ([]int, []cents) {
	if s.lookup.set == set && s.lookup.key == originKey && s.lookup.order != nil {
		return s.lookup.order, s.lookup.dist
	}
	dist := make([]cents, len(set.list))
	order := make([]int, len(set.list))
	for i, p := range set.list {
		dist[i] = distance(originKey, p.NCPDP)
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		pa, pb := set.list[order[a]], set.list[order[b]]
		if pa.Preferred != pb.Preferred {
			return pa.Preferred
		}
		if da, db := dist[order[a]], dist[order[b]]; da != db {
			return da < db
		}
		return pa.NCPDP < pb.NCPDP
	})
	s.lookup = lookupCache{set: set, key: originKey, order: order, dist: dist}
	return order, dist
}

var (
	zipInText   = regexp.MustCompile(`(?:^|[^0-9])([0-9]{5})(?:-[0-9]{4})?(?:[^0-9]|$)`)
	placeIDRule = regexp.MustCompile(`^[A-Za-z0-9_:-]{1,255}$`)
	spaces      = regexp.MustCompile(`\s+`)
)

// noService reports whether a ZIP code lies in the sandbox's documented
// no-service range, 00000 to 00999: no pharmacy delivers there, delivery
// information says not deliverable, and pricing returns no quote.
func noService(zip5 string) bool { return strings.HasPrefix(zip5, "00") }

// pharmacyHandlers names the handler of each pharmacy operation (omni's
// search and lookup, delivery's delivery information), one line per
// endpoint (handlers.go joins every interface's).
func (s *Sandbox) pharmacyHandlers() map[string]handlerFunc {
	return map[string]handlerFunc{
		OpPharmaciesSearch:       s.searchPharmacies,
		OpPharmaciesGet:          s.getPharmacy,
		OpPharmaciesDeliveryInfo: s.deliveryInfo,
	}
}

// ---- handlers ----

func (s *Sandbox) searchPharmacies(c *call) {
	q := c.r.URL.Query()
	if !s.checkQuery(c, q, "origin_address", "place_id", "page", "page_size") {
		return
	}
	origin, place := strings.TrimSpace(q.Get("origin_address")), strings.TrimSpace(q.Get("place_id"))
	if origin == "" && place == "" {
		s.fail(c, http.StatusBadRequest, "", "origin_address or place_id is required")
		return
	}
	page, ok := s.intParam(c, q, "page", 1)
	if !ok {
		return
	}
	size, ok := s.intParam(c, q, "page_size", 30)
	if !ok {
		return
	}
	var ck checker
	if page < 1 {
		ck.add("page", "must be at least 1")
	}
	if size < 1 || size > 100 {
		ck.add("page_size", "must be between 1 and 100")
	}
	var key, formatted string
	empty := false
	if place != "" && !placeIDRule.MatchString(place) {
		ck.add("place_id", "is not a valid place identifier")
	}
	if origin != "" {
		// With both given, the origin address locates the search: the
		// documents make each required unless the other is given and
		// exclude neither, so both are read and checked.
		m := zipInText.FindAllStringSubmatch(origin, -1)
		if m == nil {
			ck.add("origin_address", "must be a street address including a 5-digit ZIP code")
		} else {
			empty = noService(m[len(m)-1][1])
		}
		formatted = spaces.ReplaceAllString(origin, " ")
		if !strings.HasSuffix(strings.ToUpper(formatted), "USA") {
			formatted += ", USA"
		}
		key = "addr:" + strings.ToLower(formatted)
	} else {
		formatted = "Sandbox place " + place + ", USA"
		key = "place:" + place
	}
	if !ck.ok() {
		s.fail(c, http.StatusUnprocessableEntity, "", ck.message())
		return
	}
	out := searchOut{Page: page, PageSize: size, FormattedAddress: formatted, Pharmacies: []pharmacyOut{}}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !empty {
		set := s.pharm.Load()
		order, dist := s.orderedLocked(set, key)
		out.Count = len(order)
		out.TotalPages = (len(order) + size - 1) / size
		for i := (page - 1) * size; i < len(order) && i < page*size; i++ {
			d := dist[order[i]]
			out.Pharmacies = append(out.Pharmacies, renderPharmacy(set.list[order[i]], &d))
		}
	}
	writeJSON(c.w, http.StatusOK, out)
}

// intParam reads an optional integer query parameter, answering 400 when it
// is not an integer.
func (s *Sandbox) intParam(c *call, q url.Values, name string, def int) (int, bool) {
	if !q.Has(name) {
		return def, true
	}
	n, err := strconv.Atoi(q.Get(name))
	if err != nil {
		s.fail(c, http.StatusBadRequest, "", name+" must be an integer")
		return 0, false
	}
	return n, true
}

// pharmacyByID finds a pharmacy by NCPDP or NPI.
func (s *Sandbox) pharmacyByID(id string) (Pharmacy, bool) {
	set := s.pharm.Load()
	i, ok := set.index[id]
	if !ok {
		return Pharmacy{}, false
	}
	return set.list[i], true
}

func (s *Sandbox) getPharmacy(c *call) {
	p, ok := s.pharmacyByID(c.params["id"])
	if !ok {
		s.fail(c, http.StatusNotFound, "", "Pharmacy not found")
		return
	}
	writeJSON(c.w, http.StatusOK, renderPharmacy(p, nil))
}

// deliveryInfoOut is the sandbox's own reading of the delivery information
// answer, which the documents do not show.
//
// x-rxdelivery-reading: delivery-info-inputs. The response schema is not
// shown (doc 2): the simulator answers this summary, whose fields no
// document names; the SDK keeps the body whole (DeliveryInfo.Raw) and
// fills only npi, ncpdp and name (docs/validation.md says so).
type deliveryInfoOut struct {
	NPI                  string   `json:"npi"`
	NCPDP                string   `json:"ncpdp"`
	Name                 string   `json:"name"`
	Deliverable          bool     `json:"deliverable"`
	DistanceFromPharmacy cents    `json:"distance_from_pharmacy"`
	ServiceLevels        []string `json:"service_levels"`
	ProofOfDelivery      string   `json:"proof_of_delivery"`
	Package              *string  `json:"package"`
	SaturdayDelivery     bool     `json:"saturday_delivery"`
	EstimatedDeliveryFee *cents   `json:"estimated_delivery_fee"`
}

func (s *Sandbox) deliveryInfo(c *call) {
	const (
		street, street2, city, state, zip = "delivery[address][street]", "delivery[address][street2]",
			"delivery[address][city]", "delivery[address][state]", "delivery[address][zipcode]"
		saturday = "saturday[delivery]"
	)
	q := c.r.URL.Query()
	// x-rxdelivery-reading: delivery-info-inputs. Where the inputs go is not
	// shown (doc 2): they are query parameters nested with brackets, as the
	// SDK sends them (docs/validation.md, DI rows). A dotted name, the way
	// the document writes them, is refused with the form it should have.
	var dotted []string
	for k := range q {
		if strings.Contains(k, ".") {
			parts := strings.Split(k, ".")
			dotted = append(dotted, k+": send it as "+parts[0]+"["+strings.Join(parts[1:], "][")+"]")
		}
	}
	if len(dotted) > 0 {
		sort.Strings(dotted)
		s.fail(c, http.StatusBadRequest, "", strings.Join(dotted, "; "))
		return
	}
	if !s.checkQuery(c, q, street, street2, city, state, zip, "POD", "package", saturday) {
		return
	}
	p, ok := s.pharmacyByID(c.params["id"])
	if !ok {
		s.fail(c, http.StatusNotFound, "", "Pharmacy not found")
		return
	}
	param := func(k string) *string {
		if !q.Has(k) {
			return nil
		}
		v := q.Get(k)
		return &v
	}
	var ck checker
	ck.str(street, param(street), true, 255)
	ck.str(street2, param(street2), false, 255)
	ck.str(city, param(city), true, 255)
	ck.str(state, param(state), true, 2)
	ck.zip(zip, param(zip), true)
	sat := false
	if v := param(saturday); v != nil {
		b, err := strconv.ParseBool(*v)
		if err != nil {
			ck.add(saturday, "must be true or false")
		}
		sat = b
	}
	if !ck.ok() {
		s.fail(c, http.StatusBadRequest, "", ck.message())
		return
	}
	zip5 := q.Get(zip)[:5]
	d := distance("dropoff:"+strings.ToLower(q.Get(street))+"|"+zip5, p.NCPDP)
	out := deliveryInfoOut{
		NPI: p.NPI, NCPDP: p.NCPDP, Name: p.Name,
		Deliverable:          !noService(zip5),
		DistanceFromPharmacy: d,
		ServiceLevels:        []string{},
		ProofOfDelivery:      q.Get("POD"),
		Package:              param("package"),
		SaturdayDelivery:     sat,
	}
	if out.ProofOfDelivery == "" {
		out.ProofOfDelivery = "none"
		if p.Preferred {
			out.ProofOfDelivery = "required"
		}
	}
	if out.Deliverable {
		if d <= 1500 {
			out.ServiceLevels = append(out.ServiceLevels, "sameday")
		}
		if d <= 800 {
			out.ServiceLevels = append(out.ServiceLevels, "ondemand")
		}
		out.ServiceLevels = append(out.ServiceLevels, "shipping")
		if d <= 1500 {
			fee := 499 + d*45/100
			out.EstimatedDeliveryFee = &fee
		}
	}
	writeJSON(c.w, http.StatusOK, out)
}
