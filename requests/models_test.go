package requests_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func TestParseETA(t *testing.T) {
	t.Parallel()
	may1 := rxdelivery.Date{Year: 2024, Month: time.May, Day: 1}
	cases := []struct {
		in       string
		wantTime string // RFC 3339 in UTC, or "" for none
		wantDate rxdelivery.Date
	}{
		{"2024-05-01T16:00:00-04:00", "2024-05-01T20:00:00Z", may1},
		{"2024-05-01T23:30:00.123456-04:00", "2024-05-02T03:30:00.123456Z", may1}, // the date as written
		{"2024-05-01T16:00:00Z", "2024-05-01T16:00:00Z", may1},
		{"2024-05-01 16:00:00", "", may1}, // no offset: no instant, the date as written
		{"2024-05-01 16:00:00 -0400", "2024-05-01T20:00:00Z", may1},
		{"2024-05-01 2:00pm-4:00pm EDT", "", may1},
		{" 2024-05-01 2:00pm-4:00pm EDT", "", may1},
		{"2024-05-01", "", may1},
		{"2024-05-01T2pm", "", may1},
		{"2024-02-30 2:00pm-4:00pm EST", "", rxdelivery.Date{}},
		{"2024-05-012", "", rxdelivery.Date{}},
		{"May 1, 2:00pm-4:00pm EDT", "", rxdelivery.Date{}},
		{"soon", "", rxdelivery.Date{}},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			e := requests.ParseETA(tc.in)
			assert.Equal(t, tc.in, e.Raw)
			assert.Equal(t, tc.in, e.String())
			assert.Equal(t, tc.wantDate, e.Date)
			assert.False(t, e.IsZero())
			if tc.wantTime == "" {
				assert.False(t, e.HasTime())
				assert.True(t, e.Time.IsZero())
				return
			}
			require.True(t, e.HasTime())
			assert.Equal(t, tc.wantTime, e.Time.UTC().Format(time.RFC3339Nano))
		})
	}
}

func TestETAJSON(t *testing.T) {
	t.Parallel()
	var r struct {
		ETA requests.ETA `json:"delivery_eta"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"delivery_eta":"2024-05-01 2:00pm-4:00pm EDT"}`), &r))
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.JSONEq(t, `{"delivery_eta":"2024-05-01 2:00pm-4:00pm EDT"}`, string(b))

	// A value that is not a string is kept verbatim.
	require.NoError(t, json.Unmarshal([]byte(`{"delivery_eta":1714574400}`), &r))
	assert.Equal(t, "1714574400", r.ETA.Raw)
	assert.False(t, r.ETA.HasTime())

	// null leaves the field as it was.
	require.NoError(t, json.Unmarshal([]byte(`{"delivery_eta":null}`), &r))
	assert.Equal(t, "1714574400", r.ETA.Raw)

	var zero requests.ETA
	assert.True(t, zero.IsZero())
	b, err = json.Marshal(zero)
	require.NoError(t, err)
	assert.Equal(t, "null", string(b))

	b, err = json.Marshal(requests.ETA{Time: time.Date(2024, 5, 1, 20, 0, 0, 0, time.UTC)})
	require.NoError(t, err)
	assert.Equal(t, `"2024-05-01T20:00:00Z"`, string(b))
}

func TestOrderStatusDecoding(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want rxtypes.OrderStatus
	}{
		{`"new"`, rxtypes.OrderStatusNew},
		{`"submitted_to_courier"`, rxtypes.OrderStatusSubmittedToCourier},
		{`"submitted to courier"`, rxtypes.OrderStatusSubmittedToCourier},
		{`"Submitted To Courier"`, rxtypes.OrderStatusSubmittedToCourier},
		{`"picked up"`, rxtypes.OrderStatusPickedUp},
		{`"delivered"`, rxtypes.OrderStatusDelivered},
		{`"delivery_attempted"`, rxtypes.OrderStatusDeliveryAttempted},
		{`"returned_to_pharmacy"`, rxtypes.OrderStatusReturnedToPharmacy},
		{`"cancelled"`, rxtypes.OrderStatusCancelled},
		{`"in transit"`, "in transit"}, // unknown: verbatim
		{`"Out_For_Delivery"`, "Out_For_Delivery"},
		{`7`, "7"},
		{`"caf\u00e9"`, "café"},
	}
	for _, tc := range cases {
		var s rxtypes.OrderStatus
		require.NoError(t, json.Unmarshal([]byte(tc.in), &s), tc.in)
		assert.Equal(t, tc.want, s, tc.in)
	}
	s := rxtypes.OrderStatusDelivered
	require.NoError(t, json.Unmarshal([]byte(`null`), &s))
	assert.Equal(t, rxtypes.OrderStatusDelivered, s)
	assert.False(t, rxtypes.OrderStatus("in transit").Known())
}

