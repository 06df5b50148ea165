package rxdelivery_test

import (
	"fmt"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
)

// NDCs as printed on labels, hyphenated 4-4-2, 5-3-2 or 5-4-1, become the
// 11 digits the platform takes; 10 digits without hyphens are refused,
// since they could be any of the three.
func ExampleNormalizeNDC() {
	for _, label := range []string{"12345-6789-01", "0002-3227-30", "50090-347-01", "12345-6789-1", "0002322730"} {
		ndc, err := rxdelivery.NormalizeNDC(label)
		if err != nil {
			fmt.Println("ndc:", err)
			continue
		}
		fmt.Println(ndc)
	}
	// Output:
	// 12345678901
	// 00002322730
	// 50090034701
	// 12345678901
	// ndc: must be 11 digits (5-4-2); 10 digits without hyphens are ambiguous (the code could be 4-4-2, 5-3-2 or 5-4-1), so write it with hyphens
}

// Phone numbers as patients type them become the 10 digits the platform
// takes; an extension is refused rather than dropped.
func ExampleNormalizePhone() {
	for _, typed := range []string{"(614) 555-0100", "+1 614 555 0100", "614.555.0100", "614-555-0100 x12"} {
		phone, err := rxdelivery.NormalizePhone(typed)
		if err != nil {
			fmt.Println("phone_number:", err)
			continue
		}
		fmt.Println(phone)
	}
	// Output:
	// 6145550100
	// 6145550100
	// 6145550100
	// phone_number: must be a US phone number of digits, spaces, hyphens, dots, parentheses and a leading +1; letters and extensions are not accepted
}

// A ZIP code or a ZIP+4, with or without its hyphen, in the form the
// platform takes; a short one is refused.
func ExampleNormalizeZIP() {
	for _, typed := range []string{"43210", "43210-1234", "4321"} {
		zip, err := rxdelivery.NormalizeZIP(typed)
		if err != nil {
			fmt.Println("zipcode:", err)
			continue
		}
		fmt.Println(zip)
	}
	// Output:
	// 43210
	// 432101234
	// zipcode: must be a ZIP code of 5 digits or a ZIP+4 of 9 digits, with an optional hyphen after the fifth digit
}

// The five-digit ZIP code of a ZIP+4, for the fields that take only five.
func ExampleZIP5() {
	zip, err := rxdelivery.ZIP5("43210-1234")
	fmt.Println(zip, err)
	// Output: 43210 <nil>
}

// Checking a pharmacy's NPI before a call: nil when it can be sent, or
// what is wrong with it.
func ExampleCheckNPI() {
	fmt.Println(rxdelivery.CheckNPI("1245319599"))
	fmt.Println(rxdelivery.CheckNPI("124531959"))
	// Output:
	// <nil>
	// must be 10 digits
}

// An NPI of the right length can still be mistyped: its last digit is a
// check digit.
func ExampleNPICheckDigitValid() {
	fmt.Println(rxdelivery.NPICheckDigitValid("1245319599"))
	fmt.Println(rxdelivery.NPICheckDigitValid("1234567890")) // right length, wrong check digit
	// Output:
	// true
	// false
}

// Checking a pharmacy's NCPDP id before a call: seven digits.
func ExampleCheckNCPDP() {
	fmt.Println(rxdelivery.CheckNCPDP("1234567"))
	fmt.Println(rxdelivery.CheckNCPDP("123456"))
	// Output:
	// <nil>
	// must be 7 digits
}

// The state codes the platform accepts: the states, DC, territories and
// military codes, in upper case.
func ExampleIsState() {
	for _, s := range []string{"OH", "PR", "AE", "oh", "XX"} {
		fmt.Println(s, rxdelivery.IsState(s))
	}
	// Output:
	// OH true
	// PR true
	// AE true
	// oh false
	// XX false
}

// A date of birth exported month/day/year by a pharmacy system; a day
// that does not exist is refused without quoting the input.
func ExampleParseUSDate() {
	dob, err := rxdelivery.ParseUSDate("02/29/1980") // as a pharmacy system exports it
	if err != nil {
		panic(err)
	}
	fmt.Println(dob)
	_, err = rxdelivery.ParseUSDate("02/29/1981")
	fmt.Println(err)
	// Output:
	// 1980-02-29
	// not a valid date (want MM/DD/YYYY)
}
