package orders

import (
	"strconv"

	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
	"github.com/rxdelivery/rxdelivery-go/internal/usps"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// The request bodies of this package write their own JSON in one pass,
// the same bytes encoding/json writes for them (encode_test.go checks
// both against each other, field by field, and pins the bytes sent to
// testdata/delivery/wire). A field added to one of these structs must be
// added here too: the test fails until it is.
//
// These encoders stay because they are measured to pay for themselves:
// BenchmarkCreateSamedayOrder/client=sdk (internal/benchmarks, counted by
// `bench.sh instr`) costs about 137,000 instructions a call with them and
// about 316,000 with the bodies encoded by encoding/json (260,000 by the
// v2 encoder with encoding/json's options), against the hand-written
// client's 154,000: the nested MarshalJSON methods of the params (the
// address's wire state and ZIP code, the amounts, the dates) make
// encoding/json encode each level again and re-scan its output. See
// BENCHMARKS.md, "Why the create keeps its one-pass encoders".

// AppendJSON appends the create body to b: the bytes encoding/json writes
// for it through [CreateParams.MarshalJSON], in one pass. The transport
// uses it to encode a create once, straight into a pooled buffer.
func (p CreateParams) AppendJSON(b []byte) ([]byte, error) {
	o := jsonx.Open(b)
	o.StringOmitEmpty("service_level", string(p.ServiceLevel))
	if p.ReadyAt != nil && !p.ReadyAt.IsZero() {
		t, err := p.ReadyAt.MarshalJSON()
		if err != nil {
			return nil, err
		}
		o.Key("ready_at")
		o.B = append(o.B, t...)
	}
	if p.ServiceDate != nil && !p.ServiceDate.IsZero() {
		o.Key("service_date")
		o.B = appendDate(o.B, *p.ServiceDate)
	}
	o.StringOmitEmpty("initiator", string(p.Initiator))
	if p.DeliveryFee != nil {
		o.Key("delivery_fee")
		o.B, _ = p.DeliveryFee.AppendText(o.B)
	}
	if p.RxAmountDue != nil {
		o.Key("rx_amount_due")
		o.B, _ = p.RxAmountDue.AppendText(o.B)
	}
	if p.OtherItemsAmountDue != nil {
		o.Key("other_items_amount_due")
		o.B, _ = p.OtherItemsAmountDue.AppendText(o.B)
	}
	o.StringOmitEmpty("delivery_notes", p.DeliveryNotes)
	o.StringOmitEmpty("external_reference_number", p.ExternalReferenceNumber)
	if p.PhotoIDRequired != nil {
		o.Key("photo_id_required")
		o.B = jsonx.AppendBool(o.B, *p.PhotoIDRequired)
	}
	o.Key("pharmacy")
	o.B = p.Pharmacy.appendJSON(o.B)
	o.Key("recipient")
	o.B = p.Recipient.appendJSON(o.B)
	o.Key("patient")
	o.B = p.Patient.appendJSON(o.B)
	if p.Shipping != nil {
		o.Key("shipping")
		o.B = p.Shipping.appendJSON(o.B)
	}
	o.Key("prescriptions")
	if p.Prescriptions == nil {
		o.B = append(o.B, "null"...)
	} else {
		o.B = appendArray(o.B, p.Prescriptions, (*Prescription).appendJSON)
	}
	if len(p.OtherItems) > 0 {
		o.Key("other_items")
		o.B = appendArray(o.B, p.OtherItems, (*OtherItem).appendJSON)
	}
	return o.Close(), nil
}

// AppendJSON appends the add-prescription body to b in one pass, as
// MarshalJSON encodes it.
func (a addPrescriptionBody) AppendJSON(b []byte) ([]byte, error) { return a.rx.appendJSON(b), nil }

func appendIntPtr(b []byte, n *int) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*n), 10)
}

func appendDecimalPtr(b []byte, d *rxtypes.Decimal) []byte {
	if d == nil {
		return append(b, "null"...)
	}
	b, _ = d.AppendText(b)
	return b
}

// appendArray writes items as a JSON array, each element by appendOne.
func appendArray[T any](b []byte, items []T, appendOne func(*T, []byte) []byte) []byte {
	b = append(b, '[')
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendOne(&items[i], b)
	}
	return append(b, ']')
}

func appendDate(b []byte, d rxtypes.Date) []byte {
	b = append(b, '"')
	b, _ = d.AppendText(b)
	return append(b, '"')
}

func (p *Pharmacy) appendJSON(b []byte) []byte {
	o := jsonx.Open(b)
	o.String("npi", p.NPI)
	o.String("ncpdp", p.NCPDP)
	return o.Close()
}

