package rxdeliverytest

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// ControlPrefix is the reserved path prefix of the control API: the
// controls of a [Server] (clock, statuses, pharmacies, quotes, faults, call
// record) as HTTP endpoints, for tests written in any language against a
// standalone server. See the package documentation for its endpoints.
const ControlPrefix = "/_control"

// maxControlBody bounds a control request body.
const maxControlBody = 1 << 20

// controlHandler serves the control API. Every endpoint needs the server's
// credentials (Basic); bodies and responses are JSON.
func (s *Server) controlHandler() http.Handler {
	mux := http.NewServeMux()
	p := ControlPrefix
	mux.HandleFunc("GET "+p+"/clock", s.ctlClock)
	mux.HandleFunc("POST "+p+"/clock/advance", s.ctlAdvance)
	mux.HandleFunc("GET "+p+"/orders/{id}", s.ctlGetOrder)
	mux.HandleFunc("PUT "+p+"/orders/{id}/status", s.ctlOrderStatus)
	mux.HandleFunc("GET "+p+"/requests/{id}", s.ctlGetRequest)
	mux.HandleFunc("PUT "+p+"/requests/{id}/status", s.ctlRequestStatus)
	mux.HandleFunc("POST "+p+"/tracking", s.ctlTrack)
	mux.HandleFunc("GET "+p+"/pharmacies", s.ctlGetPharmacies)
	mux.HandleFunc("PUT "+p+"/pharmacies", s.ctlSetPharmacies)
	mux.HandleFunc("PUT "+p+"/quotes", s.ctlQuotes)
	mux.HandleFunc("POST "+p+"/faults", s.ctlAddFault)
	mux.HandleFunc("DELETE "+p+"/faults", s.ctlClearFaults)
	mux.HandleFunc("GET "+p+"/calls", s.ctlCalls)
	mux.HandleFunc("DELETE "+p+"/calls", s.ctlResetCalls)
	mux.HandleFunc("GET "+p+"/notifications", s.ctlNotifications)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, secret, ok := r.BasicAuth()
		if !ok || subtle.ConstantTimeCompare([]byte(key), []byte(s.key)) != 1 ||
			subtle.ConstantTimeCompare([]byte(secret), []byte(s.secret)) != 1 {
			w.Header().Set("WWW-Authenticate", `Basic realm="rxdeliverytest control"`)
			ctlError(w, http.StatusUnauthorized, "the control API needs the server's key and secret (Basic)")
			return
		}
		if _, pattern := mux.Handler(r); pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		var allow []string
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete} {
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pattern := mux.Handler(probe); pattern != "" {
				allow = append(allow, m)
			}
		}
		if len(allow) == 0 {
			ctlError(w, http.StatusNotFound, "no such control endpoint")
			return
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		ctlError(w, http.StatusMethodNotAllowed, "method not allowed on this control endpoint")
	})
}

func ctlJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func ctlError(w http.ResponseWriter, status int, msg string) {
	ctlJSON(w, status, map[string]any{"error": map[string]string{"message": msg}})
}

// ctlRead decodes a JSON body strictly into v; it responds 400 and returns
// false when it cannot.
func ctlRead(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(io.LimitReader(r.Body, maxControlBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		ctlError(w, http.StatusBadRequest, "invalid JSON body: "+err.Error())
		return false
	}
	return true
}

type ctlTime struct {
	Now string `json:"now"`
}

func (s *Server) ctlClock(w http.ResponseWriter, _ *http.Request) {
	ctlJSON(w, http.StatusOK, ctlTime{Now: s.Now().Format(time.RFC3339Nano)})
}

func (s *Server) ctlAdvance(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Seconds  *float64 `json:"seconds"`
		Duration *string  `json:"duration"`
	}
	if !ctlRead(w, r, &in) {
		return
	}
	var d time.Duration
	switch {
	case in.Seconds != nil && in.Duration == nil:
		d = time.Duration(*in.Seconds * float64(time.Second))
	case in.Duration != nil && in.Seconds == nil:
		var err error
		if d, err = time.ParseDuration(*in.Duration); err != nil {
			ctlError(w, http.StatusBadRequest, "duration: "+err.Error())
			return
		}
	default:
		ctlError(w, http.StatusBadRequest, "give exactly one of seconds or duration")
		return
	}
	if d < 0 {
		ctlError(w, http.StatusBadRequest, "the clock only moves forward")
		return
	}
	s.Advance(d)
	ctlJSON(w, http.StatusOK, ctlTime{Now: s.Now().Format(time.RFC3339Nano)})
}

