package orders_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func TestCreate_EncodesDocumentedExamples(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		params  *orders.CreateParams
		fixture string
		// literals are exact number texts the body must carry (JSONEq
		// compares numbers as floats).
		literals []string
	}{
		{"sameday", samedayParams(), "delivery/order_create_sameday_request.json",
			[]string{`"delivery_fee":5.00`, `"rx_amount_due":10.00`, `"other_items_amount_due":3.50`, `"patient_pay":10.00`}},
		{"ondemand", ondemandParams(), "delivery/order_create_ondemand_request.json",
			[]string{`"ready_at":"2024-05-02T14:30:00-04:00"`, `"patient_pay":0.00`, `"fill_quantity":1.5`}},
		{"shipping", shippingParams(), "delivery/order_create_shipping_request.json",
			[]string{`"service_date":"2024-05-03"`, `"value":12.5`, `"patient_pay":25.00`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := testutil.Setup(t)
			client, mock := env.Client, env.Mock
			var rec testutil.Recorder
			mock.RegisterResponder(http.MethodPost, ordersEP,
				rec.Wrap(testutil.FixtureResponder(t, 200, "delivery/order_new_sameday.json")))

			require.NoError(t, tc.params.Validate())
			o, err := client.Orders.Create(context.Background(), tc.params)
			require.NoError(t, err)

			req := rec.Last(t)
			testutil.TestMethod(t, req, http.MethodPost, ordersEP)
			testutil.TestBody(t, req, rxdelivery.Delivery, true)
			assert.JSONEq(t, string(testutil.Fixture(t, tc.fixture)), string(req.Body))
			for _, lit := range tc.literals {
				assert.Contains(t, string(req.Body), lit)
			}
			assert.Equal(t, 1, mock.GetTotalCallCount())

			assert.Equal(t, orderID, o.ID)
			assert.Equal(t, rxtypes.OrderStatusNew, o.Status)
		})
	}
}

func TestCreate_SamedayLeavesServiceLevelOut(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(samedayParams())
	require.NoError(t, err)
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b, &m))
	assert.NotContains(t, m, "service_level")
	assert.NotContains(t, m, "ready_at")
	assert.NotContains(t, m, "service_date")
	assert.NotContains(t, m, "shipping")
	assert.Equal(t, "sameday", orders.ServiceLevelSameday.String())

	// Zero ready_at and service_date are left out like nil ones.
	p := ondemandParams()
	p.ReadyAt = &time.Time{}
	p.ServiceDate = &rxdelivery.Date{}
	b, err = json.Marshal(p)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "ready_at")
	assert.NotContains(t, string(b), "service_date")
	assert.Contains(t, string(b), `"service_level":"ondemand"`)
	assert.Equal(t, "shipping", orders.ServiceLevelShipping.String())
}

// TestCreate_SendsAddressesNormalised checks the wire: a state in lower
// case and a hyphenated ZIP+4, which validation accepts, are sent as the
// documents want them, and the caller's params are left as they were.
func TestCreate_SendsAddressesNormalised(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodPost, ordersEP,
		rec.Wrap(testutil.FixtureResponder(t, 200, "delivery/order_new_sameday.json")))
	p := samedayParams()
	p.Recipient.Address.State, p.Recipient.Address.Zipcode = "oh", "43210-1234"
	p.Prescriptions[0].Prescriber.Address.State = " Oh "
	_, err := client.Orders.Create(context.Background(), p)
	require.NoError(t, err)
	var body struct {
		Recipient struct {
			Address rxtypes.Address `json:"address"`
		} `json:"recipient"`
		Prescriptions []struct {
			Prescriber struct {
				Address rxtypes.Address `json:"address"`
			} `json:"prescriber"`
		} `json:"prescriptions"`
	}
	require.NoError(t, json.Unmarshal(rec.Last(t).Body, &body))
	assert.Equal(t, "OH", body.Recipient.Address.State)
	assert.Equal(t, "432101234", body.Recipient.Address.Zipcode)
	assert.Equal(t, "OH", body.Prescriptions[0].Prescriber.Address.State)
	assert.Equal(t, "oh", p.Recipient.Address.State, "the caller's params are not changed")
	assert.Equal(t, "43210-1234", p.Recipient.Address.Zipcode)
}

