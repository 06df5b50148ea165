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

// TestValidationDocNamesTheDeliveryInfoInputs: docs/validation.md names
// each delivery information input of its DI rows (delivery.address.street,
// as the document and the SDK's ValidationError do) together with the form
// it is sent in (delivery[address][street]), and the simulator reads that
// form: a request made of the documented wire names, each with a valid
// value, is answered 200, while the dotted form is refused with the
// bracket form it should have been.
func TestValidationDocNamesTheDeliveryInfoInputs(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/validation.md")
	require.NoError(t, err)
	values := map[string]string{"street": "1 Test Plaza", "street2": "Suite 2", "city": "New York", "state": "NY", "zipcode": "10001"}
	row := regexp.MustCompile("(?m)^\\| DI-\\d+ \\| `([^`]+)` \\|")
	q := url.Values{}
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		parts := strings.Split(m[1], ".")
		wire := parts[0] + "[" + strings.Join(parts[1:], "][") + "]"
		require.Contains(t, string(doc), "`"+wire+"`", "docs/validation.md says how %s is sent", m[1])
		q.Set(wire, values[parts[len(parts)-1]])
	}
	require.Len(t, q, len(values), "docs/validation.md lists every address input")
	for _, wire := range []string{"`POD`", "`package`", "`saturday[delivery]`"} {
		require.Contains(t, string(doc), wire, "docs/validation.md names the input as it is sent")
	}
	q.Set("POD", "adult_required")
	q.Set("package", "postal_small_flat_rate_box")
	q.Set("saturday[delivery]", "true")
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
