package sandbox

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestMaxCalls: the record keeps DefaultMaxCalls calls when Config.MaxCalls
// is zero, every call when it is negative, and the latest n otherwise;
// CallCounts counts every call in each case.
func TestMaxCalls(t *testing.T) {
	t.Parallel()
	const n = DefaultMaxCalls + 50
	for _, tc := range []struct {
		max, kept int
	}{{0, DefaultMaxCalls}, {-1, n}, {7, 7}} {
		sb := New(Config{Key: testKey, Secret: testSecret, MaxCalls: tc.max})
		t.Cleanup(sb.Close)
		for range n {
			// Unauthenticated: answered 401 at once, recorded all the same.
			sb.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/delivery/api/v1/orders/ord_1", nil))
		}
		st := sb.Stats()
		if len(st.Calls) != tc.kept {
			t.Errorf("MaxCalls %d: the record holds %d calls, want %d", tc.max, len(st.Calls), tc.kept)
		}
		if got := st.CallCounts[OpOrdersGet]; got != n {
			t.Errorf("MaxCalls %d: CallCounts counts %d reads, want %d", tc.max, got, n)
		}
	}
}