func TestCreate_OptionalBoolsAndRequiredFalse(t *testing.T) {
	t.Parallel()
	p := ondemandParams()
	b, err := json.Marshal(p)
	require.NoError(t, err)
	s := string(b)
	assert.NotContains(t, s, "photo_id_required")
	assert.Contains(t, s, `"government_plan_indicator":false`)
	assert.Contains(t, s, `"government_plan_indicator":true`)
	assert.Contains(t, s, `"fill_number":2`)

	sp := shippingParams()
	sp.Shipping.SaturdayDelivery = rxdelivery.Ptr(false)
	b, err = json.Marshal(sp)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"saturday_delivery":false`)
	sp.Shipping.SaturdayDelivery = nil
	b, err = json.Marshal(sp)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "saturday_delivery")

	rx := fridgeRx()
	rx.FillNumber = rxdelivery.Ptr(0)
	b, err = json.Marshal(rx)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"fill_number":0`, "the original fill is sent")
}

func TestCreate_DecodesCreateResponse(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodPost, ordersEP, testutil.FixtureResponder(t, 200, "delivery/order_new_sameday.json"))
	o, err := client.Orders.Create(context.Background(), samedayParams())
	require.NoError(t, err)
	assert.Equal(t, orderID, o.ID)
	assert.Equal(t, rxtypes.OrderStatusNew, o.Status)
	assert.Nil(t, o.Pickup)
	assert.Nil(t, o.Delivery)
	assert.Nil(t, o.Return)
	assert.Nil(t, o.Cancellation)
	assert.Nil(t, o.Shipping)
	require.NotNil(t, o.ETA)
	assertTime(t, "2024-05-02T15:10:00-04:00", o.ETA.ArrivalAt)
	assert.Equal(t, orders.ETATypePickup, o.ETA.Type)
}

func TestCreate_InvalidParamsSendNothing(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodPost, ordersEP, testutil.FixtureResponder(t, 200, "delivery/order_new_sameday.json"))
	p := samedayParams()
	p.Pharmacy.NPI = "123"
	p.Patient.FirstName = ""
	_, err := client.Orders.Create(context.Background(), p)
	require.Error(t, err)
	assert.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
	var ve *rxdelivery.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.True(t, ve.Has("pharmacy.npi"))
	assert.True(t, ve.Has("patient.first_name"))
	assert.Equal(t, 0, mock.GetTotalCallCount())

	_, err = client.Orders.Create(context.Background(), nil)
	assert.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
	_, err = client.Orders.AddPrescription(context.Background(), orderID, nil)
	assert.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
	rx := fridgeRx()
	rx.NDC = "0002-1433-80"
	_, err = client.Orders.AddPrescription(context.Background(), orderID, rx)
	require.ErrorAs(t, err, &ve)
	assert.True(t, ve.Has("ndc"))
	assert.Equal(t, 0, mock.GetTotalCallCount())
}

func TestCreate_WithoutValidationSends(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithoutValidation())
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodPost, ordersEP, testutil.FixtureResponder(t, 200, "delivery/order_new_sameday.json"))
	p := samedayParams()
	p.Pharmacy.NPI = "123"
	_, err := client.Orders.Create(context.Background(), p)
	require.NoError(t, err)
	assert.Equal(t, 1, mock.GetTotalCallCount())
}

func TestCreate_AnswerWithoutOrderIsUnknownOutcome(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodPost, ordersEP, testutil.BytesResponder(200, []byte(`{}`)))
	_, err := client.Orders.Create(context.Background(), samedayParams())
	var de *rxdelivery.DecodeError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, 200, de.StatusCode)
	assert.Equal(t, http.MethodPost, de.Method)
	assert.Equal(t, "/api/v1/orders", de.Path)
	assert.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
	assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)

	// The same answer to a read is malformed, not of unknown outcome.
	mock.RegisterResponder(http.MethodGet, ordersEP+"/"+orderID, testutil.BytesResponder(200, []byte(`{"orders":[]}`)))
	_, err = client.Orders.Get(context.Background(), orderID)
	assert.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
	assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
}

func TestCreate_ServerErrorIsNotRetried(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodPost, ordersEP, testutil.BytesResponder(500, []byte(`{"error":{"message":"Internal server error"}}`)))
	_, err := client.Orders.Create(context.Background(), samedayParams())
	var ae *rxdelivery.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 500, ae.StatusCode)
	assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.Equal(t, 1, mock.GetTotalCallCount(), "a write is not retried after a 500")
}

