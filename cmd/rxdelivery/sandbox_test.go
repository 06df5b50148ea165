package main

// These tests talk to 'rxdelivery sandbox' as a program in another language
// would: plain net/http and JSON written by hand, no client of the SDK.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// httptest: the tests talk to 'rxdelivery sandbox' on its own listeners, and its notifications reach a self-signed TLS listener on loopback.

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

// sandbox is a running 'rxdelivery sandbox', what it printed and the
// variables of its --env-file.
type sandbox struct {
	t        *testing.T
	printed  string
	envFile  string
	key      string
	secret   string
	omni     string
	delivery string
	tracking string
	pricing  string
	control  string
	http     *http.Client
	cancel   context.CancelFunc
	done     chan int
}

// startSandbox runs 'rxdelivery sandbox' with args (after a random port and
// an env file) until the test ends, and reads the env file it wrote.
func startSandbox(t *testing.T, args ...string) *sandbox {
	t.Helper()
	envFile := filepath.Join(t.TempDir(), "sandbox.env")
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	done := make(chan int, 1)
	full := append([]string{"sandbox", "--addr", "127.0.0.1:0", "--env-file", envFile}, args...)
	go func() { done <- run(ctx, full, strings.NewReader(""), &out, &errOut) }()
	s := &sandbox{t: t, envFile: envFile, cancel: cancel, done: done,
		http: &http.Client{Transport: &http.Transport{}, Timeout: 10 * time.Second}}
	t.Cleanup(func() {
		s.stop()
		s.http.CloseIdleConnections()
	})
	for !strings.Contains(out.String(), "# interrupt") {
		select {
		case code := <-done:
			t.Fatalf("sandbox %q ended with exit code %d before serving: %s", args, code, errOut.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	s.printed = out.String()
	b, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatal(err)
	}
	vals := shellValues(t, string(b), "RXDELIVERY_API_KEY", "RXDELIVERY_API_SECRET", "RXDELIVERY_OMNI_URL",
		"RXDELIVERY_DELIVERY_URL", "RXDELIVERY_TRACKING_URL", "RXDELIVERY_PRICING_URL", "RXDELIVERY_SANDBOX_CONTROL_URL")
	s.key, s.secret, s.omni, s.delivery, s.tracking, s.pricing = vals[0], vals[1], vals[2], vals[3], vals[4], vals[5]
	// The control API's URL is read from the env file, as a script would.
	s.control = vals[6]
	if want := strings.TrimSuffix(s.omni, "/omni") + "/_control"; s.control != want {
		t.Fatalf("env file's RXDELIVERY_SANDBOX_CONTROL_URL = %q, want %q", s.control, want)
	}
	return s
}

// stop interrupts the sandbox and checks that it ends with exit code 0;
// a second call does nothing.
func (s *sandbox) stop() {
	s.t.Helper()
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	select {
	case code := <-s.done:
		if code != exitOK {
			s.t.Errorf("sandbox exit code %d after an interrupt, want 0", code)
		}
	case <-time.After(10 * time.Second):
		s.t.Error("sandbox did not end after an interrupt")
	}
}

// shellValues runs script in sh, then reads names in a child process of
// that shell, so that only exported variables are seen; it returns their
// values in order.
func shellValues(t *testing.T, script string, names ...string) []string {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no POSIX shell on this machine")
	}
	read := `printf '%s\0'`
	for _, n := range names {
		read += ` "$` + n + `"`
	}
	full := script + "\nexec sh -c '" + strings.ReplaceAll(read, "'", `'\''`) + "'\n"
	out, err := exec.Command(sh, "-c", full).Output()
	if err != nil {
		t.Fatalf("sh: %v; script:\n%s", err, full)
	}
	vals := strings.Split(string(out), "\x00")
	if len(vals) != len(names)+1 {
		t.Fatalf("sh printed %q; want %d values", out, len(names))
	}
	return vals[:len(names)]
}

// do sends a JSON call with the sandbox's credentials and returns the
// status and decoded answer (nil when the body is empty).
func (s *sandbox) do(method, url string, body any) (int, map[string]any) {
	s.t.Helper()
	return s.doAs(s.key, s.secret, method, url, body)
}

func (s *sandbox) doAs(key, secret, method, url string, body any) (int, map[string]any) {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			s.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.SetBasicAuth(key, secret)
		// Omni, delivery and pricing read Basic credentials in the URL-safe
		// base64 alphabet of their documents (tracking and the control API
		// in the standard one, as SetBasicAuth writes them).
		for _, base := range []string{s.omni, s.delivery, s.pricing} {
			if strings.HasPrefix(url, base+"/") {
				req.Header.Set("Authorization", "Basic "+base64.URLEncoding.EncodeToString([]byte(key+":"+secret)))
			}
		}
	}
	res, err := s.http.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	var out map[string]any
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &out); err != nil {
			s.t.Fatalf("%s %s: %v: %s", method, url, err, raw)
		}
	}
	return res.StatusCode, out
}

