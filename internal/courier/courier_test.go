package courier

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOrderStatus(t *testing.T) {
	for raw, want := range map[string]OrderStatus{
		`"submitted to courier"`: OrderSubmittedToCourier,
		`"Submitted_To_Courier"`: OrderSubmittedToCourier,
		`"picked_up"`:            OrderPickedUp,
		`"on_hold"`:              "on_hold",
		`7`:                      "7",
	} {
		var s OrderStatus
		require.NoError(t, json.Unmarshal([]byte(raw), &s))
		assert.Equal(t, want, s, raw)
	}
	s := OrderNew
	require.NoError(t, json.Unmarshal([]byte(`null`), &s))
	assert.Equal(t, OrderNew, s, "null leaves the value")
	assert.True(t, OrderNew.Cancellable())
	assert.True(t, OrderSubmittedToCourier.Cancellable())
	assert.False(t, OrderPickedUp.Cancellable())
	for _, f := range []OrderStatus{OrderDelivered, OrderReturnedToPharmacy, OrderCancelled} {
		assert.True(t, f.Final(), f)
	}
	assert.False(t, OrderDeliveryAttempted.Final())
	assert.False(t, OrderStatus("on_hold").Known())
}

func TestQualifierAndDelivery(t *testing.T) {
	want := []string{"Military ID", "State Issued ID", "Unique System ID", "Permanent Resident Card",
		"Passport ID", "Driver's License ID", "Social Security Number", "Tribal ID"}
	for i, d := range want {
		q := IDQualifier([]byte{'0', byte('1' + i)})
		assert.Equal(t, d, q.Description())
		assert.True(t, q.Known())
	}
	assert.Equal(t, "", IDQualifier("09").Description())
	var d Delivery
	require.NoError(t, json.Unmarshal([]byte(`{"relationship":"Other","failure_reason":null,
		"recipient_identification":{"qualifier":2,"jurisdiction_code":"OH"}}`), &d))
	assert.Equal(t, RelationshipOther, d.Relationship)
	assert.Equal(t, QualifierStateIssuedID, d.RecipientIdentification.Qualifier)
	assert.True(t, d.Succeeded())
	d.FailureReason = "no one home"
	assert.False(t, d.Succeeded())
	var none *Delivery
	assert.False(t, none.Succeeded())
}
