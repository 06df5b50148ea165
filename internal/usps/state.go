package usps

import (
	"errors"
	"strings"
)

// errState refuses a state NormalizeState cannot read; it never quotes the
// code.
var errState = errors.New("must be a two-letter USPS state, territory or military code")

// states holds the two-letter codes IsState accepts.
var states = map[string]bool{
	// The 50 states.
	"AL": true, "AK": true, "AZ": true, "AR": true, "CA": true,
	"CO": true, "CT": true, "DE": true, "FL": true, "GA": true,
	"HI": true, "ID": true, "IL": true, "IN": true, "IA": true,
	"KS": true, "KY": true, "LA": true, "ME": true, "MD": true,
	"MA": true, "MI": true, "MN": true, "MS": true, "MO": true,
	"MT": true, "NE": true, "NV": true, "NH": true, "NJ": true,
	"NM": true, "NY": true, "NC": true, "ND": true, "OH": true,
	"OK": true, "OR": true, "PA": true, "RI": true, "SC": true,
	"SD": true, "TN": true, "TX": true, "UT": true, "VT": true,
	"VA": true, "WA": true, "WV": true, "WI": true, "WY": true,
	// The District of Columbia.
	"DC": true,
	// Territories: American Samoa, Guam, the Northern Mariana Islands,
	// Puerto Rico, the Virgin Islands and the Minor Outlying Islands.
	"AS": true, "GU": true, "MP": true, "PR": true, "VI": true, "UM": true,
	// The freely associated states, which the postal service serves
	// domestically: Micronesia, the Marshall Islands and Palau.
	"FM": true, "MH": true, "PW": true,
	// Military mail: the Americas, Europe (and the Middle East, Africa,
	// Canada) and the Pacific.
	"AA": true, "AE": true, "AP": true,
}

// IsState reports whether s is a two-letter upper-case code for an
// address's state field: one of the 50 states, DC, the territories (AS,
// GU, MP, PR, VI, UM), the freely associated states that have USPS codes
// (FM, MH, PW) or the military codes (AA, AE, AP).
func IsState(s string) bool {
	return states[s]
}

// NormalizeState returns the upper-case USPS code that s writes in any
// case, with surrounding spaces ignored: "oh" and " Oh " give "OH". Any
// other text is refused with an error that never quotes it.
func NormalizeState(s string) (string, error) {
	t := strings.TrimSpace(s)
	if len(t) != 2 {
		return "", errState
	}
	if IsState(t) {
		return t, nil
	}
	// ASCII letters only: strings.ToUpper would turn the dotless ı into I.
	u := [2]byte{asciiUpper(t[0]), asciiUpper(t[1])}
	if !states[string(u[:])] {
		return "", errState
	}
	return string(u[:]), nil
}

func asciiUpper(ch byte) byte {
	if 'a' <= ch && ch <= 'z' {
		return ch - 'a' + 'A'
	}
	return ch
}

// WireState returns the code to send for s: its normalised form, or s as
// given when it does not normalise (possible with validation off).
func WireState(s string) string {
	if u, err := NormalizeState(s); err == nil {
		return u
	}
	return s
}

// WireZIP returns the ZIP code to send for s: the 5 or 9 digits
// NormalizeZIP gives, or s as given when it does not normalise.
func WireZIP(s string) string {
	if z, err := NormalizeZIP(s); err == nil {
		return z
	}
	return s
}
