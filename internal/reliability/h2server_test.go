package reliability_test

import (
	"bufio"
	"crypto/tls"
	"encoding/binary"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// httptest: a TLS server speaking HTTP/2, whose connections a frame-level server takes over.

// A hostile HTTP/2 server: an httptest server with EnableHTTP2 over TLS
// whose "h2" connections are handed to a small frame-level server, so that
// a test can commit a request and then reset its stream or send a GOAWAY,
// which net/http's own server never does on purpose, or refuse a stream
// in the ways HTTP/2 defines as "not processed".

// h2Fault is what the frame server does once a request has arrived whole.
type h2Fault int

const (
	// resetProtocol counts the request as delivered and answers
	// RST_STREAM with PROTOCOL_ERROR, which does not say whether the
	// server acted on it.
	resetProtocol h2Fault = iota
	// goAwayNamingStream counts the request as delivered, sends a GOAWAY
	// whose last stream id is the request's stream (it may have been
	// processed) and closes the connection.
	goAwayNamingStream
	// refusedStream answers RST_STREAM with REFUSED_STREAM: the stream was
	// not processed (RFC 9113, section 8.7).
	refusedStream
	// goAwayBelow sends a graceful GOAWAY (NO_ERROR) whose last stream id
	// is below the request's stream, as a proxy recycling its connection
	// does, and closes the connection: the stream was not processed.
	goAwayBelow
	// goAwayErrorBelow sends a GOAWAY with an error code
	// (ENHANCE_YOUR_CALM) whose last stream id is below the request's
	// stream and closes the connection: the stream was not processed, and
	// net/http words it apart for the first stream of a connection.
	goAwayErrorBelow
)

var h2FaultNames = map[h2Fault]string{
	resetProtocol:      "RST_STREAM PROTOCOL_ERROR",
	goAwayNamingStream: "GOAWAY naming the stream",
	refusedStream:      "RST_STREAM REFUSED_STREAM",
	goAwayBelow:        "graceful GOAWAY below the stream",
	goAwayErrorBelow:   "error GOAWAY below the stream",
}

// h2Server counts the requests it received whole. With a fault that
// refuses a stream unprocessed (refusedStream, goAwayBelow), it refuses
// the next refuse requests (all of them while refuse is negative) and
// counts them as refused; it answers the others 200 with an order and
// counts them as delivered.
type h2Server struct {
	*httptest.Server
	fault     h2Fault
	refuse    atomic.Int64
	delivered atomic.Int64
	refused   atomic.Int64
	wg        sync.WaitGroup
}

func newH2Server(t *testing.T, fault h2Fault) *h2Server {
	t.Helper()
	s := &h2Server{fault: fault}
	s.Server = httptest.NewUnstartedServer(http.NotFoundHandler())
	s.EnableHTTP2 = true
	s.Config.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){
		"h2": func(_ *http.Server, c *tls.Conn, _ http.Handler) {
			s.wg.Add(1)
			defer s.wg.Done()
			s.serve(c)
		},
	}
	s.StartTLS()
	t.Cleanup(func() {
		s.CloseClientConnections()
		s.Close()
		s.wg.Wait()
	})
	return s
}

// HTTP/2 frame types and flags (RFC 9113, section 6).
const (
	frameData         = 0x0
	frameHeaders      = 0x1
	frameRSTStream    = 0x3
	frameSettings     = 0x4
	framePing         = 0x6
	frameGoAway       = 0x7
	frameWindowUpdate = 0x8
	flagEndStream     = 0x1
	flagEndHeaders    = 0x4
	flagAck           = 0x1
	errCodeNoError    = 0x0
	errCodeProtocol   = 0x1
	errCodeRefused    = 0x7
	errCodeCalm       = 0xb
	clientPrefaceSize = 24
)

