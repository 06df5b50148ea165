package rxdeliverytest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
)

// Replayer answers a client's requests from a cassette, without network or
// credentials: an [http.RoundTripper] that never dials. Each request is
// redacted as the [Recorder] redacted the recorded ones, then compared with
// the next exchange of its operation not yet replayed (in the order they
// were recorded, per operation); when they agree, the recorded response is
// the answer. Because the comparison is of redacted forms, a request that
// carries other patient values than the recorded one in the same places
// matches, while a change of an identifier, a status, an amount, a count,
// the shape of the body, or of which fields hold the same value, does not.
//
// Replay is strict: a request that matches nothing fails (the call gets a
// transport error) and, with [Replay], fails the test, with a message that
// names the operation, the first differing JSON path and the kind of
// difference, and never a value. An exchange left unreplayed when the test
// ends fails it too. A Replayer is safe for concurrent use.
type Replayer struct {
	name string
	tb   testing.TB

	mu     sync.Mutex
	c      *cassette
	byOp   map[string][]int
	next   map[string]int
	red    *redactor
	errs   []error
	client *rxdelivery.Client
	// bound ties each recorded placeholder to the live placeholder that
	// stood in its place, and back: the same recorded value must be the
	// same live value all along the replay.
	bound, boundBack map[string]string
}

// Replay returns a [Replayer] of the cassette at path for a test. It fails
// the test at once when the cassette cannot be read or is of another
// version (saying how to record it again), fails it for every request that
// matches no recorded exchange, and, when the test ends, for the exchanges
// left unreplayed.
func Replay(tb testing.TB, path string) *Replayer {
	tb.Helper()
	p, err := NewReplayer(path)
	if err != nil {
		tb.Fatalf("rxdeliverytest: %v", err)
	}
	p.tb = tb
	tb.Cleanup(func() {
		if err := p.unused(); err != nil {
			tb.Errorf("rxdeliverytest: %v", err)
		}
		p.mu.Lock()
		c := p.client
		p.mu.Unlock()
		if c != nil {
			c.CloseIdleConnections()
		}
	})
	return p
}

// NewReplayer returns a [Replayer] of the cassette at path, for code that
// has no [testing.TB] (an Example, a program): Err reports what did not
// match. It fails when the cassette cannot be read or is of another
// version than [CassetteVersion].
func NewReplayer(path string) (*Replayer, error) {
	c, err := loadCassette(path)
	if err != nil {
		return nil, err
	}
	p := &Replayer{name: filepath.Base(path), c: c, byOp: map[string][]int{}, next: map[string]int{}, red: newRedactor(),
		bound: map[string]string{}, boundBack: map[string]string{}}
	p.red.live = true
	for i, ex := range c.Exchanges {
		p.byOp[ex.Operation] = append(p.byOp[ex.Operation], i)
	}
	return p, nil
}

// replayBase is the base URL of each interface of a replaying client: a
// name that no resolver answers, as nothing is dialled.
const replayBase = "https://replay.invalid"

// ClientOptions returns the options that make a client answer from the
// cassette: the four base URLs (on a host that is never dialled), an HTTP
// client whose transport is the Replayer, the attempt hook that names each
// attempt's operation to it, sandbox mode, retry waits of a millisecond,
// and a clock on which the watches' waits do not sleep.
func (p *Replayer) ClientOptions() []rxdelivery.Option {
	return []rxdelivery.Option{
		rxdelivery.WithOmniURL(replayBase + "/omni"),
		rxdelivery.WithDeliveryURL(replayBase + "/delivery"),
		rxdelivery.WithTrackingURL(replayBase + "/tracking"),
		rxdelivery.WithPricingURL(replayBase + "/pricing"),
		rxdelivery.WithSandbox(true),
		rxdelivery.WithRetryWaitMin(time.Millisecond),
		rxdelivery.WithRetryWaitMax(time.Millisecond),
		rxdelivery.WithClock(&replayClock{now: DefaultStart}),
		rxdelivery.WithHTTPClient(&http.Client{Transport: p}),
		rxdelivery.WithMiddleware(operationMiddleware),
	}
}

