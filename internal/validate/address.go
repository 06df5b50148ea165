package validate

import "github.com/rxdelivery/rxdelivery-go/internal/usps"

// State checks the state at path: present and a code that NormalizeState
// accepts. The params' encoders send the normalised code.
func (c *Collector) State(path, s string) {
	if !c.present(path, s) {
		return
	}
	// Two printable ASCII bytes, the common case, hold no control
	// character; anything else meets the text rule first.
	if (len(s) == 2 && printable(s[0]) && printable(s[1])) || c.Text(path, s) {
		_, err := usps.NormalizeState(s)
		c.AddErr(path, err)
	}
}

// printable reports whether b is printable ASCII.
func printable(b byte) bool { return b-0x20 < 0x5f }

// ZIP checks the zipcode at path: present and a ZIP code that NormalizeZIP
// accepts (5 digits, or a ZIP+4 with or without its hyphen). The params'
// encoders send the normalised 5 or 9 digits the platform takes.
func (c *Collector) ZIP(path, s string) {
	// Digits, the common case, hold no control character.
	if !c.present(path, s) || Digits(s, 5) || Digits(s, 9) || !c.Text(path, s) {
		return
	}
	if _, err := usps.NormalizeZIP(s); err != nil {
		c.Add(path, "must be 5 or 9 digits")
	}
}
