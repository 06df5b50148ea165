package sandbox

import (
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValidationDocNamesTheDeliveryInfoInputs: the delivery information
// inputs docs/validation.md lists (rows DI-..) are the query parameters the
// simulator reads, written as they are sent: a request made of exactly the
// names of the document, each with a valid value, is answered 200, and the
// dotted form is refused with the bracket form it should have been.
func TestValidationDocNamesTheDeliveryInfoInputs(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/validation.md")
	require.NoError(t, err)
	values := map[string]string{"street": "1 Test Plaza", "street2": "Suite 2", "city": "New York",
		"state": "NY", "zipcode": "10001", "delivery": "true", "POD": "adult_required", "package": "postal_small_flat_rate_box"}
	row := regexp.MustCompile("(?m)^\\| DI-\\d+ \\| `([^`]+)` \\|")
	q := url.Values{}
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		name := m[1]
		last := name[strings.LastIndex(name, "[")+1:]
		last = strings.TrimSuffix(last, "]")
		v, ok := values[last]
		require.True(t, ok, "docs/validation.md names %q, which no test value fits", name)
		q.Set(name, v)
	}
	require.Len(t, q, len(values), "docs/validation.md lists every input of delivery information")
	h := newHarness(t, Config{})
	ph := BuiltinPharmacies()[0]
	r := h.do("GET", "/delivery/api/v1/pharmacies/"+ph.NCPDP+"?"+q.Encode(), nil)
	assert.Equal(t, http.StatusOK, r.status, "the names of docs/validation.md: %s", r.body)

	r = h.do("GET", "/delivery/api/v1/pharmacies/"+ph.NCPDP+"?delivery.address.street=x&saturday.delivery=true", nil)
	assert.Equal(t, http.StatusBadRequest, r.status)
	msg, _ := at(r.obj(t), "error.message").(string)
	assert.Contains(t, msg, "delivery.address.street: send it as delivery[address][street]")
	assert.Contains(t, msg, "saturday.delivery: send it as saturday[delivery]")
}