// Client returns a client answering from the cassette (see
// [Replayer.ClientOptions]), with placeholder credentials; every call
// returns the same client.
func (p *Replayer) Client() *rxdelivery.Client {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.client == nil {
		c, err := p.newClient()
		if err != nil {
			panic("rxdeliverytest: " + err.Error())
		}
		p.client = c
	}
	return p.client
}

// NewClient returns a further client answering from the cassette, built
// as [Replayer.Client]'s and then with opts.
func (p *Replayer) NewClient(opts ...rxdelivery.Option) (*rxdelivery.Client, error) {
	return p.newClient(opts...)
}

func (p *Replayer) newClient(opts ...rxdelivery.Option) (*rxdelivery.Client, error) {
	return rxdelivery.NewClient("replay_key", "replay_secret", append(p.ClientOptions(), opts...)...)
}

// Err returns what did not match so far: each request no recorded exchange
// answered, and each operation with exchanges not yet replayed; nil when
// every request matched and every exchange was replayed.
func (p *Replayer) Err() error {
	p.mu.Lock()
	errs := append([]error{}, p.errs...)
	p.mu.Unlock()
	if err := p.unused(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// unused reports the operations whose exchanges were not all replayed.
func (p *Replayer) unused() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var parts []string
	for op, idx := range p.byOp {
		if n := len(idx) - p.next[op]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s: %d of %d not replayed", opName(op), n, len(idx)))
		}
	}
	if len(parts) == 0 {
		return nil
	}
	sort.Strings(parts)
	return fmt.Errorf("cassette %s has exchanges the test did not make (%s); if the code's calls changed on purpose, %s", p.name, strings.Join(parts, ", "), rerecordHint)
}

func opName(op string) string {
	if op == "" {
		return "<no operation>"
	}
	return op
}

// ReplayMismatchError is the error of a request that no recorded exchange
// of the cassette answers. It names where the request first differs from
// the exchange it was compared with, never a value.
type ReplayMismatchError struct {
	// Operation is the request's operation, such as "orders.Create".
	Operation string
	// Exchange is the number of the operation's exchange it was compared
	// with (1 for the first recorded); 0 when none was left.
	Exchange int
	// Path is the first differing part: "request.body.dropoff.name",
	// "request.query.ids[]", "request.path.id"; "" when none was left.
	Path string
	// Kind is the kind of difference: "different value", "different
	// type", "different number of elements", "different number of hidden
	// keys", "recorded but not sent",
	// "sent but not recorded", or "no recorded exchange left".
	Kind string
	// Cassette is the cassette file's name.
	Cassette string
}

// Error says where the request differs, never a value: "replay of
// cassette flow.json: orders.Create (its exchange 1):
// request.body.patient.last_name: different value".
func (e *ReplayMismatchError) Error() string {
	if e.Exchange == 0 {
		return fmt.Sprintf("replay of cassette %s: %s: %s", e.Cassette, opName(e.Operation), e.Kind)
	}
	return fmt.Sprintf("replay of cassette %s: %s (its exchange %d): %s: %s", e.Cassette, opName(e.Operation), e.Exchange, e.Path, e.Kind)
}

// RoundTrip answers req from the cassette, or fails with a
// *[ReplayMismatchError].
func (p *Replayer) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil && req.Body != http.NoBody {
		data, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		reqBody = data
	}
	ep, values := endpointOf(req)
	p.mu.Lock()
	live := p.red.exchange(ep, values, req, reqBody, nil, nil, nil, nil)
	ex, err := p.match(live)
	if err != nil {
		p.errs = append(p.errs, err)
		p.mu.Unlock()
		if p.tb != nil {
			p.tb.Errorf("rxdeliverytest: %v", err)
		}
		return nil, err
	}
	if ex.Response != nil {
		p.red.noteAll(ex.Response.Body)
	}
	p.mu.Unlock()
	return answer(req, ex)
}

