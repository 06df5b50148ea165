package orders_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// getFixture answers Get(id) with the fixture and returns the decoded order.
func getFixture(t *testing.T, id, fixture string) *orders.Order {
	t.Helper()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodGet, ordersEP+"/"+id, testutil.FixtureResponder(t, 200, fixture))
	o, err := client.Orders.Get(context.Background(), id)
	require.NoError(t, err)
	return o
}

// getBody answers Get with body and returns the decoded order.
func getBody(t *testing.T, body string) *orders.Order {
	t.Helper()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodGet, ordersEP+"/"+orderID, testutil.BytesResponder(200, []byte(body)))
	o, err := client.Orders.Get(context.Background(), orderID)
	require.NoError(t, err)
	return o
}

func TestDecode_NewShipping(t *testing.T) {
	t.Parallel()
	o := getFixture(t, shipID, "delivery/order_new_shipping.json")
	assert.Equal(t, shipID, o.ID)
	assert.Equal(t, rxtypes.OrderStatusNew, o.Status)
	assert.Equal(t, "rx-2024-0003", o.ExternalReferenceNumber)
	assert.Nil(t, o.Pickup)
	assert.Nil(t, o.Delivery)
	assert.Nil(t, o.Return)
	assert.Nil(t, o.Cancellation)
	assert.Nil(t, o.ETA)
	require.NotNil(t, o.Shipping)
	s := o.Shipping
	assert.Equal(t, "1Z999AA10123456784", s.TrackingNumber)
	assert.Equal(t, "https://tracking.parcela.test/track?num=1Z999AA10123456784", s.TrackingURL)
	assert.Equal(t, orders.CarrierParcelA, s.Carrier)
	assert.Equal(t, orders.CarrierServiceParcelANextDayAir, s.CarrierService)
	assert.Equal(t, "https://labels.rxdelivery.test/ord_01HXZ4SHIP0000000000000001.pdf", s.LabelPDF)
	assert.Equal(t, "18.75", s.Cost.String())
	assert.True(t, s.SaturdayDelivery)
	assert.Nil(t, s.Delivery)
}

func TestDecode_SubmittedToCourier(t *testing.T) {
	t.Parallel()
	o := getFixture(t, orderID, "delivery/order_submitted_to_courier.json")
	assert.Equal(t, orderID, o.ID)
	assert.Equal(t, rxtypes.OrderStatusSubmittedToCourier, o.Status, "the sample's spaced spelling")
	assert.True(t, o.Status.Known())
	assert.True(t, o.Status.Cancellable())
	assert.Equal(t, "rx-2024-0001", o.ExternalReferenceNumber)
	assert.Nil(t, o.Pickup)
	assert.Nil(t, o.Delivery)
	assert.Nil(t, o.Return)
	assert.Nil(t, o.Shipping)
	assert.Nil(t, o.Cancellation)
	require.NotNil(t, o.ETA)
	assertTime(t, "2024-05-02T15:10:00-04:00", o.ETA.ArrivalAt)
	assert.Equal(t, orders.ETATypePickup, o.ETA.Type)
}

func TestDecode_StatusSpellings(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{`"submitted to courier"`, `"submitted_to_courier"`, `"Submitted To Courier"`} {
		var s rxtypes.OrderStatus
		require.NoError(t, json.Unmarshal([]byte(raw), &s))
		assert.Equal(t, rxtypes.OrderStatusSubmittedToCourier, s, raw)
	}
	for raw, want := range map[string]rxtypes.OrderStatus{
		`"new"`: rxtypes.OrderStatusNew, `"picked_up"`: rxtypes.OrderStatusPickedUp, `"delivered"`: rxtypes.OrderStatusDelivered,
		`"delivery_attempted"`: rxtypes.OrderStatusDeliveryAttempted, `"returned_to_pharmacy"`: rxtypes.OrderStatusReturnedToPharmacy,
		`"cancelled"`: rxtypes.OrderStatusCancelled,
	} {
		var s rxtypes.OrderStatus
		require.NoError(t, json.Unmarshal([]byte(raw), &s))
		assert.Equal(t, want, s)
		assert.True(t, s.Known())
	}
}

