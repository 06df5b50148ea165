package orders

import (
	"encoding/json"
	"math/big"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/validate"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// CreateParams is the body of [Service.Create]: one delivery order. Fields
// marked "sameday" apply to same-day orders ([ServiceLevelSameday]) only.
type CreateParams struct {
	// ServiceLevel is sameday (the zero value, sent as an absent field),
	// ondemand or shipping.
	ServiceLevel ServiceLevel `json:"service_level,omitempty"`
	// ReadyAt is when the order is ready for the courier (on-demand
	// orders in the document's example). It is sent in RFC 3339 form with
	// its offset, and omitted when nil or zero.
	ReadyAt *time.Time `json:"ready_at,omitempty"`
	// ServiceDate is the date of the service (shipping orders in the
	// document's example); omitted when nil or zero.
	ServiceDate *rxtypes.Date `json:"service_date,omitempty"`
	// Initiator is the source of the request; optional, and when set it
	// must be [InitiatorPharmacy].
	Initiator Initiator `json:"initiator,omitempty"`
	// DeliveryFee is the delivery fee to collect. Required for sameday.
	DeliveryFee *rxtypes.Decimal `json:"delivery_fee,omitempty"`
	// RxAmountDue is the copay to collect. Required for sameday.
	RxAmountDue *rxtypes.Decimal `json:"rx_amount_due,omitempty"`
	// OtherItemsAmountDue is the fee for other items; optional, sameday
	// only.
	OtherItemsAmountDue *rxtypes.Decimal `json:"other_items_amount_due,omitempty"`
	// DeliveryNotes are instructions for the courier; at most 280
	// characters.
	DeliveryNotes string `json:"delivery_notes,omitempty"`
	// ExternalReferenceNumber is the caller's reference, at most 255
	// characters. Set it, unique per order: after a create with an unknown
	// outcome it is what the order can be reconciled by.
	ExternalReferenceNumber string `json:"external_reference_number,omitempty"`
	// PhotoIDRequired asks the courier to check a photo ID at delivery;
	// optional, sameday only. Nil leaves the field out; a pointer to false
	// sends false.
	PhotoIDRequired *bool `json:"photo_id_required,omitempty"`
	// Pharmacy is the dispensing pharmacy; required.
	Pharmacy Pharmacy `json:"pharmacy"`
	// Recipient is who receives the delivery; required.
	Recipient Recipient `json:"recipient"`
	// Patient is the patient; required.
	Patient Patient `json:"patient"`
	// Shipping holds the carrier options; required for shipping orders and
	// refused for the other levels.
	Shipping *ShippingParams `json:"shipping,omitempty"`
	// Prescriptions are the prescriptions to deliver; at least one.
	Prescriptions []Prescription `json:"prescriptions"`
	// OtherItems are other items to deliver, typically over the counter.
	OtherItems []OtherItem `json:"other_items,omitempty"`
}

// MarshalJSON encodes the body, leaving out a zero ReadyAt or ServiceDate
// as if it were nil.
func (p CreateParams) MarshalJSON() ([]byte, error) {
	type plain CreateParams // plain has the fields, not this method
	q := plain(p)
	if q.ReadyAt != nil && q.ReadyAt.IsZero() {
		q.ReadyAt = nil
	}
	if q.ServiceDate != nil && q.ServiceDate.IsZero() {
		q.ServiceDate = nil
	}
	return json.Marshal(q)
}

// Pharmacy identifies the dispensing pharmacy of an order.
type Pharmacy struct {
	// NPI is the pharmacy's National Provider Identifier; required, 10
	// digits.
	NPI string `json:"npi"`
	// NCPDP is the pharmacy's NCPDP identifier; required, 7 digits.
	NCPDP string `json:"ncpdp"`
}

// Recipient is who receives the delivery.
type Recipient struct {
	// Description is the recipient's name, the patient's first and last
	// name when the patient receives it; required, at most 71 characters.
	Description string `json:"description"`
	// MobilePhoneNumber is optional; 10 digits.
	MobilePhoneNumber string `json:"mobile_phone_number,omitempty"`
	// HomePhoneNumber is optional; 10 digits.
	HomePhoneNumber string `json:"home_phone_number,omitempty"`
	// Address is where to deliver; required.
	Address rxtypes.Address `json:"address"`
}

// Patient is the patient of an order.
type Patient struct {
	// FirstName is required, at most 30 characters.
	FirstName string `json:"first_name"`
	// LastName is required, at most 40 characters.
	LastName string `json:"last_name"`
	// Gender is required on orders (unlike omni requests).
	Gender rxtypes.Gender `json:"gender"`
	// DateOfBirth is required; it must be a real day and not in the
	// future.
	DateOfBirth rxtypes.Date `json:"date_of_birth"`
	// MobilePhoneNumber is 10 digits. Shipping orders need it or
	// HomePhoneNumber.
	MobilePhoneNumber string `json:"mobile_phone_number,omitempty"`
	// HomePhoneNumber is 10 digits. Shipping orders need it or
	// MobilePhoneNumber.
	HomePhoneNumber string `json:"home_phone_number,omitempty"`
}

// Prescription is one prescription of an order; it is also what
// [Service.AddPrescription] adds. The add-prescription body carries exactly
// the fields the document lists for that endpoint: every field but
// DateOfService, which the document lists for order creation only and
// which AddPrescription does not send.
type Prescription struct {
	// Number is the prescription number; required, at most 255
	// characters. [Service.RemovePrescription] takes it.
	Number string `json:"number"`
	// NDC is the National Drug Code in 11 digits without hyphens;
	// required. rxdelivery.NormalizeNDC converts printed forms.
	NDC string `json:"ndc"`
	// Refrigeration is how the item must be kept; required.
	Refrigeration Refrigeration `json:"refrigeration"`
	// DaysSupply is the number of days the fill lasts; required, and
	// greater than 0 (a fill lasts at least a day).
	DaysSupply int `json:"days_supply"`
	// FillQuantity is the quantity dispensed; required, and greater than
	// 0 (a fill dispenses something).
	FillQuantity rxtypes.Decimal `json:"fill_quantity"`
	// FillNumber is the fill's number: 0 is the original fill, 1 the first
	// refill. Required, so it is a pointer: nil is refused by validation,
	// rxdelivery.Ptr(0) sends 0.
	FillNumber *int `json:"fill_number"`
	// PatientPay is the amount the patient pays. Required, so it is a
	// pointer: nil is refused by validation, and a pointer to 0.00 sends
	// a zero copay.
	PatientPay *rxtypes.Decimal `json:"patient_pay"`
	// Prescriber is the prescribing provider; required.
	Prescriber Prescriber `json:"prescriber"`
	// DateOfService is optional free text; a date such as "2024-05-02"
	// is the expected form. It is a field of order creation only:
	// [Service.AddPrescription] does not send it.
	DateOfService string `json:"date_of_service,omitempty"`
	// Payers are the prescription's payers. Required; an empty list (a
	// cash prescription has no payer) is sent as [].
	Payers []Payer `json:"payers"`
}

// MarshalJSON encodes the prescription as order creation takes it, with
// nil Payers sent as [].
func (p Prescription) MarshalJSON() ([]byte, error) {
	type plain Prescription // plain has the fields, not this method
	q := plain(p)
	if q.Payers == nil {
		q.Payers = []Payer{}
	}
	return json.Marshal(q)
}

// addPrescriptionBody is the body of AddPrescription: the prescription as
// order creation takes it, without date_of_service, which the document
// does not list for that endpoint.
type addPrescriptionBody struct{ rx Prescription }

// addBody returns the add-prescription body of p.
func (p *Prescription) addBody() addPrescriptionBody {
	rx := *p
	rx.DateOfService = ""
	return addPrescriptionBody{rx: rx}
}

// MarshalJSON encodes the body with encoding/json, through Prescription's
// MarshalJSON.
func (a addPrescriptionBody) MarshalJSON() ([]byte, error) { return a.rx.MarshalJSON() }

// Prescriber is the provider who wrote a prescription.
type Prescriber struct {
	// FirstName is required.
	FirstName string `json:"first_name"`
	// LastName is required.
	LastName string `json:"last_name"`
	// NPI is the prescriber's National Provider Identifier; required, 10
	// digits.
	NPI string `json:"npi"`
	// Address is the prescriber's address; required.
	Address rxtypes.Address `json:"address"`
}

// Payer is a payer (insurance plan) of a prescription.
type Payer struct {
	// BIN is the bank identification number; required, at most 255
	// characters.
	BIN string `json:"bin"`
	// PCN is the processor control number; required, at most 255
	// characters.
	PCN string `json:"pcn"`
	// RxGroup is the group; required.
	RxGroup string `json:"rx_group"`
	// CoverageType is the payer's rank; required.
	CoverageType CoverageType `json:"coverage_type"`
	// GovernmentPlanIndicator says whether the plan is a government plan;
	// required, so it is a pointer: a pointer to false sends false, nil
	// is refused by validation.
	GovernmentPlanIndicator *bool `json:"government_plan_indicator,omitempty"`
}

// OtherItem is an item other than a prescription, typically over the
// counter.
type OtherItem struct {
	// UPC is the item's Universal Product Code; required.
	UPC string `json:"upc"`
	// SKU is the item's stock keeping unit; required.
	SKU string `json:"sku"`
	// Quantity is how many; required (greater than 0).
	Quantity int `json:"quantity"`
	// Description describes the item; required.
	Description string `json:"description"`
}

// ShippingParams are the carrier options of a shipping order.
type ShippingParams struct {
	// Carrier is required.
	Carrier Carrier `json:"carrier"`
	// CarrierService is required and must be a service of Carrier.
	CarrierService CarrierService `json:"carrier_service"`
	// Signature is required and must be one the carrier supports
	// ([SignatureNone] always is).
	Signature Signature `json:"signature"`
	// SaturdayDelivery asks for Saturday delivery; only PARCELA 2nd Day
	// Air and PARCELA Next Day Air offer it. Nil leaves the field out.
	SaturdayDelivery *bool `json:"saturday_delivery,omitempty"`
	// Weight is the package weight; required. POSTAL First Class Mail
	// takes packages under 1 pound only.
	Weight Weight `json:"weight"`
	// PackageCode is one of the carrier's predefined packages; optional.
	// When set, the carrier's dimensions for it replace Dimensions.
	PackageCode PackageCode `json:"package_code,omitempty"`
	// Dimensions are the package size in inches; required when
	// PackageCode is empty.
	Dimensions *Dimensions `json:"dimensions,omitempty"`
}

// Weight is a package weight.
type Weight struct {
	// Unit is ounce or pound; required.
	Unit WeightUnit `json:"unit"`
	// Value is the weight in Unit; required.
	Value rxtypes.Decimal `json:"value"`
}

// Dimensions is a package size.
type Dimensions struct {
	// Unit must be [DimensionUnitInch].
	Unit DimensionUnit `json:"unit"`
	// Length is required when there is no package code.
	Length rxtypes.Decimal `json:"length"`
	// Width is required when there is no package code.
	Width rxtypes.Decimal `json:"width"`
	// Height is required when there is no package code.
	Height rxtypes.Decimal `json:"height"`
}

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
// [Service.AddPrescription] runs it before sending.
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
	// Notes to the courier are free text: line breaks are theirs.
	c.NoteMaxLen("delivery_notes", p.DeliveryNotes, 280)
	c.MaxLen("external_reference_number", p.ExternalReferenceNumber, 255)

	c.NPI("pharmacy.npi", p.Pharmacy.NPI)
	c.NCPDP("pharmacy.ncpdp", p.Pharmacy.NCPDP)
	validate.In(c, "recipient", &p.Recipient, (*Recipient).check)
	c.Push("patient")
	p.Patient.check(c, known && level == ServiceLevelShipping)
	c.Pop()

	switch {
	case known && level == ServiceLevelShipping && p.Shipping == nil:
		c.Add("shipping", "is required for shipping orders")
	case known && level != ServiceLevelShipping && p.Shipping != nil:
		c.Add("shipping", "is accepted for shipping orders only")
	}
	validate.In(c, "shipping", p.Shipping, (*ShippingParams).check)

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

func checkAddress(c *validate.Collector, a *rxtypes.Address) {
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
		rxtypes.GenderMale, rxtypes.GenderFemale, rxtypes.GenderUnspecified)
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
	validate.In(c, "prescriber", &p.Prescriber, (*Prescriber).check)
	c.Text("date_of_service", p.DateOfService)
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

// ouncesPerPound converts pounds to ounces.
var ouncesPerPound = big.NewRat(16, 1)

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
		ounces.Mul(ounces, ouncesPerPound)
	case WeightUnitOunce:
	default:
		return
	}
	if ounces.Cmp(ouncesPerPound) >= 0 {
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
		v    *rxtypes.Decimal
	}{{"length", &d.Length}, {"width", &d.Width}, {"height", &d.Height}} {
		switch {
		case required && m.v.Sign() <= 0:
			c.Add(m.name, "is required and must be greater than 0")
		case m.v.Sign() < 0:
			c.Add(m.name, "must be greater than 0")
		}
	}
}

