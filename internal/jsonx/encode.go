package jsonx

import (
	"encoding/json"
	"sync"
	"unicode/utf8"
)

// Appender is implemented by request bodies that write their own JSON: the
// bytes encoding/json's Marshal would produce, appended to b in one pass.
// A body whose type has a MarshalJSON method would otherwise be encoded
// twice over: once by the method, then re-read and compacted by
// encoding/json.
type Appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// maxPooledScratch is the largest scratch buffer kept for reuse.
const maxPooledScratch = 64 << 10

var scratchPool = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

// Marshal returns the JSON encoding of v, the same bytes as encoding/json's
// Marshal. An Appender writes its body into a pooled scratch buffer, which
// is then copied once into a slice of the body's size: the request keeps
// that copy, and no buffer is shared with a transport that may still be
// reading it. Any other value, and an Appender that fails, is encoded by
// encoding/json, whose error is the one reported.
func Marshal(v any) ([]byte, error) {
	a, ok := v.(Appender)
	if !ok {
		return json.Marshal(v)
	}
	bp := scratchPool.Get().(*[]byte)
	b, err := a.AppendJSON((*bp)[:0])
	if err != nil {
		scratchPool.Put(bp)
		return json.Marshal(v)
	}
	out := make([]byte, len(b))
	copy(out, b)
	if cap(b) <= maxPooledScratch {
		*bp = b[:0]
		scratchPool.Put(bp)
	}
	return out, nil
}

const hex = "0123456789abcdef"

// plain marks the bytes AppendString copies as they are: printable ASCII
// other than the quote, the backslash and the HTML-sensitive <, > and &.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// AppendString appends s as a JSON string exactly as encoding/json writes
// it: HTML-sensitive characters (<, >, &) and U+2028, U+2029 escaped as
// \u00XX and \u20XX, control characters escaped (\b \f \n \r \t short), and
// invalid UTF-8 replaced by \ufffd.
func AppendString(b []byte, s string) []byte {
	// Most strings of a request body need no escape: find the first byte
	// that may, and copy everything before it at once.
	i := 0
	for i < len(s) && plain[s[i]] {
		i++
	}
	b = append(b, '"')
	b = append(b, s[:i]...)
	if i == len(s) {
		return append(b, '"')
	}
	start := i
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if plain[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// Object writes a JSON object's members in order, with the commas
// between them. Keys are written as given: they must be plain ASCII
// needing no escape (struct tag names).
type Object struct {
	B []byte
	n int
}

// Open starts an object on b.
func Open(b []byte) Object { return Object{B: append(b, '{')} }

// Key writes the next member's key and colon.
func (o *Object) Key(k string) {
	b := o.B
	if o.n > 0 {
		b = append(b, ',', '"')
	} else {
		b = append(b, '"')
	}
	o.n++
	b = append(b, k...)
	o.B = append(b, '"', ':')
}

// String writes a member holding a string.
func (o *Object) String(k, v string) {
	o.Key(k)
	o.B = AppendString(o.B, v)
}

// StringOmitEmpty writes a string member unless v is empty, as the
// omitempty tag option does.
func (o *Object) StringOmitEmpty(k, v string) {
	if v != "" {
		o.String(k, v)
	}
}

// Close ends the object and returns the bytes.
func (o *Object) Close() []byte { return append(o.B, '}') }
