package orders

import (
	"encoding/json"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStatus(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]rxtypes.OrderStatus{
		`"submitted to courier"`: rxtypes.OrderStatusSubmittedToCourier,
		`"Submitted_To_Courier"`: rxtypes.OrderStatusSubmittedToCourier,
		`"picked_up"`:            rxtypes.OrderStatusPickedUp,
		`"on_hold"`:              "on_hold",
		`7`:                      "7",
	} {
		var s rxtypes.OrderStatus
		require.NoError(t, json.Unmarshal([]byte(raw), &s))
		assert.Equal(t, want, s, raw)
	}
	s := rxtypes.OrderStatusNew
	require.NoError(t, json.Unmarshal([]byte(`null`), &s))
	assert.Equal(t, rxtypes.OrderStatusNew, s, "null leaves the value")
	assert.True(t, rxtypes.OrderStatusNew.Cancellable())
	assert.True(t, rxtypes.OrderStatusSubmittedToCourier.Cancellable())
	assert.False(t, rxtypes.OrderStatusPickedUp.Cancellable())
	for _, f := range []rxtypes.OrderStatus{rxtypes.OrderStatusDelivered, rxtypes.OrderStatusReturnedToPharmacy, rxtypes.OrderStatusCancelled} {
		assert.True(t, f.Final(), f)
	}
	assert.False(t, rxtypes.OrderStatusDeliveryAttempted.Final())
	assert.False(t, rxtypes.OrderStatus("on_hold").Known())
}

func TestQualifierAndDelivery(t *testing.T) {
	t.Parallel()
	want := []string{"Military ID", "State Issued ID", "Unique System ID", "Permanent Resident Card",
		"Passport ID", "Driver's License ID", "Social Security Number", "Tribal ID"}
	for i, d := range want {
		q := rxtypes.IDQualifier([]byte{'0', byte('1' + i)})
		assert.Equal(t, d, q.Description())
		assert.True(t, q.Known())
	}
	assert.Equal(t, "", rxtypes.IDQualifier("09").Description())
	var d rxtypes.Delivery
	require.NoError(t, json.Unmarshal([]byte(`{"relationship":"Other","failure_reason":null,
		"recipient_identification":{"qualifier":2,"jurisdiction_code":"OH"}}`), &d))
	assert.Equal(t, rxtypes.RelationshipOther, d.Relationship)
	assert.Equal(t, rxtypes.QualifierStateIssuedID, d.RecipientIdentification.Qualifier)
	assert.True(t, d.Succeeded())
	d.FailureReason = "no one home"
	assert.False(t, d.Succeeded())
	var none *rxtypes.Delivery
	assert.False(t, none.Succeeded())
}
