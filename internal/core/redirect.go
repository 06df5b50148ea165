package core

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// Redirects. The platform documents none, so the SDK's http.Client follows
// none unless the caller's own client asks for it with a CheckRedirect of
// its own, and never for a write: the 3xx response is returned as it is
// and becomes an *APIError. A hop a caller's client follows is checked by
// the attempt transport (redirectHop).

// checkRedirect returns the CheckRedirect of the SDK's http.Client. A
// redirect is followed only when the caller's own client asks for it with a
// CheckRedirect function of its own, and never for a write: otherwise the
// 3xx response is returned as it is and becomes an *APIError.
func checkRedirect(caller func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if c, _ := req.Context().Value(callKey{}).(*call); caller == nil || (c != nil && c.ep.Write) {
			return http.ErrUseLastResponse
		}
		return callerCheck(caller, req, via)
	}
}

// callerCheck runs the caller's CheckRedirect. When it panics or ends its
// goroutine, net/http drops the previous hop's response unclosed, with its
// connection: it is closed here first (drained a little, so the connection
// goes back to the pool), and the panic goes on.
func callerCheck(caller func(*http.Request, []*http.Request) error, req *http.Request, via []*http.Request) error {
	returned := false
	defer func() {
		if !returned && req.Response != nil && req.Response.Body != nil {
			closeBody(req.Response.Body)
		}
	}()
	err := caller(req, via)
	returned = true
	if err == nil || err == http.ErrUseLastResponse {
		// net/http compares ErrUseLastResponse by identity.
		return err
	}
	return &redirectRefusedError{err: err}
}

// redirectRefusedError is a refusal of the caller's CheckRedirect (such as
// net/http's "stopped after 10 redirects"), marked so that the retry
// policy knows it without reading its words, which are the caller's. It
// reads and unwraps as the caller's error.
type redirectRefusedError struct{ err error }

func (e *redirectRefusedError) Error() string { return e.err.Error() }
func (e *redirectRefusedError) Unwrap() error { return e.err }

// isRedirectRefusal reports whether err is a redirect hop refused by the
// caller's CheckRedirect or by the guard (redirectHop).
func isRedirectRefusal(err error) bool {
	var r *redirectRefusedError
	return errors.As(err, &r) || errors.Is(err, errWriteRedirect) || errors.Is(err, errPlainRedirect)
}

// Errors of the guard. They reach the caller as the cause of a
// *TransportError.
var (
	errWriteRedirect = errors.New("a write is never sent to a redirect's target")
	errPlainRedirect = errors.New("refused to follow a redirect to plain http on a host that is not loopback")
)

// redirectHop checks one redirect hop: a write is refused, so is plain http
// to a host that is not loopback, and the credentials and the Referer are
// removed when the hop leaves the origin (scheme, host and port) of the
// call's first request.
func redirectHop(req *http.Request, write bool) (*http.Request, error) {
	if write {
		return nil, errWriteRedirect
	}
	if req.URL.Scheme != "https" && !isLoopback(req.URL.Hostname()) {
		return nil, errPlainRedirect
	}
	first := req
	for first.Response != nil && first.Response.Request != nil {
		first = first.Response.Request
	}
	if sameOrigin(req.URL, first.URL) {
		return req, nil
	}
	// Leaving the origin: no credentials, and no Referer, which net/http
	// sets to the previous URL, query string (patient data) included.
	r := *req
	r.Header = req.Header.Clone()
	r.Header.Del("Authorization")
	r.Header.Del("Referer")
	return &r, nil
}

// sameOrigin reports whether a and b have the same scheme, host and port
// (the default port of the scheme when none is written).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) &&
		portOf(a) == portOf(b)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}
