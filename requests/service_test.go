package requests_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

const (
	createURL = testutil.OmniURL + "/api/v1/requests"
	reqID     = "req_01HZX5A7K3M9"
	reqURL    = testutil.OmniURL + "/api/v1/requests/" + reqID
	manyURL   = testutil.OmniURL + "/api/v1/requests/"
)

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// createParams matches testdata/omni/request_create_request.json.
func createParams() *requests.CreateParams {
	return &requests.CreateParams{
		Identifier:              "prog_01HZX4T9Q2",
		ExternalReferenceNumber: "rx-1001",
		NDC:                     "00002143380",
		Pharmacy:                requests.PharmacyParams{NCPDP: "1234567"},
		Pickup: &requests.PickupParams{
			Name:        "Main Street Pharmacy",
			PhoneNumber: "6145550100",
			Address:     requests.Address{Street1: "200 Main St", City: "Columbus", State: "OH", Zipcode: "43210"},
		},
		Dropoff: requests.DropoffParams{
			Name:        "Jane Doe",
			PhoneNumber: "6145550123",
			Address: requests.NewDropoffAddress(requests.Address{
				Street1: "100 High St", Street2: "Apt 4B", City: "Columbus", State: "OH", Zipcode: "432101234",
			}),
		},
		Patient: requests.PatientParams{
			FirstName:   "Jane",
			LastName:    "Doe",
			Gender:      rxtypes.GenderFemale,
			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29},
		},
	}
}

// placeParams matches testdata/omni/request_create_place_id_request.json.
func placeParams() *requests.CreateParams {
	return &requests.CreateParams{
		Identifier:              "prog_01HZX4T9Q2",
		ExternalReferenceNumber: "rx-1002",
		NameOfPickup:            "Amoxicillin 500 mg capsules",
		Pharmacy:                requests.PharmacyParams{NCPDP: "1234567"},
		Dropoff: requests.DropoffParams{
			Name:        "John Roe",
			PhoneNumber: "6145550124",
			Address:     requests.NewDropoffPlace("ChIJd8BlQ2BZwokRAFUEcm_qrcA"),
		},
		Patient: requests.PatientParams{
			FirstName:   "John",
			LastName:    "Roe",
			DateOfBirth: rxdelivery.Date{Year: 1975, Month: time.November, Day: 3},
		},
	}
}

// remittanceParams matches testdata/omni/request_create_remittance_request.json.
func remittanceParams() *requests.CreateParams {
	return &requests.CreateParams{
		Identifier:              "prog_01HZX4T9Q2",
		ExternalReferenceNumber: "rx-1003",
		NDC:                     "00002143380",
		Pharmacy:                requests.PharmacyParams{NCPDP: "1234567"},
		Dropoff: requests.DropoffParams{
			Name:        "Jane Doe",
			PhoneNumber: "6145550123",
			Address: requests.DropoffAddress{
				Street1: "100 High St", City: "Columbus", State: "OH", Zipcode: "43210",
			},
		},
		Patient: requests.PatientParams{
			FirstName:   "Jane",
			LastName:    "Doe",
			Gender:      rxtypes.GenderUnspecified,
			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29},
		},
		Remittance: &requests.RemittanceParams{
			Contact: &requests.Contact{MobilePhoneNumber: "6145550123", Email: "jane.doe@example.com"},
			Payments: []requests.Payment{
				{Fee: rxdelivery.MustDecimal("5.00"), Kind: requests.PaymentDeliveryFee},
				{Fee: rxdelivery.MustDecimal("12.50"), Kind: requests.PaymentCopay},
			},
		},
		TestMeta: &requests.TestMeta{Scenario: requests.ScenarioSuccessfulDelivery, DurationBetween: 5},
	}
}

