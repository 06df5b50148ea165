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
// platform's support: what was sent and what came back, with every value
// that could be a patient's replaced by a placeholder that keeps its JSON
// type and the class of its length, and no credential. Field names, the
// method, the route and the path's identifiers (an order id) are kept;
// values the platform echoes back are replaced in the response the same
// way; the platform's request id and status are kept.

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
		if k == "Authorization" || k == "Proxy-Authorization" || k == "Cookie" {
			return "[credentials]"
		}
		return c.sc.sent(v)
	})
	if len(c.body) > 0 {
		b.WriteString(">\n> ")
		b.Write(placeholderJSON(c.body, nil))
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
	if id := requestID(resp.Header); id != "" {
		fmt.Fprintf(&b, "< request id: %s\n", c.sc.sent(id))
	}
	writeHeaders(&b, "< ", resp.Header, func(k, v string) string {
		if k == "Set-Cookie" {
			return "[cookie]"
		}
		return c.sc.sent(v)
	})
	data, rerr := io.ReadAll(io.LimitReader(resp.Body, maxTranscriptBody+1))
	rest := resp.Body
	resp.Body = readCloser{io.MultiReader(bytes.NewReader(data), rest), rest}
	if rerr == nil && len(data) > 0 {
		shown := data
		if len(shown) > maxTranscriptBody {
			shown = shown[:maxTranscriptBody]
		}
		b.WriteString("<\n< ")
		if json.Valid(shown) {
			echoed := c.sentValues()
			if resp.StatusCode < 200 || resp.StatusCode > 299 {
				// An error's words: only safe text is shown.
				echoed = func(v string) bool { return c.sc.scrub(v) != v }
			}
			b.Write(placeholderJSON(shown, echoed))
		} else {
			b.WriteString(c.sc.scrub(string(shown)))
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

// sentValues returns a test of whether a response value echoes a value
// the call sent (its body, query, hidden path values, credentials).
func (c *call) sentValues() func(string) bool {
	return func(v string) bool { return c.sc.sent(v) != v }
}

// placeholderJSON returns data (valid JSON) with its values replaced: every
// string and number of the request body (echoed nil), or, for a response,
// those echoed reports as a value the call sent. Keys, booleans and null
// stay.
func placeholderJSON(data []byte, echoed func(string) bool) []byte {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return []byte("[not JSON]")
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if enc.Encode(placeholderValue(v, echoed)) != nil {
		return []byte("[not JSON]")
	}
	return bytes.TrimRight(out.Bytes(), "\n")
}

func placeholderValue(v any, echoed func(string) bool) any {
	switch x := v.(type) {
	case string:
		if echoed == nil || echoed(x) {
			return "<string " + lengthClass(len(x)) + ">"
		}
		return x
	case json.Number:
		if echoed == nil || echoed(x.String()) {
			return json.Number(maskDigits(x.String()))
		}
		return x
	case []any:
		for i := range x {
			x[i] = placeholderValue(x[i], echoed)
		}
		return x
	case map[string]any:
		for k := range x {
			x[k] = placeholderValue(x[k], echoed)
		}
		return x
	}
	return v
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
