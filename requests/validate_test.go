package requests_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func TestValidateFixtureParamsAreValid(t *testing.T) {
	t.Parallel()
	for _, p := range []*requests.CreateParams{createParams(), placeParams(), remittanceParams()} {
		assert.NoError(t, p.Validate())
	}
}

func TestValidateRules(t *testing.T) {
	t.Parallel()
	long := func(n int) string { return strings.Repeat("x", n) }
	dec := rxdelivery.MustDecimal
	withRemittance := func(f func(r *requests.RemittanceParams)) func(p *requests.CreateParams) {
		return func(p *requests.CreateParams) {
			r := remittanceParams().Remittance
			f(r)
			p.Remittance = r
		}
	}
	withTestMeta := func(tm requests.TestMeta) func(p *requests.CreateParams) {
		return func(p *requests.CreateParams) { p.TestMeta = &tm }
	}
	cases := []struct {
		name   string
		mutate func(p *requests.CreateParams)
		want   []string // nil: valid
	}{
		// identifier and reference.
		{"identifier required", func(p *requests.CreateParams) { p.Identifier = "" }, []string{"identifier"}},
		{"identifier blank", func(p *requests.CreateParams) { p.Identifier = "  " }, []string{"identifier"}},
		{"external_reference_number required", func(p *requests.CreateParams) { p.ExternalReferenceNumber = "" }, []string{"external_reference_number"}},
		{"external_reference_number max 255", func(p *requests.CreateParams) { p.ExternalReferenceNumber = long(256) }, []string{"external_reference_number"}},
		{"external_reference_number 255 ok", func(p *requests.CreateParams) { p.ExternalReferenceNumber = long(255) }, nil},

		// ndc and name_of_pickup.
		{"ndc 10 digits", func(p *requests.CreateParams) { p.NDC = "0002143380" }, []string{"ndc"}},
		{"ndc hyphenated", func(p *requests.CreateParams) { p.NDC = "00002-1433-80" }, []string{"ndc"}},
		{"ndc letters", func(p *requests.CreateParams) { p.NDC = "0000214338A" }, []string{"ndc"}},
		{"name_of_pickup required without ndc", func(p *requests.CreateParams) { p.NDC = "" }, []string{"name_of_pickup"}},
		{"name_of_pickup blank without ndc", func(p *requests.CreateParams) { p.NDC, p.NameOfPickup = "", " " }, []string{"name_of_pickup"}},
		{"name_of_pickup instead of ndc", func(p *requests.CreateParams) { p.NDC, p.NameOfPickup = "", "Amoxicillin" }, nil},
		{"ndc and name_of_pickup", func(p *requests.CreateParams) { p.NameOfPickup = "Amoxicillin" }, nil},

		// pharmacy.
		{"pharmacy.ncpdp required", func(p *requests.CreateParams) { p.Pharmacy.NCPDP = "" }, []string{"pharmacy.ncpdp"}},
		{"pharmacy.ncpdp exactly 7", func(p *requests.CreateParams) { p.Pharmacy.NCPDP = "123456" }, []string{"pharmacy.ncpdp"}},
		{"pharmacy.ncpdp 8", func(p *requests.CreateParams) { p.Pharmacy.NCPDP = "12345678" }, []string{"pharmacy.ncpdp"}},

		// pickup.
		{"pickup optional", func(p *requests.CreateParams) { p.Pickup = nil }, nil},
		{"pickup given: every field required", func(p *requests.CreateParams) { p.Pickup = &requests.PickupParams{} },
			[]string{"pickup.name", "pickup.phone_number", "pickup.address.street1", "pickup.address.city", "pickup.address.state", "pickup.address.zipcode"}},
		{"pickup.name max 71", func(p *requests.CreateParams) { p.Pickup.Name = long(72) }, []string{"pickup.name"}},
		{"pickup.name 71 ok", func(p *requests.CreateParams) { p.Pickup.Name = long(71) }, nil},
		{"pickup.phone_number exactly 10", func(p *requests.CreateParams) { p.Pickup.PhoneNumber = "614555010" }, []string{"pickup.phone_number"}},
		{"pickup.address.street2 max 255", func(p *requests.CreateParams) { p.Pickup.Address.Street2 = long(256) }, []string{"pickup.address.street2"}},
		{"pickup.address.state known", func(p *requests.CreateParams) { p.Pickup.Address.State = "XX" }, []string{"pickup.address.state"}},

		// dropoff.
		{"dropoff.name required", func(p *requests.CreateParams) { p.Dropoff.Name = "" }, []string{"dropoff.name"}},
		{"dropoff.name max 71", func(p *requests.CreateParams) { p.Dropoff.Name = long(72) }, []string{"dropoff.name"}},
		{"dropoff.phone_number required", func(p *requests.CreateParams) { p.Dropoff.PhoneNumber = "" }, []string{"dropoff.phone_number"}},
		{"dropoff.phone_number digits only", func(p *requests.CreateParams) { p.Dropoff.PhoneNumber = "(614) 555-0123" }, []string{"dropoff.phone_number"}},
		{"dropoff.phone_number 11 digits", func(p *requests.CreateParams) { p.Dropoff.PhoneNumber = "16145550123" }, []string{"dropoff.phone_number"}},
		{"dropoff.address required", func(p *requests.CreateParams) { p.Dropoff.Address = requests.DropoffAddress{} }, []string{"dropoff.address"}},
		{"dropoff.address both forms", func(p *requests.CreateParams) { p.Dropoff.Address.PlaceID = "ChIJd8BlQ2BZwokRAFUEcm_qrcA" }, []string{"dropoff.address"}},
		{"dropoff.address both forms, long place_id", func(p *requests.CreateParams) { p.Dropoff.Address.PlaceID = long(256) }, []string{"dropoff.address", "dropoff.address.place_id"}},
		{"dropoff.address place_id only", func(p *requests.CreateParams) { p.Dropoff.Address = requests.NewDropoffPlace("ChIJ") }, nil},
		{"dropoff.address.place_id max 255", func(p *requests.CreateParams) { p.Dropoff.Address = requests.NewDropoffPlace(long(256)) }, []string{"dropoff.address.place_id"}},
		{"dropoff.address.place_id blank", func(p *requests.CreateParams) { p.Dropoff.Address = requests.NewDropoffPlace(" ") }, []string{"dropoff.address.place_id"}},
		{"dropoff.address partial full form", func(p *requests.CreateParams) {
			p.Dropoff.Address = requests.DropoffAddress{Street2: "Apt 4B"}
		}, []string{"dropoff.address.street1", "dropoff.address.city", "dropoff.address.state", "dropoff.address.zipcode"}},
		{"dropoff.address.street1 max 255", func(p *requests.CreateParams) { p.Dropoff.Address.Street1 = long(256) }, []string{"dropoff.address.street1"}},
		{"dropoff.address.street2 max 255", func(p *requests.CreateParams) { p.Dropoff.Address.Street2 = long(256) }, []string{"dropoff.address.street2"}},
		{"dropoff.address.city max 255", func(p *requests.CreateParams) { p.Dropoff.Address.City = long(256) }, []string{"dropoff.address.city"}},
		{"dropoff.address.city 255 ok", func(p *requests.CreateParams) { p.Dropoff.Address.City = long(255) }, nil},
		{"dropoff.address.state two letters", func(p *requests.CreateParams) { p.Dropoff.Address.State = "Ohio" }, []string{"dropoff.address.state"}},
		{"dropoff.address.state lower case is normalised", func(p *requests.CreateParams) { p.Dropoff.Address.State = "oh" }, nil},
		{"dropoff.address.zipcode 4 digits", func(p *requests.CreateParams) { p.Dropoff.Address.Zipcode = "4321" }, []string{"dropoff.address.zipcode"}},
		{"dropoff.address.zipcode hyphenated ZIP+4 is normalised", func(p *requests.CreateParams) { p.Dropoff.Address.Zipcode = "43210-1234" }, nil},
		{"dropoff.address.zipcode 5 ok", func(p *requests.CreateParams) { p.Dropoff.Address.Zipcode = "43210" }, nil},

		// patient.
		{"patient.first_name required", func(p *requests.CreateParams) { p.Patient.FirstName = "" }, []string{"patient.first_name"}},
		{"patient.first_name max 30", func(p *requests.CreateParams) { p.Patient.FirstName = long(31) }, []string{"patient.first_name"}},
		{"patient.first_name 30 ok", func(p *requests.CreateParams) { p.Patient.FirstName = long(30) }, nil},
		{"patient.last_name required", func(p *requests.CreateParams) { p.Patient.LastName = "" }, []string{"patient.last_name"}},
		{"patient.last_name max 40", func(p *requests.CreateParams) { p.Patient.LastName = long(41) }, []string{"patient.last_name"}},
		{"patient.last_name 40 ok", func(p *requests.CreateParams) { p.Patient.LastName = long(40) }, nil},
		{"patient.gender enum", func(p *requests.CreateParams) { p.Patient.Gender = "other" }, []string{"patient.gender"}},
		{"patient.gender optional", func(p *requests.CreateParams) { p.Patient.Gender = "" }, nil},
		{"patient.gender male", func(p *requests.CreateParams) { p.Patient.Gender = rxtypes.GenderMale }, nil},
		{"patient.date_of_birth required", func(p *requests.CreateParams) { p.Patient.DateOfBirth = rxdelivery.Date{} }, []string{"patient.date_of_birth"}},
		{"patient.date_of_birth real day", func(p *requests.CreateParams) {
			p.Patient.DateOfBirth = rxdelivery.Date{Year: 1981, Month: time.February, Day: 29}
		}, []string{"patient.date_of_birth"}},

		// remittance.
		{"remittance optional", func(p *requests.CreateParams) { p.Remittance = nil }, nil},
		{"remittance: both members required", func(p *requests.CreateParams) { p.Remittance = &requests.RemittanceParams{} },
			[]string{"remittance.contact", "remittance.payments"}},
		{"remittance.contact required", withRemittance(func(r *requests.RemittanceParams) { r.Contact = nil }), []string{"remittance.contact"}},
		{"remittance.payments required", withRemittance(func(r *requests.RemittanceParams) { r.Payments = nil }), []string{"remittance.payments"}},
		{"remittance.payments non-empty", withRemittance(func(r *requests.RemittanceParams) { r.Payments = []requests.Payment{} }), []string{"remittance.payments"}},
		{"remittance.contact.mobile_phone_number required", withRemittance(func(r *requests.RemittanceParams) { r.Contact.MobilePhoneNumber = "" }),
			[]string{"remittance.contact.mobile_phone_number"}},
		{"remittance.contact.mobile_phone_number 10 digits", withRemittance(func(r *requests.RemittanceParams) { r.Contact.MobilePhoneNumber = "614-555-0123" }),
			[]string{"remittance.contact.mobile_phone_number"}},
		{"remittance.contact.email optional", withRemittance(func(r *requests.RemittanceParams) { r.Contact.Email = "" }), nil},
		{"remittance.contact.email max 255", withRemittance(func(r *requests.RemittanceParams) { r.Contact.Email = long(244) + "@example.com" }),
			[]string{"remittance.contact.email"}},
		{"remittance.contact.email 255 ok", withRemittance(func(r *requests.RemittanceParams) { r.Contact.Email = long(243) + "@example.com" }), nil},
		{"remittance.contact.email shape", withRemittance(func(r *requests.RemittanceParams) { r.Contact.Email = "jane.doe" }),
			nil}, // the documents set a length only
		{"remittance.contact.email display name", withRemittance(func(r *requests.RemittanceParams) { r.Contact.Email = "Jane <jane@example.com>" }),
			nil}, // the documents set a length only
		{"remittance.contact.email undotted domain", withRemittance(func(r *requests.RemittanceParams) { r.Contact.Email = "jane@localhost" }),
			nil}, // the documents set a length only
		{"remittance.payments[].fee required", withRemittance(func(r *requests.RemittanceParams) { r.Payments[1].Fee = rxdelivery.Decimal{} }),
			[]string{"remittance.payments[1].fee"}},
		{"remittance.payments[].fee zero", withRemittance(func(r *requests.RemittanceParams) { r.Payments[0].Fee = dec("0.00") }),
			[]string{"remittance.payments[0].fee"}},
		{"remittance.payments[].fee negative", withRemittance(func(r *requests.RemittanceParams) { r.Payments[0].Fee = dec("-5.00") }),
			[]string{"remittance.payments[0].fee"}},
		{"remittance.payments[].fee one cent ok", withRemittance(func(r *requests.RemittanceParams) { r.Payments[0].Fee = dec("0.01") }), nil},
		{"remittance.payments[].kind required", withRemittance(func(r *requests.RemittanceParams) { r.Payments[0].Kind = "" }),
			[]string{"remittance.payments[0].kind"}},
		{"remittance.payments[].kind enum", withRemittance(func(r *requests.RemittanceParams) { r.Payments[1].Kind = "tip" }),
			[]string{"remittance.payments[1].kind"}},

		// test_meta.
		{"test_meta.scenario required", withTestMeta(requests.TestMeta{}), []string{"test_meta.scenario"}},
		{"test_meta.scenario enum", withTestMeta(requests.TestMeta{Scenario: "lost_package"}), []string{"test_meta.scenario"}},
		{"test_meta.scenario unsuccessful_delivery", withTestMeta(requests.TestMeta{Scenario: requests.ScenarioUnsuccessfulDelivery}), nil},
		{"test_meta.duration_between 1 ok", withTestMeta(requests.TestMeta{Scenario: requests.ScenarioIncompleteRequest, DurationBetween: 1}), nil},
		{"test_meta.duration_between 900 ok", withTestMeta(requests.TestMeta{Scenario: requests.ScenarioIncompleteRequest, DurationBetween: 900}), nil},
		{"test_meta.duration_between max 900", withTestMeta(requests.TestMeta{Scenario: requests.ScenarioSuccessfulDelivery, DurationBetween: 901}),
			[]string{"test_meta.duration_between"}},
		{"test_meta.duration_between min 1", withTestMeta(requests.TestMeta{Scenario: requests.ScenarioSuccessfulDelivery, DurationBetween: -1}),
			[]string{"test_meta.duration_between"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := createParams()
			tc.mutate(p)
			err := p.Validate()
			if tc.want == nil {
				assert.NoError(t, err)
				return
			}
			var ve *rxdelivery.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
			assert.Equal(t, tc.want, paths(ve))
			for _, pr := range ve.Problems {
				assert.NotEmpty(t, pr.Message)
			}
		})
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	t.Parallel()
	p := remittanceParams()
	p.Identifier = ""
	p.NDC = "123"
	p.Pharmacy.NCPDP = "12"
	p.Dropoff.Name = strings.Repeat("n", 72)
	p.Dropoff.Address.State = "ZZ"
	p.Patient.LastName = ""
	p.Patient.Gender = "x"
	p.Remittance.Payments[1].Fee = rxdelivery.MustDecimal("0")
	p.TestMeta.DurationBetween = 1000

	err := p.Validate()
	var ve *rxdelivery.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, []string{
		"identifier",
		"ndc",
		"pharmacy.ncpdp",
		"dropoff.name",
		"dropoff.address.state",
		"patient.last_name",
		"patient.gender",
		"remittance.payments[1].fee",
		"test_meta.duration_between",
	}, paths(ve))
	msg := err.Error()
	assert.Contains(t, msg, "dropoff.name: must be at most 71 characters")
	assert.Contains(t, msg, "test_meta.duration_between: must be between 1 and 900 seconds")
	assert.NotContains(t, msg, "nnnn", "messages never quote values")
}
