//go:build conformance

package sandbox

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestObserveMarksPlantedFaults checks that the conformance record names
// the fault an answer was planted with (the check does not hold a planted
// malformed body to the documents) and leaves the simulator's own answers
// unmarked.
func TestObserveMarksPlantedFaults(t *testing.T) {
	t.Parallel()
	sb := New(Config{Key: testKey, Secret: testSecret, Clock: NewManualClock(time.Time{})})
	t.Cleanup(sb.Close)
	sb.InjectFault(Fault{Kind: FaultMalformed, Times: 1})
	var mu sync.Mutex
	var lines [][]byte
	h := observe(sb.Handler(), func() func([]byte) {
		return func(line []byte) {
			mu.Lock()
			defer mu.Unlock()
			lines = append(lines, line)
		}
	})
	for range 2 {
		r := httptest.NewRequest(http.MethodGet, "/omni/api/v1/pharmacies/"+BuiltinPharmacies()[0].NCPDP, nil)
		r.Header.Set("Authorization", "Basic "+base64.URLEncoding.EncodeToString([]byte(testKey+":"+testSecret)))
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	require.Len(t, lines, 2)
	var planted, own Exchange
	require.NoError(t, json.Unmarshal(lines[0], &planted))
	require.NoError(t, json.Unmarshal(lines[1], &own))
	assert.Equal(t, "malformed", planted.Fault)
	assert.False(t, json.Valid(planted.ResponseBody))
	assert.Empty(t, own.Fault)
	assert.True(t, json.Valid(own.ResponseBody))
}
