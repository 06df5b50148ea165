package orders

import (
	"math/big"

	"github.com/rxdelivery/rxdelivery-go/internal/validate"
	"github.com/rxdelivery/rxdelivery-go/types"
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
	p.check(&c)
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
	c.Push("recipient")
	p.Recipient.check(c)
	c.Pop()
	c.Push("patient")
	p.Patient.check(c, known && level == ServiceLevelShipping)
	c.Pop()

	switch {
	case known && level == ServiceLevelShipping && p.Shipping == nil:
		c.Add("shipping", "is required for shipping orders")
	case known && level != ServiceLevelShipping && p.Shipping != nil:
		c.Add("shipping", "is accepted for shipping orders only")
	}
	if p.Shipping != nil {
		c.Push("shipping")
		p.Shipping.check(c)
		c.Pop()
	}

	if len(p.Prescriptions) == 0 {
		c.Add("prescriptions", "is required (at least one prescription)")
	}
	validate.Each(c, "prescriptions", p.Prescriptions, (*Prescription).check)
	validate.Each(c, "other_items", p.OtherItems, (*OtherItem).check)
}

func (r *Recipient) check(c *validate.Collector) {
	c.RequiredMaxLen("description", r.Description, 71)
	c.OptionalPhone("mobile_phone_number", r.MobilePhoneNumber)
	c.OptionalPhone("home_phone_number", r.HomePhoneNumber)
	c.Push("address")
	checkAddress(c, &r.Address)
	c.Pop()
}

func checkAddress(c *validate.Collector, a *Address) {
	c.RequiredMaxLen("street", a.Street, 255)
	c.MaxLen("street2", a.Street2, 255)
	c.RequiredMaxLen("city", a.City, 255)
	c.State("state", a.State)
	c.ZIP("zipcode", a.Zipcode)
}

func (p *Patient) check(c *validate.Collector, shipping bool) {
	c.RequiredMaxLen("first_name", p.FirstName, 30)
	c.RequiredMaxLen("last_name", p.LastName, 40)
	validate.OneOf(c, "gender", p.Gender, true,
		GenderMale, GenderFemale, GenderUnspecified)
	c.DateOfBirth("date_of_birth", p.DateOfBirth)
	c.OptionalPhone("mobile_phone_number", p.MobilePhoneNumber)
	c.OptionalPhone("home_phone_number", p.HomePhoneNumber)
	if shipping && p.MobilePhoneNumber == "" && p.HomePhoneNumber == "" {
		c.Add("mobile_phone_number",
			"is required for shipping orders when home_phone_number is empty (at least one patient phone number)")
	}
}

func (p *Prescription) check(c *validate.Collector) {
	c.RequiredMaxLen("number", p.Number, 255)
	c.NDC("ndc", p.NDC)
	validate.OneOf(c, "refrigeration", p.Refrigeration, true,
		RefrigerationNone, RefrigerationFridge, RefrigerationFrozen)
	positiveInt(c, "days_supply", p.DaysSupply)
	c.Positive("fill_quantity", p.FillQuantity)
	switch {
	case p.FillNumber == nil:
		c.Add("fill_number", "is required (0 is the original fill)")
	case *p.FillNumber < 0:
		c.Add("fill_number", "must not be negative")
	}
	if c.RequiredDecimal("patient_pay", p.PatientPay) {
		c.NonNegative("patient_pay", p.PatientPay)
	}
	c.Push("prescriber")
	p.Prescriber.check(c)
	c.Pop()
	validate.Each(c, "payers", p.Payers, (*Payer).check)
}

func (p *Prescriber) check(c *validate.Collector) {
	c.Required("first_name", p.FirstName)
	c.Required("last_name", p.LastName)
	c.NPI("npi", p.NPI)
	c.Push("address")
	checkAddress(c, &p.Address)
	c.Pop()
}

func (p *Payer) check(c *validate.Collector) {
	c.RequiredMaxLen("bin", p.BIN, 255)
	c.RequiredMaxLen("pcn", p.PCN, 255)
	c.Required("rx_group", p.RxGroup)
	validate.OneOf(c, "coverage_type", p.CoverageType, true,
		CoverageTypePrimary, CoverageTypeSecondary, CoverageTypeTertiary)
	if p.GovernmentPlanIndicator == nil {
		c.Add("government_plan_indicator", "is required (true or false)")
	}
}

func (o *OtherItem) check(c *validate.Collector) {
	c.Required("upc", o.UPC)
	c.Required("sku", o.SKU)
	positiveInt(c, "quantity", o.Quantity)
	c.Required("description", o.Description)
}

// positiveInt checks a required integer whose zero is ruled out, so an
// unset field, which reads as zero, is refused by the same rule.
func positiveInt(c *validate.Collector, path string, n int) {
	if n <= 0 {
		c.Add(path, "is required and must be greater than 0")
	}
}

func (s *ShippingParams) check(c *validate.Collector) {
	carrierPath := "carrier"
	validate.OneOf(c, carrierPath, s.Carrier, true, carriers...)
	carrierKnown := s.Carrier.Known()

	servicePath := "carrier_service"
	validate.OneOf(c, servicePath, s.CarrierService, true, allServices()...)
	if owner := s.CarrierService.Carrier(); carrierKnown && owner != "" && owner != s.Carrier {
		c.Add(servicePath, "must be a service of the carrier")
	}

	sigPath := "signature"
	validate.OneOf(c, sigPath, s.Signature, true, signatures...)
	if carrierKnown && contains(signatures, s.Signature) && !s.Carrier.SupportsSignature(s.Signature) {
		c.Add(sigPath, "is not offered by the carrier")
	}

	if s.SaturdayDelivery != nil && *s.SaturdayDelivery && !s.CarrierService.OffersSaturdayDelivery() {
		c.Add("saturday_delivery",
			"is offered only by the services PARCELA 2nd Day Air and PARCELA Next Day Air")
	}

	c.Push("weight")
	s.checkWeight(c)
	c.Pop()

	pkgPath := "package_code"
	validate.OneOf(c, pkgPath, s.PackageCode, false, allPackageCodes()...)
	if owner := s.PackageCode.Carrier(); carrierKnown && owner != "" && owner != s.Carrier {
		c.Add(pkgPath, "is not a package code of the carrier")
	}

	dimPath := "dimensions"
	switch {
	case s.PackageCode == "" && s.Dimensions == nil:
		c.Add(dimPath, "is required when package_code is not set")
	case s.Dimensions != nil:
		c.Push(dimPath)
		s.Dimensions.check(c, s.PackageCode == "")
		c.Pop()
	}
}

// sixteen is the number of ounces in a pound.
var sixteen = big.NewRat(16, 1)

func (s *ShippingParams) checkWeight(c *validate.Collector) {
	validate.OneOf(c, "unit", s.Weight.Unit, true, WeightUnitOunce, WeightUnitPound)
	valuePath := "value"
	if s.Weight.Value.Sign() <= 0 {
		c.Add(valuePath, "is required and must be greater than 0")
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
func (d *Dimensions) check(c *validate.Collector, required bool) {
	unitPath := "unit"
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
		switch {
		case required && m.v.Sign() <= 0:
			c.Add(m.name, "is required and must be greater than 0")
		case m.v.Sign() < 0:
			c.Add(m.name, "must be greater than 0")
		}
	}
}
