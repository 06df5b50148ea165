package rxtypes_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Money with Decimal: amounts parsed from text or made from cents, added
// and multiplied exactly, compared as numbers and sent as JSON numbers.
func ExampleDecimal() {
	copay := rxtypes.MustDecimal("4.99")
	fee := rxtypes.DecimalFromCents(500)
	total := copay.MulInt(3).Add(fee)

	fmt.Println(total, total == rxtypes.MustDecimal("19.970"))
	b, err := json.Marshal(map[string]rxtypes.Decimal{"delivery_fee": fee, "rx_amount_due": total})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(b))
	// Output:
	// 19.97 true
	// {"delivery_fee":5.00,"rx_amount_due":19.97}
}

// A unit price times a fractional quantity leaves a fraction of a cent;
// the rounding mode says which way it goes.
func ExampleDecimal_Round() {
	amount := rxtypes.MustDecimal("0.469").Mul(rxtypes.MustDecimal("5"))
	fmt.Println(amount)
	for _, mode := range []rxtypes.RoundingMode{rxtypes.RoundHalfUp, rxtypes.RoundHalfEven, rxtypes.RoundDown, rxtypes.RoundUp} {
		fmt.Println(mode, amount.Round(2, mode))
	}
	// Output:
	// 2.345
	// RoundHalfUp 2.35
	// RoundHalfEven 2.34
	// RoundDown 2.34
	// RoundUp 2.35
}

// Cents for a ledger: an amount with a fraction of a cent is refused until
// it is rounded with the mode the books use.
func ExampleDecimal_Cents() {
	amount := rxtypes.MustDecimal("2.345")
	_, err := amount.Cents()
	fmt.Println(errors.Is(err, rxtypes.ErrNotWholeCents))
	cents, err := amount.Round(2, rxtypes.RoundHalfEven).Cents()
	fmt.Println(cents, err)
	// Output:
	// true
	// 234 <nil>
}

// An amount written with a fixed number of fraction digits, for a receipt.
func ExampleDecimal_StringFixed() {
	fmt.Println(rxtypes.MustDecimal("5").StringFixed(2))
	fmt.Println(rxtypes.MustDecimal("2.345").StringFixed(2))
	// Output:
	// 5.00
	// 2.35
}

// Text that is not a number is refused, without a float's rounding for
// the text that is.
func ExampleNewDecimal() {
	d, err := rxtypes.NewDecimal("0.1")
	fmt.Println(d.Add(rxtypes.MustDecimal("0.2")), err)
	_, err = rxtypes.NewDecimal("five")
	fmt.Println(err != nil)
	// Output:
	// 0.30 <nil>
	// true
}

// A date of birth as a civil date: no time of day, no time zone, and
// "YYYY-MM-DD" on the wire.
func ExampleDate() {
	dob := rxtypes.Date{Year: 1980, Month: time.February, Day: 29}
	b, err := json.Marshal(struct {
		DateOfBirth rxtypes.Date `json:"date_of_birth"`
	}{dob})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(dob, dob.IsValid(), string(b))
	fmt.Println(rxtypes.Date{Year: 1981, Month: time.February, Day: 29}.IsValid())
	// Output:
	// 1980-02-29 true {"date_of_birth":"1980-02-29"}
	// false
}

// Dates in the ISO 8601 form, compared as dates.
func ExampleParseDate() {
	start, err := rxtypes.ParseDate("2026-03-02")
	if err != nil {
		log.Fatal(err)
	}
	end, _ := rxtypes.ParseDate("2026-03-31")
	fmt.Println(start.Before(end), end.Compare(start))
	_, err = rxtypes.ParseDate("2026-02-30")
	fmt.Println(err != nil)
	// Output:
	// true 1
	// true
}

// Today's date for a service date is the date in a chosen location, not
// in UTC.
func ExampleDateOf() {
	t := time.Date(2026, time.March, 2, 3, 0, 0, 0, time.UTC)
	chicago := time.FixedZone("CST", -6*60*60)
	fmt.Println(rxtypes.DateOf(t), rxtypes.DateOf(t.In(chicago)))
	// Output:
	// 2026-03-02 2026-03-01
}
