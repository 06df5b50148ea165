package validate

import "testing"

func TestCollectorState(t *testing.T) {
	t.Parallel()
	runCollector(t, Options{}, (*Collector).State, []collectorCase{
		{in: "OH"},
		{in: "PR"},
		{in: "", want: "is required"},
		{in: "  ", want: "is required"},
		{in: "oh"},   // sent as OH
		{in: " Pr "}, // sent as PR
		{in: "Ohio", want: "must be a two-letter USPS state, territory or military code"},
		{in: "XX", want: "must be a two-letter USPS state, territory or military code"},
	})
}

func TestCollectorZIP(t *testing.T) {
	t.Parallel()
	runCollector(t, Options{}, (*Collector).ZIP, []collectorCase{
		{in: "43210"},
		{in: "432101234"},
		{in: "", want: "is required"},
		{in: " ", want: "is required"},
		{in: "43210-1234"}, // sent as 432101234
		{in: " 43210"},     // sent as 43210
		{in: "4321", want: "must be 5 or 9 digits"},
		{in: "43210-123", want: "must be 5 or 9 digits"},
		{in: "432101", want: "must be 5 or 9 digits"},
	})
}

// TestCollectorKeepsEveryProblem checks the checks together on one
// Collector: each problem is recorded at its own path, in call order.
func TestCollectorKeepsEveryProblem(t *testing.T) {
	t.Parallel()
	var c Collector
	c.NDC("prescriptions[0].ndc", "1234-5678-90")
	c.NPI("pharmacy.npi", "12345")
	c.NCPDP("pharmacy.ncpdp", "1234567")
	c.Phone("recipient.mobile_phone_number", "")
	c.OptionalPhone("recipient.home_phone_number", "")
	c.ZIP("recipient.address.zipcode", "43210-12")
	c.State("recipient.address.state", "Ohio")
	err := c.Err()
	want := "rxdelivery: invalid params: " +
		"prescriptions[0].ndc: must be 11 digits without hyphens; NormalizeNDC converts this form; " +
		"pharmacy.npi: must be 10 digits; " +
		"recipient.mobile_phone_number: is required; " +
		"recipient.address.zipcode: must be 5 or 9 digits; " +
		"recipient.address.state: must be a two-letter USPS state, territory or military code"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
