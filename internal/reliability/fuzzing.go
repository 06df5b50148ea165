package reliability

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

// The helpers below are shared by the fuzz targets of the service
// packages: every target decodes arbitrary responses or varies the string
// fields of a valid params value, and checks the same promises.

// Fixtures returns the bytes of the files testdata/dir/pattern, such as
// ("delivery", "order*.json"). Request bodies (*_request.json) are left
// out unless pattern names them. It fails when nothing matches.
func Fixtures(tb testing.TB, dir, pattern string) [][]byte {
	tb.Helper()
	names, err := filepath.Glob(filepath.Join(testutil.Root(), "testdata", dir, pattern))
	if err != nil || len(names) == 0 {
		tb.Fatalf("no fixtures %s/%s: %v", dir, pattern, err)
	}
	var out [][]byte
	for _, n := range names {
		if strings.HasSuffix(n, "_request.json") && !strings.HasSuffix(pattern, "_request.json") {
			continue
		}
		b, err := os.ReadFile(n)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		tb.Fatalf("no fixtures %s/%s besides request bodies", dir, pattern)
	}
	return out
}

// StringFields returns the settable string fields (named string types
// included) reachable from v, a pointer to a struct: through nested
// structs, non-nil pointers and slice elements, in field order. Unexported
// fields are skipped.
func StringFields(v any) []reflect.Value {
	var out []reflect.Value
	collectStrings(reflect.ValueOf(v), &out)
	return out
}

func collectStrings(v reflect.Value, out *[]reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			collectStrings(v.Elem(), out)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				collectStrings(f, out)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			collectStrings(v.Index(i), out)
		}
	case reflect.String:
		if v.CanSet() {
			*out = append(*out, v)
		}
	}
}

// SetStrings sets string field i of p (see StringFields) to v and field j
// to w; field numbers wrap around.
func SetStrings(p any, i uint16, v string, j uint16, w string) {
	fields := StringFields(p)
	if len(fields) == 0 {
		return
	}
	fields[int(i)%len(fields)].SetString(v)
	fields[int(j)%len(fields)].SetString(w)
}

// AddValidateSeeds adds to f, for fixtures 0 to n-1, seeds of the form
// (fixture, i, v, j, w) that empty a field, overfill another and put odd
// bytes or spaces in others.
func AddValidateSeeds(f *testing.F, n int) {
	for k := 0; k < n; k++ {
		for i := uint16(0); i < 40; i += 3 {
			f.Add(uint8(k), i, "", i+1, strings.Repeat("9", 300))
			f.Add(uint8(k), i, "\x00\xff", i+2, " Jane Doe ")
		}
	}
}

// CheckValidated checks what Validate said of p: either a
// *rxdelivery.ValidationError with at least one problem, matching
// ErrInvalidParams, or nil, and then p encodes as valid JSON.
func CheckValidated(t testing.TB, p any, err error) {
	t.Helper()
	if err != nil {
		var ve *rxdelivery.ValidationError
		if !errors.As(err, &ve) || !errors.Is(err, rxdelivery.ErrInvalidParams) || len(ve.Problems) == 0 {
			t.Fatalf("Validate returned %T: %v", err, err)
		}
		for _, pr := range ve.Problems {
			if pr.Message == "" {
				t.Fatalf("a problem without a message at %q", pr.Path)
			}
		}
		return
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("accepted params do not encode: %v", err)
	}
	if !json.Valid(b) {
		t.Fatalf("accepted params encode as invalid JSON: %s", b)
	}
}

// CheckDecoded checks the error of a call answered 200: nil, or a
// *rxdelivery.DecodeError matching ErrMalformedResponse whose
// UnknownOutcome is set exactly for writes.
func CheckDecoded(t testing.TB, err error, write bool) {
	t.Helper()
	if err == nil {
		return
	}
	var de *rxdelivery.DecodeError
	if !errors.As(err, &de) || !errors.Is(err, rxdelivery.ErrMalformedResponse) {
		t.Fatalf("a 200 response failed with %T: %v", err, err)
	}
	if de.UnknownOutcome != write {
		t.Fatalf("UnknownOutcome is %v for a call with write %v", de.UnknownOutcome, write)
	}
}

// Reencodes fails when v, decoded from a response, does not encode again:
// callers store and log the models they get.
func Reencodes(t testing.TB, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("a decoded %T does not encode: %v", v, err)
	}
	if !json.Valid(b) {
		t.Fatalf("a decoded %T encodes as invalid JSON: %s", v, b)
	}
}

// AnsweringClient returns a mock client, with retries off, whose every
// call is answered 200 with the body last given to the returned setter.
// One client serves every input of a fuzz target: the fuzz function runs
// one input at a time.
func AnsweringClient(tb testing.TB) (*rxdelivery.Client, func(body []byte)) {
	var body []byte
	env := testutil.Setup(tb, rxdelivery.WithRetryMax(0))
	env.Mock.RegisterNoResponder(func(*http.Request) (*http.Response, error) {
		return testutil.BytesResponder(200, body)(nil)
	})
	return env.Client, func(b []byte) { body = b }
}