func (r *Recipient) appendJSON(b []byte) []byte {
	o := jsonx.Open(b)
	o.String("description", r.Description)
	o.StringOmitEmpty("mobile_phone_number", r.MobilePhoneNumber)
	o.StringOmitEmpty("home_phone_number", r.HomePhoneNumber)
	o.Key("address")
	o.B = appendAddress(o.B, &r.Address)
	return o.Close()
}

// appendAddress writes a as its MarshalJSON does: state and ZIP code in
// the form the platform takes.
func appendAddress(b []byte, a *rxtypes.Address) []byte {
	o := jsonx.Open(b)
	o.String("street", a.Street)
	o.StringOmitEmpty("street2", a.Street2)
	o.String("city", a.City)
	o.String("state", usps.WireState(a.State))
	o.String("zipcode", usps.WireZIP(a.Zipcode))
	return o.Close()
}

func (p *Patient) appendJSON(b []byte) []byte {
	o := jsonx.Open(b)
	o.String("first_name", p.FirstName)
	o.String("last_name", p.LastName)
	o.String("gender", string(p.Gender))
	o.Key("date_of_birth")
	o.B = appendDate(o.B, p.DateOfBirth)
	o.StringOmitEmpty("mobile_phone_number", p.MobilePhoneNumber)
	o.StringOmitEmpty("home_phone_number", p.HomePhoneNumber)
	return o.Close()
}

// appendJSON writes the prescription as its MarshalJSON does: nil Payers
// are [].
func (p *Prescription) appendJSON(b []byte) []byte {
	o := jsonx.Open(b)
	o.String("number", p.Number)
	o.String("ndc", p.NDC)
	o.String("refrigeration", string(p.Refrigeration))
	o.Key("days_supply")
	o.B = strconv.AppendInt(o.B, int64(p.DaysSupply), 10)
	o.Key("fill_quantity")
	o.B, _ = p.FillQuantity.AppendText(o.B)
	o.Key("fill_number")
	o.B = appendIntPtr(o.B, p.FillNumber)
	o.Key("patient_pay")
	o.B = appendDecimalPtr(o.B, p.PatientPay)
	o.Key("prescriber")
	o.B = p.Prescriber.appendJSON(o.B)
	o.StringOmitEmpty("date_of_service", p.DateOfService)
	o.Key("payers")
	o.B = appendArray(o.B, p.Payers, (*Payer).appendJSON)
	return o.Close()
}

func (p *Prescriber) appendJSON(b []byte) []byte {
	o := jsonx.Open(b)
	o.String("first_name", p.FirstName)
	o.String("last_name", p.LastName)
	o.String("npi", p.NPI)
	o.Key("address")
	o.B = appendAddress(o.B, &p.Address)
	return o.Close()
}

func (p *Payer) appendJSON(b []byte) []byte {
	o := jsonx.Open(b)
	o.String("bin", p.BIN)
	o.String("pcn", p.PCN)
	o.String("rx_group", p.RxGroup)
	o.String("coverage_type", string(p.CoverageType))
	if p.GovernmentPlanIndicator != nil {
		o.Key("government_plan_indicator")
		o.B = jsonx.AppendBool(o.B, *p.GovernmentPlanIndicator)
	}
	return o.Close()
}

func (it *OtherItem) appendJSON(b []byte) []byte {
	o := jsonx.Open(b)
	o.String("upc", it.UPC)
	o.String("sku", it.SKU)
	o.Key("quantity")
	o.B = strconv.AppendInt(o.B, int64(it.Quantity), 10)
	o.String("description", it.Description)
	return o.Close()
}

func (s *ShippingParams) appendJSON(b []byte) []byte {
	o := jsonx.Open(b)
	o.String("carrier", string(s.Carrier))
	o.String("carrier_service", string(s.CarrierService))
	o.String("signature", string(s.Signature))
	if s.SaturdayDelivery != nil {
		o.Key("saturday_delivery")
		o.B = jsonx.AppendBool(o.B, *s.SaturdayDelivery)
	}
	o.Key("weight")
	w := jsonx.Open(o.B)
	w.String("unit", string(s.Weight.Unit))
	w.Key("value")
	w.B, _ = s.Weight.Value.AppendText(w.B)
	o.B = w.Close()
	o.StringOmitEmpty("package_code", string(s.PackageCode))
	if s.Dimensions != nil {
		o.Key("dimensions")
		d := jsonx.Open(o.B)
		d.String("unit", string(s.Dimensions.Unit))
		d.Key("length")
		d.B, _ = s.Dimensions.Length.AppendText(d.B)
		d.Key("width")
		d.B, _ = s.Dimensions.Width.AppendText(d.B)
		d.Key("height")
		d.B, _ = s.Dimensions.Height.AppendText(d.B)
		o.B = d.Close()
	}
	return o.Close()
}
