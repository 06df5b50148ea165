package tracking

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// The platform signs no notification, so a listener knows the platform by
// its URL alone: an unguessable token as the URL's last path segment, given
// to Subscribe and required by the handler.

// WithPathToken makes the handler require one of tokens as the last
// segment of the request's path (https://pharmacy.example/hooks/tracking/TOKEN):
// the current token, and while a token is rotated the one before it (give
// both until every subscription has been updated with the new URL). Any
// other request gets 404, as if nothing were there: its body is not read
// and it is not logged. Tokens are compared in constant time and never
// logged. Empty tokens are ignored; with none left, every request gets 404.
// [NewListenerURL] makes a URL with a fresh token.
func WithPathToken(tokens ...string) HandlerOption {
	return func(h *Handler) {
		h.tokens = [][]byte{}
		for _, t := range tokens {
			if t != "" {
				h.tokens = append(h.tokens, []byte(t))
			}
		}
	}
}

// tokenMatches reports whether the last segment of r's path is one of the
// handler's tokens. Every token is compared, so the time taken does not
// tell which one matched.
func (h *Handler) tokenMatches(r *http.Request) bool {
	p := r.URL.EscapedPath()
	seg, err := url.PathUnescape(p[strings.LastIndexByte(p, '/')+1:])
	if err != nil {
		return false
	}
	ok := 0
	for _, t := range h.tokens {
		ok |= subtle.ConstantTimeCompare([]byte(seg), t)
	}
	return ok == 1
}

// NewListenerURL returns base (an https URL, such as
// "https://pharmacy.example/hooks/tracking") with a fresh unguessable token
// (32 random bytes, base64url) appended as its last path segment, and the
// token: subscribe with the URL (SubscribeParams.ListenerURL), serve it
// with NewHandler(fn, WithPathToken(token)), and keep the token as a
// secret. The handler never logs the path, but anything else that logs
// request paths records the token: a reverse proxy's access log (log the
// listener's location without the request line) or a middleware that
// logs r.URL.
func NewListenerURL(base string) (listenerURL, token string, err error) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return "", "", errors.New("tracking: the listener base must be an absolute http(s) URL")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", "", errors.New("tracking: the listener base must not carry a query or a fragment")
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", "", err
	}
	token = base64.RawURLEncoding.EncodeToString(b[:])
	return strings.TrimRight(u.String(), "/") + "/" + token, token, nil
}
