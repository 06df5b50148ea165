package requests

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/rxdelivery/rxdelivery-go/internal/usps"
	"github.com/rxdelivery/rxdelivery-go/internal/validate"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// CreateParams is the body of a new omni request: an item to pick up at a
// pharmacy (or another pickup location) and deliver to a patient.
type CreateParams struct {
	// Identifier is the unique program identifier issued to the caller.
	// Required; when it is empty, [Service.Create] sends the client's
	// default (rxdelivery.WithProgramID or RXDELIVERY_PROGRAM_ID), if any.
	Identifier string `json:"identifier"`
	// ExternalReferenceNumber is the caller's own reference, used to
	// reconcile a create whose outcome is unknown. Required, at most 255
	// characters.
	ExternalReferenceNumber string `json:"external_reference_number"`
	// NDC is the item's National Drug Code: exactly 11 digits, no
	// hyphens (rxdelivery.NormalizeNDC converts the printed forms).
	// Optional; when it is empty, NameOfPickup is required.
	NDC string `json:"ndc,omitempty"`
	// NameOfPickup names the item to pick up. Required when NDC is empty.
	NameOfPickup string `json:"name_of_pickup,omitempty"`
	// Pharmacy is the pharmacy the item comes from. Required.
	Pharmacy PharmacyParams `json:"pharmacy"`
	// Pickup is the pickup location. The document requires it only when
	// the pickup location is not supplied through Pharmacy; since Pharmacy
	// is always required, Pickup is optional, and when it is given every
	// field of it is required.
	Pickup *PickupParams `json:"pickup,omitempty"`
	// Dropoff is where the item is delivered. Required.
	Dropoff DropoffParams `json:"dropoff"`
	// Patient is the patient the item is for. Required.
	Patient PatientParams `json:"patient"`
	// Remittance lists amounts to collect from the patient. Optional;
	// when given, both its contact and its payments are required.
	Remittance *RemittanceParams `json:"remittance,omitempty"`
	// TestMeta runs a sandbox scenario. Optional, and accepted only by a
	// client in sandbox mode: [Service.Create] refuses it otherwise,
	// whether or not validation is on.
	TestMeta *TestMeta `json:"test_meta,omitempty"`
}

// PharmacyParams names the pharmacy of a request.
type PharmacyParams struct {
	// NCPDP is the pharmacy's NCPDP identifier. Required, exactly 7
	// digits.
	NCPDP string `json:"ncpdp"`
}

// PickupParams is a pickup location other than the pharmacy's.
type PickupParams struct {
	// Name is the location's name, or the person's first and last name
	// when the location is an individual. Required, at most 71
	// characters.
	Name string `json:"name"`
	// PhoneNumber is the location's phone: required, exactly 10 digits
	// (rxdelivery.NormalizePhone converts the usual written forms).
	PhoneNumber string `json:"phone_number"`
	// Address is the location's address. Required, complete.
	Address Address `json:"address"`
}

// DropoffParams is where and to whom the item is delivered.
type DropoffParams struct {
	// Name is the recipient's name (the patient's first and last name
	// when the patient receives it). Required, at most 71 characters.
	Name string `json:"name"`
	// PhoneNumber is the recipient's phone: required, exactly 10 digits.
	PhoneNumber string `json:"phone_number"`
	// Address is the dropoff address: required, either a complete street
	// address or a place id alone.
	Address DropoffAddress `json:"address"`
}

// Address is a US street address, complete.
type Address struct {
	// Street1 is the street line. Required, at most 255 characters.
	Street1 string `json:"street1"`
	// Street2 is the second line (apartment, suite). Optional, at most
	// 255 characters.
	Street2 string `json:"street2,omitempty"`
	// City is required, at most 255 characters.
	City string `json:"city"`
	// State is the two-letter USPS code. Required; it is sent in upper
	// case ("oh" goes as "OH").
	State string `json:"state"`
	// Zipcode is the ZIP code: required, 5 digits or a ZIP+4, which is
	// sent as 9 digits ("43210-1234" goes as "432101234").
	Zipcode string `json:"zipcode"`
}

