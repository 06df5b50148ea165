package validate

import (
	"errors"
	"strings"
)

// Refusals of NormalizePhone, checked in this order. Each one reads after
// a JSON path and never quotes the number.
var (
	errPhoneChars    = errors.New("must be a US phone number of digits, spaces, hyphens, dots, parentheses and a leading +1; letters and extensions are not accepted")
	errPhoneCountry  = errors.New("must be a US phone number; a country code other than +1 is not accepted")
	errPhoneLength   = errors.New("must be 10 digits (a US phone number), optionally after the country code 1")
	errPhoneLayout   = errors.New("must be 10 digits written together or grouped 3-3-4 (area code optionally in parentheses), optionally after +1")
	errPhoneArea     = errors.New("must have an area code that does not begin with 0 or 1")
	errPhoneExchange = errors.New("must have an exchange code (digits 4 to 6) that does not begin with 0 or 1")
)

// NormalizePhone turns a US phone number as people write it into the
// 10 digits that the platform's phone fields take.
//
// It accepts 10 digits written together or grouped 3-3-4 with spaces,
// hyphens or dots, the area code optionally in parentheses, optionally
// after the country code as "1" or "+1":
//
//	(614) 555-0100   614.555.0100   614-555-0100   614 555 0100
//	+1 614 555 0100  1-614-555-0100  6145550100    +16145550100
//
// all give 6145550100. Surrounding spaces are ignored. It refuses letters
// and extensions, any other digit count or grouping, a country code other
// than 1, and an area code or exchange code that begins with 0 or 1, which
// the North American Numbering Plan does not assign. The error never
// quotes the number.
func NormalizePhone(s string) (string, error) {
	s = strings.TrimSpace(s)
	plus := strings.HasPrefix(s, "+")
	if plus {
		s = s[1:]
	}
	// Split s into runs of digits (groups) and the separators around them:
	// seps[i] comes before groups[i], and the last sep trails.
	var groups, seps []string
	for i := 0; ; {
		j := i
		for j < len(s) && !isDigit(s[j]) {
			if !strings.ContainsRune(" -.()", rune(s[j])) {
				return "", errPhoneChars
			}
			j++
		}
		seps = append(seps, s[i:j])
		if j == len(s) {
			break
		}
		k := j
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		groups = append(groups, s[j:k])
		i = k
	}
	digits := strings.Join(groups, "")

	national := digits
	switch {
	case plus:
		if !strings.HasPrefix(digits, "1") {
			return "", errPhoneCountry
		}
		national = digits[1:]
	case len(digits) == 11 && digits[0] == '1':
		national = digits[1:]
	}
	if len(national) != 10 {
		return "", errPhoneLength
	}
	if !phoneLayoutValid(groups, seps, len(national) < len(digits)) {
		return "", errPhoneLayout
	}
	switch {
	case national[0] == '0' || national[0] == '1':
		return "", errPhoneArea
	case national[3] == '0' || national[3] == '1':
		return "", errPhoneExchange
	}
	return national, nil
}

// phoneLayoutValid reports whether the digit groups and the separators
// between them form one of the layouts NormalizePhone accepts. The caller
// has checked the digit count; country says whether the digits begin with
// the country code 1.
func phoneLayoutValid(groups, seps []string, country bool) bool {
	if seps[0] != "" && seps[0] != "(" || seps[len(seps)-1] != "" {
		return false
	}
	first := 0 // the index of the first group of the national number
	if country {
		if len(groups) == 1 {
			return seps[0] == "" // 16145550100
		}
		if groups[0] != "1" || seps[0] != "" {
			return false
		}
		first = 1
	}
	national := groups[first:]
	switch {
	case len(national) == 1:
		// 6145550100, or 1 6145550100.
		if first == 0 {
			return seps[0] == ""
		}
		return plainSep(seps[1])
	case len(national) == 3 && len(national[0]) == 3 && len(national[1]) == 3:
	default:
		return false
	}
	before, after := seps[first], seps[first+1]
	paren := strings.HasSuffix(before, "(")
	if paren {
		if !strings.HasPrefix(after, ")") {
			return false
		}
		before, after = before[:len(before)-1], after[1:]
	}
	// Before the area code: nothing at the start (the checks above leave
	// nothing else there), and after the country code one separator, or
	// none before a parenthesis. The same after the area code.
	if first == 1 && !plainSep(before) && !(paren && before == "") {
		return false
	}
	if !plainSep(after) && !(paren && after == "") {
		return false
	}
	return plainSep(seps[first+2])
}

// plainSep reports whether sep is one space, hyphen or dot.
func plainSep(sep string) bool {
	return sep == " " || sep == "-" || sep == "."
}

// Phone checks the phone number at path: present and exactly 10 digits,
// as the platform takes it. A number that NormalizePhone would convert
// gets a message that says so.
func (c *Collector) Phone(path, s string) {
	if c.present(path, s) {
		c.phone(path, s)
	}
}

// OptionalPhone checks the phone number at path like Phone, but lets an
// empty string pass: for fields the documents mark optional.
func (c *Collector) OptionalPhone(path, s string) {
	if s != "" {
		c.phone(path, s)
	}
}

// phone records a problem when s is not exactly 10 digits, the text
// rule's first (ten digits hold no control character).
func (c *Collector) phone(path, s string) {
	switch {
	case Digits(s, 10):
	case !c.Text(path, s):
	case isNormalizable(NormalizePhone, s):
		c.Add(path, "must be 10 digits without separators or country code; NormalizePhone converts this form")
	default:
		c.Add(path, "must be 10 digits")
	}
}
