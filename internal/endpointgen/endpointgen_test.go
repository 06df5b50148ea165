package endpointgen

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRequiredQueryIsHinted checks that the kit's constants name the
// required query parameters of their operations in the form each is sent
// (ids[]= repeated, delivery[…]= bracket-nested), as the documents give
// them, and that an optional one is left out.
func TestRequiredQueryIsHinted(t *testing.T) {
	t.Parallel()
	ops, err := Read("../../api", Documents)
	require.NoError(t, err)
	files, err := Generate(ops)
	require.NoError(t, err)
	kit := string(files["rxdeliverytest/operations_gen.go"])
	for _, want := range []string{
		"// GET /api/v1/requests/?ids[]= (omni)",
		"// GET /api/v1/orders?ids[]= (delivery)",
		"// GET /api/v1/pharmacies/{id}?delivery[…]= (delivery)",
		"// GET /tracking/v1/subscriptions?tracking_number= (tracking)",
		"// GET /api/v1/pharmacies/ (omni)",
	} {
		assert.Contains(t, kit, want)
	}
	for _, o := range ops {
		for _, q := range o.Query {
			assert.NotContains(t, q, "origin_address", "%s: an optional parameter is hinted", o.Name)
		}
	}
	assert.Equal(t, 1, strings.Count(kit, "?ids[]= (delivery)"))
}