func TestCreateEncodesBodyAndDecodesResponse(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		params  *requests.CreateParams
		fixture string
	}{
		{"full address with pickup", createParams(), "omni/request_create_request.json"},
		{"place id dropoff with name_of_pickup", placeParams(), "omni/request_create_place_id_request.json"},
		{"remittance and test_meta", remittanceParams(), "omni/request_create_remittance_request.json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := testutil.Setup(t)
			c, mock := env.Client, env.Mock
			var rec testutil.Recorder
			mock.RegisterResponder(http.MethodPost, createURL,
				rec.Wrap(testutil.FixtureResponder(t, 200, "omni/request_create_response.json")))

			got, err := c.Requests.Create(context.Background(), tc.params)
			require.NoError(t, err)

			assert.Equal(t, 1, mock.GetTotalCallCount())
			sent := rec.Last(t)
			testutil.TestMethod(t, sent, http.MethodPost, createURL)
			testutil.TestBody(t, sent, rxdelivery.Omni, true)
			assert.JSONEq(t, string(testutil.Fixture(t, tc.fixture)), string(sent.Body))

			assert.Equal(t, reqID, got.ID)
			assert.Equal(t, "rx-1001", got.ExternalReferenceNumber)
			assert.True(t, got.CreatedAt.Valid())
			assert.True(t, utc("2024-05-01T13:45:10.123Z").Equal(got.CreatedAt.Time))
			assert.Equal(t, "2024-05-01T13:45:10.123Z", got.CreatedAt.Raw)
			assert.Nil(t, got.Order)
			assert.Nil(t, got.Status)
			assert.True(t, got.DeliveryETA.IsZero())
		})
	}
}

func TestCreateSendsMoneyAsExactNumbers(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodPost, createURL,
		rec.Wrap(testutil.FixtureResponder(t, 200, "omni/request_create_response.json")))
	_, err := c.Requests.Create(context.Background(), remittanceParams())
	require.NoError(t, err)
	body := string(rec.Last(t).Body)
	assert.Contains(t, body, `"fee":5.00,`)
	assert.Contains(t, body, `"fee":12.50,`)
	assert.Contains(t, body, `"date_of_birth":"1980-02-29"`)
	assert.Contains(t, body, `"duration_between":5`)
}

func TestCreateOmitsDefaultDuration(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodPost, createURL,
		rec.Wrap(testutil.FixtureResponder(t, 200, "omni/request_create_response.json")))
	p := createParams()
	p.TestMeta = &requests.TestMeta{Scenario: requests.ScenarioIncompleteRequest}
	_, err := c.Requests.Create(context.Background(), p)
	require.NoError(t, err)
	body := string(rec.Last(t).Body)
	assert.Contains(t, body, `"test_meta":{"scenario":"incomplete_request"}`)
}

func TestCreateRefusesInvalidParamsWithoutSending(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodPost, createURL, testutil.FixtureResponder(t, 200, "omni/request_create_response.json"))

	p := createParams()
	p.Dropoff.Address.Zipcode = "4321"
	p.Patient.FirstName = ""
	_, err := c.Requests.Create(context.Background(), p)
	var ve *rxdelivery.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
	assert.True(t, ve.Has("dropoff.address.zipcode"))
	assert.True(t, ve.Has("patient.first_name"))
	assert.NotContains(t, err.Error(), "4321", "messages never quote values")

	_, err = c.Requests.Create(context.Background(), nil)
	require.ErrorAs(t, err, &ve)

	assert.Equal(t, 0, mock.GetTotalCallCount())
}

func TestCreateSendsTheClientsProgramID(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithProgramID(" prog_default "))
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodPost, createURL,
		rec.Wrap(testutil.FixtureResponder(t, 200, "omni/request_create_response.json")))

	p := createParams()
	p.Identifier = ""
	_, err := c.Requests.Create(context.Background(), p)
	require.NoError(t, err)
	want := strings.Replace(string(testutil.Fixture(t, "omni/request_create_request.json")), "prog_01HZX4T9Q2", "prog_default", 1)
	assert.JSONEq(t, want, string(rec.Last(t).Body))
	assert.Empty(t, p.Identifier, "the caller's params are not changed")

	_, err = c.Requests.Create(context.Background(), createParams())
	require.NoError(t, err)
	assert.Contains(t, string(rec.Last(t).Body), `"identifier":"prog_01HZX4T9Q2"`, "the params' own identifier wins")
}

func TestCreateFromEnvSendsProgramID(t *testing.T) {
	mock := httpmock.NewMockTransport()
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodPost, createURL,
		rec.Wrap(testutil.FixtureResponder(t, 200, "omni/request_create_response.json")))
	t.Setenv(rxdelivery.EnvAPIKey, testutil.Key)
	t.Setenv(rxdelivery.EnvAPISecret, testutil.Secret)
	t.Setenv(rxdelivery.EnvOmniURL, testutil.OmniURL)
	t.Setenv(rxdelivery.EnvProgramID, "prog_env")
	c, err := rxdelivery.NewClientFromEnv(rxdelivery.WithHTTPClient(&http.Client{Transport: mock}))
	require.NoError(t, err)
	p := createParams()
	p.Identifier = ""
	_, err = c.Requests.Create(context.Background(), p)
	require.NoError(t, err)
	assert.Contains(t, string(rec.Last(t).Body), `"identifier":"prog_env"`)
}

