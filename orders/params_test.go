package orders_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// problemPaths returns the paths of err's problems, or nil when err is nil.
func problemPaths(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var ve *rxdelivery.ValidationError
	require.True(t, errors.As(err, &ve), "not a ValidationError: %v", err)
	paths := make([]string, len(ve.Problems))
	for i, p := range ve.Problems {
		paths[i] = p.Path
		assert.NotEmpty(t, p.Message)
	}
	return paths
}

// postalFirstClass turns the shipping example into a POSTAL First Class
// Mail order weighing w (in unit).
func postalFirstClass(p *orders.CreateParams, w string, unit orders.WeightUnit) {
	p.Shipping.Carrier = orders.CarrierPostal
	p.Shipping.CarrierService = orders.CarrierServicePostalFirstClassMail
	p.Shipping.SaturdayDelivery = nil
	p.Shipping.Weight = orders.Weight{Unit: unit, Value: dec(w)}
}

func TestCreateParams_Validate(t *testing.T) {
	t.Parallel()
	type base func() *orders.CreateParams
	same, ond, ship := base(samedayParams), base(ondemandParams), base(shippingParams)
	long := func(n int) string { return strings.Repeat("a", n) }

	cases := []struct {
		name   string
		base   base
		mutate func(p *orders.CreateParams)
		want   []string // problem paths; none for a valid value
	}{
		// The documented examples are valid.
		{"sameday example", same, func(*orders.CreateParams) {}, nil},
		{"ondemand example", ond, func(*orders.CreateParams) {}, nil},
		{"shipping example", ship, func(*orders.CreateParams) {}, nil},

		// service_level: ondemand, shipping, or absent for sameday.
		{"service_level unknown", same, func(p *orders.CreateParams) { p.ServiceLevel = "sameday" }, []string{"service_level"}},
		// ready_at and service_date: optional; a zero value is left out; a set date must exist.
		{"ready_at zero", ond, func(p *orders.CreateParams) { p.ReadyAt = &time.Time{} }, nil},
		{"service_date zero", ship, func(p *orders.CreateParams) { p.ServiceDate = &rxdelivery.Date{} }, nil},
		{"service_date invalid", ship, func(p *orders.CreateParams) { p.ServiceDate = &rxdelivery.Date{Year: 2024, Month: 2, Day: 30} }, []string{"service_date"}},
		// initiator: must be pharmacy.
		{"initiator not pharmacy", same, func(p *orders.CreateParams) { p.Initiator = "patient" }, []string{"initiator"}},
		{"initiator absent", same, func(p *orders.CreateParams) { p.Initiator = "" }, nil},

		// delivery_fee and rx_amount_due: required for sameday only.
		{"delivery_fee required for sameday", same, func(p *orders.CreateParams) { p.DeliveryFee = nil }, []string{"delivery_fee"}},
		{"rx_amount_due required for sameday", same, func(p *orders.CreateParams) { p.RxAmountDue = nil }, []string{"rx_amount_due"}},
		{"delivery_fee not required for ondemand", ond, func(p *orders.CreateParams) { p.DeliveryFee, p.RxAmountDue = nil, nil }, nil},
		{"delivery_fee accepted for ondemand", ond, func(p *orders.CreateParams) { p.DeliveryFee, p.RxAmountDue = decp("4.00"), decp("0.00") }, nil},
		{"delivery_fee not negative", same, func(p *orders.CreateParams) { p.DeliveryFee = decp("-1.00") }, []string{"delivery_fee"}},
		// other_items_amount_due and photo_id_required: sameday only.
		{"other_items_amount_due refused for ondemand", ond, func(p *orders.CreateParams) { p.OtherItemsAmountDue = decp("1.00") }, []string{"other_items_amount_due"}},
		{"other_items_amount_due refused for shipping", ship, func(p *orders.CreateParams) { p.OtherItemsAmountDue = decp("1.00") }, []string{"other_items_amount_due"}},
		{"photo_id_required refused for ondemand", ond, func(p *orders.CreateParams) { p.PhotoIDRequired = rxdelivery.Ptr(true) }, []string{"photo_id_required"}},
		{"photo_id_required refused for shipping", ship, func(p *orders.CreateParams) { p.PhotoIDRequired = rxdelivery.Ptr(false) }, []string{"photo_id_required"}},
		{"photo_id_required false for sameday", same, func(p *orders.CreateParams) { p.PhotoIDRequired = rxdelivery.Ptr(false) }, nil},

		// delivery_notes max 280; external_reference_number max 255.
		{"delivery_notes 280", same, func(p *orders.CreateParams) { p.DeliveryNotes = long(280) }, nil},
		{"delivery_notes 281", same, func(p *orders.CreateParams) { p.DeliveryNotes = long(281) }, []string{"delivery_notes"}},
		{"external_reference_number 255", same, func(p *orders.CreateParams) { p.ExternalReferenceNumber = long(255) }, nil},
		{"external_reference_number 256", same, func(p *orders.CreateParams) { p.ExternalReferenceNumber = long(256) }, []string{"external_reference_number"}},

		// pharmacy: npi exactly 10, ncpdp exactly 7, both required.
		{"pharmacy npi 9 digits", same, func(p *orders.CreateParams) { p.Pharmacy.NPI = "123456789" }, []string{"pharmacy.npi"}},
		{"pharmacy npi required", same, func(p *orders.CreateParams) { p.Pharmacy.NPI = "" }, []string{"pharmacy.npi"}},
		{"pharmacy ncpdp 8 digits", same, func(p *orders.CreateParams) { p.Pharmacy.NCPDP = "12345678" }, []string{"pharmacy.ncpdp"}},
		{"pharmacy ncpdp required", same, func(p *orders.CreateParams) { p.Pharmacy.NCPDP = "" }, []string{"pharmacy.ncpdp"}},

		// recipient: description required max 71; phones exactly 10.
		{"recipient description 71", same, func(p *orders.CreateParams) { p.Recipient.Description = long(71) }, nil},
		{"recipient description 72", same, func(p *orders.CreateParams) { p.Recipient.Description = long(72) }, []string{"recipient.description"}},
		{"recipient description required", same, func(p *orders.CreateParams) { p.Recipient.Description = " " }, []string{"recipient.description"}},
		{"recipient mobile 9 digits", same, func(p *orders.CreateParams) { p.Recipient.MobilePhoneNumber = "614555010" }, []string{"recipient.mobile_phone_number"}},
		{"recipient home formatted", same, func(p *orders.CreateParams) { p.Recipient.HomePhoneNumber = "(614) 555-0100" }, []string{"recipient.home_phone_number"}},

		// address: street, city required max 255; street2 max 255; state 2; zipcode 5 or 9.
		{"street required", same, func(p *orders.CreateParams) { p.Recipient.Address.Street = "" }, []string{"recipient.address.street"}},
		{"street 256", same, func(p *orders.CreateParams) { p.Recipient.Address.Street = long(256) }, []string{"recipient.address.street"}},
		{"street2 256", same, func(p *orders.CreateParams) { p.Recipient.Address.Street2 = long(256) }, []string{"recipient.address.street2"}},
		{"city required", same, func(p *orders.CreateParams) { p.Recipient.Address.City = "" }, []string{"recipient.address.city"}},
		{"city 256", same, func(p *orders.CreateParams) { p.Recipient.Address.City = long(256) }, []string{"recipient.address.city"}},
		{"state required", same, func(p *orders.CreateParams) { p.Recipient.Address.State = "" }, []string{"recipient.address.state"}},
		{"state longer than 2", same, func(p *orders.CreateParams) { p.Recipient.Address.State = "Ohio" }, []string{"recipient.address.state"}},
		{"zipcode required", same, func(p *orders.CreateParams) { p.Recipient.Address.Zipcode = "" }, []string{"recipient.address.zipcode"}},
		{"zipcode 4 digits", same, func(p *orders.CreateParams) { p.Recipient.Address.Zipcode = "4321" }, []string{"recipient.address.zipcode"}},
		{"zipcode 6 digits", same, func(p *orders.CreateParams) { p.Recipient.Address.Zipcode = "432101" }, []string{"recipient.address.zipcode"}},
		{"zipcode 9 digits", same, func(p *orders.CreateParams) { p.Recipient.Address.Zipcode = "432101234" }, nil},
		{"zipcode hyphenated ZIP+4 is normalised", same, func(p *orders.CreateParams) { p.Recipient.Address.Zipcode = "43210-1234" }, nil},

		// patient: first_name max 30, last_name max 40, gender required enum, date_of_birth required, phones 10.
		{"patient first_name 30", same, func(p *orders.CreateParams) { p.Patient.FirstName = long(30) }, nil},
		{"patient first_name 31", same, func(p *orders.CreateParams) { p.Patient.FirstName = long(31) }, []string{"patient.first_name"}},
		{"patient first_name required", same, func(p *orders.CreateParams) { p.Patient.FirstName = "" }, []string{"patient.first_name"}},
		{"patient last_name 40", same, func(p *orders.CreateParams) { p.Patient.LastName = long(40) }, nil},
		{"patient last_name 41", same, func(p *orders.CreateParams) { p.Patient.LastName = long(41) }, []string{"patient.last_name"}},
		{"patient last_name required", same, func(p *orders.CreateParams) { p.Patient.LastName = "" }, []string{"patient.last_name"}},
		{"patient gender required", same, func(p *orders.CreateParams) { p.Patient.Gender = "" }, []string{"patient.gender"}},
		{"patient gender enum", same, func(p *orders.CreateParams) { p.Patient.Gender = "f" }, []string{"patient.gender"}},
		{"patient gender male", same, func(p *orders.CreateParams) { p.Patient.Gender = rxtypes.GenderMale }, nil},
		{"patient date_of_birth required", same, func(p *orders.CreateParams) { p.Patient.DateOfBirth = rxdelivery.Date{} }, []string{"patient.date_of_birth"}},
		{"patient date_of_birth invalid", same, func(p *orders.CreateParams) { p.Patient.DateOfBirth = rxdelivery.Date{Year: 1981, Month: 2, Day: 29} }, []string{"patient.date_of_birth"}},
		{"patient mobile 11 digits", same, func(p *orders.CreateParams) { p.Patient.MobilePhoneNumber = "16145550100" }, []string{"patient.mobile_phone_number"}},
		{"patient home letters", same, func(p *orders.CreateParams) { p.Patient.HomePhoneNumber = "614555CALL" }, []string{"patient.home_phone_number"}},
		// shipping orders: at least one patient phone.
		{"shipping patient without phone", ship, func(p *orders.CreateParams) { p.Patient.HomePhoneNumber = "" }, []string{"patient.mobile_phone_number"}},
		{"shipping patient mobile only", ship, func(p *orders.CreateParams) {
			p.Patient.HomePhoneNumber, p.Patient.MobilePhoneNumber = "", "6145550100"
		}, nil},
		{"sameday patient without phone", same, func(p *orders.CreateParams) { p.Patient.MobilePhoneNumber = "" }, nil},

		// prescriptions: at least one; each field's rule.
		{"prescriptions required", same, func(p *orders.CreateParams) { p.Prescriptions = nil }, []string{"prescriptions"}},
		{"rx number required", same, func(p *orders.CreateParams) { p.Prescriptions[0].Number = "" }, []string{"prescriptions[0].number"}},
		{"rx number 256", same, func(p *orders.CreateParams) { p.Prescriptions[0].Number = long(256) }, []string{"prescriptions[0].number"}},
		{"ndc required", same, func(p *orders.CreateParams) { p.Prescriptions[0].NDC = "" }, []string{"prescriptions[0].ndc"}},
		{"ndc 10 digits", same, func(p *orders.CreateParams) { p.Prescriptions[0].NDC = "0002143380" }, []string{"prescriptions[0].ndc"}},
		{"ndc 12 digits", same, func(p *orders.CreateParams) { p.Prescriptions[0].NDC = "000021433801" }, []string{"prescriptions[0].ndc"}},
		{"ndc hyphenated", same, func(p *orders.CreateParams) { p.Prescriptions[0].NDC = "00002-1433-80" }, []string{"prescriptions[0].ndc"}},
		{"refrigeration required", same, func(p *orders.CreateParams) { p.Prescriptions[0].Refrigeration = "" }, []string{"prescriptions[0].refrigeration"}},
		{"refrigeration enum", same, func(p *orders.CreateParams) { p.Prescriptions[0].Refrigeration = "cold" }, []string{"prescriptions[0].refrigeration"}},
		{"refrigeration frozen", same, func(p *orders.CreateParams) { p.Prescriptions[0].Refrigeration = orders.RefrigerationFrozen }, nil},
		{"days_supply required", same, func(p *orders.CreateParams) { p.Prescriptions[0].DaysSupply = 0 }, []string{"prescriptions[0].days_supply"}},
		{"days_supply negative", same, func(p *orders.CreateParams) { p.Prescriptions[0].DaysSupply = -3 }, []string{"prescriptions[0].days_supply"}},
		{"fill_quantity required", same, func(p *orders.CreateParams) { p.Prescriptions[0].FillQuantity = rxdelivery.Decimal{} }, []string{"prescriptions[0].fill_quantity"}},
		{"fill_quantity zero", same, func(p *orders.CreateParams) { p.Prescriptions[0].FillQuantity = dec("0") }, []string{"prescriptions[0].fill_quantity"}},
		{"fill_number negative", same, func(p *orders.CreateParams) { p.Prescriptions[0].FillNumber = rxdelivery.Ptr(-1) }, []string{"prescriptions[0].fill_number"}},
		{"patient_pay required", same, func(p *orders.CreateParams) { p.Prescriptions[0].PatientPay = nil }, []string{"prescriptions[0].patient_pay"}},
		{"patient_pay negative", same, func(p *orders.CreateParams) { p.Prescriptions[0].PatientPay = decp("-0.01") }, []string{"prescriptions[0].patient_pay"}},
		{"patient_pay zero", same, func(p *orders.CreateParams) { p.Prescriptions[0].PatientPay = decp("0.00") }, nil},
		// prescriber: first_name, last_name, npi, address required.
		{"prescriber first_name required", same, func(p *orders.CreateParams) { p.Prescriptions[0].Prescriber.FirstName = "" }, []string{"prescriptions[0].prescriber.first_name"}},
		{"prescriber last_name required", same, func(p *orders.CreateParams) { p.Prescriptions[0].Prescriber.LastName = "" }, []string{"prescriptions[0].prescriber.last_name"}},
		{"prescriber npi required", same, func(p *orders.CreateParams) { p.Prescriptions[0].Prescriber.NPI = "" }, []string{"prescriptions[0].prescriber.npi"}},
		{"prescriber npi 11 digits", same, func(p *orders.CreateParams) { p.Prescriptions[0].Prescriber.NPI = "19876543201" }, []string{"prescriptions[0].prescriber.npi"}},
		{"prescriber address required", same, func(p *orders.CreateParams) { p.Prescriptions[0].Prescriber.Address = rxtypes.Address{} }, []string{
			"prescriptions[0].prescriber.address.street", "prescriptions[0].prescriber.address.city",
			"prescriptions[0].prescriber.address.state", "prescriptions[0].prescriber.address.zipcode",
		}},
		{"prescriber zipcode 7 digits", same, func(p *orders.CreateParams) { p.Prescriptions[0].Prescriber.Address.Zipcode = "4321012" }, []string{"prescriptions[0].prescriber.address.zipcode"}},
		// payers: at least one; bin, pcn max 255; rx_group; coverage_type enum; government_plan_indicator required.
		{"payers empty (cash prescription)", same, func(p *orders.CreateParams) { p.Prescriptions[0].Payers = nil }, nil},
		{"payer bin required", same, func(p *orders.CreateParams) { p.Prescriptions[0].Payers[0].BIN = "" }, []string{"prescriptions[0].payers[0].bin"}},
		{"payer bin 256", same, func(p *orders.CreateParams) { p.Prescriptions[0].Payers[0].BIN = long(256) }, []string{"prescriptions[0].payers[0].bin"}},
		{"payer pcn required", same, func(p *orders.CreateParams) { p.Prescriptions[0].Payers[0].PCN = "" }, []string{"prescriptions[0].payers[0].pcn"}},
		{"payer pcn 256", same, func(p *orders.CreateParams) { p.Prescriptions[0].Payers[0].PCN = long(256) }, []string{"prescriptions[0].payers[0].pcn"}},
		{"payer rx_group required", same, func(p *orders.CreateParams) { p.Prescriptions[0].Payers[0].RxGroup = "" }, []string{"prescriptions[0].payers[0].rx_group"}},
		{"payer coverage_type required", same, func(p *orders.CreateParams) { p.Prescriptions[0].Payers[0].CoverageType = "" }, []string{"prescriptions[0].payers[0].coverage_type"}},
		{"payer coverage_type enum", ond, func(p *orders.CreateParams) { p.Prescriptions[0].Payers[1].CoverageType = "quaternary" }, []string{"prescriptions[0].payers[1].coverage_type"}},
		{"payer coverage_type tertiary", same, func(p *orders.CreateParams) { p.Prescriptions[0].Payers[0].CoverageType = orders.CoverageTypeTertiary }, nil},
		{"payer government_plan_indicator required", same, func(p *orders.CreateParams) { p.Prescriptions[0].Payers[0].GovernmentPlanIndicator = nil }, []string{"prescriptions[0].payers[0].government_plan_indicator"}},
		// other_items: upc, sku, quantity, description required.
		{"other item upc required", same, func(p *orders.CreateParams) { p.OtherItems[0].UPC = "" }, []string{"other_items[0].upc"}},
		{"other item sku required", same, func(p *orders.CreateParams) { p.OtherItems[0].SKU = "" }, []string{"other_items[0].sku"}},
		{"other item quantity required", same, func(p *orders.CreateParams) { p.OtherItems[0].Quantity = 0 }, []string{"other_items[0].quantity"}},
		{"other item quantity negative", same, func(p *orders.CreateParams) { p.OtherItems[0].Quantity = -1 }, []string{"other_items[0].quantity"}},
		{"other item description required", same, func(p *orders.CreateParams) { p.OtherItems[0].Description = "" }, []string{"other_items[0].description"}},

		// shipping object: required exactly for shipping orders.
		{"shipping required for shipping", ship, func(p *orders.CreateParams) { p.Shipping = nil }, []string{"shipping"}},
		{"shipping refused for sameday", same, func(p *orders.CreateParams) { p.Shipping = shippingParams().Shipping }, []string{"shipping"}},
		{"shipping refused for ondemand", ond, func(p *orders.CreateParams) { p.Shipping = shippingParams().Shipping }, []string{"shipping"}},
		// carrier, carrier_service, signature: required enums.
		{"carrier required", ship, func(p *orders.CreateParams) { p.Shipping.Carrier = "" }, []string{"shipping.carrier"}},
		{"carrier enum", ship, func(p *orders.CreateParams) { p.Shipping.Carrier = "PARCELC" }, []string{"shipping.carrier"}},
		{"carrier_service required", ship, func(p *orders.CreateParams) { p.Shipping.CarrierService = "" }, []string{"shipping.carrier_service", "shipping.saturday_delivery"}},
		{"carrier_service enum", ship, func(p *orders.CreateParams) {
			p.Shipping.CarrierService, p.Shipping.SaturdayDelivery = "PARCELA Teleport", nil
		}, []string{"shipping.carrier_service"}},
		// a carrier service must belong to its carrier.
		{"carrier_service of another carrier", ship, func(p *orders.CreateParams) {
			p.Shipping.Carrier, p.Shipping.CarrierService, p.Shipping.SaturdayDelivery = orders.CarrierParcelB, orders.CarrierServiceParcelAGround, nil
		}, []string{"shipping.carrier_service"}},
		{"postal service with PARCELA", ship, func(p *orders.CreateParams) {
			p.Shipping.CarrierService, p.Shipping.SaturdayDelivery = orders.CarrierServicePostalPriorityMail, nil
		}, []string{"shipping.carrier_service"}},
		{"PARCELB Home Delivery", ship, func(p *orders.CreateParams) {
			p.Shipping.Carrier, p.Shipping.CarrierService, p.Shipping.SaturdayDelivery = orders.CarrierParcelB, orders.CarrierServiceParcelBHomeDelivery, nil
		}, nil},
		{"signature required", ship, func(p *orders.CreateParams) { p.Shipping.Signature = "" }, []string{"shipping.signature"}},
		{"signature enum", ship, func(p *orders.CreateParams) { p.Shipping.Signature = "wet_ink" }, []string{"shipping.signature"}},
		// signatures each carrier supports.
		{"PARCELA patient_signature", ship, func(p *orders.CreateParams) { p.Shipping.Signature = orders.SignaturePatient }, []string{"shipping.signature"}},
		{"PARCELA required", ship, func(p *orders.CreateParams) { p.Shipping.Signature = orders.SignatureRequired }, nil},
		{"PARCELA none", ship, func(p *orders.CreateParams) { p.Shipping.Signature = orders.SignatureNone }, nil},
		{"POSTAL patient_signature", ship, func(p *orders.CreateParams) {
			p.Shipping.Carrier, p.Shipping.CarrierService, p.Shipping.SaturdayDelivery = orders.CarrierPostal, orders.CarrierServicePostalPriorityMail, nil
			p.Shipping.Signature = orders.SignaturePatient
		}, nil},
		{"PARCELB patient_signature", ship, func(p *orders.CreateParams) {
			p.Shipping.Carrier, p.Shipping.CarrierService, p.Shipping.SaturdayDelivery = orders.CarrierParcelB, orders.CarrierServiceParcelB2Day, nil
			p.Shipping.Signature = orders.SignaturePatient
		}, nil},
		// saturday_delivery: only PARCELA 2nd Day Air and PARCELA Next Day Air.
		{"saturday PARCELA Ground", ship, func(p *orders.CreateParams) { p.Shipping.CarrierService = orders.CarrierServiceParcelAGround }, []string{"shipping.saturday_delivery"}},
		{"saturday PARCELB Standard Overnight", ship, func(p *orders.CreateParams) {
			p.Shipping.Carrier, p.Shipping.CarrierService = orders.CarrierParcelB, orders.CarrierServiceParcelBStandardOvernight
		}, []string{"shipping.saturday_delivery"}},
		{"saturday PARCELA 2nd Day Air", ship, func(p *orders.CreateParams) { p.Shipping.CarrierService = orders.CarrierServiceParcelA2ndDayAir }, nil},
		{"saturday false on Ground", ship, func(p *orders.CreateParams) {
			p.Shipping.CarrierService, p.Shipping.SaturdayDelivery = orders.CarrierServiceParcelAGround, rxdelivery.Ptr(false)
		}, nil},
		// weight: unit ounce or pound, value required.
		{"weight unit required", ship, func(p *orders.CreateParams) { p.Shipping.Weight.Unit = "" }, []string{"shipping.weight.unit"}},
		{"weight unit enum", ship, func(p *orders.CreateParams) { p.Shipping.Weight.Unit = "gram" }, []string{"shipping.weight.unit"}},
		{"weight value required", ship, func(p *orders.CreateParams) { p.Shipping.Weight.Value = rxdelivery.Decimal{} }, []string{"shipping.weight.value"}},
		{"weight value zero", ship, func(p *orders.CreateParams) { p.Shipping.Weight.Value = dec("0") }, []string{"shipping.weight.value"}},
		// POSTAL First Class Mail: under 1 pound, in ounces or pounds.
		{"first class 15.99 ounces", ship, func(p *orders.CreateParams) { postalFirstClass(p, "15.99", orders.WeightUnitOunce) }, nil},
		{"first class 16 ounces", ship, func(p *orders.CreateParams) { postalFirstClass(p, "16", orders.WeightUnitOunce) }, []string{"shipping.weight.value"}},
		{"first class 0.99 pound", ship, func(p *orders.CreateParams) { postalFirstClass(p, "0.99", orders.WeightUnitPound) }, nil},
		{"first class 1 pound", ship, func(p *orders.CreateParams) { postalFirstClass(p, "1.0", orders.WeightUnitPound) }, []string{"shipping.weight.value"}},
		{"first class 2.5 pounds", ship, func(p *orders.CreateParams) { postalFirstClass(p, "2.5", orders.WeightUnitPound) }, []string{"shipping.weight.value"}},
		{"priority mail 5 pounds", ship, func(p *orders.CreateParams) {
			postalFirstClass(p, "5", orders.WeightUnitPound)
			p.Shipping.CarrierService = orders.CarrierServicePostalPriorityMail
		}, nil},
		// package_code: one of the carrier's codes.
		{"package_code enum", ship, func(p *orders.CreateParams) { p.Shipping.PackageCode = "shoebox" }, []string{"shipping.package_code"}},
		{"package_code on PARCELA", ship, func(p *orders.CreateParams) { p.Shipping.PackageCode = orders.PackagePostalSmallFlatRateBox }, []string{"shipping.package_code"}},
		{"package_code of PARCELB on POSTAL", ship, func(p *orders.CreateParams) {
			postalFirstClass(p, "8", orders.WeightUnitOunce)
			p.Shipping.PackageCode = orders.PackageParcelBEnvelopeOneRate
		}, []string{"shipping.package_code"}},
		{"package_code of POSTAL", ship, func(p *orders.CreateParams) {
			postalFirstClass(p, "8", orders.WeightUnitOunce)
			p.Shipping.PackageCode, p.Shipping.Dimensions = orders.PackagePostalMediumFlatRateBox, nil
		}, nil},
		{"package_code of PARCELB", ship, func(p *orders.CreateParams) {
			p.Shipping.Carrier, p.Shipping.CarrierService, p.Shipping.SaturdayDelivery = orders.CarrierParcelB, orders.CarrierServiceParcelBGround, nil
			p.Shipping.PackageCode, p.Shipping.Dimensions = orders.PackageParcelBExtraLargeBoxOneRate, nil
		}, nil},
		// dimensions in inches, required when there is no package code.
		{"dimensions required without package code", ship, func(p *orders.CreateParams) { p.Shipping.Dimensions = nil }, []string{"shipping.dimensions"}},
		{"dimensions unit not inch", ship, func(p *orders.CreateParams) { p.Shipping.Dimensions.Unit = "centimeter" }, []string{"shipping.dimensions.unit"}},
		{"dimensions unit required", ship, func(p *orders.CreateParams) { p.Shipping.Dimensions.Unit = "" }, []string{"shipping.dimensions.unit"}},
		{"dimensions members required", ship, func(p *orders.CreateParams) {
			p.Shipping.Dimensions = &orders.Dimensions{Unit: orders.DimensionUnitInch}
		}, []string{"shipping.dimensions.length", "shipping.dimensions.width", "shipping.dimensions.height"}},
		{"dimensions height zero", ship, func(p *orders.CreateParams) { p.Shipping.Dimensions.Height = dec("0") }, []string{"shipping.dimensions.height"}},
		{"dimensions beside a package code", ship, func(p *orders.CreateParams) {
			postalFirstClass(p, "8", orders.WeightUnitOunce)
			p.Shipping.PackageCode = orders.PackagePostalSmallFlatRateBox
			p.Shipping.Dimensions = &orders.Dimensions{Length: dec("3")}
		}, nil},
		{"dimensions beside a package code in cm", ship, func(p *orders.CreateParams) {
			postalFirstClass(p, "8", orders.WeightUnitOunce)
			p.Shipping.PackageCode = orders.PackagePostalSmallFlatRateBox
			p.Shipping.Dimensions = &orders.Dimensions{Unit: "cm", Width: dec("-1")}
		}, []string{"shipping.dimensions.unit", "shipping.dimensions.width"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.base()
			tc.mutate(p)
			err := p.Validate()
			assert.Equal(t, tc.want, problemPaths(t, err), "%v", err)
			if err != nil {
				assert.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
			}
		})
	}
}

