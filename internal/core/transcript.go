package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
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
			return c.scrubber().sent(v)
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
