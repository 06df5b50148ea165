package core

import (
	"context"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// TestScrub: the safe text of the platform's words keeps the words of the
// allowlist and nothing else; the values the call sent in patient fields,
// its hidden path segments and the credentials go even where they are
// words of the vocabulary; a value sent in a field of a safe kind keeps
// its word ("Invalid pharmacy" after initiator: pharmacy).
func TestScrub(t *testing.T) {
	t.Parallel()
	b := &Backend{secrets: []string{"key-1234", "sec-5678", "a2V5OnNlYw=="}}
	path, shown, _ := OrdersRemovePrescription.Paths("ord_1", "RX/991")
	sc := b.newScrubber(path, shown, "origin_address=12+Main+Street&page=2",
		[]byte(`{"initiator":"pharmacy","patient":{"first_name":"Jane","last_name":"Price","date_of_birth":"1980-02-29"},"state":"OH","qty":30,"fee":5.00,"ok":true}`))
	cases := map[string]string{
		"Invalid name JANE PRICE birth 1980-02-29":           "Invalid name [redacted] birth [redacted]",
		"Invalid last name price, first name jane":           "Invalid last name [redacted], first name [redacted]",
		"Does the state OH for JOHN matter":                  "Does the state [redacted] for [redacted] matter",
		"fee 5.00 is over 30 or 3":                           "fee 5.00 is over [redacted] or 3",
		"no pharmacy at 12 Main Street or 12+Main+Street":    "no pharmacy at [redacted] or [redacted]",
		"prescription RX/991 and RX%2F991 not found":         "prescription [redacted] and [redacted] not found",
		"bad key key-1234:sec-5678 (a2V5OnNlYw==)":           "bad key [redacted]==)",
		"Order is not in a cancellable status":               "Order is not in a cancellable status",
		"Invalid pharmacy":                                   "Invalid pharmacy",
		"Order ord_1 is not in a cancellable status":         "Order ord_1 is not in a cancellable status",
		"Order ord_2 is not in a cancellable status":         "Order [redacted] is not in a cancellable status",
		"patient.date_of_birth: must be an ISO 8601 date":    "patient.date_of_birth: must be an ISO 8601 date",
		"Born 02/29/1980 &amp; called Ja&#110;e P\\u0072ice": "Born [redacted] & called [redacted]",
		"": "",
	}
	for in, want := range cases {
		assert.Equal(t, want, sc.scrub(in), in)
	}
	assert.Equal(t, "unable_to_cancel", sc.code("unable_to_cancel"))
	assert.Equal(t, "invalid [redacted]", sc.code("invalid Jane"))
	assert.Equal(t, "ord_1", sc.id("ord_1"))
	assert.Equal(t, "", sc.id("err_000042"))
	assert.Equal(t, "https://[redacted].example", sc.sent("https://key-1234.example"), "sent removes the values sent alone")
	var none *scrubber
	assert.Equal(t, "[redacted]", none.scrub("Jane"))
	assert.Equal(t, "Jane", none.sent("Jane"))
}

// TestAPIErrorKeepsTheIDThePathNames: an omni unable_to_cancel names the
// request the call's path names: ID keeps it; another id leaves ID empty,
// and Type and Code are the platform's value when every word of it is
// safe, empty otherwise; Platform keeps the platform's words.
func TestAPIErrorKeepsTheIDThePathNames(t *testing.T) {
	t.Parallel()
	b, mock := newTestBackend(t, Config{Defaults: retries(0)})
	mock.RegisterResponder("DELETE", testBase+"/api/v1/requests/req_1", httpmock.NewStringResponder(422,
		`{"error":{"id":"req_1","type":"unable_to_cancel","message":"Orders are not in a cancellable status"}}`))
	mock.RegisterResponder("DELETE", testBase+"/api/v1/requests/req_2", httpmock.NewStringResponder(422,
		`{"error":{"id":"Philomena Vandersloot","type":"unable_to_cancel Philomena","code":"bad_value Vandersloot","message":"Philomena Vandersloot"}}`))
	_, err := b.Do(context.Background(), Call{Method: "DELETE", Path: "/api/v1/requests/req_1", Write: true}, nil)
	var e *rxtypes.APIError
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "req_1", e.ID)
	assert.Equal(t, "unable_to_cancel", e.Type)
	assert.Equal(t, "Orders are not in a cancellable status", e.Message)
	assert.ErrorIs(t, err, rxtypes.ErrUnableToCancel)

	_, err = b.Do(context.Background(), Call{Method: "DELETE", Path: "/api/v1/requests/req_2", Write: true}, nil)
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "", e.ID, "a typed field holds the platform's value or nothing")
	assert.Equal(t, "", e.Type)
	assert.Equal(t, "", e.Code)
	assert.Equal(t, Redacted, e.Message)
	assert.Equal(t, rxtypes.PlatformError{ID: "Philomena Vandersloot", Type: "unable_to_cancel Philomena",
		Code: "bad_value Vandersloot", Message: "Philomena Vandersloot"}, e.Platform(), "the entitled reader's view keeps the platform's words")
}
