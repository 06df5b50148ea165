package benchmarks_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
)

// httptest: the benchmarks measure calls over a real loopback connection, as users make them, and count the TCP connections the server accepts.

// Sizes of the measured calls.
const (
	searchPageSize = 100 // one pharmacy search page
	getManyCount   = 50  // orders in one get-many call
	walkPages      = 100 // pages of the iterator walk (100 x 100 pharmacies)
	orderID        = "ord_01HXZ3K9V2M4Q7R8S9T0W1Y2Z3"
	searchOrigin   = "42 Elm Ave, Columbus, OH 43210"
)

// authHeader is the Authorization value of the delivery and omni
// interfaces for the test credentials (URL-safe base64, as the documents'
// examples use).
var authHeader = "Basic " + base64.URLEncoding.EncodeToString([]byte(testutil.Key+":"+testutil.Secret))

// bodies are the answers the server gives, built once from the fixtures.
type bodies struct {
	order  []byte   // GET an order
	create []byte   // POST a same-day order
	search []byte   // one search page of searchPageSize pharmacies
	many   []byte   // get-many of getManyCount orders
	walk   [][]byte // walkPages pages of searchPageSize pharmacies
}

func loadBodies(t testing.TB) *bodies {
	t.Helper()
	var page struct {
		Pharmacies []json.RawMessage `json:"pharmacies"`
	}
	if err := json.Unmarshal(testutil.Fixture(t, "omni/pharmacies_search_page1.json"), &page); err != nil {
		t.Fatal(err)
	}
	var list struct {
		Orders []json.RawMessage `json:"orders"`
	}
	if err := json.Unmarshal(testutil.Fixture(t, "delivery/orders_get_many.json"), &list); err != nil {
		t.Fatal(err)
	}
	b := &bodies{
		order:  compact(t, testutil.Fixture(t, "delivery/order_delivered.json")),
		create: compact(t, testutil.Fixture(t, "delivery/order_new_sameday.json")),
		search: searchPage(t, page.Pharmacies, 1, 1),
	}
	many := make([]json.RawMessage, getManyCount)
	for i := range many {
		many[i] = list.Orders[i%len(list.Orders)]
	}
	b.many = marshal(t, map[string]any{"orders": many})
	for p := 1; p <= walkPages; p++ {
		b.walk = append(b.walk, searchPage(t, page.Pharmacies, p, walkPages))
	}
	return b
}

// searchPage builds page number of total, with searchPageSize pharmacies
// taken in turn from the fixture's.
func searchPage(t testing.TB, from []json.RawMessage, number, total int) []byte {
	items := make([]json.RawMessage, searchPageSize)
	for i := range items {
		items[i] = from[i%len(from)]
	}
	return marshal(t, map[string]any{
		"count":             total * searchPageSize,
		"page":              number,
		"page_size":         searchPageSize,
		"total_pages":       total,
		"formatted_address": "42 Elm Ave, Columbus, OH 43210, USA",
		"pharmacies":        items,
	})
}