// MarshalJSON encodes the address with its state and ZIP code in the
// form the platform takes (see State and Zipcode); a is not changed.
func (a Address) MarshalJSON() ([]byte, error) {
	type plain Address // plain has the fields, not this method
	q := plain(a)
	q.State, q.Zipcode = usps.WireState(q.State), usps.WireZIP(q.Zipcode)
	return json.Marshal(q)
}

// ToOrders returns a in the delivery interface's form, [rxtypes.Address],
// whose first line is named street instead of street1.
func (a Address) ToOrders() rxtypes.Address {
	return rxtypes.Address{Street: a.Street1, Street2: a.Street2, City: a.City, State: a.State, Zipcode: a.Zipcode}
}

// AddressFromOrders returns the omni form of a delivery-interface address:
// its street becomes Street1.
func AddressFromOrders(a rxtypes.Address) Address {
	return Address{Street1: a.Street, Street2: a.Street2, City: a.City, State: a.State, Zipcode: a.Zipcode}
}

// DropoffAddress is a dropoff address in one of the two forms the platform
// takes: a complete street address (Street1, City, State, Zipcode and
// optionally Street2) or a map provider's place id alone. Fill in one form
// and leave the other empty; every field is omitted from the body when
// empty, so each form encodes exactly as documented. [NewDropoffAddress]
// and [NewDropoffPlace] build each form.
type DropoffAddress struct {
	// Street1 is the street line of the full form, at most 255
	// characters.
	Street1 string `json:"street1,omitempty"`
	// Street2 is the optional second line of the full form, at most 255
	// characters.
	Street2 string `json:"street2,omitempty"`
	// City is the city of the full form, at most 255 characters.
	City string `json:"city,omitempty"`
	// State is the two-letter USPS code of the full form, sent in upper
	// case.
	State string `json:"state,omitempty"`
	// Zipcode is the ZIP code or ZIP+4 of the full form, sent as 5 or 9
	// digits.
	Zipcode string `json:"zipcode,omitempty"`
	// PlaceID is a map provider's place identifier, at most 255
	// characters; set it alone, with every address field empty.
	PlaceID string `json:"place_id,omitempty"`
}

// MarshalJSON encodes the address with its state and ZIP code in the
// form the platform takes; d is not changed.
func (d DropoffAddress) MarshalJSON() ([]byte, error) {
	type plain DropoffAddress // plain has the fields, not this method
	q := plain(d)
	if q.State != "" {
		q.State = usps.WireState(q.State)
	}
	if q.Zipcode != "" {
		q.Zipcode = usps.WireZIP(q.Zipcode)
	}
	return json.Marshal(q)
}

// NewDropoffAddress returns the full-address form of a dropoff address.
func NewDropoffAddress(a Address) DropoffAddress {
	return DropoffAddress{Street1: a.Street1, Street2: a.Street2, City: a.City, State: a.State, Zipcode: a.Zipcode}
}

// NewDropoffPlace returns the place-id form of a dropoff address.
func NewDropoffPlace(placeID string) DropoffAddress {
	return DropoffAddress{PlaceID: placeID}
}

// hasStreetAddress reports whether any field of the full form is set.
func (d DropoffAddress) hasStreetAddress() bool {
	return d.Street1 != "" || d.Street2 != "" || d.City != "" || d.State != "" || d.Zipcode != ""
}

// PatientParams is the patient a request is for.
type PatientParams struct {
	// FirstName is required, at most 30 characters.
	FirstName string `json:"first_name"`
	// LastName is required, at most 40 characters.
	LastName string `json:"last_name"`
	// Gender is optional: one of [rxtypes.GenderMale],
	// [rxtypes.GenderFemale] and [rxtypes.GenderUnspecified].
	Gender rxtypes.Gender `json:"gender,omitempty"`
	// DateOfBirth is required; it must be a real day and not in the
	// future.
	DateOfBirth rxtypes.Date `json:"date_of_birth"`
}

