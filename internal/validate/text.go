package validate

// The characters no text field the SDK sends may carry (a rule of the
// domain: the documents do not state it). A C0 or C1 control character or
// DEL has no place in a name, an address, a reference or a code: an ESC
// sequence in a patient's name rewrites the screen of whoever prints it,
// NUL truncates it in C strings, a line break forges lines in a log or a
// CSV export. The bidirectional embeddings, overrides and isolates
// (U+202A-U+202E, U+2066-U+2069) make a name render as another (an
// override reverses the letters after it). Single-line fields also refuse
// the Unicode line and paragraph separators (U+2028, U+2029): line breaks
// like \n. Free text written to a person (the courier's delivery notes)
// may hold line breaks and tabs: \t, \n, \r, U+2028 and U+2029.

// Messages of the text rule. Like every message, they never quote the
// value.
const (
	msgTextLine = "must not contain control characters (line breaks included) or bidirectional overrides"
	msgTextNote = "must not contain control characters other than tabs and line breaks, or bidirectional overrides"
)

// Text records a problem when s, a single-line text field, holds a
// character no text field may carry (see the rule above). It reports
// whether s is free of them. Required and MaxLen apply it, and the checks
// of codes (State, ZIP, NDC, NPI, NCPDP, Phone) before any refusal of
// their own (a value they pass at once, digits or two letters, holds no
// control character); Text is for the optional fields no other rule
// checks.
func (c *Collector) Text(path, s string) bool {
	if badText(s, false) {
		c.Add(path, msgTextLine)
		return false
	}
	return true
}

// HasControl reports whether s holds a character the text rule refuses in
// a single-line field, for callers outside a Collector.
func HasControl(s string) bool { return badText(s, false) }

// NoteMaxLen checks free text written to a person, such as delivery notes:
// tabs and line breaks are allowed, other control characters and the
// bidirectional overrides are not, and s has at most n characters.
func (c *Collector) NoteMaxLen(path, s string, n int) {
	if badText(s, true) {
		c.Add(path, msgTextNote)
		return
	}
	c.maxLen(path, s, n)
}

// badText reports whether s holds a C0 control character (but \t, \n and
// \r when multiline), DEL, a C1 control character (U+0080-U+009F), a
// bidirectional embedding, override or isolate (U+202A-U+202E,
// U+2066-U+2069), or, unless multiline, U+2028 or U+2029. Printable
// ASCII, the common case, is passed over eight bytes at a time, then one
// comparison per byte; the rest is read byte by byte in badTextFrom. Bytes
// that are not UTF-8 are left to the encoder (encoding/json sends them as
// U+FFFD).
//
// TestBadTextAgreesWithItsDefinition and FuzzBadText hold it to the
// definition written rune by rune.
func badText(s string, multiline bool) bool {
	i := 0
	// A word of eight bytes is all printable ASCII (0x20 to 0x7E) when no
	// byte borrows into its top bit as 0x20 is taken from it (a byte below
	// 0x20) and none has its top bit set once 1 is added (above 0x7E).
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		_ = s[i+7]
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if ((w-0x20*ones)&^w|(w+ones)|w)&tops != 0 {
			break
		}
	}
	for i < len(s) && s[i]-0x20 < 0x5f {
		i++
	}
	return i < len(s) && badTextFrom(s, i, multiline)
}

// badTextFrom is badText from s[i] on, byte by byte.
func badTextFrom(s string, i int, multiline bool) bool {
	for ; i < len(s); i++ {
		b := s[i]
		switch {
		case b >= 0x20 && b < 0x7f:
		case b < 0x20:
			if !multiline || (b != '\t' && b != '\n' && b != '\r') {
				return true
			}
		case b == 0x7f:
			return true
		case b == 0xc2:
			// U+0080-U+009F are 0xC2 0x80-0x9F.
			if i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] < 0xa0 {
				return true
			}
		case b == 0xe2 && i+2 < len(s):
			switch s[i+1] {
			case 0x80:
				// U+2028-U+202E are 0xE2 0x80 0xA8-0xAE.
				c := s[i+2]
				if (c >= 0xaa && c <= 0xae) || (!multiline && (c == 0xa8 || c == 0xa9)) {
					return true
				}
			case 0x81:
				// U+2066-U+2069 are 0xE2 0x81 0xA6-0xA9.
				if c := s[i+2]; c >= 0xa6 && c <= 0xa9 {
					return true
				}
			}
		}
	}
	return false
}
