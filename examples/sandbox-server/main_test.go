package main

// These tests talk to the server as a program in another language would:
// plain net/http and JSON written by hand, no client of the SDK.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// envValue returns the value of an `export NAME=value` line of out whose
// value needs no quoting (TestExportLinesRunInShell reads quoted ones).
func envValue(out, name string) string {
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(line, "export "+name+"="); ok {
			return v
		}
	}
	return ""
}

// server is a running sandbox-server and what it printed.
type server struct {
	t        *testing.T
	printed  string
	key      string
	secret   string
	omni     string
	delivery string
	tracking string
	pricing  string
	control  string
	http     *http.Client
}

// startServer runs the program with args (plus a random port and K/S
// credentials) until the test ends.
func startServer(t *testing.T, args ...string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"-addr", "127.0.0.1:0", "-key", "K", "-secret", "S"}, args...), &out)
	}()
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "# interrupt") }, 10*time.Second, 5*time.Millisecond)
	hc := &http.Client{Transport: &http.Transport{}, Timeout: 10 * time.Second}
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(10 * time.Second):
			t.Error("run did not return after cancel")
		}
		hc.CloseIdleConnections()
	})
	p := out.String()
	s := &server{
		t: t, printed: p, http: hc,
		key: envValue(p, "RXDELIVERY_API_KEY"), secret: envValue(p, "RXDELIVERY_API_SECRET"),
		omni: envValue(p, "RXDELIVERY_OMNI_URL"), delivery: envValue(p, "RXDELIVERY_DELIVERY_URL"),
		tracking: envValue(p, "RXDELIVERY_TRACKING_URL"), pricing: envValue(p, "RXDELIVERY_PRICING_URL"),
	}
	s.control = strings.TrimSuffix(s.omni, "/omni") + "/_control"
	return s
}

// do sends a JSON call with the printed credentials and returns the status
// and decoded answer (nil when the body is empty).
func (s *server) do(method, url string, body any) (int, map[string]any) {
	return s.doAs(s.key, s.secret, method, url, body)
}

func (s *server) doAs(key, secret, method, url string, body any) (int, map[string]any) {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(s.t, err)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	require.NoError(s.t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.SetBasicAuth(key, secret)
	}
	res, err := s.http.Do(req)
	require.NoError(s.t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(s.t, err)
	var out map[string]any
	if len(bytes.TrimSpace(raw)) > 0 {
		require.NoError(s.t, json.Unmarshal(raw, &out), "%s", raw)
	}
	return res.StatusCode, out
}

// orderBody is a valid same-day order, written by hand from the delivery
// document.
func orderBody() map[string]any {
	addr := map[string]any{"street": "42 Elm Avenue", "city": "Columbus", "state": "OH", "zipcode": "43210"}
	return map[string]any{
		"delivery_fee": 5.00, "rx_amount_due": 10.00, "external_reference_number": "ext-1",
		"pharmacy":  map[string]any{"npi": "1234567890", "ncpdp": "5550001"},
		"recipient": map[string]any{"description": "Jane Doe", "address": addr},
		"patient":   map[string]any{"first_name": "Jane", "last_name": "Doe", "gender": "female", "date_of_birth": "1980-02-29"},
		"prescriptions": []any{map[string]any{
			"number": "RX1", "ndc": "00002143380", "refrigeration": "none", "days_supply": 30,
			"fill_quantity": 30, "fill_number": 1, "patient_pay": 10.00,
			"prescriber": map[string]any{"first_name": "Alan", "last_name": "Grant", "npi": "1987654320", "address": addr},
			"payers":     []any{map[string]any{"bin": "610014", "pcn": "MEDDPRIME", "rx_group": "RX1234", "coverage_type": "primary", "government_plan_indicator": false}},
		}},
	}
}

func TestPrintsCredentialsAndBaseURLs(t *testing.T) {
	s := startServer(t, "-pharmacies", "40")
	assert.Equal(t, "K", s.key)
	assert.Equal(t, "S", s.secret)
	require.True(t, strings.HasPrefix(s.omni, "http://127.0.0.1:"), s.printed)
	assert.True(t, strings.HasSuffix(s.omni, "/omni"))
	for _, u := range []string{s.delivery, s.tracking, s.pricing} {
		assert.NotEmpty(t, u)
	}
	assert.Equal(t, "true", envValue(s.printed, "RXDELIVERY_SANDBOX"))
	assert.Contains(t, s.printed, "# control API: "+s.control)

	status, page := s.do("GET", s.omni+"/api/v1/pharmacies/?place_id=abc&page_size=100", nil)
	require.Equal(t, http.StatusOK, status)
	assert.EqualValues(t, 40, page["count"], "generated pharmacies")

	status, _ = s.doAs("K", "wrong", "GET", s.omni+"/api/v1/pharmacies/?place_id=abc", nil)
	assert.Equal(t, http.StatusUnauthorized, status)
}

func TestControlNeedsTheServerCredentials(t *testing.T) {
	s := startServer(t, "-manual-clock")
	for _, creds := range [][2]string{{"", ""}, {"K", "wrong"}, {"wrong", "S"}} {
		status, body := s.doAs(creds[0], creds[1], "POST", s.control+"/clock/advance", map[string]any{"seconds": 60})
		assert.Equal(t, http.StatusUnauthorized, status, "%v", creds)
		assert.NotNil(t, body["error"])
	}
	status, clock := s.do("GET", s.control+"/clock", nil)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "2026-03-02T09:00:00Z", clock["now"], "the refused calls did not move the clock")
	status, _ = s.do("GET", s.control+"/nothing-here", nil)
	assert.Equal(t, http.StatusNotFound, status)
}