// want fails the test now when got is not want.
func want[T comparable](t *testing.T, got, want T, what string) {
	t.Helper()
	if got != want {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
}

// field walks obj along keys of nested JSON objects.
func field(obj map[string]any, keys ...string) any {
	var v any = obj
	for _, k := range keys {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
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

// TestSandboxEnvFileRunsInShell: the --env-file can be sourced by a POSIX
// shell as it is and exports every variable with exactly its value, even
// credentials full of characters a shell would otherwise interpret, while
// standard output shows only comments and NAME=value lines without them.
// Writing "export NAME=value" unquoted fails it: a quote or $ in the
// value breaks or changes it.
func TestSandboxEnvFileRunsInShell(t *testing.T) {
	t.Parallel()
	key := `k'ey $HOME "quoted" ` + "`id` ~ \\ ; & |"
	secret := "se'cr'et, * ? [a] $(id) 'é'"
	s := startSandbox(t, "--key", key, "--secret", secret, "--manual-clock")
	want(t, s.key, key, "RXDELIVERY_API_KEY")
	want(t, s.secret, secret, "RXDELIVERY_API_SECRET")
	base := strings.TrimSuffix(s.omni, "/omni")
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("omni URL %q", s.omni)
	}
	want(t, s.delivery, base+"/delivery", "RXDELIVERY_DELIVERY_URL")
	want(t, s.tracking, base+"/tracking", "RXDELIVERY_TRACKING_URL")
	want(t, s.pricing, base+"/pricing", "RXDELIVERY_PRICING_URL")
	b, _ := os.ReadFile(s.envFile)
	want(t, shellValues(t, string(b), "RXDELIVERY_SANDBOX")[0], "true", "RXDELIVERY_SANDBOX")
	if fi, err := os.Stat(s.envFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("env file: %v, %v; want mode 0600", fi, err)
	}

	for _, line := range strings.Split(strings.TrimSpace(s.printed), "\n") {
		if !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "RXDELIVERY_") {
			t.Errorf("printed line %q is neither a comment nor a variable", line)
		}
	}
	if strings.Contains(s.printed, "k'ey") || strings.Contains(s.printed, "se'cr'et") {
		t.Errorf("the credentials given were printed:\n%s", s.printed)
	}
	// They are the ones it accepts.
	status, _ := s.do("GET", s.omni+"/api/v1/pharmacies/5550001", nil)
	want(t, status, http.StatusOK, "status with the env file's credentials")
}

// TestShellQuote: every value comes back from sh unchanged, and a value of
// safe characters only is written without quotes.
func TestShellQuote(t *testing.T) {
	t.Parallel()
	values := []string{"", "plain", "http://127.0.0.1:8787/omni", "a=b,c+d@e%f",
		"'", "''", "it's", `"`, "$x", "${x}", "$(id)", "`id`", "~", "a~b", "a:~", "\\", "\\'",
		"a b", "\t", "\n", "line\nline", "*", "?", "[a]", "#x", "a#x", ";", "&", "|", "<", ">", "!", "é"}
	script := ""
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = "V" + strings.Repeat("x", i)
		script += exportLine(names[i]+"="+v) + "\n"
	}
	got := shellValues(t, script, names...)
	for i, v := range values {
		if got[i] != v {
			t.Errorf("value %q came back as %q", v, got[i])
		}
	}
	want(t, exportLine("A=http://127.0.0.1:8787/omni"), "export A=http://127.0.0.1:8787/omni", "a safe value")
	want(t, exportLine("A=it's"), `export A='it'\''s'`, "a quote")
}

