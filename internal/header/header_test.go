package header

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// TestValidHeaderAgreesWithNetHTTP checks the SDK's header rules against
// net/http's own, byte by byte, in a name and in a value: a header the SDK
// accepts is one net/http sends, and one it refuses is one net/http would
// refuse before writing the request.
func TestValidHeaderAgreesWithNetHTTP(t *testing.T) {
	t.Parallel()
	errDial := errors.New("dial refused by the test")
	tr := &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) { return nil, errDial }}
	defer tr.CloseIdleConnections()
	// sends reports whether net/http goes as far as dialling with h.
	sends := func(h http.Header) bool {
		req, err := http.NewRequest(http.MethodGet, "http://127.0.0.1:9/", nil)
		require.NoError(t, err)
		req.Header = h
		_, err = tr.RoundTrip(req)
		require.Error(t, err)
		if errors.Is(err, errDial) {
			return true
		}
		require.Contains(t, err.Error(), "invalid header")
		return false
	}
	for b := 0; b < 256; b++ {
		name := "X-A" + string([]byte{byte(b)})
		assert.Equal(t, sends(http.Header{name: {"v"}}), ValidName(name), "name with byte %#x", b)
		value := "a" + string([]byte{byte(b)}) + "b"
		assert.Equal(t, sends(http.Header{"X-A": {value}}), ValidValue(value), "value with byte %#x", b)
	}
	assert.False(t, ValidName(""))
	assert.True(t, ValidValue(""))
}

// TestHeaderErrorNeverQuotesAValue checks the refusal's message: the
// option and, for a valid name, the name; never the value, nor a name
// that is not one.
func TestHeaderErrorNeverQuotesAValue(t *testing.T) {
	t.Parallel()
	assert.NoError(t, Error("WithHeader", "X-Ok", "v\tw"))
	err := Error("WithHeader", "X-Key", "s3cret\r\n")
	var ce *rxtypes.ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, `rxdelivery: WithHeader: the value of the header "X-Key" has a line break or another control character`, err.Error())
	err = Error("WithHeader", "Authorization: Basic s3cret", "")
	require.ErrorAs(t, err, &ce)
	assert.False(t, strings.Contains(err.Error(), "s3cret"), err.Error())
	assert.Contains(t, err.Error(), "WithHeader: a header name must be a token")
}