// match returns the next exchange of live's operation when live's request
// agrees with it, and consumes it. It runs under p.mu.
func (p *Replayer) match(live exchange) (exchange, error) {
	op := live.Operation
	idx := p.byOp[op]
	n := p.next[op]
	if n >= len(idx) {
		return exchange{}, &ReplayMismatchError{Operation: op, Kind: "no recorded exchange left (" + strconv.Itoa(len(idx)) + " recorded)", Cassette: p.name}
	}
	rec := p.c.Exchanges[idx[n]]
	b := &binder{bound: p.bound, back: p.boundBack, add: map[string]string{}, addBack: map[string]string{}}
	path, kind := b.requests(rec, live)
	if kind != "" {
		return exchange{}, &ReplayMismatchError{Operation: op, Exchange: n + 1, Path: path, Kind: kind, Cassette: p.name}
	}
	for k, v := range b.add {
		p.bound[k], p.boundBack[v] = v, k
	}
	p.next[op] = n + 1
	return rec, nil
}

// binder compares a live request with a recorded one, binding each live
// placeholder (a value of the live request's own) to the recorded
// placeholder in its place: a binding already made (bound, back) must
// hold, and those the comparison makes (add, addBack) are kept only when
// the whole request matches.
type binder struct {
	bound, back, add, addBack map[string]string
}

// bind reports whether the live placeholder l may stand where the
// recorded placeholder r was.
func (b *binder) bind(r, l string) bool {
	for _, m := range []map[string]string{b.bound, b.add} {
		if x, ok := m[r]; ok && x != l {
			return false
		}
	}
	for _, m := range []map[string]string{b.back, b.addBack} {
		if x, ok := m[l]; ok && x != r {
			return false
		}
	}
	b.add[r], b.addBack[l] = l, r
	return true
}

// diffRequests returns the first difference of the requests of two
// exchanges: the method, the path values, the query, the body.
func (b *binder) requests(rec, live exchange) (string, string) {
	if rec.Method != live.Method {
		return "request.method", "different value"
	}
	if p, k := b.diffJSON("request.path", toJSON(rec.Path), toJSON(live.Path)); k != "" {
		return p, k
	}
	if p, k := b.diffJSON("request.query", toJSON(rec.Query), toJSON(live.Query)); k != "" {
		return p, k
	}
	if (rec.Request.NotJSON == 0) != (live.Request.NotJSON == 0) {
		return "request.body", "different type"
	}
	return b.diffJSON("request.body", rawJSON(rec.Request.Body), rawJSON(live.Request.Body))
}

// toJSON returns v as decoded JSON (maps, lists, strings, json.Number).
func toJSON(v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return rawJSON(data)
}

func rawJSON(data []byte) any {
	if len(data) == 0 {
		return nil
	}
	v, err := decodeJSON(data)
	if err != nil {
		return nil
	}
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			return nil
		}
	}
	return v
}

