package journal_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/sqlitestore"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// TestNoteHoldsNoEchoedPatientValue: a journaled create that fails with
// an unknown outcome, against a platform whose 500 repeats the order's
// patient values (a name, a street, a phone number, a date of birth, a
// note) in several forms, leaves a note row that names the failure and
// holds none of them.
func TestNoteHoldsNoEchoedPatientValue(t *testing.T) {
	t.Parallel()
	params := rxdeliverytest.SamedayOrderParams()
	params.Patient.FirstName, params.Patient.LastName = "Philomena", "Vandersloot"
	params.Recipient.Description = "Philomena Vandersloot"
	params.Recipient.Address.Street = "4417 Quillfeather Lane"
	params.Recipient.MobilePhoneNumber = "6145557291"
	params.DeliveryNotes = "Leave by the blue gate"
	dob, err := rxdelivery.ParseDate("1947-11-23")
	require.NoError(t, err)
	params.Patient.DateOfBirth = dob
	values := []string{"Philomena Vandersloot", "4417 Quillfeather Lane", "6145557291", "1947-11-23", "Leave by the blue gate"}
	forms := []func(string) string{
		func(v string) string { return v },
		strings.ToLower,
		func(v string) string { return strings.Fields(v)[len(strings.Fields(v))-1] },
		func(v string) string { return v[:6] + "..." },
		func(v string) string {
			var b strings.Builder
			for _, r := range v {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
			return b.String()
		},
		func(string) string { return "(614) 555-7291 born 11/23/1947" },
	}
	var msg []string
	for _, v := range values {
		for _, f := range forms {
			msg = append(msg, "Invalid value "+f(v)+".")
		}
	}
	body, err := json.Marshal(map[string]any{"error": map[string]string{"message": strings.Join(msg, " "), "code": "internal_error " + values[0]}})
	require.NoError(t, err)
	mock := httpmock.NewMockTransport()
	const deliveryURL = "https://delivery.rxdelivery.test"
	res := httpmock.NewBytesResponder(http.StatusInternalServerError, body).HeaderSet(http.Header{"Content-Type": {"application/json"}})
	mock.RegisterResponder(http.MethodPost, deliveryURL+"/api/v1/orders", res)
	c, err := rxdelivery.NewClient("KEY-note-1", "SECRET-note-1", rxdelivery.WithDeliveryURL(deliveryURL),
		rxdelivery.WithHTTPClient(&http.Client{Transport: mock}), rxdelivery.WithRetryMax(0))
	require.NoError(t, err)
	store, err := sqlitestore.Open(filepath.Join(t.TempDir(), "journal.db"))
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	j := journal.New(store)

	_, err = j.Orders(c.Orders).Create(context.Background(), params)
	require.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	unknown, err := j.Unknown(context.Background(), 10)
	require.NoError(t, err)
	require.Len(t, unknown, 1)
	note := unknown[0].Note
	assert.Contains(t, note, "500 Internal Server Error")
	assert.Contains(t, note, "Invalid value")
	lower := strings.ToLower(note)
	found := 0
	for _, w := range []string{"phil", "vand", "quil", "lane", "leav", "blue", "gate"} {
		if strings.Contains(lower, w) {
			found++
			t.Errorf("the note holds %q: %s", w, note)
		}
	}
	for _, r := range regexp.MustCompile(`[0-9]+`).FindAllString(note, -1) {
		for _, g := range []string{"4417", "614", "555", "7291", "1947"} {
			if strings.Contains(r, g) {
				found++
				t.Errorf("the note holds %q: %s", g, note)
			}
		}
	}
	require.Equal(t, 1, mock.GetCallCountInfo()["POST "+deliveryURL+"/api/v1/orders"], "creates sent")
	t.Logf("planted forms: %d; found in the note: %d", len(values)*len(forms), found)
}
