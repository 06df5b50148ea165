package reliability_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
)

// TestOverLimitBodiesCostTheLimit: a 2xx body over the size limit costs
// no more than the limit plus a small constant, however it comes: of
// unknown length (chunked), compressed (a small gzip body that expands to
// many times the limit), or announced by Content-Length. The bytes
// allocated while the call runs (runtime.MemStats.TotalAlloc, an upper
// bound of the peak) are logged for the closing figures. Not parallel:
// TotalAlloc counts every goroutine's allocations.
func TestOverLimitBodiesCostTheLimit(t *testing.T) {
	const limit = 8 << 20
	const size = 64 << 20
	// The small constant (the buffer and chunk of a body of unknown
	// length, the gzip reader, the connection), with room for the race
	// detector's own allocations.
	const slack = 4 << 20
	filler := bytes.Repeat([]byte("a"), 64<<10)
	// A gzip stream of many members (which a gzip reader reads as one
	// body): the first opens the JSON, each of the others expands 1 MiB of
	// filler.
	member := func(prefix string, n int) []byte {
		var b bytes.Buffer
		zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
		require.NoError(t, err)
		_, _ = zw.Write([]byte(prefix))
		for i := 0; i < n; i += len(filler) {
			_, _ = zw.Write(filler)
		}
		require.NoError(t, zw.Close())
		return b.Bytes()
	}
	var zipped bytes.Buffer
	zipped.Write(member(`{"order":{"id":"`, 0))
	mib := member("", 1<<20)
	for i := 0; i < size>>20; i++ {
		zipped.Write(mib)
	}
	t.Logf("gzip body: %d bytes expanding to %d MiB", zipped.Len(), size>>20)

	cases := []struct {
		name  string
		serve func(w http.ResponseWriter)
		max   uint64
	}{
		{"chunked", func(w http.ResponseWriter) {
			w.WriteHeader(200)
			_, _ = w.Write([]byte(`{"order":{"id":"`))
			for n := 0; n < size; n += len(filler) {
				if _, err := w.Write(filler); err != nil {
					return
				}
			}
		}, limit + slack},
		{"gzip", func(w http.ResponseWriter) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("Content-Length", strconv.Itoa(zipped.Len()))
			w.WriteHeader(200)
			_, _ = w.Write(zipped.Bytes())
		}, limit + slack},
		{"Content-Length", func(w http.ResponseWriter) {
			w.Header().Set("Content-Length", strconv.Itoa(size))
			w.WriteHeader(200)
			for n := 0; n < size; n += len(filler) {
				if _, err := w.Write(filler); err != nil {
					return
				}
			}
		}, slack},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
				drainRequest(r)
				w.Header().Set("Content-Type", "application/json")
				tc.serve(w)
			})
			c := newClient(t, s, rxdelivery.WithMaxResponseBytes(limit), rxdelivery.WithRetryMax(0))
			var err error
			n := allocated(func() { _, err = c.Orders.Get(context.Background(), "ord_1") })
			decodeError(t, err, http.MethodGet, getPath)
			assert.Contains(t, err.Error(), "body exceeds the size limit")
			assert.LessOrEqual(t, n, tc.max, "bytes allocated for a %d MiB body with a %d MiB limit", size>>20, limit>>20)
			t.Logf("%s: %.1f MiB allocated for a %d MiB body with a %d MiB limit", tc.name, float64(n)/(1<<20), size>>20, limit>>20)
		})
	}

	// A body of unknown length within the limit is read whole.
	t.Run("chunked under the limit", func(t *testing.T) {
		body := `{"order":{"id":"ord_1","external_reference_number":"` + strings.Repeat("r", 3<<20) + `"}}`
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
			w.WriteHeader(200)
			for i := 0; i < len(body); i += 1000 {
				_, _ = w.Write([]byte(body[i:min(i+1000, len(body))]))
			}
		})
		c := newClient(t, s, rxdelivery.WithMaxResponseBytes(limit))
		o, err := c.Orders.Get(context.Background(), "ord_1")
		require.NoError(t, err)
		assert.Len(t, o.ExternalReferenceNumber, 3<<20)
	})
}

// TestExtremeRetryAfter: a Retry-After too large for an int64 is a wait
// longer than any cap: the call returns at once with the 429, after one
// attempt, instead of reading it as garbage and retrying after backoff.
func TestExtremeRetryAfter(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"99999999999999999999999999", "9223372036854775808", "31536001"} {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
			w.Header().Set("Retry-After", v)
			writeJSON(w, 429, `{"error":{"message":"slow down"}}`)
		})
		c := newClient(t, s, rxdelivery.WithRetryWaitMax(time.Minute))
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
			s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
				n, _ := strconv.Atoi(r.URL.Query().Get("page"))
				writeJSON(w, 200, tc.answer(n))
			})
			c := newClient(t, s, rxdelivery.WithOmniURL(s.URL))
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
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
			drainRequest(r)
			if r.URL.Path == "/pricing/v1/quotes" {
				writeJSON(w, 200, `{"quotes":[{"provider":"postal","service":"ground_service","price_usd":`+v+`}]}`)
				return
			}
			writeJSON(w, 200, `{"order":{"id":"ord_1","status":"new","shipping":{"cost":`+v+`}}}`)
		})
		c := newClient(t, s, rxdelivery.WithRetryMax(0))
		quotes, err := c.Pricing.Quote(context.Background(), e2eQuote())
		decodeError(t, err, http.MethodPost, "/pricing/v1/quotes")
		assert.Nil(t, quotes, v)
		_, err = c.Orders.Create(context.Background(), createParams(t, "ref-money"))
		decodeError(t, err, http.MethodPost, createPath)
		assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome, v)
	}
}
