package journal_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// platform is a minimal stand-in for the platform's create and get
// endpoints of orders and omni requests. It counts every create it
// receives per reference, and answers creates as told. newPlatform answers
// through an httpmock transport; newLoopbackPlatform serves the same
// handler on a real connection, for the tests that need one.
type platform struct {
	mux  *http.ServeMux
	url  string
	mock *httpmock.MockTransport // nil on a loopback platform

	mu      sync.Mutex
	creates map[string]int    // POSTs received, per reference
	stored  map[string]string // id to reference, for creates it committed
	gets    atomic.Int64

	// status, when not zero, answers every create with this status
	// without committing it; with commit also set, the create is committed
	// first (committed, then failed).
	status atomic.Int32
	commit atomic.Bool
	// hold, when not nil, makes each create wait until it is closed (or
	// the client goes away) before committing; arrived receives the
	// reference of each create that arrived.
	hold    chan struct{}
	arrived chan string
}

// platformURL is the base URL of a platform answered through httpmock.
const platformURL = "https://platform.rxdelivery.test"

// newPlatform returns a platform whose client reaches it through an
// httpmock transport: each request goes to the handler in memory, with the
// client's context (a create held by hold ends when the client gives up).
func newPlatform(testing.TB) *platform {
	p := newStandIn()
	p.url = platformURL
	p.mock = httpmock.NewMockTransport()
	p.mock.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		rec := httptest.NewRecorder()
		p.mux.ServeHTTP(rec, r)
		return rec.Result(), nil
	})
	return p
}

// newStandIn returns a platform's handler and records, not yet reachable.
func newStandIn() *platform {
	p := &platform{creates: map[string]int{}, stored: map[string]string{}}
	mux := http.NewServeMux()
	p.mux = mux
	mux.HandleFunc("POST /api/v1/orders", func(w http.ResponseWriter, r *http.Request) { p.create(w, r, "order", "ord") })
	mux.HandleFunc("POST /api/v1/requests", func(w http.ResponseWriter, r *http.Request) { p.create(w, r, "request", "req") })
	mux.HandleFunc("GET /api/v1/orders/{id}", func(w http.ResponseWriter, r *http.Request) { p.get(w, r, "order") })
	mux.HandleFunc("GET /api/v1/requests/{id}", func(w http.ResponseWriter, r *http.Request) { p.get(w, r, "request") })
	return p
}

func (p *platform) create(w http.ResponseWriter, r *http.Request, member, prefix string) {
	var body struct {
		Ref string `json:"external_reference_number"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	p.creates[body.Ref]++
	p.mu.Unlock()
	if p.arrived != nil {
		p.arrived <- body.Ref
	}
	if p.hold != nil {
		select {
		case <-p.hold:
		case <-r.Context().Done():
			return
		}
	}
	status := int(p.status.Load())
	if status != 0 && !p.commit.Load() {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":"refused with %d"}}`, status)
		return
	}
	p.mu.Lock()
	id := fmt.Sprintf("%s_%06d", prefix, len(p.stored)+1)
	p.stored[id] = body.Ref
	p.mu.Unlock()
	if status != 0 {
		w.WriteHeader(status)
		fmt.Fprint(w, `{"error":{"message":"internal error"}}`)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, resource(member, id, body.Ref))
}

func resource(member, id, ref string) string {
	if member == "order" {
		return fmt.Sprintf(`{"order":{"id":%q,"status":"new","external_reference_number":%q}}`, id, ref)
	}
	return fmt.Sprintf(`{"request":{"id":%q,"external_reference_number":%q,"created_at":"2026-03-04T05:06:07Z","order":null}}`, id, ref)
}

func (p *platform) get(w http.ResponseWriter, r *http.Request, member string) {
	p.gets.Add(1)
	id := r.PathValue("id")
	p.mu.Lock()
	ref, ok := p.stored[id]
	p.mu.Unlock()
	if !ok || !strings.HasPrefix(id, member[:3]) {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":{"message":"not found"}}`)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, resource(member, id, ref))
}

// createsOf returns how many creates of ref the platform received.
func (p *platform) createsOf(ref string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.creates[ref]
}

// committed returns how many creates of ref the platform committed.
func (p *platform) committed(ref string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, r := range p.stored {
		if r == ref {
			n++
		}
	}
	return n
}

// client returns an SDK client on the platform, with tiny retry waits.
func (p *platform) client(t testing.TB) *rxdelivery.Client {
	opts := []rxdelivery.Option{
		rxdelivery.WithOmniURL(p.url), rxdelivery.WithDeliveryURL(p.url),
		rxdelivery.WithRetryWaitMin(time.Millisecond), rxdelivery.WithRetryWaitMax(5 * time.Millisecond),
	}
	if p.mock != nil {
		opts = append(opts, rxdelivery.WithHTTPClient(&http.Client{Transport: p.mock}))
	}
	c, err := rxdelivery.NewClient("key", "secret", opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// orderParams returns a valid same-day order with reference ref.
func orderParams(ref string) *orders.CreateParams {
	p := rxdeliverytest.SamedayOrderParams()
	p.ExternalReferenceNumber = ref
	return p
}

// requestParams returns a valid omni request with reference ref.
func requestParams(ref string) *requests.CreateParams {
	return &requests.CreateParams{
		Identifier:              "program-123",
		ExternalReferenceNumber: ref,
		NameOfPickup:            "Amoxicillin 500 mg",
		Pharmacy:                requests.PharmacyParams{NCPDP: "5550001"},
		Dropoff: requests.DropoffParams{
			Name:        "Jane Doe",
			PhoneNumber: "6145550100",
			Address:     requests.NewDropoffPlace("ChIJd8BlQ2BZwokRAFUEcm_qrcA"),
		},
		Patient: requests.PatientParams{
			FirstName: "Jane", LastName: "Doe",
			DateOfBirth: rxdelivery.Date{Year: 1980, Month: time.February, Day: 29},
		},
	}
}
