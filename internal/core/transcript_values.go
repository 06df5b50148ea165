package core

import (
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/rxdelivery/rxdelivery-go/internal/fields"
)

// What a transcript shows of each value of a body: its field's kind
// decides (internal/fields), and every value not known safe is a
// placeholder of its JSON type.

// showValue returns v, the value of the field key inside the object under
// the key parent, as the transcript shows it. The fields of an object are
// judged under its key; the elements of a list under the list's own key
// and parent, as if each stood in its place.
func (c *call) showValue(parent, key string, v any, response bool) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(x))
		hidden := 0
		for _, k := range keys {
			name := k
			if response && !c.showsKey(k) {
				hidden++
				name = "<key " + lengthClass(len(k)) + " #" + strconv.Itoa(hidden) + ">"
			}
			out[name] = c.showValue(key, k, x[k], response)
		}
		return out
	case []any:
		for i := range x {
			x[i] = c.showValue(parent, key, x[i], response)
		}
		return x
	}
	kind := fields.OfIn(parent, key)
	if response && parent == "error" {
		// The error object's words, as the call's APIError shows them: its
		// id only when the call's path names it, its type and code as
		// documented words.
		if x, ok := v.(string); ok {
			switch key {
			case "id":
				if id := c.scrubber().id(x); id != "" || x == "" {
					return id
				}
				return Redacted
			case "type", "code":
				return c.scrubber().code(x)
			}
		}
	}
	if !response {
		// A request body: the SDK's own encoding of the caller's params.
		switch x := v.(type) {
		case string:
			return stringPlaceholder(x)
		case json.Number:
			return json.Number(maskDigits(x.String()))
		case bool:
			if kind != fields.Flag {
				return "<bool>"
			}
		}
		return v
	}
	return c.showScalar(kind, v)
}

// showScalar returns a response's scalar v, of a field of kind, as the
// transcript shows it. A value of a safe kind is shown only in that kind's
// form, and only when it is not a value the call sent or a credential:
//   - ID: one token of at most 64 letters, digits and . _ : - (an id the
//     call named in its path or its ids[] query is shown though sent);
//   - Enum and Carrier: fields.Documented (every word of it is a word of a
//     documented value), so a name put in "status" is not shown;
//   - Time: an ISO 8601 timestamp with a time of day (a bare date could be
//     a date of birth);
//   - Money and Count: a decimal number of at most 7 digits, without an
//     exponent (a phone number or a date written as a number is longer);
//   - Flag: true or false.
//
// A Message (an error's message) is the scrubber's text of it. Every other
// value is a placeholder: "<string 5-16>" for a string, its digits masked
// for a number, "<bool>" for a boolean; null stays.
func (c *call) showScalar(kind fields.Kind, v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case bool:
		if kind == fields.Flag {
			return x
		}
		return "<bool>"
	case json.Number:
		s := x.String()
		switch kind {
		case fields.Money, fields.Count:
			if fields.SmallDecimal(s) && c.unsent(s) {
				return x
			}
		case fields.ID:
			if c.showsID(s) {
				return x
			}
		}
		return json.Number(maskDigits(s))
	case string:
		switch kind {
		case fields.ID:
			if c.showsID(x) {
				return x
			}
		case fields.Enum, fields.Carrier:
			if fields.Documented(x) {
				return x
			}
		case fields.Time:
			if fields.TimestampForm.MatchString(x) && c.unsent(x) {
				return x
			}
		case fields.Money, fields.Count:
			if fields.SmallDecimal(x) && c.unsent(x) {
				return x
			}
		case fields.Flag:
			if x == "true" || x == "false" {
				return x
			}
		case fields.Message:
			return c.scrubber().scrub(x)
		}
		return stringPlaceholder(x)
	}
	return "<value>"
}

// stringPlaceholder stands for a string of s's length class.
func stringPlaceholder(s string) string { return "<string " + lengthClass(len(s)) + ">" }

// unsent reports whether s holds no value the call sent and no credential.
func (c *call) unsent(s string) bool { return c.scrubber().sent(s) == s }

// showsID reports whether s is shown as an identifier: of fields.IDForm, and
// either not a value the call sent or one it named in its shown path or
// its ids[] query (a get-many's ids come back in its answer).
func (c *call) showsID(s string) bool {
	if !fields.IDForm.MatchString(s) {
		return false
	}
	if c.unsent(s) {
		return true
	}
	for _, seg := range strings.Split(c.shown, "/") {
		if seg == s && c.b.secretFree(s) {
			return true
		}
	}
	if c.query != "" {
		if q, err := url.ParseQuery(c.query); err == nil {
			for _, id := range q["ids[]"] {
				if id == s && c.b.secretFree(s) {
					return true
				}
			}
		}
	}
	return false
}

// showsKey reports whether a response's key is shown: a name the table
// holds, or one written like a field name that is no value the call sent.
func (c *call) showsKey(k string) bool {
	if fields.Known(k) {
		return true
	}
	return fields.FieldNameForm.MatchString(k) && !fields.DigitRun(k, 3) && c.unsent(k)
}

// showHeader returns a response header's value as the transcript shows
// it: the value of a header of known meaning, in that header's form (a
// media type, a number, an HTTP date, an identifier), else a placeholder.
func (c *call) showHeader(k, v string) string {
	shown := ""
	switch http.CanonicalHeaderKey(k) {
	case "Content-Type":
		if mt, params, err := mime.ParseMediaType(v); err == nil && fields.IDForm.MatchString(strings.ReplaceAll(mt, "/", ".")) {
			shown = mt
			if cs := params["charset"]; cs != "" && fields.IDForm.MatchString(cs) {
				shown += "; charset=" + cs
			}
		}
	case "Content-Length", "Ratelimit-Limit", "Ratelimit-Remaining", "Ratelimit-Reset",
		"X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset", "Age":
		if len(v) <= 12 && fields.AllDigits(v) {
			shown = v
		}
	case "Date", "Retry-After", "Last-Modified", "Expires":
		if _, err := http.ParseTime(v); err == nil || (len(v) <= 12 && fields.AllDigits(v)) {
			shown = v
		}
	case "Content-Encoding":
		switch strings.ToLower(v) {
		case "gzip", "br", "deflate", "identity", "zstd":
			shown = v
		}
	case "X-Request-Id", "Request-Id", "X-Correlation-Id":
		if fields.IDForm.MatchString(v) && c.unsent(v) {
			shown = v
		}
	}
	if shown == "" {
		return stringPlaceholder(v)
	}
	return shown
}

// secretFree reports whether s holds none of the credentials.
func (b *Backend) secretFree(s string) bool {
	for _, v := range b.secrets {
		if v != "" && strings.Contains(strings.ToLower(s), strings.ToLower(v)) {
			return false
		}
	}
	return true
}