// TestSandboxPrintsBaseURLsAndServes: the printed lines point at the
// simulator, --pharmacies sets how many it serves, and a wrong secret is
// refused.
func TestSandboxPrintsBaseURLsAndServes(t *testing.T) {
	t.Parallel()
	s := startSandbox(t, "--key", "K", "--secret", "S", "--pharmacies", "40")
	for _, line := range []string{"RXDELIVERY_OMNI_URL=" + s.omni, "RXDELIVERY_DELIVERY_URL=" + s.delivery,
		"RXDELIVERY_TRACKING_URL=" + s.tracking, "RXDELIVERY_PRICING_URL=" + s.pricing, "RXDELIVERY_SANDBOX=true",
		"# control API: " + s.control} {
		if !strings.Contains(s.printed, line+"\n") && !strings.Contains(s.printed, line+" ") {
			t.Errorf("printed no %q:\n%s", line, s.printed)
		}
	}
	status, page := s.do("GET", s.omni+"/api/v1/pharmacies/?place_id=abc&page_size=100", nil)
	want(t, status, http.StatusOK, "search status")
	want(t, page["count"], any(float64(40)), "generated pharmacies")
	status, _ = s.doAs("K", "wrong", "GET", s.omni+"/api/v1/pharmacies/?place_id=abc", nil)
	want(t, status, http.StatusUnauthorized, "status with a wrong secret")
}

func TestSandboxControlNeedsTheServerCredentials(t *testing.T) {
	t.Parallel()
	s := startSandbox(t, "--key", "K", "--secret", "S", "--manual-clock")
	for _, creds := range [][2]string{{"", ""}, {"K", "wrong"}, {"wrong", "S"}} {
		status, body := s.doAs(creds[0], creds[1], "POST", s.control+"/clock/advance", map[string]any{"seconds": 60})
		want(t, status, http.StatusUnauthorized, "status without the credentials")
		if body["error"] == nil {
			t.Errorf("%v: no error in %v", creds, body)
		}
	}
	status, clock := s.do("GET", s.control+"/clock", nil)
	want(t, status, http.StatusOK, "clock status")
	want(t, clock["now"], any("2026-03-02T09:00:00Z"), "the clock after refused calls")
	status, _ = s.do("GET", s.control+"/nothing-here", nil)
	want(t, status, http.StatusNotFound, "status of an unknown control route")
}

func TestSandboxControlAdvancesAnOrderToDelivery(t *testing.T) {
	t.Parallel()
	s := startSandbox(t, "--manual-clock", "-cadence", "1m")
	status, created := s.do("POST", s.delivery+"/api/v1/orders", orderBody())
	want(t, status, http.StatusOK, "create status")
	id, _ := field(created, "order", "id").(string)

	status, now := s.do("POST", s.control+"/clock/advance", map[string]any{"duration": "2m"})
	want(t, status, http.StatusOK, "advance status")
	want(t, now["now"], any("2026-03-02T09:02:00Z"), "now")
	_, got := s.do("GET", s.delivery+"/api/v1/orders/"+id, nil)
	want(t, field(got, "order", "status"), any("picked_up"), "status after 2m")

	s.do("POST", s.control+"/clock/advance", map[string]any{"seconds": 60})
	_, got = s.do("GET", s.delivery+"/api/v1/orders/"+id, nil)
	want(t, field(got, "order", "status"), any("delivered"), "status after 3m")

	status, _ = s.do("POST", s.control+"/clock/advance", map[string]any{"seconds": -1})
	want(t, status, http.StatusBadRequest, "status of a move back (the clock only moves forward)")
}