func TestCreateWithoutAnyProgramIDIsRefused(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	p := createParams()
	p.Identifier = ""
	_, err := c.Requests.Create(context.Background(), p)
	var ve *rxdelivery.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.True(t, ve.Has("identifier"))
	assert.Equal(t, 0, mock.GetTotalCallCount())
}

func TestCreateWithoutValidationSends(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t, rxdelivery.WithoutValidation())
	c, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodPost, createURL, testutil.FixtureResponder(t, 200, "omni/request_create_response.json"))
	p := createParams()
	p.Dropoff.Address.Zipcode = "4321"
	_, err := c.Requests.Create(context.Background(), p)
	require.NoError(t, err)
	assert.Equal(t, 1, mock.GetTotalCallCount())

	// A nil params value is refused whatever the setting.
	_, err = c.Requests.Create(context.Background(), nil)
	assert.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
	assert.Equal(t, 1, mock.GetTotalCallCount())
}

func TestCreateRefusesTestMetaOutsideSandbox(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		opts []rxdelivery.Option
	}{
		{"validation on", []rxdelivery.Option{rxdelivery.WithSandbox(false)}},
		{"validation off", []rxdelivery.Option{rxdelivery.WithSandbox(false), rxdelivery.WithoutValidation()}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := testutil.Setup(t, tc.opts...)
			c, mock := env.Client, env.Mock
			mock.RegisterResponder(http.MethodPost, createURL, testutil.FixtureResponder(t, 200, "omni/request_create_response.json"))

			_, err := c.Requests.Create(context.Background(), remittanceParams())
			require.Error(t, err)
			assert.ErrorIs(t, err, rxdelivery.ErrSandboxOnly)
			assert.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
			var ve *rxdelivery.ValidationError
			require.ErrorAs(t, err, &ve)
			require.Len(t, ve.Problems, 1)
			assert.Equal(t, "test_meta", ve.Problems[0].Path)
			assert.Contains(t, err.Error(), "test_meta: ")
			assert.Contains(t, err.Error(), "sandbox")
			assert.Equal(t, 0, mock.GetTotalCallCount())
		})
	}

	t.Run("with other problems", func(t *testing.T) {
		env := testutil.Setup(t, rxdelivery.WithSandbox(false))
		c, mock := env.Client, env.Mock
		p := remittanceParams()
		p.Identifier = ""
		_, err := c.Requests.Create(context.Background(), p)
		assert.ErrorIs(t, err, rxdelivery.ErrSandboxOnly)
		var ve *rxdelivery.ValidationError
		require.ErrorAs(t, err, &ve)
		assert.Equal(t, []string{"identifier", "test_meta"}, paths(ve))
		assert.Equal(t, 0, mock.GetTotalCallCount())
	})

	t.Run("no test_meta is sent outside sandbox", func(t *testing.T) {
		env := testutil.Setup(t, rxdelivery.WithSandbox(false))
		c, mock := env.Client, env.Mock
		mock.RegisterResponder(http.MethodPost, createURL, testutil.FixtureResponder(t, 200, "omni/request_create_response.json"))
		_, err := c.Requests.Create(context.Background(), createParams())
		require.NoError(t, err)
		assert.Equal(t, 1, mock.GetTotalCallCount())
	})
}

func TestCreate500IsAttemptedOnceAndUnknown(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodPost, createURL,
		testutil.BytesResponder(500, []byte(`{"error":{"id":"err_1","type":"internal_error","message":"Something went wrong"}}`)))

	_, err := c.Requests.Create(context.Background(), createParams())
	require.Error(t, err)
	assert.Equal(t, 1, mock.GetTotalCallCount())
	assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	var apiErr *rxdelivery.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 500, apiErr.StatusCode)
	assert.Equal(t, http.MethodPost, apiErr.Method)
	assert.Equal(t, "/api/v1/requests", apiErr.Path)
	assert.Equal(t, "internal_error", apiErr.Type)
}

func TestCreate503ThenSuccessRetries(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodPost, createURL, rec.Wrap(
		testutil.BytesResponder(503, []byte(`{"error":{"type":"maintenance","message":"down for maintenance"}}`)).
			Then(testutil.FixtureResponder(t, 200, "omni/request_create_response.json"))))

	got, err := c.Requests.Create(context.Background(), createParams())
	require.NoError(t, err)
	assert.Equal(t, reqID, got.ID)
	assert.Equal(t, 2, mock.GetTotalCallCount())
	reqs := rec.Requests()
	require.Len(t, reqs, 2)
	assert.JSONEq(t, string(testutil.Fixture(t, "omni/request_create_request.json")), string(reqs[1].Body),
		"the retried body is replayed intact")
}

