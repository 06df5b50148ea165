package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"

	"github.com/rxdelivery/rxdelivery-go/internal/jsonx"
)

// Reading a 2xx response's body: whole, at a bounded cost, from a pooled
// buffer, and checked for shape.

// body holds the body of a successful response, read whole by readBody
// during the attempt. Responses are pooled: the SDK's decoders copy what
// they keep, so a buffer is reused once the call has decoded it.
type body struct {
	buf bytes.Buffer
	max int64 // the size limit of a body
	err error // a body over the limit; never retried
	// whole is set when readBody reached the end of the body: closing it
	// then leaves nothing to drain.
	whole bool
	// lr is the bounded reader readBody fills the buffer from.
	lr limitedReader
}

// maxPooledBody is the largest buffer kept for reuse; a larger one
// (a rare, very large response) is left to the garbage collector.
const maxPooledBody = 256 << 10

var bodyPool = sync.Pool{New: func() any { return new(body) }}

func putBody(a *body) {
	if a.buf.Cap() > maxPooledBody {
		return
	}
	a.buf.Reset()
	a.err = nil
	a.whole = false
	a.lr = limitedReader{}
	bodyPool.Put(a)
}

// bodyCutError is what readBody gives go-retryablehttp when a successful
// response's body ended early (the connection was cut or reset after the
// status line). The retry policy sends a safe call again; a write is not
// sent again, and its outcome stays unknown.
type bodyCutError struct{ err error }

func (e *bodyCutError) Error() string { return "reading the response: " + e.err.Error() }
func (e *bodyCutError) Unwrap() error { return e.err }

// errBodyTooLarge is the cause of a DecodeError for a response over the
// size limit.
var errBodyTooLarge = errors.New("body exceeds the size limit")

// limitedReader reads at most n bytes and fails, rather than ending
// quietly, when the body is longer.
type limitedReader struct {
	r io.Reader
	n int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		var one [1]byte
		if k, _ := l.r.Read(one[:]); k > 0 {
			return 0, errBodyTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	k, err := l.r.Read(p)
	l.n -= int64(k)
	return k, err
}

// Reading a 2xx response whole, at a bounded cost. A body over the size
// limit costs no more than the limit and a small constant: one announced
// by Content-Length is refused before anything is read; one of unknown
// length (chunked, or decompressed by the transport) is read into a buffer
// of at most bodySpill bytes and then into fixed-size chunks, joined
// once when the body has ended within the limit, so that no buffer ever
// doubles past the limit on the way to refusing it.

// bodySpill is how much of a body of unknown length is read into the
// (pooled) buffer before the rest goes to chunks; bodyChunk is the size
// of those chunks.
const (
	bodySpill = maxPooledBody
	bodyChunk = 256 << 10
)

// readBody reads the 2xx body of an attempt's response whole into
// c.rbody, bounded by the size limit, when the call decodes one, after the
// attempt hooks returned it and before the loop sees it: a body cut short
// is then the attempt's failure, which the retry policy judges once (a
// safe call is sent again), and the response is closed. Other responses
// are left to the call.
func (c *call) readBody(resp *http.Response, err error) (*http.Response, error) {
	a := c.rbody
	if err != nil || a == nil {
		return resp, err
	}
	c.status, c.header = resp.StatusCode, resp.Header
	a.whole = false
	if resp.StatusCode < 200 || resp.StatusCode > 299 || resp.StatusCode == http.StatusNoContent {
		return resp, nil
	}
	a.buf.Reset()
	a.err = nil
	if resp.ContentLength > a.max {
		a.err = errBodyTooLarge
		return resp, nil
	}
	a.lr = limitedReader{r: resp.Body, n: a.max}
	err = a.fill(&a.lr, resp.ContentLength)
	switch {
	case err == nil:
		a.whole = true
	case errors.Is(err, errBodyTooLarge):
		a.err = err
		a.buf.Reset()
	default:
		closeBody(resp.Body)
		return nil, &bodyCutError{err: err}
	}
	return resp, nil
}

// fill reads r (bounded by the size limit) into a.buf. length is the
// announced Content-Length, or -1.
func (a *body) fill(r io.Reader, length int64) error {
	if length >= 0 {
		// Room for the whole body and for the read that sees its end, so
		// that ReadFrom never grows the buffer.
		a.buf.Grow(int(length) + bytes.MinRead)
		_, err := a.buf.ReadFrom(r)
		return err
	}
	_, err := a.buf.ReadFrom(io.LimitReader(r, bodySpill))
	if err != nil || a.buf.Len() < bodySpill {
		return err
	}
	var chunks [][]byte
	total := a.buf.Len()
	for {
		c := make([]byte, bodyChunk)
		n, err := readChunk(r, c)
		chunks = append(chunks, c[:n])
		total += n
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	joined := make([]byte, 0, total)
	joined = append(joined, a.buf.Bytes()...)
	for _, c := range chunks {
		joined = append(joined, c...)
	}
	a.buf = *bytes.NewBuffer(joined)
	return nil
}

// readChunk fills c from r, and reports io.EOF when r ended (c may then
// be partly filled), or another error of r.
func readChunk(r io.Reader, c []byte) (int, error) {
	n := 0
	for n < len(c) {
		k, err := r.Read(c[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Checks of a 2xx response's shape, beyond being valid JSON: every endpoint
// documents an object, and a response that is not one (JSON null, an array,
// a bare string or number) would otherwise decode to a zero value without
// an error.

// decode decodes a 2xx body into out: a *json.RawMessage receives it as
// it is (valid JSON other than null), anything else must be a JSON object
// the decoder reads without error. A body that is valid JSON but not an
// object is refused first; one that is not valid JSON is left to the
// decoder, which names the fault.
func decode(data []byte, out any) error {
	i := 0
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	rm, raw := out.(*json.RawMessage)
	if i < len(data) && data[i] != '{' && (!raw || data[i] == 'n') && json.Valid(data) {
		kind := "a JSON " + map[byte]string{'n': "null", '[': "array", '"': "string", 't': "boolean", 'f': "boolean"}[data[i]]
		if kind == "a JSON " {
			kind = "a JSON number"
		}
		return errors.New("the body is " + kind + ", not an object")
	}
	if raw {
		if !json.Valid(data) {
			return errors.New("not valid JSON")
		}
		*rm = append(json.RawMessage(nil), data...)
		return nil
	}
	if err := jsonx.Unmarshal(data, out); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) && syn.Offset >= int64(len(data)) {
			// A value that stops short (or an empty body), as a
			// json.Decoder reports it.
			return io.ErrUnexpectedEOF
		}
		return err
	}
	return nil
}
