package rxdelivery_test

import (
	"fmt"
	"log"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// A patient's total: a copay per fill times the number of fills, plus the
// delivery fee, exact to the cent and printed and sent as money.
func ExampleDecimal_copayTotal() {
	copay := rxdelivery.MustDecimal("4.99")
	deliveryFee := rxdelivery.MustDecimal("5")
	fills := int64(3)

	total := copay.MulInt(fills).Add(deliveryFee)
	cents, err := total.Cents()
	if err != nil {
		panic(err)
	}
	fmt.Println(total)
	fmt.Printf("%.2f due, %d cents\n", total, cents)
	fmt.Println(total == rxdelivery.MustDecimal("19.970"), total.Cmp(rxdelivery.MustDecimal("20")) < 0)
	// Output:
	// 19.97
	// 19.97 due, 1997 cents
	// true true
}

// A unit price times a fractional quantity leaves a fraction of a cent;
// Round says which way it goes.
func ExampleDecimal_rounding() {
	unitPrice := rxdelivery.MustDecimal("0.469")
	quantity := rxdelivery.MustDecimal("5") // fill_quantity
	amount := unitPrice.Mul(quantity)       // 2.345

	fmt.Println(amount)
	fmt.Println(amount.Round(2, rxtypes.RoundHalfUp))
	fmt.Println(amount.Round(2, rxtypes.RoundHalfEven))
	fmt.Println(amount.Round(2, rxtypes.RoundDown))
	fmt.Printf("%.2f\n", amount) // %.Nf rounds half up
	_, err := amount.Cents()
	fmt.Println(err)
	// Output:
	// 2.345
	// 2.35
	// 2.34
	// 2.34
	// 2.35
	// amount is not a whole number of cents
}

// Money for a ledger: a total from a copay and a fee, rounded to the cent
// and turned into cents (the money block of the README).
func ExampleDecimal_cents() {
	copay := rxdelivery.MustDecimal("4.99")
	total := copay.MulInt(3).Add(rxdelivery.MustDecimal("5"))
	cents, err := total.Round(2, rxtypes.RoundHalfUp).Cents()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%v due (%d cents)\n", total, cents) // 19.97 due (1997 cents)
	// Output:
	// 19.97 due (1997 cents)
}

// Zero is a value: a zero copay and the original fill are sent, and a
// state in lower case or a ZIP+4 with its hyphen is accepted and sent in
// the documented form. The validation block of the README.
func ExampleValidationError_zeroIsAValue() {
	rx := orders.Prescription{
		Number: "RX100001", NDC: "00002143380", Refrigeration: orders.RefrigerationNone,
		DaysSupply:   30,
		FillQuantity: rxdelivery.MustDecimal("30"),
		FillNumber:   rxdelivery.Ptr(0),                           // the original fill
		PatientPay:   rxdelivery.Ptr(rxdelivery.MustDecimal("0")), // no copay
		Prescriber: orders.Prescriber{FirstName: "Alan", LastName: "Grant", NPI: "1987654320",
			Address: rxtypes.Address{Street: "200 High St", City: "Columbus", State: "oh", Zipcode: "43210-1234"}},
	}
	fmt.Println(rx.Validate())
	// Output:
	// <nil>
}
