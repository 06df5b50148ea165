package validate

import "github.com/rxdelivery/rxdelivery-go/internal/usps"

// State checks the state at path: present and a code that NormalizeState
// accepts. The params' encoders send the normalised code.
func (c *Collector) State(path, s string) {
	if c.Required(path, s) {
		_, err := usps.NormalizeState(s)
		c.AddErr(path, err)
	}
}

// ZIP checks the zipcode at path: present and a ZIP code that NormalizeZIP
// accepts (5 digits, or a ZIP+4 with or without its hyphen). The params'
// encoders send the normalised 5 or 9 digits the platform takes.
func (c *Collector) ZIP(path, s string) {
	if !c.Required(path, s) {
		return
	}
	if _, err := usps.NormalizeZIP(s); err != nil {
		c.Add(path, "must be 5 or 9 digits")
	}
}
