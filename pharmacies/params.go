package pharmacies

import (
	"strconv"

	"github.com/rxdelivery/rxdelivery-go/internal/usps"
	"github.com/rxdelivery/rxdelivery-go/internal/validate"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// MaxPageSize is the largest page size the search accepts; the platform's
// default is 30.
const MaxPageSize = 100

// SearchParams are the query parameters of [Service.Search] and
// [Service.All]. Give OriginAddress, PlaceID, or both: each is required
// unless the other is given, and the document forbids neither alongside the
// other.
type SearchParams struct {
	// OriginAddress is the dropoff street address in postal-service
	// format, including the ZIP code, without business names or
	// apartment, unit or suite numbers. The platform refuses an address
	// without a ZIP code.
	OriginAddress string `url:"origin_address,omitempty"`
	// PlaceID is a map provider's place identifier of the dropoff, at most
	// 255 characters.
	PlaceID string `url:"place_id,omitempty"`
	// Page is the page to fetch, from 1; 0 leaves it to the platform
	// (page 1). All starts from it.
	Page int `url:"page,omitempty"`
	// PageSize is the number of results per page, 1 to 100; 0 leaves it
	// to the platform (30).
	PageSize int `url:"page_size,omitempty"`
}

// Validate checks p against the lookup's rules and returns a
// *rxdelivery.ValidationError listing every problem, or nil.
func (p *SearchParams) Validate() error { return p.validate(validate.Options{}) }

func (p *SearchParams) validate(o validate.Options) error {
	c := validate.Collector{Options: o}
	if p.OriginAddress == "" && p.PlaceID == "" {
		c.Add("origin_address", "is required unless place_id is given")
	}
	c.Text("origin_address", p.OriginAddress)
	c.MaxLen("place_id", p.PlaceID, 255)
	if p.Page < 0 {
		c.Add("page", "must be at least 1 (or 0 for the first page)")
	}
	if p.PageSize < 0 || p.PageSize > MaxPageSize {
		c.Add("page_size", "must be between 1 and "+strconv.Itoa(MaxPageSize)+" (or 0 for the default)")
	}
	return c.Err()
}

// DeliveryInfoParams are the inputs of [DeliveryInfo]. They are sent as
// query parameters, bracket-nested after the document's names:
// delivery[address][street]=…, POD=…, package=…, saturday[delivery]=true.
// The document does not show where the inputs go; this is the SDK's
// reading (delivery-info-query), the one the simulator reads.
type DeliveryInfoParams struct {
	// Address is the dropoff location (delivery.address); required.
	Address rxtypes.Address
	// POD is the proof-of-delivery (signature) method; empty leaves the
	// pharmacy's configured method.
	POD string
	// Package is the package to ship in; optional.
	Package string
	// SaturdayDelivery asks for Saturday delivery (saturday.delivery);
	// only PARCELA 2nd Day Air and PARCELA Next Day Air offer it. False is
	// not sent.
	SaturdayDelivery bool
}

// Validate checks p against the delivery document's address rules and
// returns a *rxdelivery.ValidationError listing every problem, or nil.
func (p *DeliveryInfoParams) Validate() error { return p.validate(validate.Options{}) }

func (p *DeliveryInfoParams) validate(o validate.Options) error {
	c := validate.Collector{Options: o}
	a := &p.Address
	c.Push("delivery")
	c.Push("address")
	c.RequiredMaxLen("street", a.Street, 255)
	c.MaxLen("street2", a.Street2, 255)
	c.RequiredMaxLen("city", a.City, 255)
	c.State("state", a.State)
	c.ZIP("zipcode", a.Zipcode)
	c.Pop()
	c.Pop()
	c.Text("POD", p.POD)
	c.Text("package", p.Package)
	return c.Err()
}

// deliveryInfoQuery is the wire form of DeliveryInfoParams.
type deliveryInfoQuery struct {
	Delivery struct {
		Address rxtypes.Address `url:"address"`
	} `url:"delivery"`
	POD      string `url:"POD,omitempty"`
	Package  string `url:"package,omitempty"`
	Saturday struct {
		Delivery bool `url:"delivery,omitempty"`
	} `url:"saturday"`
}

func (p *DeliveryInfoParams) query() deliveryInfoQuery {
	var q deliveryInfoQuery
	q.Delivery.Address = p.Address
	q.Delivery.Address.State = usps.WireState(p.Address.State)
	q.Delivery.Address.Zipcode = usps.WireZIP(p.Address.Zipcode)
	q.POD = p.POD
	q.Package = p.Package
	q.Saturday.Delivery = p.SaturdayDelivery
	return q
}