func TestDecode_UnknownStatusStillDecodes(t *testing.T) {
	t.Parallel()
	o := getBody(t, `{"order":{"id":"`+orderID+`","status":"on hold by courier","pickup":null,"eta":null}}`)
	assert.Equal(t, rxtypes.OrderStatus("on hold by courier"), o.Status)
	assert.False(t, o.Status.Known())
	assert.False(t, o.Status.Cancellable())

	o = getBody(t, `{"order":{"id":"`+orderID+`","status":7,"extra":{"nested":[1,2]}}}`)
	assert.Equal(t, rxtypes.OrderStatus("7"), o.Status, "a non-string status is kept verbatim")

	o = getBody(t, `{"order":{"id":"`+orderID+`","status":null}}`)
	assert.Equal(t, rxtypes.OrderStatus(""), o.Status)
}

func TestDecode_PickedUp(t *testing.T) {
	t.Parallel()
	o := getFixture(t, orderID, "delivery/order_picked_up.json")
	assert.Equal(t, rxtypes.OrderStatusPickedUp, o.Status)
	assert.False(t, o.Status.Cancellable())
	require.NotNil(t, o.Pickup)
	assertTime(t, "2024-05-02T15:12:31-04:00", o.Pickup.OccurredAt)
	assert.Nil(t, o.Delivery)
	assert.Nil(t, o.Return)
	assert.Nil(t, o.Shipping)
	assert.Nil(t, o.Cancellation)
	require.NotNil(t, o.ETA)
	assertTime(t, "2024-05-02T15:45:00-04:00", o.ETA.ArrivalAt)
	assert.Equal(t, orders.ETATypeDelivery, o.ETA.Type)
}

func TestDecode_Cancelled(t *testing.T) {
	t.Parallel()
	cases := []struct {
		fixture string
		reason  orders.CancellationReason
	}{
		{"delivery/order_cancelled.json", orders.ReasonPatientNoLongerWants},                       // key "reason"
		{"delivery/order_cancelled_cancellation_reason.json", orders.ReasonPharmacyClosedForLunch}, // key "cancellation_reason"
	}
	for _, tc := range cases {
		t.Run(tc.fixture, func(t *testing.T) {
			o := getFixture(t, orderID, tc.fixture)
			assert.Equal(t, orderID, o.ID)
			assert.Equal(t, rxtypes.OrderStatusCancelled, o.Status)
			assert.Nil(t, o.Pickup)
			assert.Nil(t, o.Delivery)
			assert.Nil(t, o.Return)
			assert.Nil(t, o.Shipping)
			assert.Nil(t, o.ETA)
			require.NotNil(t, o.Cancellation)
			assertTime(t, "2024-05-02T14:55:02-04:00", o.Cancellation.OccurredAt)
			assert.Equal(t, tc.reason, o.Cancellation.Reason)
			assert.True(t, o.Cancellation.Reason.Known())
		})
	}
}

func TestDecode_CancellationReasonKeys(t *testing.T) {
	t.Parallel()
	var c orders.Cancellation
	require.NoError(t, json.Unmarshal([]byte(`{"occurred_at":"2024-05-02T14:55:02Z","cancellation_reason":"Out of Stock","reason":"Other"}`), &c))
	assert.Equal(t, orders.ReasonOutOfStock, c.Reason, "cancellation_reason wins over reason")

	c = orders.Cancellation{}
	require.NoError(t, json.Unmarshal([]byte(`{"reason":"Courier ran out of fuel"}`), &c))
	assert.Equal(t, orders.CancellationReason("Courier ran out of fuel"), c.Reason, "an unlisted reason is kept")
	assert.False(t, c.Reason.Known())
	assert.False(t, c.OccurredAt.Valid())

	assert.Error(t, json.Unmarshal([]byte(`"Other"`), &c), "a cancellation is an object")
	assert.Len(t, orders.CancellationReasons(), 33)
}

