package usps

import (
	"errors"
	"strings"
)

// errZIP is the refusal of NormalizeZIP and ZIP5. It never quotes the code.
var errZIP = errors.New("must be a ZIP code of 5 digits or a ZIP+4 of 9 digits, with an optional hyphen after the fifth digit")

// NormalizeZIP turns a US ZIP code into the 5 or 9 digits that the address
// fields of requests and orders take: 43210 stays 43210, and 43210-1234
// and 432101234 give 432101234. Surrounding spaces are ignored; any other
// form is refused, with an error that never quotes the code.
func NormalizeZIP(s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case Digits(s, 5), Digits(s, 9):
		return s, nil
	case len(s) == 10 && s[5] == '-' && Digits(s[:5], 5) && Digits(s[6:], 4):
		return s[:5] + s[6:], nil
	}
	return "", errZIP
}

// ZIP5 returns the 5-digit ZIP code of a ZIP or ZIP+4 in any form that
// NormalizeZIP accepts, as the pricing interface takes it: 43210,
// 43210-1234 and 432101234 all give 43210.
func ZIP5(s string) (string, error) {
	z, err := NormalizeZIP(s)
	if err != nil {
		return "", err
	}
	return z[:5], nil
}

// Digits reports whether s is exactly n ASCII digits.
func Digits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