func (s *Server) ctlGetOrder(w http.ResponseWriter, r *http.Request) {
	id, st, ok := ctlLookup(w, r, s.OrderStatus, "no such order")
	if !ok {
		return
	}
	out := map[string]any{"id": id, "status": st, "tracking_number": nil}
	if tn, ok := s.TrackingNumber(id); ok {
		out["tracking_number"] = tn
	}
	ctlJSON(w, http.StatusOK, out)
}

func (s *Server) ctlOrderStatus(w http.ResponseWriter, r *http.Request) {
	set := func(id, status string) error { return s.SetOrderStatus(id, rxtypes.OrderStatus(status)) }
	ctlPutStatus(w, r, s.OrderStatus, set, "no such order", "status: not an order status of the documents", s.ctlGetOrder)
}

func (s *Server) ctlGetRequest(w http.ResponseWriter, r *http.Request) {
	id, st, ok := ctlLookup(w, r, s.RequestOrderStatus, "no such request")
	if !ok {
		return
	}
	var order any
	if st != "" {
		order = st
	}
	ctlJSON(w, http.StatusOK, map[string]any{"id": id, "order_status": order})
}

func (s *Server) ctlRequestStatus(w http.ResponseWriter, r *http.Request) {
	set := func(id, status string) error {
		if status == string(requests.StatusRequestIncomplete) {
			return s.SetRequestIncomplete(id)
		}
		return s.SetRequestOrderStatus(id, rxtypes.OrderStatus(status))
	}
	ctlPutStatus(w, r, s.RequestOrderStatus, set, "no such request",
		"status: not an order status of the documents, nor request_incomplete", s.ctlGetRequest)
}

// ctlLookup returns the path's id and what lookup finds under it, and
// whether it found anything; when it did not, it responds 404 with missing.
func ctlLookup[T any](w http.ResponseWriter, r *http.Request, lookup func(id string) (T, bool), missing string) (string, T, bool) {
	id := r.PathValue("id")
	v, ok := lookup(id)
	if !ok {
		ctlError(w, http.StatusNotFound, missing)
	}
	return id, v, ok
}

// ctlPutStatus serves a PUT of {"status": ...} on the order or request the
// path's id names: 404 with missing when lookup finds no such id, 422 with
// invalid when set refuses the status, and otherwise the order or request
// as show answers it.
func ctlPutStatus[T any](w http.ResponseWriter, r *http.Request, lookup func(id string) (T, bool), set func(id, status string) error,
	missing, invalid string, show http.HandlerFunc,
) {
	var in struct {
		Status string `json:"status"`
	}
	if !ctlRead(w, r, &in) {
		return
	}
	id, _, ok := ctlLookup(w, r, lookup, missing)
	if !ok {
		return
	}
	if err := set(id, in.Status); err != nil {
		ctlError(w, http.StatusUnprocessableEntity, invalid)
		return
	}
	show(w, r)
}

func (s *Server) ctlTrack(w http.ResponseWriter, r *http.Request) {
	var in struct {
		TrackingNumber string `json:"tracking_number"`
		Status         string `json:"status"`
	}
	if !ctlRead(w, r, &in) {
		return
	}
	if in.TrackingNumber == "" || in.Status == "" {
		ctlError(w, http.StatusUnprocessableEntity, "tracking_number and status are required")
		return
	}
	s.Track(in.TrackingNumber, tracking.TrackingStatus(in.Status))
	w.WriteHeader(http.StatusNoContent)
}

