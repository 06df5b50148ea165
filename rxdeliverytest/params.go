package rxdeliverytest

import (
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// SamedayOrderParams returns valid params of a same-day delivery order for
// a pharmacy the simulator knows (NCPDP 5550001), with one prescription and
// invented patient data. Each call returns a fresh value the caller may
// change.
func SamedayOrderParams() *orders.CreateParams {
	addr := rxtypes.Address{Street: "42 Elm Avenue", City: "Columbus", State: "OH", Zipcode: "43210"}
	return &orders.CreateParams{
		DeliveryFee:             rxdelivery.Ptr(rxdelivery.MustDecimal("5.00")),
		RxAmountDue:             rxdelivery.Ptr(rxdelivery.MustDecimal("10.00")),
		ExternalReferenceNumber: "rx-2026-0001",
		Pharmacy:                orders.Pharmacy{NPI: "1234567890", NCPDP: "5550001"},
		Recipient:               orders.Recipient{Description: "Jane Doe", MobilePhoneNumber: "6145550100", Address: addr},
		Patient: orders.Patient{
			FirstName: "Jane", LastName: "Doe", Gender: rxtypes.GenderFemale,
			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29},
		},
		Prescriptions: []orders.Prescription{{
			Number: "RX100001", NDC: "00002143380", Refrigeration: orders.RefrigerationNone,
			DaysSupply: 30, FillQuantity: rxdelivery.MustDecimal("30"), FillNumber: rxdelivery.Ptr(0), PatientPay: rxdelivery.Ptr(rxdelivery.MustDecimal("10.00")),
			Prescriber: orders.Prescriber{FirstName: "Alan", LastName: "Grant", NPI: "1987654320", Address: addr},
			Payers: []orders.Payer{{
				BIN: "610014", PCN: "MEDDPRIME", RxGroup: "RX1234",
				CoverageType: orders.CoverageTypePrimary, GovernmentPlanIndicator: rxdelivery.Ptr(false),
			}},
		}},
	}
}