func TestControlAdvancesAnOrderToDelivery(t *testing.T) {
	s := startServer(t, "-manual-clock", "-cadence", "1m")
	status, created := s.do("POST", s.delivery+"/api/v1/orders", orderBody())
	require.Equal(t, http.StatusOK, status, "%v", created)
	id := created["order"].(map[string]any)["id"].(string)

	status, now := s.do("POST", s.control+"/clock/advance", map[string]any{"duration": "2m"})
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "2026-03-02T09:02:00Z", now["now"])
	_, got := s.do("GET", s.delivery+"/api/v1/orders/"+id, nil)
	assert.Equal(t, "picked_up", got["order"].(map[string]any)["status"])

	s.do("POST", s.control+"/clock/advance", map[string]any{"seconds": 60})
	_, got = s.do("GET", s.delivery+"/api/v1/orders/"+id, nil)
	assert.Equal(t, "delivered", got["order"].(map[string]any)["status"])

	status, _ = s.do("POST", s.control+"/clock/advance", map[string]any{"seconds": -1})
	assert.Equal(t, http.StatusBadRequest, status, "the clock only moves forward")
}

func TestControlSetsStatuses(t *testing.T) {
	s := startServer(t, "-manual-clock")
	_, created := s.do("POST", s.delivery+"/api/v1/orders", orderBody())
	id := created["order"].(map[string]any)["id"].(string)
	status, got := s.do("PUT", s.control+"/orders/"+id+"/status", map[string]any{"status": "picked_up"})
	require.Equal(t, http.StatusOK, status, "%v", got)
	assert.Equal(t, "picked_up", got["status"])
	status, cancelled := s.do("DELETE", s.delivery+"/api/v1/orders/"+id, nil)
	assert.Equal(t, http.StatusBadRequest, status, "a picked-up order cannot be cancelled: %v", cancelled)
	status, _ = s.do("PUT", s.control+"/orders/"+id+"/status", map[string]any{"status": "lost"})
	assert.Equal(t, http.StatusUnprocessableEntity, status)
	status, _ = s.do("PUT", s.control+"/orders/ord_none/status", map[string]any{"status": "new"})
	assert.Equal(t, http.StatusNotFound, status)

	status, req := s.do("POST", s.omni+"/api/v1/requests", map[string]any{
		"identifier": "prog", "external_reference_number": "ext-2", "name_of_pickup": "Amoxicillin",
		"pharmacy": map[string]any{"ncpdp": "5550001"},
		"dropoff":  map[string]any{"name": "Jane Doe", "phone_number": "6145550100", "address": map[string]any{"place_id": "ChIJ_x"}},
		"patient":  map[string]any{"first_name": "Jane", "last_name": "Doe", "date_of_birth": "1980-02-29"},
	})
	require.Equal(t, http.StatusOK, status, "%v", req)
	rid := req["request"].(map[string]any)["id"].(string)
	status, got = s.do("PUT", s.control+"/requests/"+rid+"/status", map[string]any{"status": "request_incomplete"})
	require.Equal(t, http.StatusOK, status, "%v", got)
	_, read := s.do("GET", s.omni+"/api/v1/requests/"+rid, nil)
	assert.Equal(t, "request_incomplete", read["request"].(map[string]any)["status"].(map[string]any)["name"])
}