func TestCreate_SaturdayDeliveryRefusedByPlatform(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodPost, ordersEP, testutil.FixtureResponder(t, 400, "delivery/error_saturday_delivery.json"))
	_, err := client.Orders.Create(context.Background(), shippingParams())
	var ae *rxdelivery.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 400, ae.StatusCode)
	assert.Equal(t, "Carrier service level does not offer saturday delivery.", ae.Message)
	assert.Equal(t, rxdelivery.Delivery, ae.Interface)
	assert.ErrorIs(t, err, rxdelivery.ErrBadRequest)
	assert.NotErrorIs(t, err, rxdelivery.ErrUnableToCancel)
	assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
}

func TestCancel_EscapesID(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterNoResponder(rec.Wrap(httpmock.NewBytesResponder(204, nil)))
	require.NoError(t, client.Orders.Cancel(context.Background(), "ord/1 ?x"))
	assert.Equal(t, ordersEP+"/ord%2F1%20%3Fx", rec.Last(t).URL)
}

func TestCancel_NotCancellable(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodDelete, ordersEP+"/"+orderID, testutil.FixtureResponder(t, 400, "delivery/error_not_cancellable.json"))
	err := client.Orders.Cancel(context.Background(), orderID)
	var ae *rxdelivery.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 400, ae.StatusCode)
	assert.Equal(t, http.MethodDelete, ae.Method)
	assert.Equal(t, "/api/v1/orders/"+orderID, ae.Path)
	assert.Equal(t, "Order is not in a cancellable status", ae.Message)
	assert.ErrorIs(t, err, rxdelivery.ErrUnableToCancel)
	assert.ErrorIs(t, err, rxdelivery.ErrBadRequest)
	assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.Equal(t, 1, mock.GetTotalCallCount())
}

func TestGet(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodGet, ordersEP+"/"+orderID, rec.Wrap(testutil.FixtureResponder(t, 200, "delivery/order_picked_up.json")))
	o, err := client.Orders.Get(context.Background(), orderID)
	require.NoError(t, err)
	req := rec.Last(t)
	testutil.TestMethod(t, req, http.MethodGet, ordersEP+"/"+orderID)
	testutil.TestBody(t, req, rxdelivery.Delivery, false)
	assert.Equal(t, rxtypes.OrderStatusPickedUp, o.Status)
}

func TestGet_NotFound(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodGet, ordersEP+"/ord_missing", testutil.FixtureResponder(t, 404, "delivery/error_not_found.json"))
	_, err := client.Orders.Get(context.Background(), "ord_missing")
	var ae *rxdelivery.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "Order not found", ae.Message)
	assert.ErrorIs(t, err, rxdelivery.ErrNotFound)
}

func TestGetMany(t *testing.T) {
	t.Parallel()
	for _, fixture := range []string{"delivery/orders_get_many.json", "delivery/orders_get_many_objects.json"} {
		t.Run(fixture, func(t *testing.T) {
			env := testutil.Setup(t)
			client, mock := env.Client, env.Mock
			var rec testutil.Recorder
			mock.RegisterResponderWithQuery(http.MethodGet, ordersEP, "ids[]="+orderID+"&ids[]="+shipID,
				rec.Wrap(testutil.FixtureResponder(t, 200, fixture)))
			list, err := client.Orders.GetMany(context.Background(), []string{orderID, shipID})
			require.NoError(t, err)

			req := rec.Last(t)
			testutil.TestMethod(t, req, http.MethodGet, ordersEP+"?ids%5B%5D="+orderID+"&ids%5B%5D="+shipID)
			testutil.TestBody(t, req, rxdelivery.Delivery, false)

			require.Len(t, list, 2)
			a, b := list[0], list[1]
			assert.Equal(t, orderID, a.ID)
			assert.Equal(t, rxtypes.OrderStatusPickedUp, a.Status)
			assert.Equal(t, "rx-2024-0001", a.ExternalReferenceNumber)
			require.NotNil(t, a.Pickup)
			assertTime(t, "2024-05-02T15:12:31-04:00", a.Pickup.OccurredAt)
			assert.Nil(t, a.Shipping)
			require.NotNil(t, a.ETA)
			assert.Equal(t, orders.ETATypeDelivery, a.ETA.Type)

			assert.Equal(t, shipID, b.ID)
			assert.Equal(t, rxtypes.OrderStatusNew, b.Status)
			assert.Empty(t, b.ExternalReferenceNumber)
			assert.Nil(t, b.Pickup)
			assert.Nil(t, b.Delivery)
			assert.Nil(t, b.ETA)
			require.NotNil(t, b.Shipping)
			assert.Equal(t, orders.CarrierServiceParcelAGround, b.Shipping.CarrierService)
			assert.Equal(t, "9.40", b.Shipping.Cost.String())
			assert.False(t, b.Shipping.SaturdayDelivery)
			assert.Nil(t, b.Shipping.Delivery)
		})
	}
}