func TestEnumsAreTolerant(t *testing.T) {
	t.Parallel()
	var st requests.Status
	require.NoError(t, json.Unmarshal([]byte(`{"name":3,"detail":{"x":1}}`), &st))
	assert.Equal(t, requests.StatusName("3"), st.Name)
	assert.Equal(t, requests.StatusDetail(`{"x":1}`), st.Detail)

	var d rxtypes.Delivery
	require.NoError(t, json.Unmarshal([]byte(`{"relationship":"Spouse","recipient_identification":{"qualifier":6}}`), &d))
	assert.Equal(t, rxtypes.Relationship("Spouse"), d.Relationship)
	require.NotNil(t, d.RecipientIdentification)
	assert.Equal(t, rxtypes.QualifierDriversLicenseID, d.RecipientIdentification.Qualifier, "a bare digit reads as its two-digit code")
	assert.True(t, d.RecipientIdentification.Qualifier.Known())

	require.NoError(t, json.Unmarshal([]byte(`{"relationship":1}`), &d))
	assert.Equal(t, rxtypes.Relationship("1"), d.Relationship)
}

func TestQualifierDescriptions(t *testing.T) {
	t.Parallel()
	want := map[rxtypes.IDQualifier]string{
		rxtypes.QualifierMilitaryID:            "Military ID",
		rxtypes.QualifierStateIssuedID:         "State Issued ID",
		rxtypes.QualifierUniqueSystemID:        "Unique System ID",
		rxtypes.QualifierPermanentResidentCard: "Permanent Resident Card",
		rxtypes.QualifierPassportID:            "Passport ID",
		rxtypes.QualifierDriversLicenseID:      "Driver's License ID",
		rxtypes.QualifierSocialSecurityNumber:  "Social Security Number",
		rxtypes.QualifierTribalID:              "Tribal ID",
	}
	codes := []string{"01", "02", "03", "04", "05", "06", "07", "08"}
	require.Len(t, want, len(codes))
	for _, code := range codes {
		q := rxtypes.IDQualifier(code)
		assert.Equal(t, want[q], q.Description(), code)
		assert.True(t, q.Known(), code)
	}
	assert.Empty(t, rxtypes.IDQualifier("09").Description())
	assert.False(t, rxtypes.IDQualifier("").Known())
}

func TestDropoffAddressEncodesEachForm(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(requests.NewDropoffPlace("ChIJ123"))
	require.NoError(t, err)
	assert.JSONEq(t, `{"place_id":"ChIJ123"}`, string(b))

	b, err = json.Marshal(requests.NewDropoffAddress(requests.Address{Street1: "1 A St", City: "Columbus", State: "OH", Zipcode: "43210"}))
	require.NoError(t, err)
	assert.JSONEq(t, `{"street1":"1 A St","city":"Columbus","state":"OH","zipcode":"43210"}`, string(b))
}

func TestRequestRoundTrip(t *testing.T) {
	t.Parallel()
	in := `{"id":"r1","external_reference_number":"x","created_at":"2024-05-01T13:45:10Z","order":null,"delivery_eta":"2024-05-01 2:00pm-4:00pm EDT"}`
	var r requests.Request
	require.NoError(t, json.Unmarshal([]byte(in), &r))
	out, err := json.Marshal(r)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out))
}
