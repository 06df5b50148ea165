package orders_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// appender is the one-pass encoder the transport uses for a body.
type appender interface {
	AppendJSON([]byte) ([]byte, error)
}

// sameAsEncodingJSON checks that v's AppendJSON writes the bytes
// encoding/json writes for it.
func sameAsEncodingJSON(t *testing.T, v appender) {
	t.Helper()
	want, err := json.Marshal(v)
	require.NoError(t, err)
	got, err := v.AppendJSON([]byte("prefix"))
	require.NoError(t, err)
	assert.Equal(t, "prefix"+replacementRaw(want), replacementRaw(got))
}

// replacementRaw writes the replacement character that stands for
// invalid UTF-8 as itself: encoding/json escapes it (\ufffd), and writes it
// raw when built with GOEXPERIMENT=jsonv2; both are the same JSON text.
func replacementRaw(b []byte) string { return strings.ReplaceAll(string(b), `\ufffd`, "\uFFFD") }

// texts are strings that exercise every escaping rule of encoding/json,
// and states and ZIP codes that the wire form rewrites.
var texts = []string{
	"plain", "", `quote " and \ backslash`, " oh ", "43210-1234", "Ohio", "<tag> & amp", "line\nfeed\ttab\rcr\bbs\fff",
	"\x00\x01\x1f control", "caf\u00e9 \u2028\u2029 sep", "bad \xff\xfe utf-8", "emoji \U0001F48A",
}

// fill sets every field of v, recursively, to a value that is not zero:
// a field that AppendJSON leaves out then shows as a difference from
// encoding/json. n varies the values.
func fill(v reflect.Value, n int) {
	switch v.Interface().(type) {
	case rxdelivery.Decimal:
		v.Set(reflect.ValueOf(rxdelivery.DecimalFromCents(int64(1234 + n))))
		return
	case rxdelivery.Date:
		v.Set(reflect.ValueOf(rxdelivery.Date{Year: 1980, Month: time.February, Day: 1 + n%28}))
		return
	case time.Time:
		v.Set(reflect.ValueOf(time.Date(2024, 5, 2, 15, 4, 5, n, time.FixedZone("", -4*3600))))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(texts[n%len(texts)])
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(n - 3))
	case reflect.Bool:
		v.SetBool(n%2 == 0)
	case reflect.Ptr:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := 0; i < 2; i++ {
			fill(v.Index(i), n+i+1)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n+i)
			}
		}
	default:
		panic("fill: no rule for " + v.Type().String())
	}
}

// TestAppendJSONEveryField fills every field of the request bodies and
// checks the one-pass encoding against encoding/json; it fails when a
// field is added to a body and not to its AppendJSON.
func TestAppendJSONEveryField(t *testing.T) {
	t.Parallel()
	for n := 0; n < len(texts); n++ {
		var p orders.CreateParams
		fill(reflect.ValueOf(&p).Elem(), n)
		sameAsEncodingJSON(t, p)
		sameAsEncodingJSON(t, &p)
		sameAsEncodingJSON(t, orders.AddPrescriptionBody(&p.Prescriptions[0]))
	}
}

// TestAppendJSONOmitted checks the zero bodies (every omitempty field left
// out, nil pointers and slices written null) and the zero ready_at and
// service_date that MarshalJSON leaves out.
func TestAppendJSONOmitted(t *testing.T) {
	t.Parallel()
	sameAsEncodingJSON(t, orders.CreateParams{})
	sameAsEncodingJSON(t, orders.AddPrescriptionBody(&orders.Prescription{}))
	sameAsEncodingJSON(t, orders.CreateParams{Prescriptions: []orders.Prescription{{}}})
	sameAsEncodingJSON(t, orders.CreateParams{
		ReadyAt: &time.Time{}, ServiceDate: &rxdelivery.Date{},
		Prescriptions: []orders.Prescription{}, OtherItems: []orders.OtherItem{},
		Shipping: &orders.ShippingParams{},
	})
}

// TestAppendJSONFixtures checks the request fixtures and the params of
// this package's tests.
func TestAppendJSONFixtures(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"delivery/order_create_sameday_request.json",
		"delivery/order_create_ondemand_request.json",
		"delivery/order_create_shipping_request.json",
	} {
		var p orders.CreateParams
		require.NoError(t, json.Unmarshal(testutil.Fixture(t, name), &p), name)
		sameAsEncodingJSON(t, p)
	}
	sameAsEncodingJSON(t, samedayParams())
	sameAsEncodingJSON(t, ondemandParams())
	sameAsEncodingJSON(t, orders.AddPrescriptionBody(fridgeRx()))
}

