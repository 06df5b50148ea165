package sandbox

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// FaultKind is what an injected fault does to a call.
type FaultKind int

// The fault kinds.
const (
	// FaultStatus answers Fault.Status (500 when unset) with an error body in
	// the interface's shape, and a Retry-After header when
	// Fault.RetryAfter is set.
	FaultStatus FaultKind = iota + 1
	// FaultRateLimit answers 429 with Retry-After (Fault.RetryAfter, one
	// second when unset).
	FaultRateLimit
	// FaultUnavailable answers 503 (with Retry-After when Fault.RetryAfter is
	// set).
	FaultUnavailable
	// FaultSlow waits Fault.Delay of real time, then answers normally. The
	// wait ends early when the client goes away or the sandbox closes; a
	// Delay of zero or less waits only for that (a stall: no answer ever).
	FaultSlow
	// FaultCut writes a status line, headers announcing the full
	// Content-Length and part of the body, then closes the connection. An
	// answer without a body (a 204 in After mode) is dropped instead.
	FaultCut
	// FaultDrop closes the connection without writing anything.
	FaultDrop
	// FaultMalformed answers 200 with a Content-Type of application/json and
	// a body that is not valid JSON.
	FaultMalformed
)

// String returns the kind's name, such as "rate_limit".
func (k FaultKind) String() string {
	switch k {
	case FaultStatus:
		return "status"
	case FaultRateLimit:
		return "rate_limit"
	case FaultUnavailable:
		return "unavailable"
	case FaultSlow:
		return "slow"
	case FaultCut:
		return "cut"
	case FaultDrop:
		return "drop"
	case FaultMalformed:
		return "malformed"
	default:
		return "fault(" + strconv.Itoa(int(k)) + ")"
	}
}

// Fault describes a failure the sandbox injects into the next matching
// calls. Faults are matched in the order they were injected; the first
// matching fault with uses left applies, and it applies before
// authentication.
type Fault struct {
	// Kind is what the fault does.
	Kind FaultKind
	// Name labels the fault in the call record (Call.Fault) in place of
	// Kind's name, so that a fault reads there as it was injected, such as
	// "server_error" for a FaultStatus of 500 ("" means Kind's name).
	Name string
	// Times is how many matching calls the fault applies to: 0 means once,
	// a negative value means until ClearFaults.
	Times int

	// Operation limits the fault to one operation, such as
	// OpOrdersCreate ("" means any).
	Operation string
	// Interface limits the fault to one interface ("" means any).
	Interface Interface
	// Method limits the fault to one HTTP method ("" means any).
	Method string
	// PathPrefix limits the fault to paths starting with it, written with
	// the interface prefix, such as "/omni/api/v1/requests" ("" means any).
	PathPrefix string

	// Status is the status FaultStatus answers (500 when zero).
	Status int
	// Message replaces the default error message of FaultStatus,
	// FaultRateLimit and FaultUnavailable.
	Message string
	// RetryAfter is sent as a Retry-After header in whole seconds, rounded
	// up (FaultStatus, FaultRateLimit, FaultUnavailable); a negative value
	// sends "Retry-After: 0".
	RetryAfter time.Duration
	// RetryAfterDate sends Retry-After as an HTTP date (real time now plus
	// RetryAfter) instead of seconds.
	RetryAfterDate bool
	// Delay is how long FaultSlow waits.
	Delay time.Duration

	// After makes the call be served normally first (a create really
	// creates), and only then applies the fault in place of the real answer:
	// an error status, a cut or dropped connection, a malformed body, or a
	// delay before the real answer.
	After bool
}

// faultState is an injected fault with its remaining uses (negative means
// unlimited).
type faultState struct {
	f    Fault
	left int
}

func (f *faultState) name() string {
	if f == nil {
		return ""
	}
	n := f.f.Kind.String()
	if f.f.Name != "" {
		n = f.f.Name
	}
	if f.f.After {
		n += "_after"
	}
	return n
}

// InjectFault queues a fault for the next matching calls.
func (s *Sandbox) InjectFault(f Fault) {
	left := f.Times
	if left == 0 {
		left = 1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &faultState{f: f, left: left})
}

// FailNext makes the next n calls (on any interface) fail with kind, using
// the kind's defaults. It is shorthand for InjectFault.
func (s *Sandbox) FailNext(n int, kind FaultKind) {
	if n <= 0 {
		return
	}
	s.InjectFault(Fault{Kind: kind, Times: n})
}