// RemittanceParams lists amounts to collect from the patient and where to
// send payment links and reminders. When a request carries remittance,
// both Contact and at least one payment are required.
type RemittanceParams struct {
	// Contact receives payment links and reminders. Required.
	Contact *Contact `json:"contact,omitempty"`
	// Payments are the amounts to collect. Required, at least one.
	Payments []Payment `json:"payments,omitempty"`
}

// Contact is where payment links and reminders go.
type Contact struct {
	// MobilePhoneNumber is required, exactly 10 digits.
	MobilePhoneNumber string `json:"mobile_phone_number"`
	// Email is optional, at most 255 characters. Its syntax is not
	// checked: the documents set only its length.
	Email string `json:"email,omitempty"`
}

// Payment is one amount to collect from the patient.
type Payment struct {
	// Fee is the amount: required, greater than 0. It goes on the wire
	// as a JSON number in the canonical form ("5.00").
	Fee rxtypes.Decimal `json:"fee"`
	// Kind is what the amount is for: required, one of the [PaymentKind]
	// constants.
	Kind PaymentKind `json:"kind"`
}

// PaymentKind says what a payment is for.
type PaymentKind string

// Payment kinds the platform accepts.
const (
	// PaymentDeliveryFee is the delivery fee.
	PaymentDeliveryFee PaymentKind = "delivery_fee"
	// PaymentCopay is the patient's copay.
	PaymentCopay PaymentKind = "copay"
)

// TestMeta runs a scripted scenario on a request in the sandbox
// environment. A client that is not in sandbox mode refuses to send it.
type TestMeta struct {
	// Scenario is the life cycle to simulate. Required.
	Scenario Scenario `json:"scenario"`
	// DurationBetween is the number of seconds between status updates,
	// 1 to 900. Zero leaves it out and the platform uses 30.
	DurationBetween int `json:"duration_between,omitempty"`
}

// Scenario is a sandbox life cycle.
type Scenario string

// Sandbox scenarios.
const (
	// ScenarioSuccessfulDelivery creates an order and simulates a
	// successful delivery.
	ScenarioSuccessfulDelivery Scenario = "successful_delivery"
	// ScenarioUnsuccessfulDelivery creates an order and simulates an
	// unsuccessful delivery followed by a return to the pharmacy.
	ScenarioUnsuccessfulDelivery Scenario = "unsuccessful_delivery"
	// ScenarioIncompleteRequest marks the request as incomplete.
	ScenarioIncompleteRequest Scenario = "incomplete_request"
)

// Limits of the document.
const (
	maxReference    = 255
	maxName         = 71
	maxAddressField = 255
	maxPlaceID      = 255
	maxFirstName    = 30
	maxLastName     = 40
	maxEmail        = 255
	minDuration     = 1
	maxDuration     = 900
)

// Validate checks p against every rule of the document and returns a
// *[rxtypes.ValidationError] listing each problem with its JSON path, or
// nil. Create runs it before sending unless the client was built with
// validation off. It does not check the sandbox rule on TestMeta, which
// depends on the client.
func (p *CreateParams) Validate() error { return p.validate(validate.Options{}) }

func (p *CreateParams) validate(o validate.Options) error {
	c := validate.Collector{Options: o}
	c.Required("identifier", p.Identifier)
	c.RequiredMaxLen("external_reference_number", p.ExternalReferenceNumber, maxReference)
	if p.NDC != "" {
		c.NDC("ndc", p.NDC)
	}
	if strings.TrimSpace(p.NDC) == "" && strings.TrimSpace(p.NameOfPickup) == "" {
		c.Add("name_of_pickup", "is required when ndc is not given")
	} else {
		c.Text("name_of_pickup", p.NameOfPickup)
	}
	c.NCPDP("pharmacy.ncpdp", p.Pharmacy.NCPDP)
	validate.In(&c, "pickup", p.Pickup, (*PickupParams).check)
	validate.In(&c, "dropoff", &p.Dropoff, (*DropoffParams).check)
	validate.In(&c, "patient", &p.Patient, (*PatientParams).check)
	validate.In(&c, "remittance", p.Remittance, (*RemittanceParams).check)
	validate.In(&c, "test_meta", p.TestMeta, (*TestMeta).check)
	return c.Err()
}