func TestCreate422(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodPost, createURL, testutil.FixtureResponder(t, 422, "omni/request_error_unprocessable.json"))

	_, err := c.Requests.Create(context.Background(), createParams())
	var apiErr *rxdelivery.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 1, mock.GetTotalCallCount())
	assert.ErrorIs(t, err, rxdelivery.ErrBadRequest)
	assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.Equal(t, 422, apiErr.StatusCode)
	assert.Equal(t, "", apiErr.ID, "an error id the path does not name is not known safe: the field is empty, Platform has it")
	assert.Equal(t, "invalid_parameter", apiErr.Type)
	assert.Equal(t, "dropoff.address.zipcode is outside the delivery area", apiErr.Message)
}

func TestCreateAnswerWithoutRequest(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodPost, createURL, testutil.BytesResponder(200, []byte(`{"ok":true}`)))

	_, err := c.Requests.Create(context.Background(), createParams())
	var de *rxdelivery.DecodeError
	require.ErrorAs(t, err, &de)
	assert.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
	assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.Equal(t, 200, de.StatusCode)
	assert.Equal(t, "/api/v1/requests", de.Path)
}

func TestCancelUnableToCancel(t *testing.T) {
	t.Parallel()
	// The document does not give the status of unable_to_cancel: the
	// error type decides, whatever the status.
	for _, status := range []int{400, 403, 409, 422} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			env := testutil.Setup(t)
			c, mock := env.Client, env.Mock
			mock.RegisterResponder(http.MethodDelete, reqURL, testutil.FixtureResponder(t, status, "omni/request_error_unable_to_cancel.json"))

			err := c.Requests.Cancel(context.Background(), reqID)
			var apiErr *rxdelivery.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.ErrorIs(t, err, rxdelivery.ErrUnableToCancel)
			assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
			assert.Equal(t, status, apiErr.StatusCode)
			assert.Equal(t, reqID, apiErr.ID)
			assert.Equal(t, "unable_to_cancel", apiErr.Type)
			assert.Equal(t, "Orders are not in a cancellable status", apiErr.Message)
			assert.Equal(t, http.MethodDelete, apiErr.Method)
			assert.Equal(t, "/api/v1/requests/"+reqID, apiErr.Path)
			assert.Equal(t, 1, mock.GetTotalCallCount())
		})
	}
}

func TestCancel404IsNotUnableToCancel(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodDelete, reqURL, testutil.FixtureResponder(t, 404, "omni/request_error_not_found.json"))
	err := c.Requests.Cancel(context.Background(), reqID)
	assert.ErrorIs(t, err, rxdelivery.ErrNotFound)
	assert.NotErrorIs(t, err, rxdelivery.ErrUnableToCancel)
	assert.Equal(t, 1, mock.GetTotalCallCount())
}

func TestBadIDsAreRefusedWithoutSending(t *testing.T) {
	t.Parallel()
	for _, opts := range [][]rxdelivery.Option{nil, {rxdelivery.WithoutValidation()}} {
		env := testutil.Setup(t, opts...)
		c, mock := env.Client, env.Mock
		for _, id := range []string{"", "  ", ".", ".."} {
			err := c.Requests.Cancel(context.Background(), id)
			var ve *rxdelivery.ValidationError
			require.ErrorAs(t, err, &ve, "Cancel(%q)", id)
			assert.Equal(t, []string{"id"}, paths(ve))

			_, err = c.Requests.Get(context.Background(), id)
			require.ErrorAs(t, err, &ve, "Get(%q)", id)
			assert.Equal(t, []string{"id"}, paths(ve))
		}
		assert.Equal(t, 0, mock.GetTotalCallCount())
	}
}

func TestGetEscapesTheID(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterNoResponder(rec.Wrap(testutil.FixtureResponder(t, 200, "omni/request_order_new.json")))
	_, err := c.Requests.Get(context.Background(), "a/b c?d")
	require.NoError(t, err)
	assert.Equal(t, testutil.OmniURL+"/api/v1/requests/a%2Fb%20c%3Fd", rec.Last(t).URL)
}

