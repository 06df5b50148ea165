package rxdelivery_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
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

// Distinctive values: none of them may appear in a log line or an error.
const (
	secretKey      = "KEY-7f3a91c2e5"
	secretSecret   = "SECRET-b84d07aa1f"
	patientFirst   = "Zebulonia"
	patientLast    = "Quixtrand"
	patientStreet  = "8123 Xylophone Parkway"
	patientPhone   = "6145559876"
	patientBirth   = "1953-07-19"
	patientEmail   = "zq.private@example.org"
	pickupName     = "Ozymandias Pharmacy Annex"
	patientCity    = "Vexborough"
	referenceValue = "EXTREF-PRIVATE-5521"
)

func secretValues() []string {
	return []string{secretKey, secretSecret, patientFirst, patientLast, patientStreet, patientPhone,
		patientBirth, patientEmail, pickupName, patientCity, referenceValue}
}

func privateParams() *requests.CreateParams {
	dob, _ := rxdelivery.ParseDate(patientBirth)
	return &requests.CreateParams{
		Identifier:              "program-1",
		ExternalReferenceNumber: referenceValue,
		NameOfPickup:            "Amoxicillin",
		Pharmacy:                requests.PharmacyParams{NCPDP: "1234567"},
		Pickup: &requests.PickupParams{Name: pickupName, PhoneNumber: patientPhone, Address: requests.Address{
			Street1: patientStreet, City: patientCity, State: "OH", Zipcode: "43210"}},
		Dropoff: requests.DropoffParams{Name: patientFirst + " " + patientLast, PhoneNumber: patientPhone,
			Address: requests.DropoffAddress{Street1: patientStreet, City: patientCity, State: "OH", Zipcode: "43210"}},
		Patient: requests.PatientParams{FirstName: patientFirst, LastName: patientLast, Gender: rxtypes.GenderFemale, DateOfBirth: dob},
		Remittance: &requests.RemittanceParams{
			Contact:  &requests.Contact{MobilePhoneNumber: patientPhone, Email: patientEmail},
			Payments: []requests.Payment{{Fee: rxdelivery.MustDecimal("5.00"), Kind: requests.PaymentCopay}},
		},
	}
}

// TestNoSecretInLogsOrErrors runs calls with distinctive credentials and
// patient values through failing answers of every kind, with a debug
// logger, and finds none of the values in any log line or error string.
func TestNoSecretInLogsOrErrors(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	mock := httpmock.NewMockTransport()
	c, err := rxdelivery.NewClient(secretKey, secretSecret,
		rxdelivery.WithOmniURL(testutil.OmniURL),
		rxdelivery.WithHTTPClient(&http.Client{Transport: mock}),
		rxdelivery.WithLogger(logger),
		rxdelivery.WithRetryMax(2),
		rxdelivery.WithRetryWaitMin(time.Millisecond),
		rxdelivery.WithRetryWaitMax(2*time.Millisecond),
	)
	require.NoError(t, err)

	// Answers that echo what they were sent, the way a careless server or
	// proxy might; the SDK must not carry the echo into an error string.
	echo := func(status int) httpmock.Responder {
		return func(r *http.Request) (*http.Response, error) {
			var body []byte
			if r.Body != nil {
				body, _ = io.ReadAll(r.Body)
			}
			if len(body) == 0 {
				body = []byte(r.URL.String())
				body = append(append([]byte{'"'}, body...), '"')
			}
			resp := httpmock.NewBytesResponse(status, append([]byte(`{"error":{"message":"rejected"},"echo":`), append(body, '}')...))
			resp.Header.Set("Retry-After", "0")
			return resp, nil
		}
	}
	ctx := context.Background()
	var errs []error
	call := func(responder httpmock.Responder) {
		mock.Reset()
		mock.RegisterNoResponder(responder)
		_, err := c.Requests.Create(ctx, privateParams())
		require.Error(t, err)
		errs = append(errs, err)
		_, err = c.Requests.Get(ctx, "req_1")
		require.Error(t, err)
		errs = append(errs, err)
	}
	call(echo(500))
	call(echo(422))
	call(echo(429))
	call(echo(503))
	call(httpmock.NewStringResponder(200, `{"request":`))
	call(httpmock.NewErrorResponder(errors.New("connection reset by peer")))

	// Invalid params: the problems name paths, never values.
	bad := privateParams()
	bad.Patient.FirstName = strings.Repeat(patientFirst, 5)
	bad.Dropoff.PhoneNumber = patientPhone + "1"
	_, err = c.Requests.Create(ctx, bad)
	require.ErrorIs(t, err, rxdelivery.ErrInvalidParams)
	errs = append(errs, err)

	require.NotEmpty(t, logs.String(), "the debug logger saw the attempts")
	for _, e := range errs {
		for _, v := range secretValues() {
			assert.NotContains(t, e.Error(), v, "error %q", e)
		}
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		for _, v := range secretValues() {
			assert.NotContains(t, line, v)
		}
		assert.NotContains(t, line, "Basic ")
	}
}

// TestPrescriptionNumberNeverShown checks that the prescription number in
// RemovePrescription's path is replaced by a placeholder in errors and log
// lines, while the request still goes to the real path.
func TestPrescriptionNumberNeverShown(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	mock := httpmock.NewMockTransport()
	var sentPath string
	mock.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		sentPath = r.URL.EscapedPath()
		return httpmock.NewStringResponse(404, `{"error":{"message":"not found"}}`), nil
	})
	c, err := rxdelivery.NewClient(secretKey, secretSecret, rxdelivery.WithDeliveryURL(testutil.DeliveryURL+"/v"),
		rxdelivery.WithHTTPClient(&http.Client{Transport: mock}), rxdelivery.WithLogger(logger))
	require.NoError(t, err)
	err = c.Orders.RemovePrescription(context.Background(), "ord_1", "RX-PRIVATE-7781")
	require.ErrorIs(t, err, rxdelivery.ErrNotFound)
	assert.Equal(t, "/v/api/v1/orders/ord_1/prescriptions/RX-PRIVATE-7781", sentPath)
	assert.Contains(t, err.Error(), "DELETE /api/v1/orders/ord_1/prescriptions/:rx_number: 404")
	assert.NotContains(t, err.Error(), "RX-PRIVATE")
	assert.Contains(t, logs.String(), "path=/v/api/v1/orders/{id}/prescriptions/{rx_number}")
	assert.NotContains(t, logs.String(), "ord_1")
	assert.NotContains(t, logs.String(), "RX-PRIVATE")
}
