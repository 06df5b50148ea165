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
// whether s is free of them. Required, MaxLen and every check built on
// them (State, ZIP, NDC, NPI, NCPDP, Phone) apply it first; Text is for
// the optional fields no other rule checks.
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
// U+2066-U+2069), or, unless multiline, U+2028 or U+2029. It reads bytes:
// printable ASCII, the common case, costs one comparison per byte, and the
// characters it looks for past ASCII all start with 0xC2 or 0xE2. Bytes
// that are not UTF-8 are left to the encoder (encoding/json sends them as
// U+FFFD).
func badText(s string, multiline bool) bool {
	for i := 0; i < len(s); i++ {
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
