package sandbox

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// freshClient opens a new connection per call, so that net/http never
// replays a request silently on a reused connection that broke.
func freshClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
}

func TestFaultStatuses(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})

	h.srv.InjectFault(Fault{Kind: FaultRateLimit})
	r := h.do("GET", "/omni/api/v1/pharmacies/5550001", nil)
	assert.Equal(t, http.StatusTooManyRequests, r.status)
	assert.Equal(t, "1", r.header.Get("Retry-After"))
	assert.Equal(t, "rate_limit_exceeded", at(r.obj(t), "error.type"))
	assert.NotEmpty(t, at(r.obj(t), "error.id"))
	assert.Equal(t, http.StatusOK, h.do("GET", "/omni/api/v1/pharmacies/5550001", nil).status, "used up")

	h.srv.InjectFault(Fault{Kind: FaultRateLimit, RetryAfter: 2500 * time.Millisecond, Interface: Tracking})
	r = h.do("GET", "/omni/api/v1/pharmacies/5550001", nil)
	assert.Equal(t, http.StatusOK, r.status, "scoped to tracking")
	r = h.do("GET", "/tracking/tracking/v1/subscriptions?tracking_number=1", nil)
	assert.Equal(t, http.StatusTooManyRequests, r.status)
	assert.Equal(t, "3", r.header.Get("Retry-After"), "seconds, rounded up")
	assert.JSONEq(t, `{"error":{"code":"rate_limit_exceeded","message":"Too many requests; retry shortly"}}`, string(r.body))

	h.srv.InjectFault(Fault{Kind: FaultRateLimit, RetryAfter: time.Minute, RetryAfterDate: true})
	r = h.do("GET", "/delivery/api/v1/orders/x", nil)
	when, err := http.ParseTime(r.header.Get("Retry-After"))
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now().Add(time.Minute), when, 5*time.Second)
	assert.JSONEq(t, `{"error":{"message":"Too many requests; retry shortly"}}`, string(r.body))

	h.srv.InjectFault(Fault{Kind: FaultUnavailable, Times: 2, RetryAfter: time.Second})
	for i := 0; i < 2; i++ {
		r = h.do("GET", "/tracking/tracking/v1/subscriptions?tracking_number=1", nil)
		assert.Equal(t, http.StatusServiceUnavailable, r.status)
		assert.Equal(t, "1", r.header.Get("Retry-After"))
		assert.Equal(t, "service_unavailable", at(r.obj(t), "error.code"))
	}
	assert.Equal(t, http.StatusNotFound, h.do("GET", "/tracking/tracking/v1/subscriptions?tracking_number=1", nil).status)

	h.srv.InjectFault(Fault{Kind: FaultStatus, Message: "custom", Method: "POST"})
	assert.Equal(t, http.StatusOK, h.do("GET", "/omni/api/v1/pharmacies/5550001", nil).status, "scoped to POST")
	r = h.do("POST", "/pricing/pricing/v1/quotes", quoteBody())
	assert.Equal(t, http.StatusInternalServerError, r.status)
	assert.JSONEq(t, `{"error":{"message":"custom"}}`, string(r.body))
	assert.Empty(t, r.header.Get("Retry-After"))

	h.srv.FailNext(0, FaultUnavailable) // no-op
	h.srv.FailNext(2, FaultUnavailable)
	assert.Equal(t, 503, h.do("GET", "/omni/api/v1/pharmacies/5550001", nil).status)
	assert.Equal(t, 503, h.do("GET", "/nowhere", nil).status, "faults apply before routing")
	assert.Equal(t, 200, h.do("GET", "/omni/api/v1/pharmacies/5550001", nil).status)

	h.srv.InjectFault(Fault{Kind: FaultUnavailable, Times: -1, PathPrefix: "/delivery/api/v1/orders"})
	for i := 0; i < 5; i++ {
		assert.Equal(t, 503, h.do("GET", "/delivery/api/v1/orders/x", nil).status)
	}
	assert.Equal(t, 404, h.do("GET", "/delivery/api/v1/pharmacies/x", nil).status)
	h.srv.ClearFaults()
	assert.Equal(t, 404, h.do("GET", "/delivery/api/v1/orders/x", nil).status)

	st := h.srv.Stats()
	assert.Equal(t, 13, st.FaultsApplied)
	assert.Equal(t, "rate_limit", st.Calls[0].Fault)
}

func TestFaultBeforeDoesNotHandle(t *testing.T) {
	t.Parallel()
	for _, kind := range []FaultKind{FaultCut, FaultDrop, FaultMalformed, FaultUnavailable} {
		t.Run(kind.String(), func(t *testing.T) {
			h := newHarness(t, Config{})
			h.srv.InjectFault(Fault{Kind: kind})
			r, err := h.try(freshClient(), "POST", "/omni/api/v1/requests", omniBody())
			switch kind {
			case FaultCut:
				require.Error(t, err)
				assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
				assert.Equal(t, http.StatusOK, r.status, "headers arrived before the cut")
			case FaultDrop:
				require.Error(t, err)
			case FaultMalformed:
				require.NoError(t, err)
				assert.Equal(t, http.StatusOK, r.status)
				assert.Equal(t, "application/json", r.header.Get("Content-Type"))
				assert.False(t, json.Valid(r.body))
			default:
				require.NoError(t, err)
				assert.Equal(t, http.StatusServiceUnavailable, r.status)
			}
			assert.Equal(t, 0, h.srv.Stats().RequestsCreated, "the fault came before the create")
		})
	}
}