func TestGet(t *testing.T) {
	t.Parallel()
	cases := []struct {
		fixture string
		check   func(t *testing.T, r *requests.Request)
	}{
		{"omni/request_order_new.json", func(t *testing.T, r *requests.Request) {
			o := r.Order
			require.NotNil(t, o)
			assert.Equal(t, "ord_01HZX5B2P8QW", o.ID)
			assert.Equal(t, rxtypes.OrderStatusNew, o.Status)
			assert.Empty(t, o.CourierCompany)
			assert.Empty(t, o.ExternalReferenceNumber)
			assert.Nil(t, o.Pickup)
			assert.Nil(t, o.Delivery)
			assert.Nil(t, o.Return)
			assert.Empty(t, o.CancelledBy)
			assert.Empty(t, o.CancellationReason)
			assert.Empty(t, o.StatusNote)
			assert.True(t, o.StatusNoteUpdatedAt.IsZero())
			require.NotNil(t, r.Status)
			assert.Equal(t, requests.StatusRequestReceived, r.Status.Name)
			assert.Empty(t, r.Status.Detail)
			// delivery_eta as an ISO 8601 timestamp.
			assert.Equal(t, "2024-05-01T16:00:00-04:00", r.DeliveryETA.Raw)
			assert.True(t, r.DeliveryETA.HasTime())
			assert.True(t, utc("2024-05-01T20:00:00Z").Equal(r.DeliveryETA.Time))
			assert.Equal(t, rxdelivery.Date{Year: 2024, Month: time.May, Day: 1}, r.DeliveryETA.Date)
		}},
		{"omni/request_order_submitted.json", func(t *testing.T, r *requests.Request) {
			require.NotNil(t, r.Order)
			assert.Equal(t, rxtypes.OrderStatusSubmittedToCourier, r.Order.Status, "spaces decode to the constant")
			assert.True(t, r.Order.Status.Known())
			assert.Equal(t, "Acme Courier", r.Order.CourierCompany)
			// delivery_eta as free text: kept raw, leading date parsed.
			assert.Equal(t, "2024-05-01 2:00pm-4:00pm EDT", r.DeliveryETA.Raw)
			assert.Equal(t, "2024-05-01 2:00pm-4:00pm EDT", r.DeliveryETA.String())
			assert.False(t, r.DeliveryETA.HasTime())
			assert.Equal(t, rxdelivery.Date{Year: 2024, Month: time.May, Day: 1}, r.DeliveryETA.Date)
		}},
		{"omni/request_order_delivered.json", func(t *testing.T, r *requests.Request) {
			o := r.Order
			require.NotNil(t, o)
			assert.Equal(t, rxtypes.OrderStatusDelivered, o.Status)
			require.NotNil(t, o.Pickup)
			assert.True(t, utc("2024-05-01T14:30:00Z").Equal(o.Pickup.OccurredAt.Time))
			require.NotNil(t, o.Delivery)
			d := o.Delivery
			assert.True(t, utc("2024-05-01T15:20:45Z").Equal(d.OccurredAt.Time))
			assert.Equal(t, "https://files.rxdelivery.test/signatures/sig_01HZX6?expires=1714578045&signature=abc123", d.SignatureURL)
			assert.Equal(t, "Richard Doe", d.SignedBy)
			assert.Equal(t, rxtypes.RelationshipOther, d.Relationship)
			assert.Equal(t, "Neighbor", d.OtherRelationshipDescription)
			assert.Empty(t, d.FailureReason)
			require.NotNil(t, d.RecipientIdentification)
			id := d.RecipientIdentification
			assert.Equal(t, "D1234567", id.Number)
			assert.Equal(t, "Driver's License", id.Type)
			assert.Equal(t, rxtypes.QualifierDriversLicenseID, id.Qualifier)
			assert.Equal(t, "Driver's License ID", id.Qualifier.Description())
			assert.Equal(t, "OH", id.JurisdictionCode)
			assert.Nil(t, o.Return)
			assert.Equal(t, "Left with neighbor at front door", o.StatusNote)
			assert.Equal(t, "2024-05-01T15:21:02.123456Z", o.StatusNoteUpdatedAt.Raw)
			assert.True(t, utc("2024-05-01T15:21:02.123456Z").Equal(o.StatusNoteUpdatedAt.Time))
			assert.Equal(t, 123456000, o.StatusNoteUpdatedAt.Nanosecond())
		}},
		{"omni/request_order_delivery_attempted.json", func(t *testing.T, r *requests.Request) {
			o := r.Order
			require.NotNil(t, o)
			assert.Equal(t, rxtypes.OrderStatusDeliveryAttempted, o.Status)
			require.NotNil(t, o.Delivery)
			assert.Equal(t, "Recipient not available", o.Delivery.FailureReason)
			assert.Empty(t, o.Delivery.SignatureURL)
			assert.Empty(t, o.Delivery.SignedBy)
			assert.Empty(t, o.Delivery.Relationship)
			assert.Nil(t, o.Delivery.RecipientIdentification)
			assert.Nil(t, o.Return)
			assert.True(t, r.DeliveryETA.IsZero())
		}},
		{"omni/request_order_returned.json", func(t *testing.T, r *requests.Request) {
			o := r.Order
			require.NotNil(t, o)
			assert.Equal(t, rxtypes.OrderStatusReturnedToPharmacy, o.Status)
			require.NotNil(t, o.Delivery)
			assert.Equal(t, "Address not found", o.Delivery.FailureReason)
			require.NotNil(t, o.Return)
			assert.True(t, utc("2024-05-01T17:05:30Z").Equal(o.Return.OccurredAt.Time))
			assert.Equal(t, "Returned to pharmacy counter", o.StatusNote)
			assert.Equal(t, 1000, o.StatusNoteUpdatedAt.Nanosecond())
		}},
		{"omni/request_order_cancelled.json", func(t *testing.T, r *requests.Request) {
			o := r.Order
			require.NotNil(t, o)
			assert.Equal(t, rxtypes.OrderStatusCancelled, o.Status)
			assert.Equal(t, "pharmacy", o.CancelledBy)
			assert.Equal(t, "Patient picked up at the pharmacy", o.CancellationReason)
			require.NotNil(t, r.Status)
			assert.Equal(t, requests.StatusRequestIncomplete, r.Status.Name)
			assert.Equal(t, requests.DetailPatientPickedUp, r.Status.Detail)
		}},
		{"omni/request_incomplete.json", func(t *testing.T, r *requests.Request) {
			assert.Equal(t, "req_01HZX7C4D5E6", r.ID)
			assert.Equal(t, "rx-1004", r.ExternalReferenceNumber)
			assert.Nil(t, r.Order)
			require.NotNil(t, r.Status)
			assert.Equal(t, requests.StatusRequestIncomplete, r.Status.Name)
			assert.Equal(t, requests.DetailPharmacyOutOfStock, r.Status.Detail)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.fixture, func(t *testing.T) {
			env := testutil.Setup(t)
			c, mock := env.Client, env.Mock
			var rec testutil.Recorder
			mock.RegisterResponder(http.MethodGet, reqURL, rec.Wrap(testutil.FixtureResponder(t, 200, tc.fixture)))

			r, err := c.Requests.Get(context.Background(), reqID)
			require.NoError(t, err)
			sent := rec.Last(t)
			testutil.TestMethod(t, sent, http.MethodGet, reqURL)
			testutil.TestBody(t, sent, rxdelivery.Omni, false)
			assert.Equal(t, 1, mock.GetTotalCallCount())

			if tc.fixture != "omni/request_incomplete.json" {
				assert.Equal(t, reqID, r.ID)
				assert.Equal(t, "rx-1001", r.ExternalReferenceNumber)
				assert.True(t, utc("2024-05-01T13:45:10.123Z").Equal(r.CreatedAt.Time))
			}
			tc.check(t, r)
		})
	}
}

func TestGetToleratesOddValues(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodGet, reqURL, testutil.FixtureResponder(t, 200, "omni/request_tolerant.json"))

	r, err := c.Requests.Get(context.Background(), reqID)
	require.NoError(t, err)
	assert.Equal(t, "req_01HZX8F7G8H9", r.ID)
	assert.False(t, r.CreatedAt.Valid())
	assert.Equal(t, "sometime on May 1st", r.CreatedAt.Raw)
	require.NotNil(t, r.Order)
	assert.Equal(t, rxtypes.OrderStatus("out_for_delivery"), r.Order.Status)
	assert.False(t, r.Order.Status.Known())
	require.NotNil(t, r.Order.Pickup)
	assert.False(t, r.Order.Pickup.OccurredAt.Valid(), "a timestamp without an offset names no instant")
	assert.Equal(t, "2024-05-01 14:30:00", r.Order.Pickup.OccurredAt.Raw, "kept verbatim")
	assert.Equal(t, "1714574400", r.Order.StatusNoteUpdatedAt.Raw)
	assert.False(t, r.Order.StatusNoteUpdatedAt.Valid())
	require.NotNil(t, r.Status)
	assert.Equal(t, requests.StatusName("request_in_transit"), r.Status.Name)
	assert.Equal(t, requests.StatusDetail("courier_assigned"), r.Status.Detail)
	assert.Equal(t, "May 1, between 2 and 4pm", r.DeliveryETA.Raw)
	assert.False(t, r.DeliveryETA.HasTime())
	assert.True(t, r.DeliveryETA.Date.IsZero())
}