func (p *PickupParams) check(c *validate.Collector) {
	c.RequiredMaxLen("name", p.Name, maxName)
	c.Phone("phone_number", p.PhoneNumber)
	validate.In(c, "address", &p.Address, (*Address).check)
}

func (a *Address) check(c *validate.Collector) {
	c.RequiredMaxLen("street1", a.Street1, maxAddressField)
	c.MaxLen("street2", a.Street2, maxAddressField)
	c.RequiredMaxLen("city", a.City, maxAddressField)
	c.State("state", a.State)
	c.ZIP("zipcode", a.Zipcode)
}

func (d *DropoffParams) check(c *validate.Collector) {
	c.RequiredMaxLen("name", d.Name, maxName)
	c.Phone("phone_number", d.PhoneNumber)
	validate.In(c, "address", &d.Address, (*DropoffAddress).check)
}

// check accepts exactly one of the two forms: a complete street address,
// or a place id with every address field empty.
func (d *DropoffAddress) check(c *validate.Collector) {
	street := d.hasStreetAddress()
	switch {
	case d.PlaceID == "" && !street:
		c.Add("", "is required: a full address or a place_id")
	case d.PlaceID != "" && street:
		c.Add("", "must be either a full address or a place_id alone, not both")
		c.MaxLen("place_id", d.PlaceID, maxPlaceID)
	case d.PlaceID != "":
		c.RequiredMaxLen("place_id", d.PlaceID, maxPlaceID)
	default:
		a := Address{Street1: d.Street1, Street2: d.Street2, City: d.City, State: d.State, Zipcode: d.Zipcode}
		a.check(c)
	}
}

func (p *PatientParams) check(c *validate.Collector) {
	c.RequiredMaxLen("first_name", p.FirstName, maxFirstName)
	c.RequiredMaxLen("last_name", p.LastName, maxLastName)
	validate.OneOf(c, "gender", p.Gender, false, rxtypes.GenderMale, rxtypes.GenderFemale, rxtypes.GenderUnspecified)
	c.DateOfBirth("date_of_birth", p.DateOfBirth)
}

func (r *RemittanceParams) check(c *validate.Collector) {
	if r.Contact == nil {
		c.Add("contact", "is required when remittance is given")
	} else {
		validate.In(c, "contact", r.Contact, (*Contact).check)
	}
	if len(r.Payments) == 0 {
		c.Add("payments", "is required when remittance is given (at least one payment)")
	}
	validate.Each(c, "payments", r.Payments, (*Payment).check)
}

func (ct *Contact) check(c *validate.Collector) {
	c.Phone("mobile_phone_number", ct.MobilePhoneNumber)
	// The documents set a length only; the address's syntax is the
	// platform's to judge.
	c.MaxLen("email", ct.Email, maxEmail)
}

func (p *Payment) check(c *validate.Collector) {
	c.Positive("fee", p.Fee)
	validate.OneOf(c, "kind", p.Kind, true, PaymentDeliveryFee, PaymentCopay)
}

func (t *TestMeta) check(c *validate.Collector) {
	validate.OneOf(c, "scenario", t.Scenario, true,
		ScenarioSuccessfulDelivery, ScenarioUnsuccessfulDelivery, ScenarioIncompleteRequest)
	if t.DurationBetween != 0 && (t.DurationBetween < minDuration || t.DurationBetween > maxDuration) {
		c.Add("duration_between",
			"must be between "+strconv.Itoa(minDuration)+" and "+strconv.Itoa(maxDuration)+" seconds (0 leaves the default of 30)")
	}
}
