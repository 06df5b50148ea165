package orders

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStatus(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]Status{
		`"submitted to courier"`: StatusSubmittedToCourier,
		`"Submitted_To_Courier"`: StatusSubmittedToCourier,
		`"picked_up"`:            StatusPickedUp,
		`"on_hold"`:              "on_hold",
		`7`:                      "7",
	} {
		var s Status
		require.NoError(t, json.Unmarshal([]byte(raw), &s))
		assert.Equal(t, want, s, raw)
	}
	s := StatusNew
	require.NoError(t, json.Unmarshal([]byte(`null`), &s))
	assert.Equal(t, StatusNew, s, "null leaves the value")
	assert.True(t, StatusNew.Cancellable())
	assert.True(t, StatusSubmittedToCourier.Cancellable())
	assert.False(t, StatusPickedUp.Cancellable())
	for _, f := range []Status{StatusDelivered, StatusReturnedToPharmacy, StatusCancelled} {
		assert.True(t, f.Final(), f)
	}
	assert.False(t, StatusDeliveryAttempted.Final())
	assert.False(t, Status("on_hold").Known())
}

func TestQualifierAndDelivery(t *testing.T) {
	t.Parallel()
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
