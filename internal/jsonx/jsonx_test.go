package jsonx_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// envelope holds every top-level key of the platform's answers, each
// decoded into the SDK's own model, so one decode exercises the models'
// tolerant decoding (unknown enum values kept verbatim, both documented
// forms, odd timestamps) wherever the input puts them.
type envelope struct {
	Order        *orders.Order          `json:"order"`
	Orders       []orders.Order         `json:"orders"`
	Objects      []orders.Order         `json:"objects"`
	Request      *requests.Request      `json:"request"`
	Requests     []requests.Request     `json:"requests"`
	Pharmacy     *pharmacies.Pharmacy   `json:"pharmacy"`
	Pharmacies   []pharmacies.Pharmacy  `json:"pharmacies"`
	Count        int                    `json:"count"`
	Page         *int                   `json:"page"`
	Quotes       []pricing.Quote        `json:"quotes"`
	Subscription *tracking.Subscription `json:"subscription"`
	Any          any                    `json:"any"`
}

// targets returns fresh values of every type the differential tests
// decode into.
func targets() []any {
	return []any{
		new(envelope),
		new(orders.Order),
		new([]orders.Order),
		new(pharmacies.SearchPage),
		new(pharmacies.Pharmacy),
		new(requests.Request),
		new(requests.Order),
		new(pricing.Quote),
		new(tracking.Subscription),
		new(tracking.Notification),
		new(any),
		new(map[string]json.RawMessage),
	}
}

// fixtures returns every answer body of testdata.
func fixtures(t testing.TB) map[string][]byte {
	t.Helper()
	root := filepath.Join(testutil.Root(), "testdata")
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		b, err := os.ReadFile(path)
		out[strings.TrimPrefix(path, root)] = b
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, out)
	return out
}

// agree decodes data into a fresh value of each target type with
// encoding/json, with the v2 decoder alone, and with Unmarshal, and
// reports the first disagreement: the v2 decoder must give the same value
// whenever both accept the input, and must not accept what encoding/json
// refuses; Unmarshal must give encoding/json's value or its very error.
func agree(data []byte) string {
	for _, target := range targets() {
		typ := reflect.TypeOf(target).Elem()
		want := reflect.New(typ)
		wantErr := json.Unmarshal(data, want.Interface())

		got := reflect.New(typ)
		gotErr := jsonx.Decode(data, got.Interface())
		switch {
		case wantErr == nil && gotErr == nil:
			if !reflect.DeepEqual(want.Interface(), got.Interface()) {
				return typ.String() + ": the v2 decoder read another value than encoding/json"
			}
		case wantErr != nil && gotErr == nil:
			return typ.String() + ": the v2 decoder accepted what encoding/json refuses: " + wantErr.Error()
		}

		seam := reflect.New(typ)
		seamErr := jsonx.Unmarshal(data, seam.Interface())
		switch {
		case (wantErr == nil) != (seamErr == nil):
			return typ.String() + ": Unmarshal and encoding/json disagree on failing"
		case wantErr != nil && reflect.TypeOf(wantErr) != reflect.TypeOf(seamErr):
			return typ.String() + ": Unmarshal's error is not of encoding/json's type"
		case wantErr != nil && !sameError(wantErr, seamErr, typ.Name()):
			return typ.String() + ": Unmarshal's error is not encoding/json's: " + seamErr.Error() + " / " + wantErr.Error()
		case wantErr == nil && !reflect.DeepEqual(want.Interface(), seam.Interface()):
			return typ.String() + ": Unmarshal read another value than encoding/json"
		}
	}
	return ""
}

// sameError reports whether got, Unmarshal's error, is want, encoding/json's:
// the very error, except that a type error's path (the same value: same
// offset, Go type and JSON value) may be written as Go 1.27 writes it, with
// the steps (array indexes, map keys) that encoding/json before Go 1.27
// leaves out, without the names of embedded structs it adds, with names as
// the input spells them, and the root type (named root) as its Struct.
func sameError(want, got error, root string) bool {
	wt, ok := want.(*json.UnmarshalTypeError)
	if !ok {
		return want.Error() == got.Error()
	}
	gt := got.(*json.UnmarshalTypeError)
	if wt.Value != gt.Value || wt.Type != gt.Type || wt.Offset != gt.Offset {
		return false
	}
	if wt.Field == gt.Field {
		// The same path: the Struct is encoding/json's (the innermost
		// struct) or, where Unmarshal aligned the error, the root type.
		return wt.Struct == gt.Struct || (root != "" && gt.Struct == root)
	}
	return wt.Field == "" || strings.EqualFold(lastStep(wt.Field), lastStep(gt.Field))
}

// lastStep returns the last step of a dotted path.
func lastStep(path string) string { return path[strings.LastIndexByte(path, '.')+1:] }

