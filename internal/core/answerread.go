package core

import (
	"bytes"
	"errors"
	"io"
	"net/http"
)

// Reading a 2xx answer whole, at a bounded cost. A body over the size
// limit costs no more than the limit and a small constant: one announced
// by Content-Length is refused before anything is read; one of unknown
// length (chunked, or decompressed by the transport) is read into a buffer
// of at most answerSpill bytes and then into fixed-size chunks, joined
// once when the body has ended within the limit, so that no buffer ever
// doubles past the limit on the way to refusing it.

// answerSpill is how much of a body of unknown length is read into the
// (pooled) buffer before the rest goes to chunks; answerChunk is the size
// of those chunks.
const (
	answerSpill = maxPooledAnswer
	answerChunk = 256 << 10
)

// read is the response handler of go-retryablehttp: it reads a 2xx body
// whole, bounded by the size limit. Other answers are left to Do.
func (a *answer) read(resp *http.Response) error {
	if resp.StatusCode < 200 || resp.StatusCode > 299 || resp.StatusCode == http.StatusNoContent {
		return nil
	}
	a.buf.Reset()
	a.err = nil
	if resp.ContentLength > a.max {
		a.err = errBodyTooLarge
		return nil
	}
	err := a.fill(&limitedReader{r: resp.Body, n: a.max}, resp.ContentLength)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errBodyTooLarge):
		a.err = err
		a.buf.Reset()
		return nil
	}
	return &bodyCutError{err: err}
}

// fill reads r (bounded by the size limit) into a.buf. length is the
// announced Content-Length, or -1.
func (a *answer) fill(r io.Reader, length int64) error {
	if length >= 0 {
		// Room for the whole body and for the read that sees its end, so
		// that ReadFrom never grows the buffer.
		a.buf.Grow(int(length) + bytes.MinRead)
		_, err := a.buf.ReadFrom(r)
		return err
	}
	_, err := a.buf.ReadFrom(io.LimitReader(r, answerSpill))
	if err != nil || a.buf.Len() < answerSpill {
		return err
	}
	var chunks [][]byte
	total := a.buf.Len()
	for {
		c := make([]byte, answerChunk)
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
