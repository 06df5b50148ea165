package pricing

import (
	"github.com/rxdelivery/rxdelivery-go/internal/usps"
	"github.com/rxdelivery/rxdelivery-go/internal/validate"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// QuoteParams are the fields of [Service.Quote]. Version 1 of the interface
// refuses package codes and signature requirements, so the type has no
// field for them. Street address, name and phone number are not needed.
type QuoteParams struct {
	// Pickup is the origin. Its ZIP code is required.
	Pickup Location `json:"pickup"`
	// Dropoff is the destination. Its ZIP code is required.
	Dropoff Location `json:"dropoff"`
	// Providers filters the quotes by provider: [ProviderAll] or
	// [ProviderPostal]. Optional; the platform's default is all.
	Providers []Provider `json:"providers,omitempty"`
	// ServiceLevel filters the quotes by service key (the wire name is
	// service_level): [ServiceKeyAll] or [ServiceKeyGround]. Optional; the
	// platform's default is all.
	ServiceLevel ServiceKey `json:"service_level,omitempty"`
	// PackageDimensions are the package's measures, all required: the
	// platform never infers them, so send standard defaults explicitly.
	PackageDimensions PackageDimensions `json:"package_dimensions"`
}

// Location is a pickup or dropoff place of a quote.
type Location struct {
	// Address is the place's address; only its ZIP code is used.
	Address Address `json:"address"`
}

// Address is the part of an address a quote needs.
type Address struct {
	// ZIPCode is a US ZIP code: 5 digits, or a ZIP+4 of 9 digits with or
	// without a hyphen ("43210-1234"), which is sent as its first 5 digits.
	// Required.
	ZIPCode string `json:"zipcode"`
}

// PackageDimensions are a package's measures. Each is required and must be
// greater than zero.
type PackageDimensions struct {
	// LengthIn is the length in inches.
	LengthIn rxtypes.Decimal `json:"length_in"`
	// WidthIn is the width in inches.
	WidthIn rxtypes.Decimal `json:"width_in"`
	// HeightIn is the height in inches.
	HeightIn rxtypes.Decimal `json:"height_in"`
	// WeightOz is the weight in ounces.
	WeightOz rxtypes.Decimal `json:"weight_oz"`
}

// Validate reports every problem of p, each with its JSON path, as a
// *rxdelivery.ValidationError; nil when p is valid.
func (p *QuoteParams) Validate() error { return p.validate(validate.Options{}) }

func (p *QuoteParams) validate(o validate.Options) error {
	c := validate.Collector{Options: o}
	validate.In(&c, "pickup", &p.Pickup, (*Location).check)
	validate.In(&c, "dropoff", &p.Dropoff, (*Location).check)
	validate.Each(&c, "providers", p.Providers, func(pr *Provider, c *validate.Collector) {
		validate.OneOf(c, "", *pr, true, ProviderAll, ProviderPostal)
	})
	validate.OneOf(&c, "service_level", p.ServiceLevel, false, ServiceKeyAll, ServiceKeyGround)
	validate.In(&c, "package_dimensions", &p.PackageDimensions, (*PackageDimensions).check)
	return c.Err()
}

func (l *Location) check(c *validate.Collector) {
	const path = "address.zipcode"
	if c.Required(path, l.Address.ZIPCode) {
		_, err := usps.ZIP5(l.Address.ZIPCode)
		c.AddErr(path, err)
	}
}

func (d *PackageDimensions) check(c *validate.Collector) {
	c.Positive("length_in", d.LengthIn)
	c.Positive("width_in", d.WidthIn)
	c.Positive("height_in", d.HeightIn)
	c.Positive("weight_oz", d.WeightOz)
}

// wire returns the body to send: a copy of p with both ZIP codes cut to 5
// digits. A code that does not normalise (possible with validation off) is
// sent as given.
func (p *QuoteParams) wire() *QuoteParams {
	w := *p
	if z, err := usps.ZIP5(p.Pickup.Address.ZIPCode); err == nil {
		w.Pickup.Address.ZIPCode = z
	}
	if z, err := usps.ZIP5(p.Dropoff.Address.ZIPCode); err == nil {
		w.Dropoff.Address.ZIPCode = z
	}
	return &w
}
