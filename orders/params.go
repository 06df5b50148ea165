package orders

import (
	"encoding/json"
	"time"

	"github.com/rxdelivery/rxdelivery-go/types"
)

// CreateParams is the body of Create: one delivery order. Fields marked
// "sameday" apply to same-day orders (ServiceLevelSameday) only.
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
	ServiceDate *types.Date `json:"service_date,omitempty"`
	// Initiator is the source of the request; optional, and when set it
	// must be InitiatorPharmacy.
	Initiator Initiator `json:"initiator,omitempty"`
	// DeliveryFee is the delivery fee to collect. Required for sameday.
	DeliveryFee *types.Decimal `json:"delivery_fee,omitempty"`
	// RxAmountDue is the copay to collect. Required for sameday.
	RxAmountDue *types.Decimal `json:"rx_amount_due,omitempty"`
	// OtherItemsAmountDue is the fee for other items; optional, sameday
	// only.
	OtherItemsAmountDue *types.Decimal `json:"other_items_amount_due,omitempty"`
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
	Address Address `json:"address"`
}

// Patient is the patient of an order.
type Patient struct {
	// FirstName is required, at most 30 characters.
	FirstName string `json:"first_name"`
	// LastName is required, at most 40 characters.
	LastName string `json:"last_name"`
	// Gender is required on orders (unlike omni requests).
	Gender Gender `json:"gender"`
	// DateOfBirth is required; it must be a real day and not in the
	// future.
	DateOfBirth types.Date `json:"date_of_birth"`
	// MobilePhoneNumber is 10 digits. Shipping orders need it or
	// HomePhoneNumber.
	MobilePhoneNumber string `json:"mobile_phone_number,omitempty"`
	// HomePhoneNumber is 10 digits. Shipping orders need it or
	// MobilePhoneNumber.
	HomePhoneNumber string `json:"home_phone_number,omitempty"`
}

// Prescription is one prescription of an order; it is also what
// AddPrescription adds. The add-prescription body carries exactly the
// fields the document lists for that endpoint: every field but
// DateOfService, which the document lists for order creation only and
// which AddPrescription does not send.
type Prescription struct {
	// Number is the prescription number; required, at most 255
	// characters. RemovePrescription takes it.
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
	FillQuantity types.Decimal `json:"fill_quantity"`
	// FillNumber is the fill's number: 0 is the original fill, 1 the first
	// refill. Required, so it is a pointer: nil is refused by validation,
	// rxdelivery.Ptr(0) sends 0.
	FillNumber *int `json:"fill_number"`
	// PatientPay is the amount the patient pays. Required, so it is a
	// pointer: nil is refused by validation, and a pointer to 0.00 sends
	// a zero copay.
	PatientPay *types.Decimal `json:"patient_pay"`
	// Prescriber is the prescribing provider; required.
	Prescriber Prescriber `json:"prescriber"`
	// DateOfService is optional free text; a date such as "2024-05-02"
	// is the expected form. It is a field of order creation only:
	// AddPrescription does not send it.
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

// addPrescriptionBody is the body of AddPrescription: exactly the fields
// the document lists for that endpoint.
type addPrescriptionBody struct {
	Number        string         `json:"number"`
	NDC           string         `json:"ndc"`
	Refrigeration Refrigeration  `json:"refrigeration"`
	DaysSupply    int            `json:"days_supply"`
	FillQuantity  types.Decimal  `json:"fill_quantity"`
	FillNumber    *int           `json:"fill_number"`
	PatientPay    *types.Decimal `json:"patient_pay"`
	Prescriber    Prescriber     `json:"prescriber"`
	Payers        []Payer        `json:"payers"`
}

// addBody returns the add-prescription body of p.
func (p *Prescription) addBody() *addPrescriptionBody {
	payers := p.Payers
	if payers == nil {
		payers = []Payer{}
	}
	return &addPrescriptionBody{
		Number: p.Number, NDC: p.NDC, Refrigeration: p.Refrigeration, DaysSupply: p.DaysSupply,
		FillQuantity: p.FillQuantity, FillNumber: p.FillNumber, PatientPay: p.PatientPay,
		Prescriber: p.Prescriber, Payers: payers,
	}
}

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
	Address Address `json:"address"`
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
	// (SignatureNone always is).
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
	Value types.Decimal `json:"value"`
}

// Dimensions is a package size.
type Dimensions struct {
	// Unit must be DimensionUnitInch.
	Unit DimensionUnit `json:"unit"`
	// Length is required when there is no package code.
	Length types.Decimal `json:"length"`
	// Width is required when there is no package code.
	Width types.Decimal `json:"width"`
	// Height is required when there is no package code.
	Height types.Decimal `json:"height"`
}
