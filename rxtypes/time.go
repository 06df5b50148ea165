package rxtypes

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
)

// Time is a timestamp decoded tolerantly from the platform's responses.
//
// The platform writes ISO 8601 timestamps in several precisions; Time parses
// every common form that names its offset (Z, +00:00, -0400, or GMT in the
// HTTP date form). When a value does not parse, the call does not fail:
// Time keeps the text in Raw and leaves Time zero, so no response is lost to
// one odd timestamp. A timestamp without an offset ("2024-05-16 09:00:00")
// or with a zone name whose offset the text does not give ("... EDT") is
// such a value: it names no instant, and reading it as UTC would put it
// hours off, so it is kept in Raw only.
type Time struct {
	// Time is the parsed instant; zero when the text did not parse.
	time.Time
	// Raw is the text exactly as the platform sent it.
	Raw string
}

// layouts are tried in order when decoding a timestamp. Each one requires
// an offset: a text without one names no instant.
var layouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z0700",
	"2006-01-02 15:04:05.999999999 -0700",
	"2006-01-02 15:04:05.999999999 -0700 MST",
	time.RFC1123Z,
	time.RFC1123,
}

// ParseTime parses s with the layouts the platform is known to use, each
// of which carries an offset. It reports false when none fits, and for a
// text without an offset or with a zone name other than GMT or UTC and no
// numeric offset: [time.Parse] would read those as UTC.
func ParseTime(s string) (time.Time, bool) {
	for _, l := range layouts {
		t, err := time.Parse(l, s)
		if err != nil {
			continue
		}
		if l == time.RFC1123 {
			if name, _ := t.Zone(); name != "GMT" && name != "UTC" && name != "UT" {
				return time.Time{}, false
			}
		}
		return t, true
	}
	return time.Time{}, false
}

// NewTime returns a [Time] for t, with Raw in RFC 3339 form.
func NewTime(t time.Time) Time {
	return Time{Time: t, Raw: t.Format(time.RFC3339Nano)}
}

// IsZero reports whether neither an instant nor a text is held.
func (t Time) IsZero() bool { return t.Time.IsZero() && t.Raw == "" }

// Valid reports whether the text parsed into an instant.
func (t Time) Valid() bool { return !t.Time.IsZero() }

// String returns the raw text when there is one, else the instant in RFC 3339.
func (t Time) String() string {
	if t.Raw != "" {
		return t.Raw
	}
	if t.Time.IsZero() {
		return ""
	}
	return t.Time.Format(time.RFC3339Nano)
}

// MarshalJSON writes the raw text when there is one (so a decoded value
// round-trips unchanged), else the instant in RFC 3339, else null.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	// encoding/json, not strconv.Quote: a raw text kept from a response
	// may hold bytes that only JSON's escaping writes back validly.
	return json.Marshal(t.String())
}

// UnmarshalJSON reads a JSON string. It never fails on a string that is not
// a timestamp: the text is kept in Raw. JSON null leaves t unchanged; a value
// that is not a string is kept verbatim in Raw.
func (t *Time) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	s, ok := jsonx.Unquote(b)
	if !ok {
		*t = Time{Raw: string(b)}
		return nil
	}
	parsed, _ := ParseTime(s)
	*t = Time{Time: parsed, Raw: s}
	return nil
}