// The shipping rules of the document, by carrier: which services,
// signatures and package codes each carrier offers, and which services
// deliver on Saturdays.

var carrierServices = map[Carrier][]CarrierService{
	CarrierParcelA: {
		CarrierServiceParcelAGround, CarrierServiceParcelA2ndDayAir, CarrierServiceParcelANextDayAir,
	},
	CarrierParcelB: {
		CarrierServiceParcelB2Day, CarrierServiceParcelBStandardOvernight,
		CarrierServiceParcelBPriorityOvernight, CarrierServiceParcelBGround,
		CarrierServiceParcelBHomeDelivery,
	},
	CarrierPostal: {
		CarrierServicePostalPriorityMail, CarrierServicePostalPriorityMailExpress,
		CarrierServicePostalFirstClassMail,
	},
}

var carrierSignatures = map[Carrier][]Signature{
	CarrierPostal:  {SignatureNone, SignatureRequired, SignatureAdultRequired, SignaturePatient},
	CarrierParcelA: {SignatureNone, SignatureRequired, SignatureAdultRequired},
	CarrierParcelB: {SignatureNone, SignatureRequired, SignaturePatient, SignatureAdultRequired},
}

var carrierPackages = map[Carrier][]PackageCode{
	CarrierPostal: {
		PackagePostalSmallFlatRateBox, PackagePostalMediumFlatRateBox, PackagePostalLargeFlatRateBox,
	},
	CarrierParcelB: {
		PackageParcelBEnvelopeOneRate, PackageParcelBSmallBoxOneRate, PackageParcelBMediumBoxOneRate,
		PackageParcelBLargeBoxOneRate, PackageParcelBExtraLargeBoxOneRate,
	},
}

