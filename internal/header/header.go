// Package header holds the rules for the headers a caller gives the SDK
// (WithHeader, WithUserAgent, an attempt hook's SetHeader): which can be
// sent at all, and which the SDK or the transport sets itself.
package header

import (
	"strconv"
	"strings"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Valid reports whether key and value can be sent as a header:
// the name a token, the value without control characters other than tab.
// These are the rules net/http applies before sending a request
// (httpguts.ValidHeaderFieldName and ValidHeaderFieldValue); checking
// them where a header is given turns a request net/http would refuse
// into a refusal that names the option.
func Valid(key, value string) bool {
	return ValidName(key) && ValidValue(value)
}

// ValidName reports whether key is a token (RFC 9110), the only
// form a header's name may take.
func ValidName(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"(),/:;<=>?@[\\]{}", c) >= 0 {
			return false
		}
	}
	return true
}

// ValidValue reports whether value may be sent as a header's value:
// no control character (a line break, NUL) other than tab.
func ValidValue(value string) bool {
	for i := 0; i < len(value); i++ {
		if c := value[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// Error returns the refusal of a header that cannot be sent, given
// by what (an option's name), or nil when key and value are valid. The
// message never quotes the value, which may be a credential, and quotes
// the name only when it is a valid name (a name that is not may hold a
// value pasted into it, such as "Authorization: Bearer ...").
func Error(what, key, value string) error {
	switch {
	case !ValidName(key):
		return &rxtypes.ConfigError{Message: what + ": a header name must be a token (letters, digits and !#$%&'*+-.^_`|~, not empty, no space or colon)"}
	case !ValidValue(value):
		return &rxtypes.ConfigError{Message: what + ": the value of the header " + strconv.Quote(key) + " has a line break or another control character"}
	}
	return nil
}

// Owned reports whether the SDK or the transport sets the header
// key itself, so that an extra header may not replace it: the
// credentials, the content negotiation, the body's type and length, and
// the connection-level headers that HTTP/2 forbids (Connection,
// Keep-Alive, Proxy-Connection, Transfer-Encoding, Upgrade, TE, Trailer).
// key is in canonical form.
func Owned(key string) bool {
	switch key {
	case "Authorization", "Accept", "Content-Type", "Content-Length", "Host", "User-Agent",
		"Proxy-Authorization", "Cookie", "Transfer-Encoding", "Connection",
		"Keep-Alive", "Proxy-Connection", "Upgrade", "Te", "Trailer":
		return true
	}
	return false
}