func TestControlFaultsAndCallRecord(t *testing.T) {
	s := startServer(t, "-manual-clock")
	status, f := s.do("POST", s.control+"/faults", map[string]any{"operation": "pharmacies.Get", "times": 2, "kind": "rate_limit", "retry_after_seconds": 7})
	require.Equal(t, http.StatusCreated, status, "%v", f)
	for range 2 {
		req, _ := http.NewRequest("GET", s.omni+"/api/v1/pharmacies/5550001", nil)
		req.SetBasicAuth("K", "S")
		res, err := s.http.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusTooManyRequests, res.StatusCode)
		assert.Equal(t, "7", res.Header.Get("Retry-After"))
	}
	status, _ = s.do("GET", s.omni+"/api/v1/pharmacies/5550001", nil)
	assert.Equal(t, http.StatusOK, status, "two calls only")

	// Committed then failed: the order exists although the create got 500.
	s.do("POST", s.control+"/faults", map[string]any{"operation": "orders.Create", "kind": "committed_then_failed"})
	status, _ = s.do("POST", s.delivery+"/api/v1/orders", orderBody())
	assert.Equal(t, http.StatusInternalServerError, status)
	status, got := s.do("GET", s.control+"/orders/ord_000001", nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "new", got["status"])

	status, calls := s.do("GET", s.control+"/calls?operation=orders.Create", nil)
	require.Equal(t, http.StatusOK, status)
	list := calls["calls"].([]any)
	require.Len(t, list, 1)
	c := list[0].(map[string]any)
	assert.Equal(t, "POST", c["method"])
	assert.Equal(t, "/api/v1/orders", c["path"])
	assert.EqualValues(t, 500, c["status"])
	assert.Equal(t, "committed, then status", c["fault"])
	assert.Equal(t, "ext-1", c["body"].(map[string]any)["external_reference_number"])
	raw, _ := json.Marshal(calls)
	assert.NotContains(t, string(raw), "Basic", "no credential in the record")

	status, _ = s.do("POST", s.control+"/faults", map[string]any{"operation": "orders.Fly", "kind": "cut"})
	assert.Equal(t, http.StatusUnprocessableEntity, status)
	status, _ = s.do("POST", s.control+"/faults", map[string]any{"kind": "explode"})
	assert.Equal(t, http.StatusUnprocessableEntity, status)
	s.do("POST", s.control+"/faults", map[string]any{"kind": "server_error", "times": -1})
	status, _ = s.do("DELETE", s.control+"/faults", nil)
	assert.Equal(t, http.StatusNoContent, status)
	status, _ = s.do("GET", s.omni+"/api/v1/pharmacies/5550001", nil)
	assert.Equal(t, http.StatusOK, status, "faults cleared")

	status, _ = s.do("DELETE", s.control+"/calls", nil)
	assert.Equal(t, http.StatusNoContent, status)
	_, calls = s.do("GET", s.control+"/calls", nil)
	assert.Empty(t, calls["calls"])
}

func TestControlPharmaciesAndQuotes(t *testing.T) {
	s := startServer(t, "-manual-clock")
	status, set := s.do("PUT", s.control+"/pharmacies", map[string]any{"pharmacies": []any{map[string]any{
		"npi": "1234567893", "ncpdp": "7770001", "name": "Only Pharmacy", "preferred": true,
		"phone_number": "2125550100", "fax_number": "2125550101",
		"address": map[string]any{"street1": "1 Main St", "city": "New York", "state": "NY", "zipcode": "10001"},
	}}})
	require.Equal(t, http.StatusOK, status, "%v", set)
	_, page := s.do("GET", s.omni+"/api/v1/pharmacies/?place_id=abc", nil)
	assert.EqualValues(t, 1, page["count"])
	_, ph := s.do("GET", s.omni+"/api/v1/pharmacies/7770001", nil)
	assert.Equal(t, "Only Pharmacy", ph["name"])

	quote := map[string]any{
		"pickup": map[string]any{"address": map[string]any{"zipcode": "43210"}}, "dropoff": map[string]any{"address": map[string]any{"zipcode": "10001"}},
		"package_dimensions": map[string]any{"length_in": 10, "width_in": 8, "height_in": 4, "weight_oz": 12},
	}
	_, q := s.do("POST", s.pricing+"/pricing/v1/quotes", quote)
	assert.Len(t, q["quotes"], 1)
	status, _ = s.do("PUT", s.control+"/quotes", map[string]any{"empty": true})
	require.Equal(t, http.StatusOK, status)
	status, q = s.do("POST", s.pricing+"/pricing/v1/quotes", quote)
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, []any{}, q["quotes"])
}