func TestFaultAfterHandles(t *testing.T) {
	t.Parallel()
	for _, kind := range []FaultKind{FaultCut, FaultDrop, FaultMalformed, FaultStatus, FaultSlow} {
		t.Run(kind.String(), func(t *testing.T) {
			h := newHarness(t, Config{})
			h.srv.InjectFault(Fault{Kind: kind, After: true, Delay: 50 * time.Millisecond})
			start := time.Now()
			r, err := h.try(freshClient(), "POST", "/omni/api/v1/requests", omniBody())
			switch kind {
			case FaultCut:
				assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
				assert.Equal(t, http.StatusOK, r.status)
				assert.Contains(t, string(r.body), `{"request":`, "part of the real body")
			case FaultDrop:
				require.Error(t, err)
			case FaultMalformed:
				require.NoError(t, err)
				assert.False(t, json.Valid(r.body))
				assert.Contains(t, string(r.body), `{"request":`)
			case FaultStatus:
				require.NoError(t, err)
				assert.Equal(t, http.StatusInternalServerError, r.status)
				assert.Equal(t, "internal_error", at(r.obj(t), "error.type"))
			case FaultSlow:
				require.NoError(t, err)
				assert.Equal(t, http.StatusOK, r.status)
				assert.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond)
				assert.Equal(t, "req_000001", at(r.obj(t), "request.id"))
			}
			st := h.srv.Stats()
			assert.Equal(t, 1, st.RequestsCreated, "the create happened")
			assert.Equal(t, kind.String()+"_after", st.Calls[0].Fault)
			// The client may now send the same create again: it is counted.
			h.do("POST", "/omni/api/v1/requests", omniBody())
			assert.Equal(t, 1, h.srv.Stats().DuplicateCreates)
		})
	}
}

func TestFaultCutWithLargeUnreadBody(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	h.srv.InjectFault(Fault{Kind: FaultCut})
	big := with(omniBody(), "identifier", strings.Repeat("x", 512<<10))
	r, err := h.try(freshClient(), "POST", "/omni/api/v1/requests", big)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "the partial answer arrives, not a reset")
	assert.Equal(t, http.StatusOK, r.status)
}

func TestFaultCutAfterEmptyAnswerDrops(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	id := h.createRequest(omniBody())
	h.srv.InjectFault(Fault{Kind: FaultCut, After: true})
	_, err := h.try(freshClient(), "DELETE", "/omni/api/v1/requests/"+id, nil)
	require.Error(t, err)
	assert.Equal(t, 1, h.srv.Stats().RequestsCancelled)
	assert.Equal(t, 0, h.srv.Stats().Calls[1].Status, "dropped")
}

func TestFaultSlow(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	h.srv.InjectFault(Fault{Kind: FaultSlow, Delay: 80 * time.Millisecond})
	start := time.Now()
	r := h.do("GET", "/omni/api/v1/pharmacies/5550001", nil)
	assert.Equal(t, http.StatusOK, r.status)
	assert.GreaterOrEqual(t, time.Since(start), 80*time.Millisecond)

	// A client that gives up ends the wait, and the call is not handled.
	h.srv.InjectFault(Fault{Kind: FaultSlow, Delay: time.Hour})
	client := freshClient()
	client.Timeout = 50 * time.Millisecond
	_, err := h.try(client, "POST", "/omni/api/v1/requests", omniBody())
	require.Error(t, err)
	require.Eventually(t, func() bool { return len(h.srv.Stats().Calls) == 2 }, 5*time.Second, 5*time.Millisecond)
	assert.Equal(t, 0, h.srv.Stats().RequestsCreated)
}

func TestCloseEndsSlowFaults(t *testing.T) {
	t.Parallel()
	srv := NewServer(Config{Key: testKey, Secret: testSecret, Clock: NewManualClock(time.Time{})})
	srv.InjectFault(Fault{Kind: FaultSlow, Delay: time.Hour})
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequest("GET", srv.OmniURL()+"/api/v1/pharmacies/5550001", nil)
		res, err := freshClient().Do(req)
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	require.Eventually(t, func() bool { return srv.Stats().FaultsApplied == 1 }, 5*time.Second, 5*time.Millisecond)
	start := time.Now()
	srv.Close()
	assert.Less(t, time.Since(start), 5*time.Second)
	<-done
}

func TestFaultKindNames(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "fault(99)", FaultKind(99).String())
	assert.Equal(t, "status", FaultStatus.String())
}

// TestFaultNameLabelsTheRecord: a fault's Name, when set, is its label in
// the call record (with "_after" when applied after the call), in place of
// its kind's name.
func TestFaultNameLabelsTheRecord(t *testing.T) {
	t.Parallel()
	h := newHarness(t, Config{})
	h.srv.InjectFault(Fault{Kind: FaultStatus, Name: "server_error"})
	h.srv.InjectFault(Fault{Kind: FaultStatus, Name: "server_error", After: true})
	h.srv.InjectFault(Fault{Kind: FaultStatus})
	for range 3 {
		h.do("GET", "/delivery/api/v1/orders/ord_none", nil)
	}
	var got []string
	for _, c := range h.srv.Stats().Calls {
		got = append(got, c.Fault)
	}
	assert.Equal(t, []string{"server_error", "server_error_after", "status"}, got)
}
