package orders_test

import (
	"strings"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/validate/ruletest"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// TestRuleTable checks every row of docs/validation.md for delivery
// orders: a value the documents allow is accepted, one they rule out is
// refused at the row's JSON path.
func TestRuleTable(t *testing.T) {
	t.Parallel()
	type P = orders.CreateParams
	long := func(n int) string { return strings.Repeat("x", n) }
	same, ship, ondemand := samedayParams, shippingParams, ondemandParams
	rx := func(p *P) *orders.Prescription { return &p.Prescriptions[0] }
	payer := func(p *P) *orders.Payer { return &p.Prescriptions[0].Payers[0] }
	firstClass := func() *P {
		p := shippingParams()
		p.Shipping.Carrier, p.Shipping.CarrierService = orders.CarrierPostal, orders.CarrierServicePostalFirstClassMail
		p.Shipping.Signature, p.Shipping.SaturdayDelivery = orders.SignatureNone, nil
		return p
	}
	tomorrow := rxdelivery.DateOf(time.Now().AddDate(0, 0, 2))
	ruletest.Run(t, "../docs/validation.md", "DL", (*P).Validate, []ruletest.Case[P]{
		{ID: "DL-01", Base: ondemand, OK: func(p *P) { p.ServiceLevel = orders.ServiceLevelOndemand }, Bad: func(p *P) { p.ServiceLevel = "sameday" }},
		{ID: "DL-02", Base: ship, OK: func(p *P) { p.ServiceDate = &rxdelivery.Date{Year: 2024, Month: 2, Day: 29} }, Bad: func(p *P) { p.ServiceDate = &rxdelivery.Date{Year: 2023, Month: 2, Day: 29} }},
		{ID: "DL-03", Base: same, OK: func(p *P) { p.Initiator = "" }, Bad: func(p *P) { p.Initiator = "patient" }},
		{ID: "DL-04", Base: same, OK: func(p *P) { p.DeliveryFee = decp("0.00") }, Bad: func(p *P) { p.DeliveryFee = nil }},
		{ID: "DL-05", Base: same, OK: func(p *P) { p.RxAmountDue = decp("0") }, Bad: func(p *P) { p.RxAmountDue = nil }},
		{ID: "DL-06", Base: same, OK: func(p *P) { p.DeliveryFee = decp("0.00") }, Bad: func(p *P) { p.DeliveryFee = decp("-0.01") }},
		{ID: "DL-07", Base: ondemand, OK: func(p *P) { p.DeliveryFee = decp("5") }, Bad: func(p *P) { p.OtherItemsAmountDue = decp("1.00") }},
		{ID: "DL-08", Base: ondemand, Bad: func(p *P) { p.PhotoIDRequired = rxdelivery.Ptr(false) }},
		{ID: "DL-09", Base: same, OK: func(p *P) { p.DeliveryNotes = long(280) }, Bad: func(p *P) { p.DeliveryNotes = long(281) }},
		{ID: "DL-10", Base: same, OK: func(p *P) { p.ExternalReferenceNumber = long(255) }, Bad: func(p *P) { p.ExternalReferenceNumber = long(256) }},
		{ID: "DL-11", Base: same, OK: func(p *P) { p.Pharmacy.NPI = "1234567893" }, Bad: func(p *P) { p.Pharmacy.NPI = "123456789" }},
		{ID: "DL-12", Base: same, OK: func(p *P) { p.Pharmacy.NCPDP = "0000001" }, Bad: func(p *P) { p.Pharmacy.NCPDP = "12345678" }},
		{ID: "DL-13", Base: same, OK: func(p *P) { p.Recipient.Description = long(71) }, Bad: func(p *P) { p.Recipient.Description = long(72) }},
		{ID: "DL-14", Base: same, OK: func(p *P) { p.Recipient.MobilePhoneNumber = "" }, Bad: func(p *P) { p.Recipient.MobilePhoneNumber = "61455501000" }},
		{ID: "DL-15", Base: same, OK: func(p *P) { p.Recipient.Address.Street = long(255) }, Bad: func(p *P) { p.Recipient.Address.Street = long(256) }},
		{ID: "DL-16", Base: same, OK: func(p *P) { p.Recipient.Address.Street2 = "" }, Bad: func(p *P) { p.Recipient.Address.Street2 = long(256) }},
		{ID: "DL-17", Base: same, OK: func(p *P) { p.Recipient.Address.City = long(255) }, Bad: func(p *P) { p.Recipient.Address.City = "" }},
		{ID: "DL-18", Base: same, OK: func(p *P) { p.Recipient.Address.State = "oh" }, Bad: func(p *P) { p.Recipient.Address.State = "O" }},
		{ID: "DL-19", Base: same, OK: func(p *P) { p.Recipient.Address.Zipcode = "43210-1234" }, Bad: func(p *P) { p.Recipient.Address.Zipcode = "4321012345" }},
		{ID: "DL-20", Base: same, OK: func(p *P) { p.Patient.FirstName = long(30) }, Bad: func(p *P) { p.Patient.FirstName = long(31) }},
		{ID: "DL-21", Base: same, OK: func(p *P) { p.Patient.LastName = long(40) }, Bad: func(p *P) { p.Patient.LastName = long(41) }},
		{ID: "DL-22", Base: same, OK: func(p *P) { p.Patient.Gender = rxtypes.GenderUnspecified }, Bad: func(p *P) { p.Patient.Gender = "" }},
		{ID: "DL-23", Base: same, OK: func(p *P) { p.Patient.DateOfBirth = rxdelivery.Date{Year: 1900, Month: 1, Day: 1} }, Bad: func(p *P) { p.Patient.DateOfBirth = rxdelivery.Date{} }},
		{ID: "DL-24", Base: same, OK: func(p *P) { p.Patient.DateOfBirth = rxdelivery.DateOf(time.Now().UTC()) }, Bad: func(p *P) { p.Patient.DateOfBirth = tomorrow }},
		{ID: "DL-25", Base: same, OK: func(p *P) { p.Patient.MobilePhoneNumber = "" }, Bad: func(p *P) { p.Patient.MobilePhoneNumber = "614555010a" }},
		{ID: "DL-26", Base: ship, OK: func(p *P) { p.Patient.HomePhoneNumber, p.Patient.MobilePhoneNumber = "", "6145550100" }, Bad: func(p *P) { p.Patient.HomePhoneNumber, p.Patient.MobilePhoneNumber = "", "" }},
		{ID: "DL-27", Base: same, Bad: func(p *P) { p.Shipping = shippingParams().Shipping }},
		{ID: "DL-28", Base: same, Bad: func(p *P) { p.Prescriptions = nil }},
		{ID: "DL-29", Base: same, OK: func(p *P) { rx(p).Number = long(255) }, Bad: func(p *P) { rx(p).Number = long(256) }},
		{ID: "DL-30", Base: same, OK: func(p *P) { rx(p).NDC = "00000000000" }, Bad: func(p *P) { rx(p).NDC = "00002-1433-80" }},
		{ID: "DL-31", Base: same, OK: func(p *P) { rx(p).Refrigeration = orders.RefrigerationFrozen }, Bad: func(p *P) { rx(p).Refrigeration = "cold" }},
		{ID: "DL-32", Base: same, OK: func(p *P) { rx(p).DaysSupply = 1 }, Bad: func(p *P) { rx(p).DaysSupply = 0 }},
		{ID: "DL-33", Base: same, OK: func(p *P) { rx(p).FillQuantity = dec("0.5") }, Bad: func(p *P) { rx(p).FillQuantity = rxdelivery.Decimal{} }},
		{ID: "DL-34", Base: same, OK: func(p *P) { rx(p).FillNumber = rxdelivery.Ptr(0) }, Bad: func(p *P) { rx(p).FillNumber = nil }},
		{ID: "DL-35", Base: same, OK: func(p *P) { rx(p).PatientPay = decp("0.00") }, Bad: func(p *P) { rx(p).PatientPay = nil }},
		{ID: "DL-36", Base: same, OK: func(p *P) { rx(p).Prescriber.FirstName = "A" }, Bad: func(p *P) { rx(p).Prescriber.FirstName = "" }},
		{ID: "DL-37", Base: same, OK: func(p *P) { rx(p).Prescriber.NPI = "1234567893" }, Bad: func(p *P) { rx(p).Prescriber.NPI = "ABCDEFGHIJ" }},
		{ID: "DL-38", Base: same, OK: func(p *P) { rx(p).Prescriber.Address.State = "oh" }, Bad: func(p *P) { rx(p).Prescriber.Address.Street = "" }},
		{ID: "DL-39", Base: same, OK: func(p *P) { payer(p).BIN = long(255) }, Bad: func(p *P) { payer(p).BIN = long(256) }},
		{ID: "DL-40", Base: same, OK: func(p *P) { payer(p).PCN = long(255) }, Bad: func(p *P) { payer(p).PCN = "" }},
		{ID: "DL-41", Base: same, OK: func(p *P) { payer(p).RxGroup = "G" }, Bad: func(p *P) { payer(p).RxGroup = "" }},
		{ID: "DL-42", Base: same, OK: func(p *P) { payer(p).CoverageType = orders.CoverageTypeTertiary }, Bad: func(p *P) { payer(p).CoverageType = "quaternary" }},
		{ID: "DL-43", Base: same, OK: func(p *P) { payer(p).GovernmentPlanIndicator = rxdelivery.Ptr(false) }, Bad: func(p *P) { payer(p).GovernmentPlanIndicator = nil }},
		{ID: "DL-44", Base: same, OK: func(p *P) { p.OtherItems = nil }, Bad: func(p *P) { p.OtherItems[0].UPC = "" }},
		{ID: "DL-45", Base: same, OK: func(p *P) { p.OtherItems[0].Quantity = 1 }, Bad: func(p *P) { p.OtherItems[0].Quantity = 0 }},
		{ID: "DL-46", Base: ship, OK: func(p *P) { p.Shipping.Carrier = orders.CarrierParcelA }, Bad: func(p *P) { p.Shipping.Carrier = "parcela" }},
		{ID: "DL-47", Base: ship, OK: func(p *P) { p.Shipping.CarrierService = orders.CarrierServiceParcelA2ndDayAir }, Bad: func(p *P) { p.Shipping.CarrierService = orders.CarrierServiceParcelBGround }},
		{ID: "DL-48", Base: ship, OK: func(p *P) { p.Shipping.Signature = orders.SignatureNone }, Bad: func(p *P) { p.Shipping.Signature = orders.SignaturePatient }},
		{ID: "DL-49", Base: ship, OK: func(p *P) { p.Shipping.CarrierService = orders.CarrierServiceParcelA2ndDayAir }, Bad: func(p *P) { p.Shipping.CarrierService = orders.CarrierServiceParcelAGround }},
		{ID: "DL-50", Base: ship, OK: func(p *P) { p.Shipping.Weight = orders.Weight{Unit: orders.WeightUnitPound, Value: dec("2")} }, Bad: func(p *P) { p.Shipping.Weight.Unit = "gram" }},
		{ID: "DL-51", Base: ship, OK: func(p *P) { p.Shipping.Weight.Value = dec("0.1") }, Bad: func(p *P) { p.Shipping.Weight.Value = rxdelivery.Decimal{} }},
		{ID: "DL-52", Base: firstClass, OK: func(p *P) { p.Shipping.Weight.Value = dec("15.99") }, Bad: func(p *P) { p.Shipping.Weight = orders.Weight{Unit: orders.WeightUnitPound, Value: dec("1")} }},
		{ID: "DL-53", Base: firstClass, OK: func(p *P) { p.Shipping.PackageCode = orders.PackagePostalSmallFlatRateBox }, Bad: func(p *P) { p.Shipping.PackageCode = orders.PackageParcelBEnvelopeOneRate }},
		{ID: "DL-54", Base: firstClass, OK: func(p *P) { p.Shipping.Dimensions, p.Shipping.PackageCode = nil, orders.PackagePostalSmallFlatRateBox }, Bad: func(p *P) { p.Shipping.Dimensions = nil }},
		{ID: "DL-55", Base: ship, OK: func(p *P) { p.Shipping.Dimensions.Unit = orders.DimensionUnitInch }, Bad: func(p *P) { p.Shipping.Dimensions.Unit = "cm" }},
		{ID: "DL-56", Base: ship, OK: func(p *P) { p.Shipping.Dimensions.Length = dec("0.25") }, Bad: func(p *P) { p.Shipping.Dimensions.Length = dec("0") }},
	})
}

// TestAddPrescriptionRuleTable checks the add-prescription row: the
// prescription rules apply with paths relative to the prescription.
func TestAddPrescriptionRuleTable(t *testing.T) {
	t.Parallel()
	type P = orders.Prescription
	ruletest.Run(t, "../docs/validation.md", "AP", (*P).Validate, []ruletest.Case[P]{
		{ID: "AP-01", Base: fridgeRx, OK: func(p *P) { p.DateOfService = "2024-05-02" }, Bad: func(p *P) { p.NDC = "1" }},
	})
}