func TestGetMany_EmptyAndMissingArrays(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"orders":[]}`, `{"objects":[]}`} {
		env := testutil.Setup(t)
		client, mock := env.Client, env.Mock
		mock.RegisterResponder(http.MethodGet, ordersEP, testutil.BytesResponder(200, []byte(body)))
		list, err := client.Orders.GetMany(context.Background(), []string{"ord_gone"})
		require.NoError(t, err, body)
		assert.NotNil(t, list)
		assert.Empty(t, list)
	}
	for _, body := range []string{`{}`, `{"orders":null}`, `{"order":{"id":"x"}}`} {
		env := testutil.Setup(t)
		client, mock := env.Client, env.Mock
		mock.RegisterResponder(http.MethodGet, ordersEP, testutil.BytesResponder(200, []byte(body)))
		_, err := client.Orders.GetMany(context.Background(), []string{"ord_gone"})
		var de *rxdelivery.DecodeError
		require.ErrorAs(t, err, &de, body)
		assert.Equal(t, "/api/v1/orders", de.Path)
		assert.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
		assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	}
}

// TestGetMany_DecodeErrorPathHasTheIndex: the cause of a DecodeError for
// a list element of the wrong JSON kind names the element the same way on
// every Go release (orders.1), as Go 1.27's encoding/json does; before,
// older releases left the index out (orders).
func TestGetMany_DecodeErrorPathHasTheIndex(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodGet, ordersEP, testutil.BytesResponder(200, []byte(`{"orders":[{"id":"ord_1"},7]}`)))
	_, err := client.Orders.GetMany(context.Background(), []string{"ord_1", "ord_2"})
	var de *rxdelivery.DecodeError
	require.ErrorAs(t, err, &de)
	var te *json.UnmarshalTypeError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, "orders.1", te.Field)
	assert.Contains(t, err.Error(), ".orders.1 of ")
}

func TestGetMany_RefusesMissingIDs(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithoutValidation())
	client, mock := env.Client, env.Mock
	var ve *rxdelivery.ValidationError
	_, err := client.Orders.GetMany(context.Background(), nil)
	require.ErrorAs(t, err, &ve)
	assert.True(t, ve.Has("ids"))
	_, err = client.Orders.GetMany(context.Background(), []string{orderID, " "})
	require.ErrorAs(t, err, &ve)
	assert.True(t, ve.Has("ids[1]"))
	assert.Equal(t, 0, mock.GetTotalCallCount())
}

func TestAddPrescription(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodPost, ordersEP+"/"+orderID+"/prescriptions",
		rec.Wrap(testutil.FixtureResponder(t, 200, "delivery/order_add_prescription.json")))
	o, err := client.Orders.AddPrescription(context.Background(), orderID, fridgeRx())
	require.NoError(t, err)

	req := rec.Last(t)
	testutil.TestMethod(t, req, http.MethodPost, ordersEP+"/"+orderID+"/prescriptions")
	testutil.TestBody(t, req, rxdelivery.Delivery, true)
	assert.JSONEq(t, string(testutil.Fixture(t, "delivery/order_add_prescription_request.json")), string(req.Body))
	assert.Contains(t, string(req.Body), `"patient_pay":0.00`)

	assert.Equal(t, orderID, o.ID)
	assert.Equal(t, rxtypes.OrderStatusSubmittedToCourier, o.Status)
	assert.Nil(t, o.Pickup)
	assert.Nil(t, o.Delivery)
	assert.Nil(t, o.Return)
	assert.Nil(t, o.ETA)
}

// TestAddPrescriptionBodyHasTheDocumentsFields checks that the body carries
// exactly the fields the document lists for the endpoint: date_of_service,
// a field of order creation, is not sent even when the prescription has it.
func TestAddPrescriptionBodyHasTheDocumentsFields(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodPost, ordersEP+"/"+orderID+"/prescriptions",
		rec.Wrap(testutil.FixtureResponder(t, 200, "delivery/order_add_prescription.json")))
	rx := fridgeRx()
	rx.DateOfService = "2024-05-02"
	rx.Payers = nil // a cash prescription
	_, err := client.Orders.AddPrescription(context.Background(), orderID, rx)
	require.NoError(t, err)
	var body map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(rec.Last(t).Body, &body))
	var keys []string
	for k := range body {
		keys = append(keys, k)
	}
	assert.ElementsMatch(t, []string{"number", "ndc", "refrigeration", "days_supply", "fill_quantity",
		"fill_number", "patient_pay", "prescriber", "payers"}, keys)
	assert.Equal(t, "[]", string(body["payers"]), "an empty payer list is sent as []")
	assert.Equal(t, "2024-05-02", rx.DateOfService, "the caller's value is not changed")
}

func TestAddPrescription_ServerErrorIsUnknownOutcome(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodPost, ordersEP+"/"+orderID+"/prescriptions", testutil.BytesResponder(502, nil))
	_, err := client.Orders.AddPrescription(context.Background(), orderID, fridgeRx())
	assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.Equal(t, 1, mock.GetTotalCallCount())
}

func TestRemovePrescription(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterNoResponder(rec.Wrap(httpmock.NewBytesResponder(204, nil)))
	require.NoError(t, client.Orders.RemovePrescription(context.Background(), orderID, "RX100002"))
	req := rec.Last(t)
	testutil.TestMethod(t, req, http.MethodDelete, ordersEP+"/"+orderID+"/prescriptions/RX100002")
	testutil.TestBody(t, req, rxdelivery.Delivery, false)

	require.NoError(t, client.Orders.RemovePrescription(context.Background(), orderID, "RX/10 2"))
	assert.Equal(t, ordersEP+"/"+orderID+"/prescriptions/RX%2F10%202", rec.Last(t).URL)
}

func TestRemovePrescription_RetriedOn503(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	client, mock := env.Client, env.Mock
	calls := 0
	mock.RegisterResponder(http.MethodDelete, ordersEP+"/"+orderID+"/prescriptions/RX1",
		func(*http.Request) (*http.Response, error) {
			calls++
			if calls == 1 {
				return httpmock.NewBytesResponse(503, nil), nil
			}
			return httpmock.NewBytesResponse(204, nil), nil
		})
	require.NoError(t, client.Orders.RemovePrescription(context.Background(), orderID, "RX1"))
	assert.Equal(t, 2, calls, "a 503 proves the write was not applied: it is retried")
}

func TestEmptyPathIDsAreRefusedEvenWithoutValidation(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithoutValidation())
	client, mock := env.Client, env.Mock
	ctx := context.Background()
	checks := []struct {
		name string
		err  error
		path string
	}{
		{"Get", second(client.Orders.Get(ctx, "")), "id"},
		{"Cancel", client.Orders.Cancel(ctx, ""), "id"},
		{"AddPrescription", second(client.Orders.AddPrescription(ctx, " ", fridgeRx())), "id"},
		{"RemovePrescription order", client.Orders.RemovePrescription(ctx, "", "RX1"), "id"},
		{"RemovePrescription rx", client.Orders.RemovePrescription(ctx, orderID, ""), "rx_number"},
	}
	for _, c := range checks {
		var ve *rxdelivery.ValidationError
		require.True(t, errors.As(c.err, &ve), "%s: %v", c.name, c.err)
		assert.True(t, ve.Has(c.path), "%s: %v", c.name, ve)
	}
	assert.Equal(t, 0, mock.GetTotalCallCount())
}

func second[T any](_ T, err error) error { return err }

func TestNoDeliveryURL(t *testing.T) {
	t.Parallel()
	client, err := rxdelivery.NewClient("k", "s")
	require.NoError(t, err)
	_, err = client.Orders.Get(context.Background(), orderID)
	var ce *rxdelivery.ConfigError
	require.ErrorAs(t, err, &ce)
	assert.ErrorIs(t, err, rxdelivery.ErrNoBaseURL)
	assert.Contains(t, ce.Error(), "WithDeliveryURL")
}
