package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/rxdelivery/rxdelivery-go/internal/fields"
)

// A transcript of the call's attempts (option.Settings.Transcript) for the
// platform's support: what was sent and what came back, with no credential
// and no value that could be a patient's. Field names, the method, the
// route and the path's identifiers (an order id) are kept.
//
// Of the request's headers, the SDK's own, the User-Agent and the trace
// context are shown, a credential as [credentials], any other as a
// placeholder. The request body keeps its shape with every string and
// number replaced by a placeholder that keeps its JSON type and the class
// of its length, and a boolean shown only in a field of kind Flag. The
// response body keeps its shape too, and each scalar is judged by its
// field's kind in internal/fields (the field's JSON name, under the key of
// the object that holds it): a value of a safe kind is shown when its form
// is that kind's (showScalar), every other value becomes a placeholder of
// the same JSON type, and an error's message goes through the scrubber's
// text method. A key that is neither in the table nor written like a
// field name becomes a placeholder itself. A body that is not JSON is not
// shown; of the response's headers only those of known form are shown.

// maxTranscriptBody bounds the body a transcript reads and shows.
const maxTranscriptBody = 64 << 10

// transcribeRequest writes the request part of an attempt's transcript.
func (c *call) transcribeRequest(w io.Writer, r *http.Request, attempt int) {
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s attempt %d: %s %s\n", c.ep.Name, attempt, c.ep.Method, c.ep.Route)
	path := c.shown
	if c.query != "" {
		path += "?" + placeholderQuery(c.query)
	}
	fmt.Fprintf(&b, "> %s %s\n", c.ep.Method, path)
	writeHeaders(&b, "> ", r.Header, func(k, v string) string {
		switch http.CanonicalHeaderKey(k) {
		case "Authorization", "Proxy-Authorization", "Cookie":
			return "[credentials]"
		case "Accept", "Accept-Encoding", "Content-Type", "Content-Length", "User-Agent", "Traceparent":
			// The SDK's own headers, the caller's product name and the
			// trace context: shown unless they carry a value the call sent.
			return c.sc.sent(v)
		}
		// A header the caller added (WithHeader): its name only.
		return stringPlaceholder(v)
	})
	if len(c.body) > 0 {
		b.WriteString(">\n> ")
		b.Write(c.placeholderJSON(c.body, false))
		b.WriteByte('\n')
	}
	_, _ = io.WriteString(w, b.String())
}

// transcribeResponse writes the response part of an attempt's transcript,
// reading the body (at most maxTranscriptBody) and putting it back on
// resp; err is the attempt's failure when there is no response.
func (c *call) transcribeResponse(w io.Writer, req *http.Request, resp *http.Response, err error) {
	var b strings.Builder
	if err != nil {
		fmt.Fprintf(&b, "< failed: %s\n", attemptErrorKind(req, err))
		_, _ = io.WriteString(w, b.String())
		return
	}
	fmt.Fprintf(&b, "< %d %s\n", resp.StatusCode, http.StatusText(resp.StatusCode))
	if raw := requestID(resp.Header); raw != "" {
		id := c.safeRequestID(resp.Header)
		if id == "" {
			id = stringPlaceholder(raw)
		}
		fmt.Fprintf(&b, "< request id: %s\n", id)
	}
	writeHeaders(&b, "< ", resp.Header, c.showHeader)
	data, rerr := io.ReadAll(io.LimitReader(resp.Body, maxTranscriptBody+1))
	rest := resp.Body
	resp.Body = readCloser{io.MultiReader(bytes.NewReader(data), rest), rest}
	if rerr == nil && len(data) > 0 {
		b.WriteString("<\n< ")
		switch {
		case len(data) > maxTranscriptBody:
			b.WriteString("<body over 64 KiB: not shown>")
		case json.Valid(data):
			b.Write(c.placeholderJSON(data, true))
		default:
			fmt.Fprintf(&b, "<not JSON: %d bytes>", len(data))
		}
		b.WriteByte('\n')
	}
	_, _ = io.WriteString(w, b.String())
}

// readCloser reads from r and closes c.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (r readCloser) Close() error { return r.c.Close() }

// writeHeaders writes h sorted, one line each, with values through show.
func writeHeaders(b *strings.Builder, prefix string, h http.Header, show func(k, v string) string) {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			b.WriteString(prefix + k + ": " + show(k, v) + "\n")
		}
	}
}

// lengthClass names the class of a string's length: 0, 1-4, 5-16, 17-64,
// 65-256 or more.
func lengthClass(n int) string {
	switch {
	case n == 0:
		return "empty"
	case n <= 4:
		return "1-4"
	case n <= 16:
		return "5-16"
	case n <= 64:
		return "17-64"
	case n <= 256:
		return "65-256"
	}
	return "over 256"
}

