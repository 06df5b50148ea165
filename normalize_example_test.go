package rxdelivery_test

import (
	"fmt"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
)

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

func ExampleZIP5() {
	zip, err := rxdelivery.ZIP5("43210-1234")
	fmt.Println(zip, err)
	// Output: 43210 <nil>
}

func ExampleCheckNPI() {
	fmt.Println(rxdelivery.CheckNPI("1245319599"))
	fmt.Println(rxdelivery.CheckNPI("124531959"))
	// Output:
	// <nil>
	// must be 10 digits
}

func ExampleNPICheckDigitValid() {
	fmt.Println(rxdelivery.NPICheckDigitValid("1245319599"))
	fmt.Println(rxdelivery.NPICheckDigitValid("1234567890")) // right length, wrong check digit
	// Output:
	// true
	// false
}

func ExampleCheckNCPDP() {
	fmt.Println(rxdelivery.CheckNCPDP("1234567"))
	fmt.Println(rxdelivery.CheckNCPDP("123456"))
	// Output:
	// <nil>
	// must be 7 digits
}

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