func TestSandboxControlSetsStatuses(t *testing.T) {
	t.Parallel()
	s := startSandbox(t, "--manual-clock")
	_, created := s.do("POST", s.delivery+"/api/v1/orders", orderBody())
	id, _ := field(created, "order", "id").(string)
	status, got := s.do("PUT", s.control+"/orders/"+id+"/status", map[string]any{"status": "picked_up"})
	want(t, status, http.StatusOK, "set status")
	want(t, got["status"], any("picked_up"), "status set")
	status, _ = s.do("DELETE", s.delivery+"/api/v1/orders/"+id, nil)
	want(t, status, http.StatusBadRequest, "cancel of a picked-up order")
	status, _ = s.do("PUT", s.control+"/orders/"+id+"/status", map[string]any{"status": "lost"})
	want(t, status, http.StatusUnprocessableEntity, "set an unknown status")
	status, _ = s.do("PUT", s.control+"/orders/ord_none/status", map[string]any{"status": "new"})
	want(t, status, http.StatusNotFound, "set the status of no order")

	status, req := s.do("POST", s.omni+"/api/v1/requests", map[string]any{
		"identifier": "prog", "external_reference_number": "ext-2", "name_of_pickup": "Amoxicillin",
		"pharmacy": map[string]any{"ncpdp": "5550001"},
		"dropoff":  map[string]any{"name": "Jane Doe", "phone_number": "6145550100", "address": map[string]any{"place_id": "ChIJ_x"}},
		"patient":  map[string]any{"first_name": "Jane", "last_name": "Doe", "date_of_birth": "1980-02-29"},
	})
	want(t, status, http.StatusOK, "request create")
	rid, _ := field(req, "request", "id").(string)
	status, _ = s.do("PUT", s.control+"/requests/"+rid+"/status", map[string]any{"status": "request_incomplete"})
	want(t, status, http.StatusOK, "set request status")
	_, read := s.do("GET", s.omni+"/api/v1/requests/"+rid, nil)
	want(t, field(read, "request", "status", "name"), any("request_incomplete"), "request status")
}

func TestSandboxControlFaultsAndCallRecord(t *testing.T) {
	t.Parallel()
	s := startSandbox(t, "--manual-clock")
	status, _ := s.do("POST", s.control+"/faults", map[string]any{"operation": "pharmacies.Get", "times": 2, "kind": "rate_limit", "retry_after_seconds": 7})
	want(t, status, http.StatusCreated, "fault status")
	for range 2 {
		req, _ := http.NewRequest("GET", s.omni+"/api/v1/pharmacies/5550001", nil)
		req.SetBasicAuth(s.key, s.secret)
		res, err := s.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		want(t, res.StatusCode, http.StatusTooManyRequests, "faulted status")
		want(t, res.Header.Get("Retry-After"), "7", "Retry-After")
	}
	status, _ = s.do("GET", s.omni+"/api/v1/pharmacies/5550001", nil)
	want(t, status, http.StatusOK, "status after two faulted calls")

	// Committed then failed: the order exists although the create got 500.
	s.do("POST", s.control+"/faults", map[string]any{"operation": "orders.Create", "kind": "committed_then_failed"})
	status, _ = s.do("POST", s.delivery+"/api/v1/orders", orderBody())
	want(t, status, http.StatusInternalServerError, "create status")
	status, got := s.do("GET", s.control+"/orders/ord_000001", nil)
	want(t, status, http.StatusOK, "control order status")
	want(t, got["status"], any("new"), "order status")

	status, calls := s.do("GET", s.control+"/calls?operation=orders.Create", nil)
	want(t, status, http.StatusOK, "calls status")
	list, _ := calls["calls"].([]any)
	want(t, len(list), 1, "calls recorded")
	c, _ := list[0].(map[string]any)
	want(t, c["method"], any("POST"), "method")
	want(t, c["path"], any("/api/v1/orders"), "path")
	want(t, c["status"], any(float64(500)), "recorded status")
	want(t, c["fault"], any("committed, then server_error"), "fault")
	want(t, field(c, "body", "external_reference_number"), any("ext-1"), "recorded body")
	if raw, _ := json.Marshal(calls); strings.Contains(string(raw), "Basic") {
		t.Errorf("a credential in the call record: %s", raw)
	}

	status, _ = s.do("POST", s.control+"/faults", map[string]any{"operation": "orders.Fly", "kind": "cut"})
	want(t, status, http.StatusUnprocessableEntity, "fault of an unknown operation")
	status, _ = s.do("POST", s.control+"/faults", map[string]any{"kind": "explode"})
	want(t, status, http.StatusUnprocessableEntity, "fault of an unknown kind")
	s.do("POST", s.control+"/faults", map[string]any{"kind": "server_error", "times": -1})
	status, _ = s.do("DELETE", s.control+"/faults", nil)
	want(t, status, http.StatusNoContent, "clear faults")
	status, _ = s.do("GET", s.omni+"/api/v1/pharmacies/5550001", nil)
	want(t, status, http.StatusOK, "status after faults cleared")

	status, _ = s.do("DELETE", s.control+"/calls", nil)
	want(t, status, http.StatusNoContent, "clear calls")
	_, calls = s.do("GET", s.control+"/calls", nil)
	if l, _ := calls["calls"].([]any); len(l) != 0 {
		t.Errorf("calls after clearing: %v", calls)
	}
}