func TestGetErrors(t *testing.T) {
	t.Parallel()
	t.Run("404", func(t *testing.T) {
		env := testutil.Setup(t)
		c, mock := env.Client, env.Mock
		mock.RegisterResponder(http.MethodGet, reqURL, testutil.FixtureResponder(t, 404, "omni/request_error_not_found.json"))
		_, err := c.Requests.Get(context.Background(), reqID)
		var apiErr *rxdelivery.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.ErrorIs(t, err, rxdelivery.ErrNotFound)
		assert.Equal(t, 404, apiErr.StatusCode)
		assert.Equal(t, "not_found", apiErr.Type)
		assert.Equal(t, "Request not found", apiErr.Message)
		assert.Equal(t, "", apiErr.ID, "an error id the path does not name is not known safe: the field is empty, Platform has it")
		assert.Equal(t, 1, mock.GetTotalCallCount(), "a 404 is not retried")
	})
	t.Run("500 on a read is retried", func(t *testing.T) {
		env := testutil.Setup(t)
		c, mock := env.Client, env.Mock
		mock.RegisterResponder(http.MethodGet, reqURL,
			testutil.BytesResponder(500, []byte(`{}`)).Then(testutil.FixtureResponder(t, 200, "omni/request_order_new.json")))
		r, err := c.Requests.Get(context.Background(), reqID)
		require.NoError(t, err)
		assert.Equal(t, reqID, r.ID)
		assert.Equal(t, 2, mock.GetTotalCallCount())
	})
	t.Run("answer without request", func(t *testing.T) {
		env := testutil.Setup(t)
		c, mock := env.Client, env.Mock
		mock.RegisterResponder(http.MethodGet, reqURL, testutil.BytesResponder(200, []byte(`{"request":null}`)))
		_, err := c.Requests.Get(context.Background(), reqID)
		assert.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
		assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	})
	t.Run("not JSON", func(t *testing.T) {
		env := testutil.Setup(t)
		c, mock := env.Client, env.Mock
		mock.RegisterResponder(http.MethodGet, reqURL, testutil.BytesResponder(200, []byte(`<html>`)))
		_, err := c.Requests.Get(context.Background(), reqID)
		assert.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
	})
}

