package rxdelivery

import (
	"github.com/rxdelivery/rxdelivery-go/internal/usps"
	"github.com/rxdelivery/rxdelivery-go/internal/validate"
)

// NormalizeNDC turns a National Drug Code as printed on a package or a
// label into the 11 digits (5-4-2, no hyphens) that the ndc fields take.
// It accepts 11 digits with or without hyphens and the hyphenated 10-digit
// forms 4-4-2, 5-3-2 and 5-4-1, which it pads with a zero in the short
// segment; it refuses 10 digits without hyphens, which are ambiguous.
func NormalizeNDC(s string) (string, error) { return validate.NormalizeNDC(s) }

// NormalizePhone turns a US phone number such as "(614) 555-0100",
// "614.555.0100" or "+1 614 555 0100" into the 10 digits that the phone
// fields take. It refuses letters and extensions, a country code other
// than 1, and area or exchange codes that begin with 0 or 1.
func NormalizePhone(s string) (string, error) { return validate.NormalizePhone(s) }

// NormalizeZIP turns a ZIP code (43210) or a ZIP+4 (43210-1234 or
// 432101234) into the 5 or 9 digits that the address fields of requests
// and orders take.
func NormalizeZIP(s string) (string, error) { return usps.NormalizeZIP(s) }

// ZIP5 returns the 5-digit ZIP code of a ZIP or ZIP+4 in any form that
// [NormalizeZIP] accepts, as pricing quotes take it.
func ZIP5(s string) (string, error) { return usps.ZIP5(s) }

// CheckNPI checks that s is a National Provider Identifier as the documents
// define it: exactly 10 digits. Use [NPICheckDigitValid], or the client
// option [WithNPICheckDigit], to catch mistyped NPIs too.
func CheckNPI(s string) error { return validate.CheckNPI(s) }

// NPICheckDigitValid reports whether s is 10 digits ending in a valid NPI
// check digit (the Luhn check digit of the first 9 digits behind the
// prefix 80840).
func NPICheckDigitValid(s string) bool { return validate.NPICheckDigitValid(s) }

// CheckNCPDP checks that s is a pharmacy NCPDP identifier: exactly 7
// digits.
func CheckNCPDP(s string) error { return validate.CheckNCPDP(s) }

// IsState reports whether s is a two-letter upper-case USPS code for an
// address's state field: one of the 50 states, DC, a territory (AS, GU,
// MP, PR, VI, UM), a freely associated state (FM, MH, PW) or a military
// code (AA, AE, AP).
func IsState(s string) bool { return usps.IsState(s) }

// NormalizeState returns the upper-case USPS code that s writes in any
// case, surrounding spaces ignored: "oh" gives "OH". The params' encoders
// apply it to every address's state on the copy they send, so a user need
// not; it is here for code that stores addresses.
func NormalizeState(s string) (string, error) { return usps.NormalizeState(s) }
