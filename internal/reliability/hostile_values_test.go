package reliability_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
)

// Answers with values at or past the edge of what they may hold (a
// Retry-After beyond int64, pages that never end, money no Decimal holds):
// their bytes are under test, so they reach the client whole through
// Setup's httpmock (see mocked_test.go).

// TestExtremeRetryAfter: a Retry-After too large for an int64 is a wait
// longer than any cap: the call returns at once with the 429, after one
// attempt, instead of reading it as garbage and retrying after backoff.
func TestExtremeRetryAfter(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"99999999999999999999999999", "9223372036854775808", "31536001"} {
		c, s := newMocked(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
			w.Header().Set("Retry-After", v)
			writeJSON(w, 429, `{"error":{"message":"slow down"}}`)
		}, rxdelivery.WithRetryWaitMax(time.Minute))
		_, err := c.Orders.Get(context.Background(), "ord_1")
		ae := apiError(t, err, http.MethodGet, getPath, 429)
		assert.Equal(t, int64(1), s.attempts.Load(), "Retry-After %s", v)
		if ae != nil {
			assert.GreaterOrEqual(t, ae.RetryAfter, 365*24*time.Hour, "Retry-After %s", v)
		}
	}
}

// TestEndlessPages: Pharmacies.All against a platform that keeps
// answering page 1 with a huge total_pages, one that repeats a page
// without numbering it, and one whose total_pages grows as it is walked:
// the walk ends, bounded by the first page's total_pages, with a
// *DecodeError for a page that repeats.
func TestEndlessPages(t *testing.T) {
	t.Parallel()
	page := func(n int, total int, ids ...string) string {
		var b strings.Builder
		b.WriteString(`{"count":1000,"page_size":2,"total_pages":` + strconv.Itoa(total))
		if n > 0 {
			b.WriteString(`,"page":` + strconv.Itoa(n))
		}
		b.WriteString(`,"pharmacies":[`)
		for i, id := range ids {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"npi":"` + id + `","ncpdp":"` + id[:7] + `","name":"P"}`)
		}
		b.WriteString(`]}`)
		return b.String()
	}
	cases := []struct {
		name    string
		answer  func(n int) string
		yielded int
		fetches int64
		msg     string
	}{
		{"always page 1", func(int) string { return page(1, 1_000_000_000, "1000000001", "1000000002") },
			2, 2, "asked for page 2, the response is page 1"},
		{"unnumbered repeat", func(int) string { return page(0, 1_000_000_000, "1000000001", "1000000002") },
			2, 2, "page 2 repeats page 1"},
		{"growing total", func(n int) string {
			total := 3
			if n > 1 {
				total = 1_000_000_000
			}
			return page(n, total, strconv.Itoa(1000000000+2*n), strconv.Itoa(1000000001+2*n))
		}, 6, 3, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, s := newMocked(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
				n, _ := strconv.Atoi(r.URL.Query().Get("page"))
				writeJSON(w, 200, tc.answer(n))
			})
			yielded := 0
			var last error
			for _, err := range c.Pharmacies.All(context.Background(), &pharmacies.SearchParams{PlaceID: "place-1"}) {
				if err != nil {
					last = err
					break
				}
				if yielded++; yielded > 100 {
					t.Fatal("the walk does not end")
				}
			}
			assert.Equal(t, tc.yielded, yielded)
			assert.Equal(t, tc.fetches, s.attempts.Load())
			if tc.msg == "" {
				assert.NoError(t, last)
				return
			}
			decodeError(t, last, http.MethodGet, "/api/v1/pharmacies/")
			assert.EqualError(t, last, "rxdelivery: GET /api/v1/pharmacies/: 200 OK: malformed response body: "+tc.msg)
		})
	}
}

// TestExtremeMoneyValues: a price or cost whose exponent a Decimal cannot
// hold is a decode error, never a zero that compares below real prices;
// on a create its outcome is unknown.
func TestExtremeMoneyValues(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"1e400", "1e-400", "-1e99999999999"} {
		c, _ := newMocked(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
			drainRequest(r)
			if r.URL.Path == "/pricing/v1/quotes" {
				writeJSON(w, 200, `{"quotes":[{"provider":"postal","service":"ground_service","price_usd":`+v+`}]}`)
				return
			}
			writeJSON(w, 200, `{"order":{"id":"ord_1","status":"new","shipping":{"cost":`+v+`}}}`)
		}, rxdelivery.WithRetryMax(0))
		quotes, err := c.Pricing.Quote(context.Background(), e2eQuote())
		decodeError(t, err, http.MethodPost, "/pricing/v1/quotes")
		assert.Nil(t, quotes, v)
		_, err = c.Orders.Create(context.Background(), createParams(t, "ref-money"))
		decodeError(t, err, http.MethodPost, createPath)
		assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome, v)
	}
}
