package rxdelivery_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// plant sets every settable string of v (a pointer to params) to a value
// of its own, "pl4nt<n>q", and returns the values planted.
func plant(v any) []string {
	var planted []string
	var walk func(reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		case reflect.String:
			if v.CanSet() {
				s := fmt.Sprintf("pl4nt%dq", len(planted))
				v.SetString(s)
				planted = append(planted, s)
			}
		}
	}
	walk(reflect.ValueOf(v))
	return planted
}

// jsonKeys returns every object key of a JSON document.
func jsonKeys(t *testing.T, data []byte) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("body %s: %v", data, err)
	}
	var keys []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				keys = append(keys, k)
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return keys
}

// TestTranscriptShowsNoPatientValue plants a value of its own in every
// string field of every create (and the prescription, quote and
// subscription writes), against a platform that echoes the whole request
// in its response and in an error: no planted value, and no credential,
// is in any transcript, and every field sent is named in it.
func TestTranscriptShowsNoPatientValue(t *testing.T) {
	t.Parallel()
	var lastBody []byte
	fail := false
	var transcript bytes.Buffer
	env := testutil.Setup(t, rxdelivery.WithoutValidation(), rxdelivery.WithRetryMax(0),
		rxdelivery.WithTranscript(&transcript))
	env.Mock.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		body, _ := io.ReadAll(r.Body)
		lastBody = body
		var resp *http.Response
		if fail {
			resp = httpmock.NewStringResponse(http.StatusUnprocessableEntity,
				fmt.Sprintf(`{"error":{"message":"invalid: %s"},"echo":%s}`, strings.ReplaceAll(string(body), `"`, `'`), body))
		} else {
			resp = httpmock.NewStringResponse(http.StatusCreated,
				fmt.Sprintf(`{"order":{"id":"ord_1","status":"new","echo":%s},"request":{"id":"req_1"},"quotes":[],"echo":%s}`, body, body))
		}
		resp.Header.Set("Content-Type", "application/json")
		resp.Header.Set("X-Request-Id", "req-7f3a")
		resp.Header.Set("X-Echo", string(bytes.TrimSpace(body[:min(len(body), 40)])))
		return resp, nil
	})
	client := env.Client
	ctx := context.Background()
	calls := map[string]func() ([]string, error){
		"orders.Create": func() ([]string, error) {
			p := rxdeliverytest.SamedayOrderParams()
			planted := plant(p)
			_, err := client.Orders.Create(ctx, p)
			return planted, err
		},
		"orders.AddPrescription": func() ([]string, error) {
			p := rxdeliverytest.SamedayOrderParams().Prescriptions[0]
			planted := plant(&p)
			_, err := client.Orders.AddPrescription(ctx, "ord_1", &p)
			return planted, err
		},
		"requests.Create": func() ([]string, error) {
			p := &requests.CreateParams{Dropoff: requests.DropoffParams{Address: requests.NewDropoffAddress(requests.Address{})}}
			planted := plant(p)
			_, err := client.Requests.Create(ctx, p)
			return planted, err
		},
		"pricing.Quote": func() ([]string, error) {
			p := &pricing.QuoteParams{}
			planted := plant(p)
			_, err := client.Pricing.Quote(ctx, p)
			return planted, err
		},
		"tracking.Subscribe": func() ([]string, error) {
			p := &tracking.SubscribeParams{}
			planted := plant(p)
			_, err := client.Tracking.Subscribe(ctx, p)
			return planted, err
		},
	}
	_ = rxtypes.OrderStatusNew
	for name, call := range calls {
		for _, failing := range []bool{false, true} {
			fail = failing
			transcript.Reset()
			planted, _ := call()
			out := transcript.String()
			if !strings.Contains(out, name) {
				t.Fatalf("%s: no transcript:\n%s", name, out)
			}
			for _, v := range append(planted, testutil.Key, testutil.Secret, testutil.WantAuth(rxdelivery.Omni), testutil.WantAuth(rxdelivery.Tracking)) {
				if strings.Contains(out, v) {
					t.Errorf("%s (failing %v): the transcript holds %q:\n%s", name, failing, v, out)
				}
			}
			for _, k := range jsonKeys(t, lastBody) {
				if !strings.Contains(out, `"`+k+`"`) {
					t.Errorf("%s: the transcript does not name the field %q", name, k)
				}
			}
			if !strings.Contains(out, "req-7f3a") {
				t.Errorf("%s: the transcript lacks the platform's request id", name)
			}
		}
	}
}