// FuzzAppendJSON puts arbitrary text, numbers and flags in a same-day
// order and checks the one-pass encoding against encoding/json.
func FuzzAppendJSON(f *testing.F) {
	for i, s := range texts {
		f.Add(s, texts[(i+1)%len(texts)], i, i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, a, b string, n int, flag bool) {
		p := samedayParams()
		p.DeliveryNotes = a
		p.Recipient.Description = b
		p.Patient.FirstName = a + b
		p.Prescriptions[0].DaysSupply = n
		p.Prescriptions[0].FillNumber = &n
		p.PhotoIDRequired = &flag
		p.OtherItems = append(p.OtherItems, orders.OtherItem{UPC: b, SKU: a, Quantity: -n, Description: a})
		want, err := json.Marshal(p)
		require.NoError(t, err)
		got, err := p.AppendJSON(nil)
		require.NoError(t, err)
		if replacementRaw(got) != replacementRaw(want) {
			t.Fatalf("AppendJSON wrote\n%s\nencoding/json wrote\n%s", got, want)
		}
	})
}

// escapingParams is the create of order_create_escaping_request.json:
// text holding the characters encoding/json escapes (<, >, & as \u003c,
// \u003e, \u0026; quotes, line breaks, tabs, U+2028), non-ASCII written as
// it is, a state and a ZIP+4 in the forms the wire rewrites, amounts below
// one, and a prescription without payers (sent as []).
func escapingParams() *orders.CreateParams {
	return &orders.CreateParams{
		DeliveryFee:             decp("5.00"),
		RxAmountDue:             decp("0.50"),
		DeliveryNotes:           "Gate <4410> & \"side door\"\nCall first\tno bell; café \u2028 end",
		ExternalReferenceNumber: "rx-<escape>",
		Pharmacy:                orders.Pharmacy{NPI: "1234567890", NCPDP: "1234567"},
		Recipient: orders.Recipient{
			Description: "O'Brien & Sons",
			Address:     rxtypes.Address{Street: "1 <Main> St", City: "Columbus", State: "oh", Zipcode: "43210-1234"},
		},
		Patient: orders.Patient{FirstName: "Zoë", LastName: "Doe", Gender: rxtypes.GenderFemale, DateOfBirth: dob},
		Prescriptions: []orders.Prescription{{
			Number: "RX&100001", NDC: "00002143380", Refrigeration: orders.RefrigerationNone,
			DaysSupply: 30, FillQuantity: dec("0.5"), FillNumber: rxdelivery.Ptr(0), PatientPay: decp("0.00"),
			Prescriber: orders.Prescriber{
				FirstName: "Alan", LastName: "Grant", NPI: "1987654320",
				Address: rxtypes.Address{Street: "200 High Street", City: "Columbus", State: "OH", Zipcode: "43215"},
			},
		}},
	}
}

// TestWireBytesMatchFixtures pins the bodies the client sends, byte for
// byte, to the fixtures of testdata/delivery/wire: field order, amounts as
// JSON numbers in their canonical text (5.00, 30.00, 1.50), dates as
// YYYY-MM-DD and timestamps with their offset, optional fields left out,
// state and ZIP code in wire form, and encoding/json's escaping of <, >, &
// and U+2028, which the one-pass encoders keep. Each body that has a
// document example means the same as it (testdata/delivery/*_request.json,
// where amounts are written as the documents write them).
func TestWireBytesMatchFixtures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		example string // the document's example, "" when there is none
		send    func(*rxdelivery.Client) error
	}{
		{"order_create_sameday", "order_create_sameday_request", creating(samedayParams())},
		{"order_create_ondemand", "order_create_ondemand_request", creating(ondemandParams())},
		{"order_create_shipping", "order_create_shipping_request", creating(shippingParams())},
		{"order_create_escaping", "", creating(escapingParams())},
		{"order_add_prescription", "order_add_prescription_request", func(c *rxdelivery.Client) error {
			_, err := c.Orders.AddPrescription(context.Background(), orderID, fridgeRx())
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := testutil.Setup(t)
			var rec testutil.Recorder
			env.Mock.RegisterResponder(http.MethodPost, ordersEP,
				rec.Wrap(testutil.FixtureResponder(t, 200, "delivery/order_new_sameday.json")))
			env.Mock.RegisterResponder(http.MethodPost, ordersEP+"/"+orderID+"/prescriptions",
				rec.Wrap(testutil.FixtureResponder(t, 200, "delivery/order_add_prescription.json")))
			require.NoError(t, tc.send(env.Client))
			body := string(rec.Last(t).Body)
			want := strings.TrimSuffix(string(testutil.Fixture(t, "delivery/wire/"+tc.name+".json")), "\n")
			assert.Equal(t, want, body)
			if tc.example != "" {
				assert.JSONEq(t, string(testutil.Fixture(t, "delivery/"+tc.example+".json")), body)
			}
		})
	}
}

// creating sends p with Orders.Create, validated first.
func creating(p *orders.CreateParams) func(*rxdelivery.Client) error {
	return func(c *rxdelivery.Client) error {
		if err := p.Validate(); err != nil {
			return err
		}
		_, err := c.Orders.Create(context.Background(), p)
		return err
	}
}