func TestGetMany(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodGet, manyURL, rec.Wrap(testutil.FixtureResponder(t, 200, "omni/requests_get_many.json")))

	got, err := c.Requests.GetMany(context.Background(), []string{reqID, "req_01HZX7C4D5E6"})
	require.NoError(t, err)
	assert.Equal(t, 1, mock.GetTotalCallCount())
	sent := rec.Last(t)
	testutil.TestMethod(t, sent, http.MethodGet, manyURL+"?ids%5B%5D="+reqID+"&ids%5B%5D=req_01HZX7C4D5E6")
	testutil.TestBody(t, sent, rxdelivery.Omni, false)

	require.Len(t, got, 2)
	assert.Equal(t, reqID, got[0].ID)
	assert.Equal(t, "rx-1001", got[0].ExternalReferenceNumber)
	require.NotNil(t, got[0].Order)
	assert.Equal(t, rxtypes.OrderStatusPickedUp, got[0].Order.Status)
	assert.Equal(t, "Acme Courier", got[0].Order.CourierCompany)
	require.NotNil(t, got[0].Order.Pickup)
	assert.True(t, utc("2024-05-01T14:30:00Z").Equal(got[0].Order.Pickup.OccurredAt.Time))
	require.NotNil(t, got[0].Status)
	assert.Equal(t, requests.StatusRequestReceived, got[0].Status.Name)
	assert.Equal(t, "2024-05-01 2:00pm-4:00pm EDT", got[0].DeliveryETA.Raw)

	assert.Equal(t, "req_01HZX7C4D5E6", got[1].ID)
	assert.Equal(t, "rx-1004", got[1].ExternalReferenceNumber)
	assert.True(t, utc("2024-05-02T09:00:00Z").Equal(got[1].CreatedAt.Time))
	assert.Nil(t, got[1].Order)
	assert.Nil(t, got[1].Status)
}

func TestGetManyQueryKeepsOrderAndEscapes(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	var rec testutil.Recorder
	mock.RegisterResponder(http.MethodGet, manyURL, rec.Wrap(testutil.BytesResponder(200, []byte(`{"requests":[]}`))))

	got, err := c.Requests.GetMany(context.Background(), []string{"z", "a&b", "m"})
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.NotNil(t, got)
	assert.Equal(t, manyURL+"?ids%5B%5D=z&ids%5B%5D=a%26b&ids%5B%5D=m", rec.Last(t).URL)
}

