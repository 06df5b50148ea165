package orders_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// The values of the fixtures.
const (
	orderID  = "ord_01HXZ3K9V2M4Q7R8S9T0W1Y2Z3"
	shipID   = "ord_01HXZ4SHIP0000000000000001"
	ordersEP = testutil.DeliveryURL + "/api/v1/orders"
)

// at parses an RFC 3339 time for assertions.
func at(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	require.NoError(t, err)
	return v
}

// assertTime checks a decoded timestamp: its raw text and its instant.
func assertTime(t *testing.T, want string, got rxdelivery.Time) {
	t.Helper()
	assert.Equal(t, want, got.Raw)
	assert.True(t, got.Valid(), "time %q did not parse", got.Raw)
	assert.True(t, at(t, want).Equal(got.Time), "time %v, want %s", got.Time, want)
}

func dec(s string) rxdelivery.Decimal { return rxdelivery.MustDecimal(s) }

func decp(s string) *rxdelivery.Decimal { return rxdelivery.Ptr(rxdelivery.MustDecimal(s)) }

var dob = rxdelivery.Date{Year: 1980, Month: time.February, Day: 29}

func prescriber() orders.Prescriber {
	return orders.Prescriber{
		FirstName: "Alan", LastName: "Grant", NPI: "1987654320",
		Address: rxtypes.Address{Street: "200 High Street", City: "Columbus", State: "OH", Zipcode: "432101234"},
	}
}

func janeAddress() rxtypes.Address {
	return rxtypes.Address{Street: "42 Elm Avenue", Street2: "Apt 3B", City: "Columbus", State: "OH", Zipcode: "43210"}
}

// samedayParams is the sameday example (order_create_sameday_request.json).
func samedayParams() *orders.CreateParams {
	return &orders.CreateParams{
		Initiator:               orders.InitiatorPharmacy,
		DeliveryFee:             decp("5.00"),
		RxAmountDue:             decp("10.00"),
		OtherItemsAmountDue:     decp("3.50"),
		DeliveryNotes:           "Ring the bell twice; leave with the front desk if no answer.",
		ExternalReferenceNumber: "rx-2024-0001",
		PhotoIDRequired:         rxdelivery.Ptr(true),
		Pharmacy:                orders.Pharmacy{NPI: "1234567890", NCPDP: "1234567"},
		Recipient: orders.Recipient{
			Description: "Jane Doe", MobilePhoneNumber: "6145550100", Address: janeAddress(),
		},
		Patient: orders.Patient{
			FirstName: "Jane", LastName: "Doe", Gender: rxtypes.GenderFemale, DateOfBirth: dob,
			MobilePhoneNumber: "6145550100",
		},
		Prescriptions: []orders.Prescription{{
			Number: "RX100001", NDC: "00002143380", Refrigeration: orders.RefrigerationNone,
			DaysSupply: 30, FillQuantity: dec("30"), FillNumber: rxdelivery.Ptr(0), PatientPay: decp("10.00"),
			Prescriber: prescriber(), DateOfService: "2024-05-02",
			Payers: []orders.Payer{{
				BIN: "610014", PCN: "MEDDPRIME", RxGroup: "RX1234",
				CoverageType: orders.CoverageTypePrimary, GovernmentPlanIndicator: rxdelivery.Ptr(false),
			}},
		}},
		OtherItems: []orders.OtherItem{{
			UPC: "012345678905", SKU: "OTC-ACET-500", Quantity: 1, Description: "Acetaminophen 500 mg, 100 tablets",
		}},
	}
}

// fridgeRx is the prescription of the ondemand example, also the body of
// order_add_prescription_request.json.
func fridgeRx() *orders.Prescription {
	return &orders.Prescription{
		Number: "RX100002", NDC: "00169413512", Refrigeration: orders.RefrigerationFridge,
		DaysSupply: 28, FillQuantity: dec("1.5"), FillNumber: rxdelivery.Ptr(2), PatientPay: decp("0.00"),
		Prescriber: prescriber(),
		Payers: []orders.Payer{
			{BIN: "004336", PCN: "ADV", RxGroup: "RX5678", CoverageType: orders.CoverageTypePrimary, GovernmentPlanIndicator: rxdelivery.Ptr(true)},
			{BIN: "610097", PCN: "9999", RxGroup: "SUPP01", CoverageType: orders.CoverageTypeSecondary, GovernmentPlanIndicator: rxdelivery.Ptr(false)},
		},
	}
}

// ondemandParams is the ondemand example (order_create_ondemand_request.json).
func ondemandParams() *orders.CreateParams {
	ready := time.Date(2024, time.May, 2, 14, 30, 0, 0, time.FixedZone("EDT", -4*60*60))
	return &orders.CreateParams{
		ServiceLevel:            orders.ServiceLevelOndemand,
		ReadyAt:                 &ready,
		Initiator:               orders.InitiatorPharmacy,
		ExternalReferenceNumber: "rx-2024-0002",
		Pharmacy:                orders.Pharmacy{NPI: "1234567890", NCPDP: "1234567"},
		Recipient: orders.Recipient{
			Description: "John Roe", HomePhoneNumber: "6145550101",
			Address: rxtypes.Address{Street: "7 Oak Lane", City: "Columbus", State: "OH", Zipcode: "432151234"},
		},
		Patient:       orders.Patient{FirstName: "Jane", LastName: "Doe", Gender: rxtypes.GenderFemale, DateOfBirth: dob},
		Prescriptions: []orders.Prescription{*fridgeRx()},
	}
}

// shippingParams is the shipping example (order_create_shipping_request.json).
func shippingParams() *orders.CreateParams {
	return &orders.CreateParams{
		ServiceLevel:            orders.ServiceLevelShipping,
		ServiceDate:             &rxdelivery.Date{Year: 2024, Month: time.May, Day: 3},
		ExternalReferenceNumber: "rx-2024-0003",
		Pharmacy:                orders.Pharmacy{NPI: "1234567890", NCPDP: "1234567"},
		Recipient:               orders.Recipient{Description: "Jane Doe", Address: janeAddress()},
		Patient: orders.Patient{
			FirstName: "Jane", LastName: "Doe", Gender: rxtypes.GenderUnspecified, DateOfBirth: dob,
			HomePhoneNumber: "6145550102",
		},
		Shipping: &orders.ShippingParams{
			Carrier:          orders.CarrierParcelA,
			CarrierService:   orders.CarrierServiceParcelANextDayAir,
			Signature:        orders.SignatureAdultRequired,
			SaturdayDelivery: rxdelivery.Ptr(true),
			Weight:           orders.Weight{Unit: orders.WeightUnitOunce, Value: dec("12.5")},
			Dimensions: &orders.Dimensions{
				Unit: orders.DimensionUnitInch, Length: dec("10"), Width: dec("8"), Height: dec("4"),
			},
		},
		Prescriptions: []orders.Prescription{{
			Number: "RX100003", NDC: "00002143380", Refrigeration: orders.RefrigerationNone,
			DaysSupply: 90, FillQuantity: dec("90"), FillNumber: rxdelivery.Ptr(1), PatientPay: decp("25.00"),
			Prescriber: prescriber(),
			Payers: []orders.Payer{{
				BIN: "610014", PCN: "MEDDPRIME", RxGroup: "RX1234",
				CoverageType: orders.CoverageTypePrimary, GovernmentPlanIndicator: rxdelivery.Ptr(false),
			}},
		}},
	}
}