// maskDigits replaces every digit of a JSON number with 9, keeping its
// sign, point, exponent and length: 12.50 becomes 99.99.
func maskDigits(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= '0' && c <= '9' {
			b[i] = '9'
		}
	}
	if _, err := strconv.ParseFloat(string(b), 64); err != nil {
		return "0"
	}
	return string(b)
}

// placeholderQuery returns an encoded query with every value replaced.
func placeholderQuery(q string) string {
	vals, err := url.ParseQuery(q)
	if err != nil {
		return "[query]"
	}
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		for _, v := range vals[k] {
			parts = append(parts, url.QueryEscape(k)+"="+url.QueryEscape("<"+lengthClass(len(v))+">"))
		}
	}
	return strings.Join(parts, "&")
}

// placeholderJSON returns data (valid JSON) as a transcript shows it: a
// request body (response false) with every string and number replaced, a
// response body with each scalar judged by its field (showScalar).
func (c *call) placeholderJSON(data []byte, response bool) []byte {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return []byte("[not JSON]")
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if enc.Encode(c.showValue("", "", v, response)) != nil {
		return []byte("[not JSON]")
	}
	return bytes.TrimRight(out.Bytes(), "\n")
}

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
				if id := c.sc.id(x); id != "" || x == "" {
					return id
				}
				return Redacted
			case "type", "code":
				return c.sc.code(x)
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
			if smallDecimal(s) && c.unsent(s) {
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
			if timestampForm.MatchString(x) && c.unsent(x) {
				return x
			}
		case fields.Money, fields.Count:
			if smallDecimal(x) && c.unsent(x) {
				return x
			}
		case fields.Flag:
			if x == "true" || x == "false" {
				return x
			}
		case fields.Message:
			return c.sc.scrub(x)
		}
		return stringPlaceholder(x)
	}
	return "<value>"
}

// stringPlaceholder stands for a string of s's length class.
func stringPlaceholder(s string) string { return "<string " + lengthClass(len(s)) + ">" }

// unsent reports whether s holds no value the call sent and no credential.
func (c *call) unsent(s string) bool { return c.sc.sent(s) == s }

// idForm is the form of an identifier shown: one token.
var idForm = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$`)

// timestampForm is an ISO 8601 timestamp with a time of day.
var timestampForm = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.,][0-9]{1,9})?)? ?(Z|z|UTC|[+-][0-9]{2}(:?[0-9]{2})?)?$`)

// fieldNameForm is how a field name the table does not hold is written for
// its key to be shown: lower-case snake case, no run of three digits.
var fieldNameForm = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// showsID reports whether s is shown as an identifier: of idForm, and
// either not a value the call sent or one it named in its shown path or
// its ids[] query (a get-many's ids come back in its answer).
func (c *call) showsID(s string) bool {
	if !idForm.MatchString(s) {
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
	return fieldNameForm.MatchString(k) && !digitRun(k, 3) && c.unsent(k)
}

// digitRun reports whether s has n digits in a row.
func digitRun(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			run++
			if run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// smallDecimal reports whether s is a decimal number of at most 7 digits
// without an exponent: an amount, a count, a size.
func smallDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	digits, point := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point && i > 0:
			point = true
		default:
			return false
		}
	}
	return digits > 0 && digits <= 7 && s[len(s)-1] != '.'
}

// showHeader returns a response header's value as the transcript shows
// it: the value of a header of known meaning, in that header's form (a
// media type, a number, an HTTP date, an identifier), else a placeholder.
func (c *call) showHeader(k, v string) string {
	shown := ""
	switch http.CanonicalHeaderKey(k) {
	case "Content-Type":
		if mt, params, err := mime.ParseMediaType(v); err == nil && idForm.MatchString(strings.ReplaceAll(mt, "/", ".")) {
			shown = mt
			if cs := params["charset"]; cs != "" && idForm.MatchString(cs) {
				shown += "; charset=" + cs
			}
		}
	case "Content-Length", "Ratelimit-Limit", "Ratelimit-Remaining", "Ratelimit-Reset",
		"X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset", "Age":
		if len(v) <= 12 && allDigits(v) {
			shown = v
		}
	case "Date", "Retry-After", "Last-Modified", "Expires":
		if _, err := http.ParseTime(v); err == nil || (len(v) <= 12 && allDigits(v)) {
			shown = v
		}
	case "Content-Encoding":
		switch strings.ToLower(v) {
		case "gzip", "br", "deflate", "identity", "zstd":
			shown = v
		}
	case "X-Request-Id", "Request-Id", "X-Correlation-Id":
		if idForm.MatchString(v) && c.unsent(v) {
			shown = v
		}
	}
	if shown == "" {
		return stringPlaceholder(v)
	}
	return shown
}

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
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