// ctlPharmacy is a pharmacy on the control API, in the documents' field
// names.
type ctlPharmacy struct {
	NPI         string `json:"npi"`
	NCPDP       string `json:"ncpdp"`
	Name        string `json:"name"`
	Preferred   bool   `json:"preferred"`
	PhoneNumber string `json:"phone_number"`
	FaxNumber   string `json:"fax_number"`
	Address     struct {
		Street1 string `json:"street1"`
		Street2 string `json:"street2"`
		City    string `json:"city"`
		State   string `json:"state"`
		Zipcode string `json:"zipcode"`
	} `json:"address"`
}

func (s *Server) ctlGetPharmacies(w http.ResponseWriter, _ *http.Request) {
	list := s.Pharmacies()
	out := make([]ctlPharmacy, len(list))
	for i, p := range list {
		c := ctlPharmacy{NPI: p.NPI, NCPDP: p.NCPDP, Name: p.Name, Preferred: p.Preferred, PhoneNumber: p.PhoneNumber, FaxNumber: p.FaxNumber}
		c.Address.Street1, c.Address.Street2, c.Address.City, c.Address.State, c.Address.Zipcode = p.Street1, p.Street2, p.City, p.State, p.Zipcode
		out[i] = c
	}
	ctlJSON(w, http.StatusOK, map[string]any{"pharmacies": out})
}

func (s *Server) ctlSetPharmacies(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Pharmacies []ctlPharmacy `json:"pharmacies"`
	}
	if !ctlRead(w, r, &in) {
		return
	}
	list := make([]Pharmacy, len(in.Pharmacies))
	for i, c := range in.Pharmacies {
		if c.NCPDP == "" || c.NPI == "" {
			ctlError(w, http.StatusUnprocessableEntity, fmt.Sprintf("pharmacies[%d]: npi and ncpdp are required", i))
			return
		}
		list[i] = Pharmacy{
			NPI: c.NPI, NCPDP: c.NCPDP, Name: c.Name, Preferred: c.Preferred, PhoneNumber: c.PhoneNumber, FaxNumber: c.FaxNumber,
			Street1: c.Address.Street1, Street2: c.Address.Street2, City: c.Address.City, State: c.Address.State, Zipcode: c.Address.Zipcode,
		}
	}
	s.SetPharmacies(list...)
	s.ctlGetPharmacies(w, r)
}

func (s *Server) ctlQuotes(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Empty *bool `json:"empty"`
	}
	if !ctlRead(w, r, &in) {
		return
	}
	if in.Empty == nil {
		ctlError(w, http.StatusUnprocessableEntity, "empty (true or false) is required")
		return
	}
	s.SetEmptyQuotes(*in.Empty)
	ctlJSON(w, http.StatusOK, map[string]bool{"empty": *in.Empty})
}

// ctlFaultIn is a fault on the control API.
type ctlFaultIn struct {
	Operation         string   `json:"operation"`
	Times             *int     `json:"times"`
	Kind              string   `json:"kind"`
	Status            int      `json:"status"`
	RetryAfterSeconds *float64 `json:"retry_after_seconds"`
	StallSeconds      *float64 `json:"stall_seconds"`
	Committed         bool     `json:"committed"`
}

// parseFault builds the fault a control request describes.
func parseFault(in ctlFaultIn) (Fault, error) {
	secs := func(p *float64) time.Duration {
		if p == nil {
			return 0
		}
		return time.Duration(*p * float64(time.Second))
	}
	var f Fault
	switch in.Kind {
	case "rate_limit":
		f = RateLimited(secs(in.RetryAfterSeconds))
	case "rate_limit_date":
		f = RateLimitedUntil(secs(in.RetryAfterSeconds))
	case "unavailable":
		f = Unavailable(secs(in.RetryAfterSeconds))
	case "server_error":
		f = ServerError()
	case "status":
		if in.Status < 400 || in.Status > 599 {
			return Fault{}, errors.New("status must be between 400 and 599")
		}
		f = StatusError(in.Status)
	case "cut":
		f = Cut()
	case "drop":
		f = Drop()
	case "stall":
		if in.StallSeconds != nil {
			f = StallFor(secs(in.StallSeconds))
		} else {
			f = Stall()
		}
	case "malformed":
		f = Malformed()
	case "committed_then_failed":
		f = CommittedThenFailed()
	default:
		return Fault{}, errors.New("kind must be one of rate_limit, rate_limit_date, unavailable, server_error, status, cut, drop, stall, malformed, committed_then_failed")
	}
	if in.Committed {
		f = Committed(f)
	}
	return f, nil
}