// diffJSON returns the first path at which live differs from rec, in key
// order, and the kind of difference; "" when they agree.
func (b *binder) diffJSON(path string, rec, live any) (string, string) {
	switch r := rec.(type) {
	case map[string]any:
		l, ok := live.(map[string]any)
		if !ok {
			return path, kindOf(live, "different type")
		}
		// Keys that are placeholders (a key the cassette hid) are paired in
		// order, the live one bound to the recorded one as values are.
		var rh, lh []string
		keys := make([]string, 0, len(r)+len(l))
		for k := range r {
			if placeholderForm.MatchString(k) {
				rh = append(rh, k)
				continue
			}
			keys = append(keys, k)
		}
		for k := range l {
			if strings.HasPrefix(k, "<"+livePrefix) {
				lh = append(lh, k)
				continue
			}
			if _, ok := r[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		sort.Strings(rh)
		sort.Strings(lh)
		if len(rh) != len(lh) {
			return path + ".<key>", "different number of hidden keys"
		}
		for i := range rh {
			if !b.bind(rh[i], lh[i]) {
				return path + ".<key>", "different value"
			}
			if p, kind := b.diffJSON(path+".<key>", r[rh[i]], l[lh[i]]); kind != "" {
				return p, kind
			}
		}
		for _, k := range keys {
			rv, rok := r[k]
			lv, lok := l[k]
			sub := path + "." + k
			if placeholderForm.MatchString(k) {
				// A recorded placeholder the live request sent back as a
				// key, as it was given it.
				sub = path + ".<key>"
			}
			switch {
			case !lok:
				return sub, "recorded but not sent"
			case !rok:
				return sub, "sent but not recorded"
			}
			if p, kind := b.diffJSON(sub, rv, lv); kind != "" {
				return p, kind
			}
		}
		return "", ""
	case []any:
		l, ok := live.([]any)
		if !ok {
			return path, kindOf(live, "different type")
		}
		for i := 0; i < len(r) && i < len(l); i++ {
			if p, kind := b.diffJSON(path+"["+strconv.Itoa(i)+"]", r[i], l[i]); kind != "" {
				return p, kind
			}
		}
		if len(r) != len(l) {
			return path, "different number of elements"
		}
		return "", ""
	case nil:
		if live == nil {
			return "", ""
		}
		return path, "sent but not recorded"
	}
	if live == nil {
		return path, "recorded but not sent"
	}
	if fmt.Sprintf("%T", rec) != fmt.Sprintf("%T", live) {
		return path, "different type"
	}
	if rs, ok := rec.(string); ok && placeholderForm.MatchString(rs) {
		if ls := live.(string); strings.HasPrefix(ls, "<"+livePrefix) {
			if b.bind(rs, ls) {
				return "", ""
			}
			return path, "different value"
		}
	}
	if rec != live {
		return path, "different value"
	}
	return "", ""
}

func kindOf(live any, kind string) string {
	if live == nil {
		return "recorded but not sent"
	}
	return kind
}

// answer returns the recorded response of ex to req.
func answer(req *http.Request, ex exchange) (*http.Response, error) {
	if ex.Response == nil {
		return nil, errors.New("rxdeliverytest: replayed transport failure (as recorded)")
	}
	h := http.Header{}
	for k, v := range ex.Response.Headers {
		h.Set(k, v)
	}
	var body io.Reader = bytes.NewReader(ex.Response.Body)
	n := int64(len(ex.Response.Body))
	if ex.Error != "" {
		body, n = io.MultiReader(body, errReader{io.ErrUnexpectedEOF}), -1
	}
	return &http.Response{
		Status:        strconv.Itoa(ex.Response.Status) + " " + http.StatusText(ex.Response.Status),
		StatusCode:    ex.Response.Status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(body),
		ContentLength: n,
		Request:       req,
	}, nil
}

// replayClock is the clock of a replaying client: a wait moves it forward
// and returns at once.
type replayClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *replayClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *replayClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	if d > 0 {
		c.now = c.now.Add(d)
	}
	c.mu.Unlock()
	return ctx.Err()
}

// Recording reports whether [RecordEnv] (RXDELIVERY_RECORD) asks tests to
// record their cassettes again: "1" or "true".
func Recording() bool {
	v := strings.ToLower(strings.TrimSpace(os.Getenv(RecordEnv)))
	return v == "1" || v == "true"
}

// UseCassette returns a client for a test that answers from the cassette
// at path ([Replay]), or, when [Recording], a client that records into it
// ([Record]): against the environment the RXDELIVERY_* variables name when
// RXDELIVERY_OMNI_URL or RXDELIVERY_DELIVERY_URL is set (a staging
// environment, or rxdelivery sandbox with its env file sourced), else
// against a simulator started for the test. opts apply to the client in
// both modes. Re-recording a test's cassette is one command:
//
//	RXDELIVERY_RECORD=1 go test -run TestX ./yourpkg
func UseCassette(tb testing.TB, path string, opts ...rxdelivery.Option) *rxdelivery.Client {
	tb.Helper()
	if !Recording() {
		c, err := Replay(tb, path).NewClient(opts...)
		if err != nil {
			tb.Fatalf("rxdeliverytest: %v", err)
		}
		return c
	}
	rec := Record(tb, path)
	all := append(append([]rxdelivery.Option{}, opts...), rec.ClientOptions()...)
	if os.Getenv(rxdelivery.EnvOmniURL) != "" || os.Getenv(rxdelivery.EnvDeliveryURL) != "" {
		c, err := rxdelivery.NewClientFromEnv(all...)
		if err != nil {
			tb.Fatalf("rxdeliverytest: %v", err)
		}
		tb.Cleanup(c.CloseIdleConnections)
		return c
	}
	srv := Start(tb)
	c, err := srv.NewClient(all...)
	if err != nil {
		tb.Fatalf("rxdeliverytest: %v", err)
	}
	return c
}
