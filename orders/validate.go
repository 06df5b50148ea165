package orders

import (
	"math/big"

	"github.com/rxdelivery/rxdelivery-go/internal/types"
	"github.com/rxdelivery/rxdelivery-go/internal/validate"
)

// Validate checks p against every rule of the delivery order document and
// returns a *rxdelivery.ValidationError listing each problem with its JSON
// path, or nil. Create runs it before sending.
func (p *CreateParams) Validate() error { return p.validate(validate.Options{}) }

func (p *CreateParams) validate(o validate.Options) error {
	c := validate.Collector{Options: o}
	p.check(&c)
	return c.Err()
}

// Validate checks the prescription against the rules of the delivery order
// document, with paths relative to the prescription ("payers[0].bin").
// AddPrescription runs it before sending.
func (p *Prescription) Validate() error { return p.validate(validate.Options{}) }

func (p *Prescription) validate(o validate.Options) error {
	c := validate.Collector{Options: o}
	p.check(&c, "")
	return c.Err()
}

func (p *CreateParams) check(c *validate.Collector) {
	level := p.ServiceLevel
	known := true
	switch level {
	case ServiceLevelSameday, ServiceLevelOndemand, ServiceLevelShipping:
	default:
		known = false
		c.Add("service_level", "must be ondemand or shipping, or empty for a same-day order")
	}
	if p.ServiceDate != nil && !p.ServiceDate.IsZero() && !p.ServiceDate.IsValid() {
		c.Add("service_date", "must be a valid date")
	}
	validate.OneOf(c, "initiator", p.Initiator, false, InitiatorPharmacy)

	if known && level == ServiceLevelSameday {
		c.RequiredDecimal("delivery_fee", p.DeliveryFee)
		c.RequiredDecimal("rx_amount_due", p.RxAmountDue)
	}
	c.NonNegative("delivery_fee", p.DeliveryFee)
	c.NonNegative("rx_amount_due", p.RxAmountDue)
	c.NonNegative("other_items_amount_due", p.OtherItemsAmountDue)
	if known && level != ServiceLevelSameday {
		if p.OtherItemsAmountDue != nil {
			c.Add("other_items_amount_due", "is accepted for same-day orders only")
		}
		if p.PhotoIDRequired != nil {
			c.Add("photo_id_required", "is accepted for same-day orders only")
		}
	}
	c.MaxLen("delivery_notes", p.DeliveryNotes, 280)
	c.MaxLen("external_reference_number", p.ExternalReferenceNumber, 255)

	c.NPI("pharmacy.npi", p.Pharmacy.NPI)
	c.NCPDP("pharmacy.ncpdp", p.Pharmacy.NCPDP)
	p.Recipient.check(c, "recipient")
	p.Patient.check(c, "patient", known && level == ServiceLevelShipping)

	switch {
	case known && level == ServiceLevelShipping && p.Shipping == nil:
		c.Add("shipping", "is required for shipping orders")
	case known && level != ServiceLevelShipping && p.Shipping != nil:
		c.Add("shipping", "is accepted for shipping orders only")
	}
	if p.Shipping != nil {
		p.Shipping.check(c, "shipping")
	}

	if len(p.Prescriptions) == 0 {
		c.Add("prescriptions", "is required (at least one prescription)")
	}
	for i := range p.Prescriptions {
		p.Prescriptions[i].check(c, validate.Index("prescriptions", i))
	}
	for i := range p.OtherItems {
		p.OtherItems[i].check(c, validate.Index("other_items", i))
	}
}

func (r *Recipient) check(c *validate.Collector, path string) {
	c.RequiredMaxLen(validate.Join(path, "description"), r.Description, 71)
	c.OptionalPhone(validate.Join(path, "mobile_phone_number"), r.MobilePhoneNumber)
	c.OptionalPhone(validate.Join(path, "home_phone_number"), r.HomePhoneNumber)
	r.Address.check(c, validate.Join(path, "address"))
}