func TestGetManyRefusesBadIDs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		ids  []string
		want []string
	}{
		{nil, []string{"ids"}},
		{[]string{}, []string{"ids"}},
		{[]string{reqID, ""}, []string{"ids[1]"}},
		{[]string{"", " ", ".."}, []string{"ids[0]", "ids[1]", "ids[2]"}},
	}
	for _, opts := range [][]rxdelivery.Option{nil, {rxdelivery.WithoutValidation()}} {
		env := testutil.Setup(t, opts...)
		c, mock := env.Client, env.Mock
		for _, tc := range cases {
			_, err := c.Requests.GetMany(context.Background(), tc.ids)
			var ve *rxdelivery.ValidationError
			require.ErrorAs(t, err, &ve, "%q", tc.ids)
			assert.Equal(t, tc.want, paths(ve), "%q", tc.ids)
		}
		assert.Equal(t, 0, mock.GetTotalCallCount())
	}
}

func TestGetManyToleratesItemShapes(t *testing.T) {
	t.Parallel()
	body := `{"requests":[{"request":{"id":"r1","order":null}},null,{"id":"r2","created_at":"2024-05-01T13:45:10Z"},{"request":{"id":"r3"},"extra":1}]}`
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodGet, manyURL, testutil.BytesResponder(200, []byte(body)))
	got, err := c.Requests.GetMany(context.Background(), []string{"r1", "r2", "r3"})
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, "r1", got[0].ID)
	assert.Equal(t, "r2", got[1].ID)
	assert.True(t, got[1].CreatedAt.Valid())
	assert.Equal(t, "r3", got[2].ID)
}

func TestGetManyBadAnswers(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{}`, `{"requests":{"id":"r1"}}`, `{"requests":[1]}`, `{"requests":[{"request":{"id":5}}]}`, `{"requests":[{"id":5}]}`} {
		env := testutil.Setup(t)
		c, mock := env.Client, env.Mock
		mock.RegisterResponder(http.MethodGet, manyURL, testutil.BytesResponder(200, []byte(body)))
		_, err := c.Requests.GetMany(context.Background(), []string{"r1"})
		var de *rxdelivery.DecodeError
		require.ErrorAs(t, err, &de, body)
		assert.ErrorIs(t, err, rxdelivery.ErrMalformedResponse, body)
		assert.Equal(t, "/api/v1/requests/", de.Path)
		assert.NotContains(t, err.Error(), "ids", "the query is never in an error")
	}
}

func TestGetManyErrorBody(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodGet, manyURL, testutil.FixtureResponder(t, 422, "omni/request_error_unprocessable.json"))
	_, err := c.Requests.GetMany(context.Background(), []string{"r1"})
	var apiErr *rxdelivery.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.ErrorIs(t, err, rxdelivery.ErrBadRequest)
	assert.Equal(t, "invalid_parameter", apiErr.Type)
	assert.Equal(t, "/api/v1/requests/", apiErr.Path)
}

func TestNoBaseURL(t *testing.T) {
	t.Parallel()
	c, err := rxdelivery.NewClient(testutil.Key, testutil.Secret)
	require.NoError(t, err)
	_, err = c.Requests.Get(context.Background(), reqID)
	assert.ErrorIs(t, err, rxdelivery.ErrNoBaseURL)
	var ce *rxdelivery.ConfigError
	assert.True(t, errors.As(err, &ce))
}

func paths(ve *rxdelivery.ValidationError) []string {
	out := make([]string, len(ve.Problems))
	for i, p := range ve.Problems {
		out[i] = p.Path
	}
	return out
}

func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	c, mock := env.Client, env.Mock
	mock.RegisterResponder(http.MethodGet, reqURL, testutil.FixtureResponder(t, 200, "omni/request_order_delivered.json"))
	mock.RegisterResponder(http.MethodPost, createURL, testutil.FixtureResponder(t, 200, "omni/request_create_response.json"))
	const n = 16
	errs := make(chan error, 2*n)
	for i := 0; i < n; i++ {
		go func() {
			_, err := c.Requests.Get(context.Background(), reqID)
			errs <- err
		}()
		go func() {
			_, err := c.Requests.Create(context.Background(), createParams())
			errs <- err
		}()
	}
	for i := 0; i < 2*n; i++ {
		require.NoError(t, <-errs)
	}
	assert.Equal(t, 2*n, mock.GetTotalCallCount())
}
