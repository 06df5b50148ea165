//go:build conformance

package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
)

// ConformanceEnv names the directory where a simulator built with the
// conformance tag writes every exchange it serves, one JSON object a line,
// one file per process; .ci/conformance.sh then validates each one against
// the OpenAPI documents in api/ (internal/conformance). The files hold the
// requests' bodies as sent: they are CI scratch files, never kept.
const ConformanceEnv = "RXDELIVERY_CONFORMANCE_DIR"

// Exchange is one request the simulator served and its response, as the
// conformance record holds it.
type Exchange struct {
	Method         string      `json:"method"`
	Path           string      `json:"path"`
	RawQuery       string      `json:"raw_query"`
	RequestHeader  http.Header `json:"request_header"`
	RequestBody    []byte      `json:"request_body"`
	Status         int         `json:"status"`
	ResponseHeader http.Header `json:"response_header"`
	ResponseBody   []byte      `json:"response_body"`
	// Fault is the kind of the fault the simulator planted in the answer
	// ("malformed", ...), empty for an answer of its own: a planted
	// answer breaks the documents on purpose.
	Fault string `json:"fault,omitempty"`
	// Webhook names the document's webhook when the exchange is a
	// notification the simulator sent (the request is the simulator's, the
	// response the listener's); Path and RawQuery are then empty.
	Webhook string `json:"webhook,omitempty"`
}

var conformanceOut struct {
	once sync.Once
	mu   sync.Mutex
	f    *os.File
}

func conformanceFile() *os.File {
	c := &conformanceOut
	c.once.Do(func() {
		dir := os.Getenv(ConformanceEnv)
		if dir == "" {
			return
		}
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("exchanges-%d.jsonl", os.Getpid())), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			panic("conformance record: " + err.Error())
		}
		c.f = f
	})
	return c.f
}

// recordSink returns the function that appends one line to the record, or
// nil when ConformanceEnv is unset.
func recordSink() func([]byte) {
	f := conformanceFile()
	if f == nil {
		return nil
	}
	return func(line []byte) {
		c := &conformanceOut
		c.mu.Lock()
		defer c.mu.Unlock()
		_, _ = f.Write(line)
	}
}

// Observe wraps h so that each exchange it serves is recorded in the
// directory ConformanceEnv names (nothing is recorded when it is unset).
func Observe(h http.Handler) http.Handler { return observe(h, recordSink) }

// observeNotification records a notification the simulator posted to a
// listener (the webhook trackingNotification) and the listener's answer,
// for the check against the webhook's schema. The listener's URL is left
// out: it may carry a token.
func observeNotification(req *http.Request, body []byte, status int) {
	write := recordSink()
	if write == nil {
		return
	}
	line, err := json.Marshal(Exchange{
		Method: req.Method, Webhook: "trackingNotification",
		RequestHeader: req.Header.Clone(), RequestBody: body, Status: status,
	})
	if err != nil {
		return
	}
	write(append(line, '\n'))
}

// observe wraps h so that each exchange it serves is passed, as one JSON
// line, to the function sink gives (nothing is recorded when it gives nil).
func observe(h http.Handler, sink func() func([]byte)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		write := sink()
		if write == nil {
			h.ServeHTTP(w, r)
			return
		}
		var body []byte
		if r.Body != nil {
			body, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		note := &faultNote{}
		r = r.WithContext(context.WithValue(r.Context(), faultNoteKey{}, note))
		tw := &teeWriter{ResponseWriter: w}
		h.ServeHTTP(tw, r)
		if tw.status == 0 {
			return // hijacked (a cut or dropped connection): no response to check
		}

		line, err := json.Marshal(Exchange{
			Method: r.Method, Path: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery,
			RequestHeader: r.Header.Clone(), RequestBody: body,
			Status: tw.status, ResponseHeader: w.Header().Clone(), ResponseBody: tw.body.Bytes(),
			Fault: note.get(),
		})
		if err != nil {
			return
		}
		write(append(line, '\n'))
	})
}

// faultNoteKey is the context key of an exchange's faultNote.
type faultNoteKey struct{}

// faultNote holds the kind of the fault planted in an exchange's answer.
type faultNote struct {
	mu   sync.Mutex
	kind string
}

func (n *faultNote) get() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.kind
}

// noteFault marks the exchange of r, when it is recorded, as answered by a
// planted fault of kind k.
func noteFault(r *http.Request, k FaultKind) {
	if n, ok := r.Context().Value(faultNoteKey{}).(*faultNote); ok {
		n.mu.Lock()
		n.kind = k.String()
		n.mu.Unlock()
	}
}

// teeWriter passes a response through and keeps its status and body; Unwrap
// lets http.ResponseController reach the connection as before.
type teeWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (t *teeWriter) WriteHeader(code int) {
	if t.status == 0 {
		t.status = code
	}
	t.ResponseWriter.WriteHeader(code)
}

func (t *teeWriter) Write(p []byte) (int, error) {
	if t.status == 0 {
		t.status = http.StatusOK
	}
	t.body.Write(p)
	return t.ResponseWriter.Write(p)
}

func (t *teeWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }
