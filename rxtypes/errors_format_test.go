package rxtypes_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// planted is a patient's value held where no rendering may reach it.
const planted = "Philomena"

// holder is a cause whose Error text is safe and whose fields are not:
// %#v of an error that holds it must not show them.
type holder struct{ note string }

func (h holder) Error() string { return "connection reset" }

// verbs are the formats a caller may log an error with.
var verbs = []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.40s", "%-q", "%#x"}

// TestErrorRenderingsShowNoRawField: every verb of every error type, and
// of every link of its Unwrap chain, shows neither APIError.Body nor its
// Header nor the fields of a cause; %v, %+v and %s read as Error.
func TestErrorRenderingsShowNoRawField(t *testing.T) {
	t.Parallel()
	cause := holder{note: planted}
	errs := []error{
		&rxtypes.APIError{StatusCode: 422, Method: "POST", Path: "/api/v1/orders", Message: "Invalid pharmacy",
			Body: []byte(`{"error":{"message":"` + planted + `"}}`), Header: http.Header{"X-Echo": {planted}}},
		&rxtypes.TransportError{Method: "POST", Path: "/api/v1/orders", Err: cause, UnknownOutcome: true},
		&rxtypes.TransportError{Method: "POST", Path: "/api/v1/orders", Err: &rxtypes.NotSentError{Err: cause}},
		&rxtypes.DecodeError{StatusCode: 200, Method: "GET", Path: "/api/v1/orders/ord_1", Err: cause},
		&rxtypes.ConfigError{Message: "no base URL", Err: cause},
		&rxtypes.ValidationError{Problems: []rxtypes.Problem{{Path: "patient.first_name", Message: "is required"}}},
		fmt.Errorf("wrapped: %w", &rxtypes.TransportError{Method: "GET", Path: "/x", Err: cause}),
	}
	n := 0
	for _, top := range errs {
		for err := top; err != nil; err = errors.Unwrap(err) {
			if _, ok := err.(holder); ok {
				break // the cause itself is the caller's test value
			}
			for _, v := range verbs {
				got := fmt.Sprintf(v, err)
				n++
				assert.NotContains(t, got, planted, "%s of %T", v, err)
				assert.NotContains(t, got, "X-Echo", "%s of %T", v, err)
			}
			for _, v := range []string{"%v", "%+v", "%s"} {
				assert.Equal(t, err.Error(), fmt.Sprintf(v, err), "%s of %T", v, err)
			}
		}
	}
	t.Logf("renderings checked: %d", n)
	e := &rxtypes.APIError{StatusCode: 404, Method: "GET", Path: "/p", Body: []byte("abc"), Header: http.Header{"A": {"b"}}}
	assert.Equal(t, `&rxtypes.APIError{StatusCode:404, Method:"GET", Path:"/p", Interface:"omni", ID:"", Type:"", Code:"", Message:"", RetryAfter:0, Body:<3 bytes not shown>, Header:<1 keys not shown>, Location:"", UnknownOutcome:false, RequestID:"", Attempts:0}`,
		fmt.Sprintf("%#v", e))
	assert.Equal(t, fmt.Sprintf("%q", e.Error()), fmt.Sprintf("%q", e))
	assert.Equal(t, fmt.Sprintf("%x", e.Error()), fmt.Sprintf("%x", e))
	assert.True(t, strings.HasPrefix(fmt.Sprintf("%#v", &rxtypes.DecodeError{Err: cause}), "&rxtypes.DecodeError{"))
	var nilErr *rxtypes.APIError
	assert.Equal(t, "(*rxtypes.APIError)(nil)", fmt.Sprintf("%#v", nilErr))
}
