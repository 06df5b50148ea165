package rxdeliverytest

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
)

// listenerHostSuffix ends the host of every in-process listener URL. The
// .invalid top-level domain never resolves, so such a URL cannot reach a
// network by mistake.
const listenerHostSuffix = ".rxdeliverytest.invalid"

// listenerTransport posts notifications to in-process handlers by host, and
// to any other URL over the network with next.
type listenerTransport struct {
	mu       sync.Mutex
	handlers map[string]http.Handler
	next     *http.Client
}

func newListenerTransport(next *http.Client) *listenerTransport {
	if next == nil {
		next = &http.Client{}
	}
	return &listenerTransport{handlers: map[string]http.Handler{}, next: next}
}

// RoundTrip serves a request with the handler registered for its host, as
// a server would hand it over (TLS state set, since the URL is https), or
// sends it with the next client.
func (t *listenerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.mu.Lock()
	h := t.handlers[req.URL.Host]
	t.mu.Unlock()
	if h == nil {
		return t.next.Do(req)
	}
	in := req.Clone(req.Context())
	in.RequestURI = req.URL.RequestURI()
	in.RemoteAddr = "192.0.2.1:443"
	in.TLS = &tls.ConnectionState{Version: tls.VersionTLS13, HandshakeComplete: true, ServerName: req.URL.Hostname()}
	if in.Body == nil {
		in.Body = http.NoBody
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, in)
	res := rec.Result()
	res.Request = req
	return res, nil
}

func (t *listenerTransport) add(h http.Handler) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	host := fmt.Sprintf("listener-%d%s", len(t.handlers)+1, listenerHostSuffix)
	t.handlers[host] = h
	return "https://" + host + "/notifications"
}

func (t *listenerTransport) closeIdle() { t.next.CloseIdleConnections() }

// Listener registers h as a tracking notification listener inside the test
// and returns its URL, an https URL that never reaches a network: the
// simulator calls h directly, as a server would (a POST to the URL's path,
// r.TLS set), with no certificate, port or goroutine involved. Subscribe a
// tracking number with this URL; every notification for it then runs h
// before [Server.Track] or [Server.Advance] returns, on the goroutine that
// called them (so h must not wait for that goroutine). The response h
// writes is what the simulator sees (any response keeps the subscription
// enabled).
func (s *Server) Listener(h http.Handler) string {
	if h == nil {
		panic("rxdeliverytest: Listener needs a non-nil handler")
	}
	return s.listeners.add(h)
}