// signatures lists every signature, in the document's order.
var signatures = []Signature{SignatureNone, SignatureRequired, SignatureAdultRequired, SignaturePatient}

// carriers lists the carriers in the document's order.
var carriers = []Carrier{CarrierPostal, CarrierParcelA, CarrierParcelB}

// Known reports whether c is one of the document's carriers.
func (c Carrier) Known() bool {
	_, ok := carrierServices[c]
	return ok
}

// Services returns the carrier's services, or nil for an unknown carrier.
func (c Carrier) Services() []CarrierService {
	return append([]CarrierService(nil), carrierServices[c]...)
}

// Signatures returns the signatures the carrier supports, or nil for an
// unknown carrier.
func (c Carrier) Signatures() []Signature {
	return append([]Signature(nil), carrierSignatures[c]...)
}

// SupportsSignature reports whether the carrier offers signature s.
func (c Carrier) SupportsSignature(s Signature) bool {
	return contains(carrierSignatures[c], s)
}

// PackageCodes returns the carrier's package codes; PARCELA and unknown
// carriers have none.
func (c Carrier) PackageCodes() []PackageCode {
	return append([]PackageCode(nil), carrierPackages[c]...)
}

// Carrier returns the carrier the service belongs to, or "" for a service
// the document does not list.
func (s CarrierService) Carrier() Carrier {
	for _, c := range carriers {
		if contains(carrierServices[c], s) {
			return c
		}
	}
	return ""
}

// OffersSaturdayDelivery reports whether the service delivers on
// Saturdays: only PARCELA 2nd Day Air and PARCELA Next Day Air do.
func (s CarrierService) OffersSaturdayDelivery() bool {
	return s == CarrierServiceParcelA2ndDayAir || s == CarrierServiceParcelANextDayAir
}

// Carrier returns the carrier the package code belongs to, or "" for a
// code the document does not list.
func (p PackageCode) Carrier() Carrier {
	for _, c := range carriers {
		if contains(carrierPackages[c], p) {
			return c
		}
	}
	return ""
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// allServices lists every carrier service, for validation messages.
func allServices() []CarrierService {
	var all []CarrierService
	for _, c := range carriers {
		all = append(all, carrierServices[c]...)
	}
	return all
}

// allPackageCodes lists every package code, for validation messages.
func allPackageCodes() []PackageCode {
	var all []PackageCode
	for _, c := range carriers {
		all = append(all, carrierPackages[c]...)
	}
	return all
}
