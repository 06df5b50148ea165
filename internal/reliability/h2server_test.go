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

// A hostile HTTP/2 server: an httptest server with EnableHTTP2 over TLS
// whose "h2" connections are handed to a small frame-level server, so that
// a test can commit a request and then reset its stream or send a GOAWAY,
// which net/http's own server never does on purpose.

// h2Fault is what the frame server does once a request has arrived whole
// (and has been counted as delivered).
type h2Fault int

const (
	// resetProtocol answers RST_STREAM with PROTOCOL_ERROR.
	resetProtocol h2Fault = iota
	// goAwayEarlier sends a GOAWAY whose last stream id names no stream of
	// the client's (0), as if the request had never been processed, and
	// closes the connection.
	goAwayEarlier
)

var h2FaultNames = map[h2Fault]string{resetProtocol: "RST_STREAM PROTOCOL_ERROR", goAwayEarlier: "GOAWAY naming an earlier stream"}

// h2Server counts the requests it received whole.
type h2Server struct {
	*httptest.Server
	fault     h2Fault
	delivered atomic.Int64
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
	flagEndStream     = 0x1
	flagAck           = 0x1
	errCodeNoError    = 0x0
	errCodeProtocol   = 0x1
	clientPrefaceSize = 24
)

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
			if flags&flagEndStream == 0 {
				continue
			}
			s.delivered.Add(1)
			switch s.fault {
			case resetProtocol:
				var code [4]byte
				binary.BigEndian.PutUint32(code[:], errCodeProtocol)
				if writeFrame(c, frameRSTStream, 0, stream, code[:]) != nil {
					return
				}
			case goAwayEarlier:
				var p [8]byte // last stream id 0, NO_ERROR
				binary.BigEndian.PutUint32(p[4:], errCodeNoError)
				_ = writeFrame(c, frameGoAway, 0, 0, p[:])
				return
			}
		}
	}
}