// ClearFaults removes every queued fault.
func (s *Sandbox) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// takeFault returns the fault that applies to a call, using it up, or nil.
func (s *Sandbox) takeFault(iface Interface, opName string, r *http.Request) *faultState {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, fs := range s.faults {
		f := fs.f
		if f.Interface != "" && f.Interface != iface {
			continue
		}
		if f.Operation != "" && f.Operation != opName {
			continue
		}
		if f.Method != "" && !strings.EqualFold(f.Method, r.Method) {
			continue
		}
		if f.PathPrefix != "" && !strings.HasPrefix(r.URL.Path, f.PathPrefix) {
			continue
		}
		if fs.left > 0 {
			fs.left--
			if fs.left == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		s.stats.FaultsApplied++
		return &faultState{f: f}
	}
	return nil
}

// applyFault serves a call that a fault applies to.
func (s *Sandbox) applyFault(w *statusWriter, r *http.Request, iface Interface, fs *faultState, serve func(http.ResponseWriter)) {
	f := fs.f
	if !f.After {
		if f.Kind == FaultSlow {
			if s.sleep(r, f.Delay) {
				serve(w)
			}
			return
		}
		s.writeFault(w, r, iface, f, nil)
		return
	}
	rec := &recorder{header: http.Header{}}
	serve(rec)
	if f.Kind == FaultSlow {
		if s.sleep(r, f.Delay) {
			rec.flushTo(w)
		}
		return
	}
	s.writeFault(w, r, iface, f, rec)
}

// sleep waits d of real time; it returns false when the client went away or
// the sandbox closed first.
func (s *Sandbox) sleep(r *http.Request, d time.Duration) bool {
	// The server notices a client that went away only once the request body
	// has been read: read it now and hand the handler a copy.
	if r.Body != nil && r.Body != http.NoBody {
		b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			return false
		}
		r.Body = io.NopCloser(bytes.NewReader(b))
	}
	var timeout <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-timeout:
		return true
	case <-r.Context().Done():
		return false
	case <-s.ctx.Done():
		return false
	}
}

// writeFault writes the faulty answer. rec holds the real answer in After
// mode, else it is nil.
func (s *Sandbox) writeFault(w *statusWriter, r *http.Request, iface Interface, f Fault, rec *recorder) {
	switch f.Kind {
	case FaultMalformed:
		markInjected(r)
		body := []byte(`{"sandbox": "this body is malformed`)
		if rec != nil && rec.body.Len() > 2 {
			body = rec.body.Bytes()[:rec.body.Len()/2]
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	case FaultCut, FaultDrop:
		status, body := http.StatusOK, []byte(`{"sandbox":"this body is cut short by an injected fault"}`)
		if rec != nil {
			status, body = rec.statusOr200(), rec.body.Bytes()
		}
		drop := f.Kind == FaultDrop || len(body) == 0 // nothing to cut short: drop
		if drop {
			w.settle(0)
		} else {
			w.settle(status)
		}
		// Read what is left of the request body first: closing a connection
		// with unread input resets it, and the client would see the reset
		// instead of the partial answer.
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, maxBody))
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			// Not hijackable (HTTP/2): abort the stream instead.
			panic(http.ErrAbortHandler)
		}
		defer conn.Close()
		if drop {
			return
		}
		fmt.Fprintf(buf, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n",
			status, http.StatusText(status), len(body))
		_, _ = buf.Write(body[:len(body)/2])
		_ = buf.Flush()
	default:
		status := f.Status
		switch f.Kind {
		case FaultRateLimit:
			status = http.StatusTooManyRequests
		case FaultUnavailable:
			status = http.StatusServiceUnavailable
		}
		if status == 0 {
			status = http.StatusInternalServerError
		}
		retry := f.RetryAfter
		if retry == 0 && f.Kind == FaultRateLimit {
			retry = time.Second
		}
		if retry < 0 {
			w.Header().Set("Retry-After", "0")
		} else if retry > 0 {
			if f.RetryAfterDate {
				w.Header().Set("Retry-After", time.Now().Add(retry).UTC().Format(http.TimeFormat))
			} else {
				secs := (retry + time.Second - 1) / time.Second
				w.Header().Set("Retry-After", strconv.FormatInt(int64(secs), 10))
			}
		}
		msg := f.Message
		if msg == "" {
			msg = faultMessage(iface, status)
		}
		if iface == "" {
			writeJSON(w, status, map[string]any{"error": map[string]string{"message": msg}})
			return
		}
		writeJSON(w, status, errorBody(iface, status, "", msg, ""))
	}
}

// faultMessage is the default message of an injected error status.
func faultMessage(iface Interface, status int) string {
	switch status {
	case http.StatusTooManyRequests:
		return "Too many requests; retry shortly"
	case http.StatusServiceUnavailable:
		return "Service temporarily unavailable"
	case http.StatusBadGateway:
		if iface == Pricing {
			return "Pricing could not be retrieved from the provider"
		}
		if iface == Tracking {
			return "Unable to subscribe via the upstream provider"
		}
		return "Bad gateway"
	case http.StatusInternalServerError:
		return "Internal server error"
	default:
		return http.StatusText(status)
	}
}

// recorder keeps an answer in memory (After-mode faults).
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}

func (r *recorder) statusOr200() int {
	if r.status == 0 {
		return http.StatusOK
	}
	return r.status
}

// flushTo writes the recorded answer to w.
func (r *recorder) flushTo(w http.ResponseWriter) {
	for k, v := range r.header {
		w.Header()[k] = v
	}
	w.WriteHeader(r.statusOr200())
	_, _ = w.Write(r.body.Bytes())
}