func TestCreateParams_ValidateReportsEveryProblemAtOnce(t *testing.T) {
	t.Parallel()
	p := shippingParams()
	p.PhotoIDRequired = rxdelivery.Ptr(true)
	p.Pharmacy.NCPDP = "12"
	p.Recipient.Address.Zipcode = "1"
	p.Patient.HomePhoneNumber = ""
	p.Shipping.Carrier = orders.CarrierPostal
	p.Shipping.CarrierService = orders.CarrierServicePostalFirstClassMail
	p.Shipping.Weight = orders.Weight{Unit: orders.WeightUnitPound, Value: dec("3")}
	p.Shipping.Dimensions = nil
	p.Prescriptions[0].NDC = "123"
	p.Prescriptions[0].Payers[0].GovernmentPlanIndicator = nil
	p.Prescriptions = append(p.Prescriptions, orders.Prescription{})

	err := p.Validate()
	paths := problemPaths(t, err)
	for _, want := range []string{
		"photo_id_required", "pharmacy.ncpdp", "recipient.address.zipcode", "patient.mobile_phone_number",
		"shipping.saturday_delivery", "shipping.weight.value", "shipping.dimensions",
		"prescriptions[0].ndc", "prescriptions[0].payers[0].government_plan_indicator",
		"prescriptions[1].number", "prescriptions[1].ndc", "prescriptions[1].refrigeration",
		"prescriptions[1].days_supply", "prescriptions[1].fill_quantity", "prescriptions[1].patient_pay",
		"prescriptions[1].prescriber.npi", "prescriptions[1].prescriber.address.zipcode",
	} {
		assert.Contains(t, paths, want)
	}
	msg := err.Error()
	for _, secret := range []string{"Jane", "6145550102", "1234567890", "Elm Avenue"} {
		assert.NotContains(t, msg, secret, "messages never quote values")
	}
}