// okHeaders is the HPACK block of a 200 answer with a JSON body: ":status:
// 200" from the static table (index 8), and content-type (index 31) as a
// literal without indexing (RFC 7541, appendix A and section 6.2.2).
var okHeaders = append([]byte{0x88, 0x0f, 0x10, 0x10}, "application/json"...)

func writeFrame(w io.Writer, typ, flags byte, stream uint32, payload []byte) error {
	var h [9]byte
	h[0], h[1], h[2] = byte(len(payload)>>16), byte(len(payload)>>8), byte(len(payload))
	h[3], h[4] = typ, flags
	binary.BigEndian.PutUint32(h[5:], stream)
	if _, err := w.Write(h[:]); err != nil {
		return err
	}
	_, err := w.Write(payload)
	return err
}

// serve speaks just enough HTTP/2 to receive requests: settings, pings,
// headers and data. A request has arrived whole when a HEADERS or DATA
// frame ends its stream.
func (s *h2Server) serve(c *tls.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	if _, err := io.ReadFull(r, make([]byte, clientPrefaceSize)); err != nil {
		return
	}
	if writeFrame(c, frameSettings, 0, 0, nil) != nil {
		return
	}
	var h [9]byte
	for {
		if _, err := io.ReadFull(r, h[:]); err != nil {
			return
		}
		n := int(h[0])<<16 | int(h[1])<<8 | int(h[2])
		typ, flags := h[3], h[4]
		stream := binary.BigEndian.Uint32(h[5:]) & 0x7fffffff
		payload := make([]byte, n)
		if _, err := io.ReadFull(r, payload); err != nil {
			return
		}
		switch typ {
		case frameSettings:
			if flags&flagAck == 0 && writeFrame(c, frameSettings, flagAck, 0, nil) != nil {
				return
			}
		case framePing:
			if flags&flagAck == 0 && writeFrame(c, framePing, flagAck, 0, payload) != nil {
				return
			}
		case frameHeaders, frameData:
			if typ == frameData && n > 0 {
				// Give the connection's flow-control window back, so a
				// client may send any number of bodies on it.
				if writeFrame(c, frameWindowUpdate, 0, 0, binary.BigEndian.AppendUint32(nil, uint32(n))) != nil {
					return
				}
			}
			if flags&flagEndStream == 0 {
				continue
			}
			switch s.fault {
			case resetProtocol:
				s.delivered.Add(1)
				if writeFrame(c, frameRSTStream, 0, stream, errCode(errCodeProtocol)) != nil {
					return
				}
			case goAwayNamingStream:
				s.delivered.Add(1)
				_ = writeFrame(c, frameGoAway, 0, 0, goAway(stream, errCodeNoError))
				return
			case refusedStream, goAwayBelow, goAwayErrorBelow:
				if s.refuse.Load() == 0 {
					s.delivered.Add(1)
					if writeFrame(c, frameHeaders, flagEndHeaders, stream, okHeaders) != nil ||
						writeFrame(c, frameData, flagEndStream, stream, []byte(orderBody("ord_1"))) != nil {
						return
					}
					continue
				}
				if s.refuse.Load() > 0 {
					s.refuse.Add(-1)
				}
				s.refused.Add(1)
				if s.fault == refusedStream {
					if writeFrame(c, frameRSTStream, 0, stream, errCode(errCodeRefused)) != nil {
						return
					}
					continue
				}
				// Client streams are odd: the one before is two below.
				code := uint32(errCodeNoError)
				if s.fault == goAwayErrorBelow {
					code = errCodeCalm
				}
				_ = writeFrame(c, frameGoAway, 0, 0, goAway(max(stream, 2)-2, code))
				return
			}
		}
	}
}

// errCode is the payload of a RST_STREAM frame.
func errCode(code uint32) []byte {
	return binary.BigEndian.AppendUint32(nil, code)
}

// goAway is the payload of a GOAWAY frame.
func goAway(lastStream, code uint32) []byte {
	return binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, lastStream), code)
}
