package validate

import "errors"

// Refusals of the NPI and NCPDP checks. They never quote the identifier.
var (
	errNPILength   = errors.New("must be 10 digits")
	errNPICheck    = errors.New("must be 10 digits ending in a valid check digit (Luhn over the prefix 80840 and the first 9 digits)")
	errNCPDPLength = errors.New("must be 7 digits")
)

// CheckNPI checks a National Provider Identifier (a pharmacy's or a
// prescriber's) against the documents' rule: exactly 10 digits. It does not
// verify the check digit; see CheckNPIWithCheckDigit.
func CheckNPI(s string) error {
	if !Digits(s, 10) {
		return errNPILength
	}
	return nil
}

// NPICheckDigitValid reports whether s is 10 digits whose last digit is the
// NPI check digit: the Luhn check digit of the first 9 digits behind the
// prefix 80840. It catches most mistyped NPIs, but not every 10-digit
// sample value in documentation passes it.
func NPICheckDigitValid(s string) bool {
	if !Digits(s, 10) {
		return false
	}
	// The Luhn sum of "80840" followed by all 10 digits, counted from the
	// right so that the check digit is not doubled.
	const prefixed = "80840"
	sum := 0
	for i := 0; i < 15; i++ {
		var d int
		if i < 5 {
			d = int(prefixed[i] - '0')
		} else {
			d = int(s[i-5] - '0')
		}
		if (15-i)%2 == 0 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

// CheckNPIWithCheckDigit checks that s is 10 digits and that the last one
// is the NPI check digit, for callers who want mistyped NPIs caught before
// they are sent.
func CheckNPIWithCheckDigit(s string) error {
	if !NPICheckDigitValid(s) {
		if !Digits(s, 10) {
			return errNPILength
		}
		return errNPICheck
	}
	return nil
}

// CheckNCPDP checks a pharmacy's NCPDP provider identifier against the
// documents' rule: exactly 7 digits.
func CheckNCPDP(s string) error {
	if !Digits(s, 7) {
		return errNCPDPLength
	}
	return nil
}

// NPI checks the npi at path: present and 10 digits, and also ending in a
// valid check digit when c.Options.NPICheckDigit is set.
func (c *Collector) NPI(path, s string) {
	if !c.present(path, s) {
		return
	}
	check := CheckNPI
	if c.Options.NPICheckDigit {
		check = CheckNPIWithCheckDigit
	}
	// Ten digits hold no control character: only a refusal needs the
	// text rule.
	if err := check(s); err != nil && c.Text(path, s) {
		c.AddErr(path, err)
	}
}

// NCPDP checks the ncpdp at path: present and 7 digits.
func (c *Collector) NCPDP(path, s string) {
	if c.present(path, s) {
		if err := CheckNCPDP(s); err != nil && c.Text(path, s) {
			c.AddErr(path, err)
		}
	}
}