func TestPrescription_Validate(t *testing.T) {
	t.Parallel()
	assert.NoError(t, fridgeRx().Validate())

	rx := fridgeRx()
	rx.NDC = "1"
	rx.Payers[1].PCN = ""
	rx.Prescriber.Address.State = "oh" // normalised, not refused
	assert.Equal(t, []string{"ndc", "payers[1].pcn"}, problemPaths(t, rx.Validate()))
}

func TestCarrierHelpers(t *testing.T) {
	t.Parallel()
	assert.Equal(t, orders.CarrierParcelA, orders.CarrierServiceParcelA2ndDayAir.Carrier())
	assert.Equal(t, orders.CarrierPostal, orders.CarrierServicePostalFirstClassMail.Carrier())
	assert.Equal(t, orders.Carrier(""), orders.CarrierService("Teleport").Carrier())
	assert.Len(t, orders.CarrierParcelB.Services(), 5)
	assert.Len(t, orders.CarrierPostal.Services(), 3)
	assert.Nil(t, orders.Carrier("X").Services())
	assert.Equal(t, []orders.Signature{orders.SignatureNone, orders.SignatureRequired, orders.SignatureAdultRequired}, orders.CarrierParcelA.Signatures())
	assert.True(t, orders.CarrierParcelB.SupportsSignature(orders.SignaturePatient))
	assert.False(t, orders.CarrierParcelA.SupportsSignature(orders.SignaturePatient))
	assert.Empty(t, orders.CarrierParcelA.PackageCodes())
	assert.Len(t, orders.CarrierParcelB.PackageCodes(), 5)
	assert.Equal(t, orders.CarrierPostal, orders.PackagePostalLargeFlatRateBox.Carrier())
	assert.Equal(t, orders.Carrier(""), orders.PackageCode("x").Carrier())
	assert.True(t, orders.CarrierServiceParcelANextDayAir.OffersSaturdayDelivery())
	assert.False(t, orders.CarrierServiceParcelB2Day.OffersSaturdayDelivery())
	assert.True(t, orders.CarrierPostal.Known())
	assert.False(t, orders.Carrier("UPS").Known())
}
