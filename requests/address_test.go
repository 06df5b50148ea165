package requests_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func TestAddressConversions(t *testing.T) {
	t.Parallel()
	omni := requests.Address{Street1: "42 Elm Avenue", Street2: "Apt 3", City: "Columbus", State: "OH", Zipcode: "43210"}
	delivery := rxtypes.Address{Street: "42 Elm Avenue", Street2: "Apt 3", City: "Columbus", State: "OH", Zipcode: "43210"}
	assert.Equal(t, delivery, omni.ToOrders())
	assert.Equal(t, omni, requests.AddressFromOrders(delivery))
	assert.Equal(t, omni, requests.AddressFromOrders(omni.ToOrders()), "round trip")

	b, err := json.Marshal(omni.ToOrders())
	require.NoError(t, err)
	assert.JSONEq(t, `{"street":"42 Elm Avenue","street2":"Apt 3","city":"Columbus","state":"OH","zipcode":"43210"}`, string(b))
}

// TestAddressesAreSentNormalised checks that a state in lower case and a
// hyphenated ZIP+4, which validation accepts, go on the wire in the form
// the documents set, and that the caller's values are left as they were.
func TestAddressesAreSentNormalised(t *testing.T) {
	t.Parallel()
	a := requests.Address{Street1: "42 Elm Avenue", City: "Columbus", State: "oh", Zipcode: "43210-1234"}
	d := requests.NewDropoffAddress(a)
	o := a.ToOrders()
	for name, v := range map[string]any{"requests.Address": a, "requests.DropoffAddress": d, "rxtypes.Address": o} {
		b, err := json.Marshal(v)
		require.NoError(t, err, name)
		var wire map[string]string
		require.NoError(t, json.Unmarshal(b, &wire), name)
		assert.Equal(t, "OH", wire["state"], name)
		assert.Equal(t, "432101234", wire["zipcode"], name)
	}
	assert.Equal(t, "oh", a.State, "the caller's value is not changed")
	assert.Equal(t, "43210-1234", o.Zipcode)

	place, err := json.Marshal(requests.NewDropoffPlace("ChIJ123"))
	require.NoError(t, err)
	assert.JSONEq(t, `{"place_id":"ChIJ123"}`, string(place), "the place form stays alone")
}