func marshal(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func compact(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// server is a loopback server answering the measured endpoints with
// prepared bodies. It counts the TCP connections it accepts and the search
// pages it serves.
type server struct {
	*httptest.Server
	b        *bodies
	conns    atomic.Int64 // connections accepted
	searches atomic.Int64 // search pages served
	// onPage, when set, is called with each walk page number served.
	onPage func(int)
}

var jsonType = []string{"application/json"}

func newServer(t testing.TB, b *bodies) *server {
	s := &server{b: b}
	if u := os.Getenv(externalServerEnv); u != "" {
		// The server runs in another process (see BenchmarkServe): its
		// instructions are not counted with the client's.
		s.Server = &httptest.Server{URL: u}
		return s
	}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// externalServerEnv names the environment variable that points the
// benchmarks at a server in another process, started by BenchmarkServe.
const externalServerEnv = "RXDELIVERY_BENCH_SERVER"

// serveForEnv names the environment variable that makes BenchmarkServe serve:
// how long, as a time.Duration.
const serveForEnv = "RXDELIVERY_BENCH_SERVE_FOR"

// BenchmarkServe is not a measure: it runs the benchmarks' server on
// loopback for as long as RXDELIVERY_BENCH_SERVE_FOR says, printing its URL
// first, so that bench.sh can count the instructions of the clients alone
// (bench.sh instr runs it alone, with -test.bench '^BenchmarkServe$'). It
// is a benchmark, not a test, so that go test never runs it; without the
// variable it is skipped.
func BenchmarkServe(b *testing.B) {
	d, err := time.ParseDuration(os.Getenv(serveForEnv))
	if err != nil {
		b.Skip("serves only for bench.sh, when " + serveForEnv + " is set")
	}
	s := newServer(b, loadBodies(b))
	fmt.Println("serving", s.URL)
	time.Sleep(d)
}

func (s *server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != authHeader {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var body []byte
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/delivery/api/v1/orders/"+orderID:
		body = s.b.order
	case r.Method == http.MethodPost && r.URL.Path == "/delivery/api/v1/orders":
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			return
		}
		body = s.b.create
	case r.Method == http.MethodGet && r.URL.Path == "/delivery/api/v1/orders":
		body = s.b.many
	case r.Method == http.MethodGet && r.URL.Path == "/omni/api/v1/pharmacies/":
		s.searches.Add(1)
		body = s.b.search
	case r.Method == http.MethodGet && r.URL.Path == "/walk/api/v1/pharmacies/":
		s.searches.Add(1)
		n, err := strconv.Atoi(r.URL.Query().Get("page"))
		if err != nil || n < 1 || n > len(s.b.walk) {
			w.WriteHeader(http.StatusUnprocessableEntity)
			return
		}
		if s.onPage != nil {
			s.onPage(n)
		}
		body = s.b.walk[n-1]
	default:
		w.WriteHeader(http.StatusNotFound)
		return
	}
	h := w.Header()
	h["Content-Type"] = jsonType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	_, _ = w.Write(body)
}

// newSDK returns an SDK client on s with default settings (its own pooled
// transport, validation on unless opts turn it off).
func newSDK(t testing.TB, s *server, opts ...rxdelivery.Option) *rxdelivery.Client {
	t.Helper()
	base := []rxdelivery.Option{
		rxdelivery.WithOmniURL(s.URL + "/omni"),
		rxdelivery.WithDeliveryURL(s.URL + "/delivery"),
	}
	c, err := rxdelivery.NewClient(testutil.Key, testutil.Secret, append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// sdkTypes is net/http with the SDK's own model structs: a tuned
// keep-alive transport, the Authorization value computed once, the same
// headers as the SDK, json.Marshal of the SDK's params, json.NewDecoder
// into the SDK's models, a status check, and the rest of the body drained
// so that the connection is reused. Encoding and decoding are the SDK's
// own types on both sides, so it measures the SDK's plumbing (validation,
// request building, the retrying transport, bounded reads, typed errors),
// not what a user would write without the SDK: that is handwritten.
type sdkTypes struct {
	plainHTTP
}

func newSDKTypes(t testing.TB, s *server, omniPrefix string) *sdkTypes {
	return &sdkTypes{newPlainHTTP(t, s, omniPrefix)}
}

type orderEnvelope struct {
	Order *orders.Order `json:"order"`
}

var errNoOrder = errors.New("the answer has no order")

func (c *sdkTypes) getOrder(ctx context.Context, id string) (*orders.Order, error) {
	var env orderEnvelope
	if err := c.do(ctx, http.MethodGet, c.delivery+"/api/v1/orders/"+url.PathEscape(id), nil, &env); err != nil {
		return nil, err
	}
	if env.Order == nil {
		return nil, errNoOrder
	}
	return env.Order, nil
}

func (c *sdkTypes) createOrder(ctx context.Context, p *orders.CreateParams) (*orders.Order, error) {
	var env orderEnvelope
	if err := c.do(ctx, http.MethodPost, c.delivery+"/api/v1/orders", p, &env); err != nil {
		return nil, err
	}
	if env.Order == nil {
		return nil, errNoOrder
	}
	return env.Order, nil
}

func (c *sdkTypes) search(ctx context.Context, p *pharmacies.SearchParams) (*pharmacies.SearchPage, error) {
	q := url.Values{}
	q.Set("origin_address", p.OriginAddress)
	if p.Page > 0 {
		q.Set("page", strconv.Itoa(p.Page))
	}
	if p.PageSize > 0 {
		q.Set("page_size", strconv.Itoa(p.PageSize))
	}
	var page pharmacies.SearchPage
	if err := c.do(ctx, http.MethodGet, c.omni+"/api/v1/pharmacies/?"+q.Encode(), nil, &page); err != nil {
		return nil, err
	}
	return &page, nil
}

func (c *sdkTypes) getMany(ctx context.Context, ids []string) ([]orders.Order, error) {
	q := url.Values{"ids[]": ids}
	var env struct {
		Orders []orders.Order `json:"orders"`
	}
	if err := c.do(ctx, http.MethodGet, c.delivery+"/api/v1/orders?"+q.Encode(), nil, &env); err != nil {
		return nil, err
	}
	return env.Orders, nil
}

// createParams returns the same-day order of the request fixture.
func createParams(t testing.TB) *orders.CreateParams {
	var p orders.CreateParams
	if err := json.Unmarshal(testutil.Fixture(t, "delivery/order_create_sameday_request.json"), &p); err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	return &p
}

func searchParams() *pharmacies.SearchParams {
	return &pharmacies.SearchParams{OriginAddress: searchOrigin, Page: 1, PageSize: searchPageSize}
}

func manyIDs() []string {
	ids := make([]string, getManyCount)
	for i := range ids {
		ids[i] = fmt.Sprintf("ord_01HXZ3K9V2M4Q7R8S9T%07d", i)
	}
	return ids
}