func (a *Address) check(c *validate.Collector, path string) {
	c.RequiredMaxLen(validate.Join(path, "street"), a.Street, 255)
	c.MaxLen(validate.Join(path, "street2"), a.Street2, 255)
	c.RequiredMaxLen(validate.Join(path, "city"), a.City, 255)
	c.State(validate.Join(path, "state"), a.State)
	c.ZIP(validate.Join(path, "zipcode"), a.Zipcode)
}

func (p *Patient) check(c *validate.Collector, path string, shipping bool) {
	c.RequiredMaxLen(validate.Join(path, "first_name"), p.FirstName, 30)
	c.RequiredMaxLen(validate.Join(path, "last_name"), p.LastName, 40)
	validate.OneOf(c, validate.Join(path, "gender"), p.Gender, true,
		GenderMale, GenderFemale, GenderUnspecified)
	c.RequiredDate(validate.Join(path, "date_of_birth"), p.DateOfBirth)
	c.OptionalPhone(validate.Join(path, "mobile_phone_number"), p.MobilePhoneNumber)
	c.OptionalPhone(validate.Join(path, "home_phone_number"), p.HomePhoneNumber)
	if shipping && p.MobilePhoneNumber == "" && p.HomePhoneNumber == "" {
		c.Add(validate.Join(path, "mobile_phone_number"),
			"is required for shipping orders when home_phone_number is empty (at least one patient phone number)")
	}
}

func (p *Prescription) check(c *validate.Collector, path string) {
	c.RequiredMaxLen(validate.Join(path, "number"), p.Number, 255)
	c.NDC(validate.Join(path, "ndc"), p.NDC)
	validate.OneOf(c, validate.Join(path, "refrigeration"), p.Refrigeration, true,
		RefrigerationNone, RefrigerationFridge, RefrigerationFrozen)
	positiveInt(c, validate.Join(path, "days_supply"), p.DaysSupply)
	if c.RequiredDecimal(validate.Join(path, "fill_quantity"), &p.FillQuantity) {
		c.Positive(validate.Join(path, "fill_quantity"), &p.FillQuantity)
	}
	if p.FillNumber < 0 {
		c.Add(validate.Join(path, "fill_number"), "must not be negative")
	}
	if c.RequiredDecimal(validate.Join(path, "patient_pay"), &p.PatientPay) {
		c.NonNegative(validate.Join(path, "patient_pay"), &p.PatientPay)
	}
	p.Prescriber.check(c, validate.Join(path, "prescriber"))
	payers := validate.Join(path, "payers")
	if len(p.Payers) == 0 {
		c.Add(payers, "is required (at least one payer)")
	}
	for i := range p.Payers {
		p.Payers[i].check(c, validate.Index(payers, i))
	}
}

func (p *Prescriber) check(c *validate.Collector, path string) {
	c.Required(validate.Join(path, "first_name"), p.FirstName)
	c.Required(validate.Join(path, "last_name"), p.LastName)
	c.NPI(validate.Join(path, "npi"), p.NPI)
	p.Address.check(c, validate.Join(path, "address"))
}

func (p *Payer) check(c *validate.Collector, path string) {
	c.RequiredMaxLen(validate.Join(path, "bin"), p.BIN, 255)
	c.RequiredMaxLen(validate.Join(path, "pcn"), p.PCN, 255)
	c.Required(validate.Join(path, "rx_group"), p.RxGroup)
	validate.OneOf(c, validate.Join(path, "coverage_type"), p.CoverageType, true,
		CoverageTypePrimary, CoverageTypeSecondary, CoverageTypeTertiary)
	if p.GovernmentPlanIndicator == nil {
		c.Add(validate.Join(path, "government_plan_indicator"), "is required (true or false)")
	}
}

func (o *OtherItem) check(c *validate.Collector, path string) {
	c.Required(validate.Join(path, "upc"), o.UPC)
	c.Required(validate.Join(path, "sku"), o.SKU)
	positiveInt(c, validate.Join(path, "quantity"), o.Quantity)
	c.Required(validate.Join(path, "description"), o.Description)
}