func (s *Server) ctlAddFault(w http.ResponseWriter, r *http.Request) {
	var in ctlFaultIn
	if !ctlRead(w, r, &in) {
		return
	}
	op := Operation(in.Operation)
	known := op == AnyOperation
	names := make([]string, 0, len(Operations()))
	for _, o := range Operations() {
		known = known || o == op
		names = append(names, string(o))
	}
	if !known {
		ctlError(w, http.StatusUnprocessableEntity, "operation: unknown; one of "+strings.Join(names, ", ")+` (or "" for any)`)
		return
	}
	f, err := parseFault(in)
	if err != nil {
		ctlError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	n := 1
	if in.Times != nil {
		n = *in.Times
	}
	if n == 0 {
		ctlError(w, http.StatusUnprocessableEntity, "times must not be 0 (negative: until cleared)")
		return
	}
	s.FailNext(op, n, f)
	ctlJSON(w, http.StatusCreated, map[string]any{"operation": in.Operation, "times": n, "fault": f.String()})
}

func (s *Server) ctlClearFaults(w http.ResponseWriter, _ *http.Request) {
	s.ClearFaults()
	w.WriteHeader(http.StatusNoContent)
}

// ctlCall is a call of the record on the control API.
type ctlCall struct {
	Operation string              `json:"operation"`
	Method    string              `json:"method"`
	Path      string              `json:"path"`
	Query     map[string][]string `json:"query"`
	Body      json.RawMessage     `json:"body"`
	Status    int                 `json:"status"`
	Fault     string              `json:"fault"`
	// ReceivedAt and SimulatedAt are Call's, in RFC 3339 with nanoseconds.
	ReceivedAt  string `json:"received_at"`
	SimulatedAt string `json:"simulated_at"`
}

func (s *Server) ctlCalls(w http.ResponseWriter, r *http.Request) {
	op := Operation(r.URL.Query().Get("operation"))
	out := []ctlCall{}
	for _, c := range s.Calls() {
		if op != AnyOperation && c.Operation != op {
			continue
		}
		cc := ctlCall{Operation: string(c.Operation), Method: c.Method, Path: c.Path, Query: c.Query, Status: c.Status, Fault: c.Fault,
			ReceivedAt: c.ReceivedAt.UTC().Format(time.RFC3339Nano), SimulatedAt: c.SimulatedAt.UTC().Format(time.RFC3339Nano)}
		if c.Body != nil {
			cc.Body = json.RawMessage(c.raw)
		}
		out = append(out, cc)
	}
	counts := map[string]int{}
	for op, n := range s.CallCounts() {
		counts[string(op)] = n
	}
	ctlJSON(w, http.StatusOK, map[string]any{"calls": out, "counts": counts})
}

func (s *Server) ctlResetCalls(w http.ResponseWriter, _ *http.Request) {
	s.ResetCalls()
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) ctlNotifications(w http.ResponseWriter, _ *http.Request) {
	type note struct {
		TrackingNumber string `json:"tracking_number"`
		Status         string `json:"status"`
		ListenerURL    string `json:"listener_url"`
		StatusCode     int    `json:"status_code"`
		Error          string `json:"error,omitempty"`
		At             string `json:"at"`
	}
	out := []note{}
	for _, n := range s.Notifications() {
		out = append(out, note{n.TrackingNumber, n.Status, n.ListenerURL, n.StatusCode, n.Err, n.At.Format(time.RFC3339Nano)})
	}
	ctlJSON(w, http.StatusOK, map[string]any{"notifications": out})
}