func TestSandboxControlPharmaciesAndQuotes(t *testing.T) {
	t.Parallel()
	s := startSandbox(t, "--manual-clock")
	status, _ := s.do("PUT", s.control+"/pharmacies", map[string]any{"pharmacies": []any{map[string]any{
		"npi": "1234567893", "ncpdp": "7770001", "name": "Only Pharmacy", "preferred": true,
		"phone_number": "2125550100", "fax_number": "2125550101",
		"address": map[string]any{"street1": "1 Main St", "city": "New York", "state": "NY", "zipcode": "10001"},
	}}})
	want(t, status, http.StatusOK, "set pharmacies")
	_, page := s.do("GET", s.omni+"/api/v1/pharmacies/?place_id=abc", nil)
	want(t, page["count"], any(float64(1)), "pharmacies")
	_, ph := s.do("GET", s.omni+"/api/v1/pharmacies/7770001", nil)
	want(t, ph["name"], any("Only Pharmacy"), "name")

	quote := map[string]any{
		"pickup": map[string]any{"address": map[string]any{"zipcode": "43210"}}, "dropoff": map[string]any{"address": map[string]any{"zipcode": "10001"}},
		"package_dimensions": map[string]any{"length_in": 10, "width_in": 8, "height_in": 4, "weight_oz": 12},
	}
	_, q := s.do("POST", s.pricing+"/pricing/v1/quotes", quote)
	if l, _ := q["quotes"].([]any); len(l) != 1 {
		t.Errorf("quotes %v; want one", q)
	}
	status, _ = s.do("PUT", s.control+"/quotes", map[string]any{"empty": true})
	want(t, status, http.StatusOK, "empty quotes")
	status, q = s.do("POST", s.pricing+"/pricing/v1/quotes", quote)
	want(t, status, http.StatusOK, "quote status")
	if l, ok := q["quotes"].([]any); !ok || len(l) != 0 {
		t.Errorf("quotes %v; want an empty list", q)
	}
}

// TestSandboxDeliversNotificationsToALocalListener: with
// --insecure-listeners a tracking event reaches a listener serving a
// self-signed certificate on loopback before the control call returns.
func TestSandboxDeliversNotificationsToALocalListener(t *testing.T) {
	t.Parallel()
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

	s := startSandbox(t, "--manual-clock", "--insecure-listeners")
	status, _ := s.do("POST", s.tracking+"/tracking/v1/subscriptions", map[string]any{"tracking_number": "9400100000000000000001", "listener_url": l.URL + "/hook"})
	want(t, status, http.StatusCreated, "subscribe")
	status, _ = s.do("POST", s.control+"/tracking", map[string]any{"tracking_number": "9400100000000000000001", "status": "Moving Through Network"})
	want(t, status, http.StatusNoContent, "track")
	select {
	case n := <-got:
		want(t, n["status"], any("Moving Through Network"), "notified status")
		want(t, n["carrier"], any("POSTAL"), "notified carrier")
	default:
		t.Fatal("the notification was not delivered before the control call returned")
	}
	_, notes := s.do("GET", s.control+"/notifications", nil)
	list, _ := notes["notifications"].([]any)
	want(t, len(list), 1, "notifications")
	want(t, field(list[0].(map[string]any), "status_code"), any(float64(204)), "listener's answer")
}

