package endpointgen

import (
	"os"
	"path/filepath"
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

// TestPrivacyIsRequired checks that a schema property without
// x-rxdelivery-privacy stops the generator with the property named and
// the decisions it may take, that a name shared by properties of patient
// data and of a safe kind is patient data, and that one name of two safe
// kinds is refused.
func TestPrivacyIsRequired(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(body string) {
		t.Helper()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "x.yaml"), []byte(body), 0o600))
	}
	docs := []Document{{File: "x.yaml", Interface: "delivery"}}

	write("components:\n  schemas:\n    Proof:\n      properties:\n        photo_url:\n          type: string\n")
	_, err := Privacy(dir, docs)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "property photo_url")
	assert.Contains(t, err.Error(), "patient")

	write("components:\n  schemas:\n    A:\n      properties:\n        type:\n          x-rxdelivery-privacy: enum\n" +
		"    B:\n      properties:\n        type:\n          x-rxdelivery-privacy: patient\n" +
		"      if:\n        properties:\n          type:\n            const: x\n")
	kinds, err := Privacy(dir, docs)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"type": "Patient"}, kinds)

	write("components:\n  schemas:\n    A:\n      properties:\n        at:\n          x-rxdelivery-privacy: time\n" +
		"    B:\n      properties:\n        at:\n          x-rxdelivery-privacy: id\n")
	_, err = Privacy(dir, docs)
	require.Error(t, err)
}
