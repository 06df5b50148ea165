package rxdeliverytest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// maxRecordedBody bounds the response body a Recorder reads to record.
const maxRecordedBody = 32 << 20

// opKey is the context key under which the cassette middleware puts the
// operation of an attempt, for the transport below it.
type opKey struct{}

// operationMiddleware puts each attempt's operation on its context, so that
// a Recorder or a Replayer knows the endpoint without guessing it from
// the URL.
func operationMiddleware(next option.AttemptFunc) option.AttemptFunc {
	return func(ctx context.Context, a *option.Attempt) option.AttemptResult {
		return next(context.WithValue(ctx, opKey{}, a.Name), a)
	}
}

// endpointOf returns the endpoint req is a call of, and the values of its
// route's placeholders (unescaped): the one the cassette middleware named,
// else the first of the same method whose route ends req's path (a
// delivery-information lookup told from a pharmacy get by its
// delivery[…] query). It returns nil for a request of no endpoint.
func endpointOf(req *http.Request) (*core.Endpoint, []string) {
	name, _ := req.Context().Value(opKey{}).(string)
	path := req.URL.EscapedPath()
	var found *core.Endpoint
	var values []string
	for _, ep := range core.Endpoints {
		if name != "" && ep.Name != name {
			continue
		}
		if ep.Method != req.Method {
			continue
		}
		v, ok := matchRoute(ep.Route, path)
		if !ok {
			continue
		}
		if found == nil || (ep == core.PharmaciesDeliveryInfo && hasDeliveryQuery(req.URL.Query())) {
			found, values = ep, v
		}
	}
	return found, values
}

func hasDeliveryQuery(q url.Values) bool {
	for k := range q {
		if strings.HasPrefix(k, "delivery[") {
			return true
		}
	}
	return false
}

// matchRoute matches the end of an escaped path against a route template,
// and returns the placeholders' values.
func matchRoute(route, path string) ([]string, bool) {
	rs := strings.Split(strings.TrimPrefix(route, "/"), "/")
	ps := strings.Split(path, "/")
	if len(ps) < len(rs) {
		return nil, false
	}
	ps = ps[len(ps)-len(rs):]
	var values []string
	for i, seg := range rs {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			v, err := url.PathUnescape(ps[i])
			if err != nil || v == "" {
				return nil, false
			}
			values = append(values, v)
			continue
		}
		if seg != ps[i] {
			return nil, false
		}
	}
	return values, true
}

// Recorder records every exchange of the clients it is given to, redacted,
// for a cassette that tests replay later (see [Replay]). Give it to a
// client with [Recorder.ClientOptions]; [Recorder.Save] writes the
// cassette.
//
// What is recorded of each exchange: the operation, the method, the route
// template and its path values, the query, the request's and the
// response's JSON bodies, the status, and the headers that matter
// (Authorization, Content-Type, Retry-After, the request id and the rate
// limit headers). Every value is judged by its field's kind in the SDK's
// table of the platform's fields: identifiers, statuses and other
// documented enums, times of the platform's events, money, counts and
// flags are kept as recorded when they have their kind's form; every
// other value (a patient's name, address, phone, date of birth, a
// reference, a prescription or tracking number, a message) and every
// credential (Authorization, listener and signature URLs, the API key and
// secret wherever they appear) becomes a typed placeholder such as
// "<patient.last_name#1>" or "<credential.authorization#1>". The same
// value is the same placeholder everywhere in the cassette, in requests and
// responses.
//
// Redaction happens as each exchange completes, in memory; the values a
// Recorder holds are redacted ones (and, to keep them consistent, the
// table from each replaced value to its placeholder). Nothing it holds
// reaches the disk but the redacted cassette. A Recorder is safe for
// concurrent use.
type Recorder struct {
	next http.RoundTripper

	mu        sync.Mutex
	red       *redactor
	exchanges []exchange
}

// NewRecorder returns a [Recorder] that sends each request through next
// ([http.DefaultTransport] when nil) and records the exchange.
func NewRecorder(next http.RoundTripper) *Recorder {
	if next == nil {
		next = http.DefaultTransport
	}
	return &Recorder{next: next, red: newRedactor()}
}

// Record returns a [Recorder] for a test, which writes the cassette to path
// when the test ends (through tb.Cleanup), and fails the test when it
// cannot. A test that failed leaves the cassette at path as it was. Pass its ClientOptions to the client under test, for instance
// with Start(t, WithClientOptions(rec.ClientOptions()...)).
func Record(tb testing.TB, path string) *Recorder {
	tb.Helper()
	r := NewRecorder(nil)
	tb.Cleanup(func() {
		r.CloseIdleConnections()
		if tb.Failed() {
			tb.Logf("rxdeliverytest: the test failed: the cassette %s is left as it was", filepath.Base(path))
			return
		}
		if err := r.Save(path); err != nil {
			tb.Errorf("rxdeliverytest: writing the cassette: %v", err)
		}
	})
	return r
}

