package safetext

import (
	"html"
	"strings"
)

// Decode returns s with its escapes undone, repeatedly (an escape of an
// escape), as a reader would see them: HTML entities, JSON and Go escapes
// (\u00e9, \x41, \n) and percent escapes (%C3%A9). Invalid UTF-8 becomes
// U+FFFD.
func Decode(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	for range 8 {
		t := strings.ToValidUTF8(unPercent(unBackslash(html.UnescapeString(s))), "\uFFFD")
		if t == s {
			break
		}
		s = t
	}
	return s
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// unPercent decodes every valid %XX of s; others stay.
func unPercent(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			h, ok1 := hexVal(s[i+1])
			l, ok2 := hexVal(s[i+2])
			if ok1 && ok2 {
				b = append(b, h<<4|l)
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}

// unBackslash decodes the JSON and Go escapes of s: \uXXXX (with surrogate
// pairs), \UXXXXXXXX, \xXX, and the one-letter escapes; others stay.
func unBackslash(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	hexRune := func(h string) (rune, bool) {
		var r rune
		for i := 0; i < len(h); i++ {
			v, ok := hexVal(h[i])
			if !ok {
				return 0, false
			}
			r = r<<4 | rune(v)
		}
		return r, true
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		c := s[i+1]
		switch c {
		case 'n', 't', 'r', 'b', 'f', 'v', 'a':
			b.WriteByte(' ')
			i++
		case '"', '\\', '/', '\'':
			b.WriteByte(c)
			i++
		case 'u', 'U', 'x':
			n := map[byte]int{'u': 4, 'U': 8, 'x': 2}[c]
			if i+2+n > len(s) {
				b.WriteByte(s[i])
				continue
			}
			r, ok := hexRune(s[i+2 : i+2+n])
			if !ok {
				b.WriteByte(s[i])
				continue
			}
			i += 1 + n
			if c == 'u' && r >= 0xD800 && r < 0xDC00 && i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
				if lo, ok := hexRune(s[i+3 : i+7]); ok && lo >= 0xDC00 && lo < 0xE000 {
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					i += 6
				}
			}
			if c == 'x' {
				b.WriteByte(byte(r))
			} else {
				b.WriteRune(r)
			}
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