// TestDecodeAgreesOnFixtures runs the differential check on every fixture
// of testdata, whole and cut short at every byte.
func TestDecodeAgreesOnFixtures(t *testing.T) {
	t.Parallel()
	for name, b := range fixtures(t) {
		if d := agree(b); d != "" {
			t.Errorf("%s: %s", name, d)
		}
		for n := 0; n < len(b); n += 7 {
			if d := agree(b[:n]); d != "" {
				t.Errorf("%s cut at %d: %s", name, n, d)
			}
		}
	}
}

// TestDecodeAgreesOnOddInputs covers what the platform's documents allow
// and what a misbehaving server might send.
func TestDecodeAgreesOnOddInputs(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"order":{"id":"o","status":"submitted to courier","eta":{"arrival_at":"2024-05-02 15:10:00","type":"warp"}}}`,
		`{"order":{"id":"o","status":7,"cancellation":{"occurred_at":"not a time","reason":"Pharmacy Closed"}}}`,
		`{"ORDER":{"ID":"o","Status":"NEW"}}`,
		`{"order":{"id":"a","id":"b"}}`,
		`{"order":{"id":"caf\u00e9 \ud800 \"q\""}}`,
		"{\"order\":{\"id\":\"bad \xff utf-8\"}}",
		`{"order":null,"orders":null}`,
		`{"orders":[{"id":"o","shipping":{"cost":"9.40"}},null,{"delivery":{"recipient_identification":{"qualifier":6}}}]}`,
		`{"pharmacies":[{"distance_from_origin":1e2,"preferred":"yes"}]}`,
		`{"count":1.5}`,
		`{"count":99999999999999999999}`,
		`[1,2,3]`, `"text"`, `null`, `true`, ``, ` `, `{`, `{"order":`, `{}x`, `{} `,
		`{"any":{"a":[1,2.5,"x",null,true,{"b":{}}]}}`,
	} {
		if d := agree([]byte(in)); d != "" {
			t.Errorf("%q: %s", in, d)
		}
	}
}

// FuzzDecodeAgrees is the differential fuzz target: on every input, the v2
// decoder and encoding/json give the same value whenever both accept it,
// and Unmarshal gives encoding/json's value or error.
func FuzzDecodeAgrees(f *testing.F) {
	for _, b := range fixtures(f) {
		f.Add(b)
	}
	f.Add([]byte(`{"order":{"status":"submitted to courier","eta":{"arrival_at":"2024-05-02 15:10:00"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if d := agree(data); d != "" {
			t.Fatal(d)
		}
	})
}

// replacementRaw writes the replacement character that stands for
// invalid UTF-8 as itself: encoding/json escapes it (\ufffd), and writes it
// raw when built with GOEXPERIMENT=jsonv2; both are the same JSON text.
func replacementRaw(b []byte) string { return strings.ReplaceAll(string(b), `\ufffd`, "\uFFFD") }

// TestAppendString checks the one-pass string encoder against
// encoding/json on every escaping rule.
func TestAppendString(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", "plain", `"`, `\`, "<>&", "\b\f\n\r\t", "\x00\x01\x1f\x7f", "caf\u00e9",
		"\u2028\u2029", "\xff", "a\xc3", "\xed\xa0\x80", "\U0001F48A", "mixed <\xff\u2028\n> end",
	} {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		assert.Equal(t, replacementRaw(want), replacementRaw(jsonx.AppendString(nil, s)), "%q", s)
	}
}

// FuzzAppendString checks the one-pass string encoder against
// encoding/json on any text.
func FuzzAppendString(f *testing.F) {
	f.Add("plain <tag> & \u2028 \xff \n")
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		if got := jsonx.AppendString([]byte("x"), s); replacementRaw(got) != "x"+replacementRaw(want) {
			t.Fatalf("AppendString(%q) = %s, encoding/json writes %s", s, got[1:], want)
		}
	})
}

// TestMarshal checks that Marshal writes encoding/json's bytes for an
// Appender and for a plain value, and reports encoding/json's error for a
// value it cannot encode.
func TestMarshal(t *testing.T) {
	t.Parallel()
	p := &orders.CreateParams{Initiator: orders.InitiatorPharmacy, DeliveryNotes: "<b>"}
	want, err := json.Marshal(p)
	require.NoError(t, err)
	got, err := jsonx.Marshal(p)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))

	got, err = jsonx.Marshal(map[string]int{"b": 2, "a": 1})
	require.NoError(t, err)
	assert.Equal(t, `{"a":1,"b":2}`, string(got))

	_, err = jsonx.Marshal(failing{})
	var me *json.MarshalerError
	assert.ErrorAs(t, err, &me)
}

// failing is an Appender that fails, as encoding/json's Marshal does for
// it.
type failing struct{}

func (failing) AppendJSON([]byte) ([]byte, error) { return nil, assert.AnError }
func (failing) MarshalJSON() ([]byte, error)      { return nil, assert.AnError }
