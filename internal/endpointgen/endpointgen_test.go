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

// TestControlDocument checks that the control document's Operation enum
// is written from the operations ("" first, then each name in order) and
// that nothing else of the document changes.
func TestControlDocument(t *testing.T) {
	t.Parallel()
	doc := "components:\n  schemas:\n    Operation:\n      type: string\n      enum:\n        - \"\"\n        - old.Op\n" +
		"    Other:\n      enum:\n        - kept\n"
	got, err := ControlDocument([]byte(doc), []Operation{{Name: "orders.Get"}, {Name: "orders.ProofOfDelivery"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "components:\n  schemas:\n    Operation:\n      type: string\n      enum:\n        - \"\"\n        - orders.Get\n        - orders.ProofOfDelivery\n" +
		"    Other:\n      enum:\n        - kept\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := ControlDocument([]byte("components: {}\n"), nil); err == nil {
		t.Error("a document without the Operation enum was accepted")
	}
}
