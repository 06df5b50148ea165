package rxtypes

import (
	"encoding/json"

	"github.com/rxdelivery/rxdelivery-go/internal/usps"
)

// Address is a US postal address of the delivery interface; rxtypes.Address
// and rxtypes.Address name it. Its first line is street (the
// omni interface calls it street1: requests.Address, and
// requests.AddressFromOrders and requests.Address.ToOrders convert between
// the two). It is also the dropoff address of pharmacies.DeliveryInfo,
// sent as query parameters.
type Address struct {
	// Street is the first line; required, at most 255 characters.
	Street string `json:"street" url:"street"`
	// Street2 is the second line; optional, at most 255 characters.
	Street2 string `json:"street2,omitempty" url:"street2,omitempty"`
	// City is required, at most 255 characters.
	City string `json:"city" url:"city"`
	// State is the two-letter USPS code, such as "OH"; required. It is
	// sent in upper case ("oh" goes as "OH").
	State string `json:"state" url:"state"`
	// Zipcode is the ZIP code, 5 digits or a ZIP+4; required. A ZIP+4 is
	// sent as 9 digits ("43210-1234" goes as "432101234").
	Zipcode string `json:"zipcode" url:"zipcode"`
}

// MarshalJSON encodes the address with its state and ZIP code in the
// form the platform takes (see State and Zipcode); a is not changed.
func (a Address) MarshalJSON() ([]byte, error) {
	type plain Address // plain has the fields, not this method
	q := plain(a)
	q.State, q.Zipcode = usps.WireState(q.State), usps.WireZIP(q.Zipcode)
	return json.Marshal(q)
}