func TestDecode_Delivered(t *testing.T) {
	t.Parallel()
	o := getFixture(t, orderID, "delivery/order_delivered.json")
	assert.Equal(t, rxtypes.OrderStatusDelivered, o.Status)
	require.NotNil(t, o.Pickup)
	assertTime(t, "2024-05-02T15:12:31-04:00", o.Pickup.OccurredAt)
	require.NotNil(t, o.Delivery)
	d := o.Delivery
	assertTime(t, "2024-05-02T15:41:07-04:00", d.OccurredAt)
	assert.Equal(t, "https://files.rxdelivery.test/signatures/sig_7f3a.png?expires=1714679167", d.SignatureURL)
	assert.Equal(t, "John Roe", d.SignedBy)
	assert.Equal(t, rxtypes.RelationshipOther, d.Relationship)
	assert.Equal(t, "Neighbor", d.OtherRelationshipDescription)
	assert.Empty(t, d.FailureReason)
	assert.Nil(t, d.RecipientIdentification)
	assert.True(t, d.Succeeded())
	assert.Nil(t, o.Return)
	assert.Nil(t, o.Shipping)
	assert.Nil(t, o.Cancellation)
	require.NotNil(t, o.ETA)
	assertTime(t, "2024-05-02T15:45:00-04:00", o.ETA.ArrivalAt)
	assert.Equal(t, orders.ETATypeDelivery, o.ETA.Type)
}

func TestDecode_DeliveredWithIdentification(t *testing.T) {
	t.Parallel()
	o := getFixture(t, orderID, "delivery/order_delivered_identification.json")
	assert.Equal(t, rxtypes.OrderStatusDelivered, o.Status)
	require.NotNil(t, o.Delivery)
	d := o.Delivery
	assertTime(t, "2024-05-02T15:41:07-04:00", d.OccurredAt)
	assert.Equal(t, "https://files.rxdelivery.test/signatures/sig_8b21.png?expires=1714679167", d.SignatureURL)
	assert.Equal(t, "Jane Doe", d.SignedBy)
	assert.Equal(t, rxtypes.Relationship("Self"), d.Relationship)
	assert.Empty(t, d.OtherRelationshipDescription)
	assert.Empty(t, d.FailureReason)
	require.NotNil(t, d.RecipientIdentification)
	id := d.RecipientIdentification
	assert.Equal(t, "D1234567", id.Number)
	assert.Equal(t, "Driver's License", id.Type)
	assert.Equal(t, rxtypes.QualifierDriversLicenseID, id.Qualifier)
	assert.Equal(t, "Driver's License ID", id.Qualifier.Description())
	assert.Equal(t, "OH", id.JurisdictionCode)
}

func TestDecode_Qualifiers(t *testing.T) {
	t.Parallel()
	want := map[rxtypes.IDQualifier]string{
		rxtypes.QualifierMilitaryID: "Military ID", rxtypes.QualifierStateIssuedID: "State Issued ID",
		rxtypes.QualifierUniqueSystemID: "Unique System ID", rxtypes.QualifierPermanentResidentCard: "Permanent Resident Card",
		rxtypes.QualifierPassportID: "Passport ID", rxtypes.QualifierDriversLicenseID: "Driver's License ID",
		rxtypes.QualifierSocialSecurityNumber: "Social Security Number", rxtypes.QualifierTribalID: "Tribal ID",
	}
	for q, d := range want {
		assert.Equal(t, d, q.Description())
	}
	assert.Empty(t, rxtypes.IDQualifier("99").Description())

	for raw, q := range map[string]rxtypes.IDQualifier{
		`"02"`: rxtypes.QualifierStateIssuedID, `2`: rxtypes.QualifierStateIssuedID, `"2"`: rxtypes.QualifierStateIssuedID,
		`"X9"`: "X9", `12`: "12",
	} {
		var got rxtypes.IDQualifier
		require.NoError(t, json.Unmarshal([]byte(raw), &got), raw)
		assert.Equal(t, q, got, raw)
	}
	var got rxtypes.IDQualifier = "05"
	require.NoError(t, json.Unmarshal([]byte(`null`), &got))
	assert.Equal(t, rxtypes.QualifierPassportID, got, "null leaves the value")
}