// TestSandboxStallEndsOnShutdown: a call the simulator stalls forever does
// not hold the shutdown.
func TestSandboxStallEndsOnShutdown(t *testing.T) {
	t.Parallel()
	s := startSandbox(t)
	status, _ := s.do("POST", s.control+"/faults", map[string]any{"kind": "stall"})
	want(t, status, http.StatusCreated, "fault status")

	stalled := make(chan error, 1)
	wrote := make(chan struct{})
	var once sync.Once
	traced := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
		WroteRequest: func(httptrace.WroteRequestInfo) { once.Do(func() { close(wrote) }) },
	})
	go func() {
		req, _ := http.NewRequestWithContext(traced, "GET", s.omni+"/api/v1/pharmacies/5550001", nil)
		req.SetBasicAuth(s.key, s.secret)
		res, err := s.http.Do(req)
		if err == nil {
			res.Body.Close()
		}
		stalled <- err
	}()
	<-wrote // the call is on the server's side
	s.stop()
	<-stalled
}

// TestPeerIsLoopback: only a TCP peer in 127.0.0.0/8 or ::1 counts as
// loopback for --insecure-listeners.
func TestPeerIsLoopback(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		addr net.Addr
		want bool
	}{
		{&net.TCPAddr{IP: net.IPv6loopback}, true},
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}, true},
		{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 1)}, false},
		{&net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}, false},
		{(*net.TCPAddr)(nil), false},
		{nil, false},
	} {
		if got := peerIsLoopback(c.addr); got != c.want {
			t.Errorf("peerIsLoopback(%v) = %v, want %v", c.addr, got, c.want)
		}
	}
}

// TestSandboxArguments: --help documents the flags of the old program and
// how to test a local listener; a command line it cannot serve ends at
// once with an error, not a server.
func TestSandboxArguments(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	want(t, run(context.Background(), []string{"sandbox", "-h"}, strings.NewReader(""), &out, &errOut), exitOK, "-h exit code")
	for _, s := range []string{"--insecure-listeners", "--manual-clock", "--cadence", "--pharmacies", "--log", "--key", "--secret", "--addr",
		"--insecure-listeners accepts\nself-signed certificates of listeners on loopback hosts (and only there)"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("sandbox -h does not say %q", s)
		}
	}
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"-nope"}, exitUsage, "unknown shorthand flag"},
		{[]string{"extra"}, exitUsage, "extra"},
		{[]string{"-key", ""}, exitUsage, "must not be empty"},
		{[]string{"-secret", "two\nlines"}, exitUsage, "control characters"},
		{[]string{"-key", "k\x00"}, exitUsage, "control characters"},
		{[]string{"--addr", "256.0.0.1:bad"}, exitFailure, "listen tcp"},
	} {
		// Already ended: a sandbox that started serving would return 0 at
		// once instead of waiting for an interrupt.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var out, errOut bytes.Buffer
		code := run(ctx, append([]string{"sandbox", "--addr", "127.0.0.1:0"}, c.args...), strings.NewReader(""), &out, &errOut)
		if code != c.code || !strings.Contains(errOut.String(), c.says) {
			t.Errorf("sandbox %q: exit code %d, stderr %q; want %d and %q", c.args, code, errOut.String(), c.code, c.says)
		}
		if strings.Contains(errOut.String(), "lines") && c.args[1] == "two\nlines" {
			t.Errorf("sandbox %q: the secret is in the error: %q", c.args, errOut.String())
		}
	}
}