// ClientOptions returns the options that make a client's exchanges go
// through the Recorder: an HTTP client whose transport is the Recorder, and
// an attempt hook naming each attempt's operation to it. Give them to
// [rxdelivery.NewClient] (after any WithHTTPClient of your own, which they
// replace: use NewRecorder(yourTransport) for that transport).
func (r *Recorder) ClientOptions() []rxdelivery.Option {
	return []rxdelivery.Option{
		rxdelivery.WithHTTPClient(&http.Client{Transport: r}),
		rxdelivery.WithMiddleware(operationMiddleware),
	}
}

// Len returns the number of exchanges recorded so far.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.exchanges)
}

// Save writes the cassette of the exchanges recorded so far to path,
// atomically (a file beside it renamed over it), with its version. Only
// redacted values are written.
func (r *Recorder) Save(path string) error {
	r.mu.Lock()
	c := &cassette{Version: CassetteVersion, Exchanges: make([]exchange, len(r.exchanges))}
	for i, ex := range r.exchanges {
		// A value kept as an identifier, a time or an amount when it was
		// recorded may be one the cassette replaced later (a phone number
		// in an id, then in a patient field): judged again against them all.
		c.Exchanges[i] = r.red.recheck(ex)
	}
	r.mu.Unlock()
	if c.Exchanges == nil {
		c.Exchanges = []exchange{}
	}
	return writeCassette(path, c)
}

// RoundTrip sends req through the Recorder's transport and records the
// exchange. The response's body is read whole to record it, then given
// back unchanged.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	out := req
	if req.Body != nil && req.Body != http.NoBody {
		data, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		reqBody = data
		out = req.Clone(req.Context())
		out.Body = io.NopCloser(bytes.NewReader(data))
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
		out.ContentLength = int64(len(data))
	}
	resp, err := r.next.RoundTrip(out)
	var respBody []byte
	var readErr error
	if err == nil {
		respBody, readErr = io.ReadAll(io.LimitReader(resp.Body, maxRecordedBody+1))
		if readErr == nil && len(respBody) > maxRecordedBody {
			readErr = errors.New("rxdeliverytest: response body over 32 MiB: not recorded")
		}
		rest := resp.Body
		var tail io.Reader = rest
		if readErr != nil {
			tail = errReader{readErr}
		}
		resp.Body = bodyCloser{io.MultiReader(bytes.NewReader(respBody), tail), rest}
	}
	ep, values := endpointOf(req)
	r.mu.Lock()
	r.exchanges = append(r.exchanges, r.red.exchange(ep, values, req, reqBody, resp, respBody, err, readErr))
	r.mu.Unlock()
	return resp, err
}

// exchange returns one exchange redacted.
func (red *redactor) exchange(ep *core.Endpoint, values []string, req *http.Request, reqBody []byte, resp *http.Response, respBody []byte, err, readErr error) exchange {
	ex := exchange{Method: req.Method, Route: unknownRoute}
	if ep != nil {
		ex.Operation, ex.Route = ep.Name, ep.Route
		ex.Path = red.pathValues(ep.Placeholders(), values)
	}
	ex.Request.Headers = red.headers(http.Header{
		"Authorization": req.Header.Values("Authorization"),
		"Content-Type":  req.Header.Values("Content-Type"),
	})
	ex.Query = red.query(req.URL.Query())
	ex.Request.Body, ex.Request.NotJSON = red.body(reqBody)
	switch {
	case err != nil:
		ex.Error = errTransport
	case resp != nil:
		m := &message{Status: resp.StatusCode, Headers: red.headers(resp.Header)}
		m.Body, m.NotJSON = red.body(respBody)
		if readErr != nil {
			ex.Error = errCutShort
			m.Body, m.NotJSON = nil, 0
		}
		ex.Response = m
	}
	return ex
}

// recheck returns ex with its kept values judged again against every value
// the redactor has replaced so far; placeholders stay as they are.
func (red *redactor) recheck(ex exchange) exchange {
	if len(ex.Path) > 0 {
		path := make(map[string]string, len(ex.Path))
		for k, v := range ex.Path {
			path[k] = red.scalar("", k, v).(string)
		}
		ex.Path = path
	}
	if len(ex.Query) > 0 {
		q := make(map[string][]string, len(ex.Query))
		for k, vs := range ex.Query {
			parent, key, _ := queryKey(k)
			for _, v := range vs {
				q[k] = append(q[k], red.scalar(parent, key, v).(string))
			}
		}
		ex.Query = q
	}
	ex.Request.Body, _ = red.rebody(ex.Request.Body)
	if ex.Response != nil {
		m := *ex.Response
		m.Body, _ = red.rebody(m.Body)
		ex.Response = &m
	}
	return ex
}

// rebody redacts a redacted body again.
func (red *redactor) rebody(body json.RawMessage) (json.RawMessage, int) {
	if len(body) == 0 {
		return body, 0
	}
	return red.body(body)
}

// What an exchange records of a failure, and of a request of no endpoint.
const (
	errTransport = "transport"
	errCutShort  = "body cut short"
	unknownRoute = "<unknown route>"
)

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// bodyCloser reads from r and closes c.
type bodyCloser struct {
	io.Reader
	c io.Closer
}

func (b bodyCloser) Close() error { return b.c.Close() }

// CloseIdleConnections closes the idle connections of the Recorder's
// transport, when it has any (the client's CloseIdleConnections calls it).
func (r *Recorder) CloseIdleConnections() {
	if c, ok := r.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
