package reliability_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
)

// httptest: each over-limit body is streamed on a real connection, so that the SDK allocates only what it reads (a recorder holds the whole body), and the gzip one is decoded by net/http's transport.

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