func TestDecode_DeliveryAttempted(t *testing.T) {
	t.Parallel()
	o := getFixture(t, orderID, "delivery/order_delivery_attempted.json")
	assert.Equal(t, rxtypes.OrderStatusDeliveryAttempted, o.Status)
	require.NotNil(t, o.Pickup)
	require.NotNil(t, o.Delivery)
	d := o.Delivery
	assertTime(t, "2024-05-02T15:43:50-04:00", d.OccurredAt)
	assert.Empty(t, d.SignatureURL)
	assert.Empty(t, d.SignedBy)
	assert.Empty(t, d.Relationship)
	assert.Empty(t, d.OtherRelationshipDescription)
	assert.Equal(t, "Recipient not available", d.FailureReason)
	assert.Nil(t, d.RecipientIdentification)
	assert.False(t, d.Succeeded())
	assert.Nil(t, o.Return)
	var none *rxtypes.Delivery
	assert.False(t, none.Succeeded())
}

func TestDecode_Returned(t *testing.T) {
	t.Parallel()
	o := getFixture(t, orderID, "delivery/order_returned.json")
	assert.Equal(t, rxtypes.OrderStatusReturnedToPharmacy, o.Status)
	require.NotNil(t, o.Pickup)
	assertTime(t, "2024-05-02T15:12:31-04:00", o.Pickup.OccurredAt)
	require.NotNil(t, o.Delivery)
	assert.Equal(t, "Recipient not available", o.Delivery.FailureReason)
	require.NotNil(t, o.Return)
	assertTime(t, "2024-05-02T16:20:15-04:00", o.Return.OccurredAt)
	require.NotNil(t, o.ETA, "the last estimate made before the return")
	assertTime(t, "2024-05-02T15:45:00-04:00", o.ETA.ArrivalAt)
	assert.Nil(t, o.Cancellation)
	assert.Nil(t, o.Shipping)
}

func TestDecode_ShippingDelivered(t *testing.T) {
	t.Parallel()
	o := getFixture(t, shipID, "delivery/order_shipping_delivered.json")
	assert.Equal(t, shipID, o.ID)
	assert.Equal(t, rxtypes.OrderStatusDelivered, o.Status)
	assert.Equal(t, "rx-2024-0003", o.ExternalReferenceNumber)
	assert.Nil(t, o.Pickup)
	assert.Nil(t, o.Delivery)
	assert.Nil(t, o.ETA)
	require.NotNil(t, o.Shipping)
	assert.Equal(t, "1Z999AA10123456784", o.Shipping.TrackingNumber)
	assert.Equal(t, orders.CarrierParcelA, o.Shipping.Carrier)
	assert.Equal(t, orders.CarrierServiceParcelANextDayAir, o.Shipping.CarrierService)
	assert.Equal(t, "18.75", o.Shipping.Cost.String())
	assert.True(t, o.Shipping.SaturdayDelivery)
	require.NotNil(t, o.Shipping.Delivery)
	assertTime(t, "2024-05-04T11:02:00-04:00", o.Shipping.Delivery.OccurredAt)
}

func TestDecode_OddTimestampDoesNotFail(t *testing.T) {
	t.Parallel()
	o := getBody(t, `{"order":{"id":"x","status":"picked_up","pickup":{"occurred_at":"about noon"}}}`)
	require.NotNil(t, o.Pickup)
	assert.Equal(t, "about noon", o.Pickup.OccurredAt.Raw)
	assert.False(t, o.Pickup.OccurredAt.Valid())
}
