//go:build conformance

package sandbox

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// answerListener is a listener's transport that answers every notification
// 204 in process.
type answerListener struct{}

func (answerListener) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
}

// TestConformanceRecord checks that the record marks an answer an injected
// fault wrote in place of the simulator's (so the check does not hold it to
// the documents) and keeps each notification the simulator sent, with its
// Content-Type, as an exchange of the webhook trackingNotification. Not
// parallel: the record is the process's, opened once from ConformanceEnv.
func TestConformanceRecord(t *testing.T) {
	dir := os.Getenv(ConformanceEnv)
	if dir == "" {
		t.Skipf("%s is not set: nothing is recorded (.ci/conformance.sh sets it)", ConformanceEnv)
	}
	sb := New(Config{Key: testKey, Secret: testSecret, NotifyClient: &http.Client{Transport: answerListener{}}})
	defer sb.Close()
	h := Observe(sb)

	sb.InjectFault(Fault{Kind: FaultMalformed, Operation: OpOrdersGet})
	req := httptest.NewRequest(http.MethodGet, "/delivery/api/v1/orders/ord-conformance-record", nil)
	req.SetBasicAuth(testKey, testSecret)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	require.Equal(t, http.StatusOK, w.Code)

	tn := fmt.Sprintf("9400100000%012d", os.Getpid())
	body := `{"tracking_number":"` + tn + `","listener_url":"https://listener.example.com/hook"}`
	req = httptest.NewRequest(http.MethodPost, "/tracking/tracking/v1/subscriptions", strings.NewReader(body))
	req.SetBasicAuth(testKey, testSecret)
	req.Header.Set("Content-Type", "application/json")
	w = httptest.NewRecorder()
	h.ServeHTTP(w, req)
	require.Equal(t, http.StatusCreated, w.Code, "%s", w.Body)
	sb.EmitTracking(tn, "Accepted")

	f, err := os.Open(filepath.Join(dir, fmt.Sprintf("exchanges-%d.jsonl", os.Getpid())))
	require.NoError(t, err)
	defer f.Close()
	var fault, sent *Exchange
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var ex Exchange
		require.NoError(t, json.Unmarshal(sc.Bytes(), &ex))
		switch {
		case ex.Path == "/delivery/api/v1/orders/ord-conformance-record":
			fault = &ex
		case ex.Webhook != "" && strings.Contains(string(ex.RequestBody), tn):
			sent = &ex
		}
	}
	require.NoError(t, sc.Err())
	require.NotNil(t, fault, "the faulty answer is recorded")
	assert.True(t, fault.Injected, "the faulty answer is marked injected")
	require.NotNil(t, sent, "the notification is recorded")
	assert.Equal(t, "trackingNotification", sent.Webhook)
	assert.Equal(t, http.MethodPost, sent.Method)
	assert.Equal(t, "application/json", sent.RequestHeader.Get("Content-Type"))
	assert.Equal(t, http.StatusNoContent, sent.Status)
	assert.Empty(t, sent.Path, "the listener's URL is not recorded")
}
