package validate

import (
	"errors"
	"strings"
)

// Refusals of NormalizeNDC. Each one reads after a JSON path and never
// quotes the code.
var (
	errNDCChars     = errors.New("must be 11 digits (5-4-2); only digits and hyphens are allowed")
	errNDCLength    = errors.New("must be 11 digits (5-4-2), or 10 digits hyphenated 4-4-2, 5-3-2 or 5-4-1")
	errNDCSegments  = errors.New("must be 11 digits (5-4-2); a hyphenated code must have three segments of 5-4-2, 4-4-2, 5-3-2 or 5-4-1 digits")
	errNDCAmbiguous = errors.New("must be 11 digits (5-4-2); 10 digits without hyphens are ambiguous (the code could be 4-4-2, 5-3-2 or 5-4-1), so write it with hyphens")
)

// NormalizeNDC turns a National Drug Code as printed on a package or a
// label into the 11-digit form (5-4-2, no hyphens) that the platform's ndc
// fields take.
//
// It accepts 11 digits with or without hyphens (5-4-2), and the three
// hyphenated 10-digit forms, which it pads with a zero in the short
// segment: 4-4-2 becomes 0 + labeler, 5-3-2 becomes 0 + product, and 5-4-1
// becomes 0 + package. Surrounding spaces are ignored.
//
// Ten digits without hyphens are refused: the short segment cannot be told
// apart, so the code must be written with its hyphens. Anything else is
// refused too. The error never quotes the code.
func NormalizeNDC(s string) (string, error) {
	s = strings.TrimSpace(s)
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) && s[i] != '-' {
			return "", errNDCChars
		}
	}
	if !strings.Contains(s, "-") {
		switch len(s) {
		case 11:
			return s, nil
		case 10:
			return "", errNDCAmbiguous
		}
		return "", errNDCLength
	}
	if n := len(s) - strings.Count(s, "-"); n != 10 && n != 11 {
		return "", errNDCLength
	}
	parts := strings.Split(s, "-")
	if len(parts) != 3 {
		return "", errNDCSegments
	}
	labeler, product, pkg := parts[0], parts[1], parts[2]
	switch {
	case len(labeler) == 5 && len(product) == 4 && len(pkg) == 2:
	case len(labeler) == 4 && len(product) == 4 && len(pkg) == 2:
		labeler = "0" + labeler
	case len(labeler) == 5 && len(product) == 3 && len(pkg) == 2:
		product = "0" + product
	case len(labeler) == 5 && len(product) == 4 && len(pkg) == 1:
		pkg = "0" + pkg
	default:
		return "", errNDCSegments
	}
	return labeler + product + pkg, nil
}

// NDC checks the ndc at path: present and exactly 11 digits, as the
// platform takes it. A code that NormalizeNDC would convert gets a message
// that says so; an unhyphenated 10-digit code gets the reason it cannot be
// converted.
func (c *Collector) NDC(path, s string) {
	if !c.present(path, s) || Digits(s, 11) || !c.Text(path, s) {
		return
	}
	switch {
	case isNormalizable(NormalizeNDC, s):
		if strings.Contains(s, "-") {
			c.Add(path, "must be 11 digits without hyphens; NormalizeNDC converts this form")
		} else {
			c.Add(path, "must be 11 digits without spaces; NormalizeNDC converts this form")
		}
	case Digits(strings.TrimSpace(s), 10):
		c.Add(path, errNDCAmbiguous.Error())
	default:
		c.Add(path, "must be 11 digits (5-4-2)")
	}
}

// isNormalizable reports whether normalize accepts s.
func isNormalizable(normalize func(string) (string, error), s string) bool {
	_, err := normalize(s)
	return err == nil
}

// isDigit reports whether b is an ASCII digit.
func isDigit(b byte) bool { return '0' <= b && b <= '9' }