// positiveInt checks a required integer that must be greater than zero;
// zero is how an unset int reads.
func positiveInt(c *validate.Collector, path string, n int) {
	switch {
	case n == 0:
		c.Add(path, "is required")
	case n < 0:
		c.Add(path, "must be greater than 0")
	}
}

func (s *ShippingParams) check(c *validate.Collector, path string) {
	carrierPath := validate.Join(path, "carrier")
	validate.OneOf(c, carrierPath, s.Carrier, true, carriers...)
	carrierKnown := s.Carrier.Known()

	servicePath := validate.Join(path, "carrier_service")
	validate.OneOf(c, servicePath, s.CarrierService, true, allServices()...)
	if owner := s.CarrierService.Carrier(); carrierKnown && owner != "" && owner != s.Carrier {
		c.Add(servicePath, "must be a service of the carrier")
	}

	sigPath := validate.Join(path, "signature")
	validate.OneOf(c, sigPath, s.Signature, true, signatures...)
	if carrierKnown && contains(signatures, s.Signature) && !s.Carrier.SupportsSignature(s.Signature) {
		c.Add(sigPath, "is not offered by the carrier")
	}

	if s.SaturdayDelivery != nil && *s.SaturdayDelivery && !s.CarrierService.OffersSaturdayDelivery() {
		c.Add(validate.Join(path, "saturday_delivery"),
			"is offered only by the services PARCELA 2nd Day Air and PARCELA Next Day Air")
	}

	s.checkWeight(c, validate.Join(path, "weight"))

	pkgPath := validate.Join(path, "package_code")
	validate.OneOf(c, pkgPath, s.PackageCode, false, allPackageCodes()...)
	if owner := s.PackageCode.Carrier(); carrierKnown && owner != "" && owner != s.Carrier {
		c.Add(pkgPath, "is not a package code of the carrier")
	}

	dimPath := validate.Join(path, "dimensions")
	switch {
	case s.PackageCode == "" && s.Dimensions == nil:
		c.Add(dimPath, "is required when package_code is not set")
	case s.Dimensions != nil:
		s.Dimensions.check(c, dimPath, s.PackageCode == "")
	}
}

// sixteen is the number of ounces in a pound.
var sixteen = big.NewRat(16, 1)

func (s *ShippingParams) checkWeight(c *validate.Collector, path string) {
	validate.OneOf(c, validate.Join(path, "unit"), s.Weight.Unit, true, WeightUnitOunce, WeightUnitPound)
	valuePath := validate.Join(path, "value")
	if !c.RequiredDecimal(valuePath, &s.Weight.Value) {
		return
	}
	if s.Weight.Value.Sign() <= 0 {
		c.Add(valuePath, "must be greater than 0")
		return
	}
	if s.CarrierService != CarrierServicePostalFirstClassMail {
		return
	}
	ounces := s.Weight.Value.Rat()
	switch s.Weight.Unit {
	case WeightUnitPound:
		ounces.Mul(ounces, sixteen)
	case WeightUnitOunce:
	default:
		return
	}
	if ounces.Cmp(sixteen) >= 0 {
		c.Add(valuePath, "must be under 1 pound (16 ounces) for POSTAL First Class Mail")
	}
}

// check checks dimensions; required says whether they stand in for a
// package code (every member then required) or merely accompany one (the
// carrier's dimensions replace them, and only what is set is checked).
func (d *Dimensions) check(c *validate.Collector, path string, required bool) {
	unitPath := validate.Join(path, "unit")
	switch {
	case d.Unit == "" && required:
		c.Add(unitPath, "is required")
	case d.Unit != "" && d.Unit != DimensionUnitInch:
		c.Add(unitPath, "must be inch")
	}
	for _, m := range [...]struct {
		name string
		v    *types.Decimal
	}{{"length", &d.Length}, {"width", &d.Width}, {"height", &d.Height}} {
		p := validate.Join(path, m.name)
		if m.v.IsZero() {
			if required {
				c.Add(p, "is required")
			}
			continue
		}
		if m.v.Sign() <= 0 {
			c.Add(p, "must be greater than 0")
		}
	}
}