func TestControlDeliversNotificationsToAListener(t *testing.T) {
	got := make(chan map[string]any, 4)
	l := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n map[string]any
		if json.NewDecoder(r.Body).Decode(&n) == nil {
			got <- n
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	l.Config.ErrorLog = log.New(io.Discard, "", 0)
	l.StartTLS()
	defer l.Close()

	s := startServer(t, "-manual-clock", "-insecure-listeners")
	status, sub := s.do("POST", s.tracking+"/tracking/v1/subscriptions", map[string]any{"tracking_number": "9400100000000000000001", "listener_url": l.URL + "/hook"})
	require.Equal(t, http.StatusCreated, status, "%v", sub)
	status, _ = s.do("POST", s.control+"/tracking", map[string]any{"tracking_number": "9400100000000000000001", "status": "Moving Through Network"})
	require.Equal(t, http.StatusNoContent, status)
	select {
	case n := <-got:
		assert.Equal(t, "Moving Through Network", n["status"])
		assert.Equal(t, "POSTAL", n["carrier"])
	default:
		t.Fatal("the notification was delivered before the control call returned")
	}
	_, notes := s.do("GET", s.control+"/notifications", nil)
	list := notes["notifications"].([]any)
	require.Len(t, list, 1)
	assert.EqualValues(t, 204, list[0].(map[string]any)["status_code"])
}

func TestStallEndsOnShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-key", "K", "-secret", "S"}, &out) }()
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "# interrupt") }, 10*time.Second, 5*time.Millisecond)
	omni := envValue(out.String(), "RXDELIVERY_OMNI_URL")
	control := strings.TrimSuffix(omni, "/omni") + "/_control"
	hc := &http.Client{Transport: &http.Transport{}}
	defer hc.CloseIdleConnections()
	req, _ := http.NewRequest("POST", control+"/faults", strings.NewReader(`{"kind":"stall"}`))
	req.SetBasicAuth("K", "S")
	res, err := hc.Do(req)
	require.NoError(t, err)
	res.Body.Close()

	stalled := make(chan error, 1)
	wrote := make(chan struct{})
	var once sync.Once
	traced := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
		WroteRequest: func(httptrace.WroteRequestInfo) { once.Do(func() { close(wrote) }) },
	})
	go func() {
		req, _ := http.NewRequestWithContext(traced, "GET", omni+"/api/v1/pharmacies/5550001", nil)
		req.SetBasicAuth("K", "S")
		res, err := hc.Do(req)
		if err == nil {
			res.Body.Close()
		}
		stalled <- err
	}()
	<-wrote // the call is on the server's side
	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return: a stalled call held the shutdown")
	}
	<-stalled
}

func TestSIGTERMStopsCleanly(t *testing.T) {
	var out syncBuffer
	done := make(chan error, 1)
	go func() { done <- serve([]string{"-addr", "127.0.0.1:0"}, &out) }()
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "# interrupt") }, 10*time.Second, 5*time.Millisecond)
	// serve has installed its handler before printing: the signal is
	// caught, not fatal to the test process.
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not stop the server")
	}
}

func TestRunArguments(t *testing.T) {
	var out syncBuffer
	assert.NoError(t, run(context.Background(), []string{"-h"}, &out))
	assert.Contains(t, out.String(), "-insecure-listeners")
	assert.Contains(t, out.String(), "To test a listener\non this machine, serve it with a self-signed certificate and start the\nsimulator with -insecure-listeners")
	assert.Contains(t, out.String(), "-manual-clock")
	assert.Error(t, run(context.Background(), []string{"-nope"}, &out))
	assert.Error(t, run(context.Background(), []string{"extra"}, &out))
	assert.Error(t, run(context.Background(), []string{"-addr", "256.0.0.1:bad"}, &out))
	assert.Error(t, run(context.Background(), []string{"-key", ""}, &out))
	assert.ErrorContains(t, run(context.Background(), []string{"-secret", "two\nlines"}, &out), "control characters")
}

func TestNotifyClient(t *testing.T) {
	l := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	l.Config.ErrorLog = log.New(io.Discard, "", 0) // quiet the refused handshake
	l.StartTLS()
	defer l.Close()

	res, err := notifyClient(true).Post(l.URL, "application/json", strings.NewReader("{}"))
	require.NoError(t, err, "self-signed loopback listener accepted")
	res.Body.Close()

	_, err = notifyClient(false).Post(l.URL, "application/json", strings.NewReader("{}"))
	assert.Error(t, err, "verified by default")

	assert.True(t, peerIsLoopback(&net.TCPAddr{IP: net.IPv6loopback}))
	assert.True(t, peerIsLoopback(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}))
	assert.False(t, peerIsLoopback(&net.TCPAddr{IP: net.IPv4(10, 0, 0, 1)}))
	assert.False(t, peerIsLoopback(nil))
}
