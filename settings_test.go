package rxdelivery

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
)

// TestRetryMaxIsOneSetting: the client's retry count is held where a
// call's WithRetryMax puts it, as the attempt timeout is, so the client's
// default, a client's WithRetryMax and a call's WithRetryMax are one field
// read one way.
func TestRetryMaxIsOneSetting(t *testing.T) {
	t.Parallel()
	s := defaultSettings()
	require.NotNil(t, s.call.RetryMax, "the default retry count lives in the call settings")
	assert.Equal(t, core.DefaultRetryMax, *s.call.RetryMax)
	applyOptions(s, []Option{WithRetryMax(1)})
	assert.Equal(t, 1, *s.call.RetryMax)
}

// TestRetryMaxClientAndCallAgree: WithRetryMax given to the client and
// given to a call allow the same attempts, and a call's overrides the
// client's either way.
func TestRetryMaxClientAndCallAgree(t *testing.T) {
	t.Parallel()
	attempts := func(clientOpts []Option, callOpts ...CallOption) int {
		mock := httpmock.NewMockTransport()
		mock.RegisterNoResponder(httpmock.NewStringResponder(503, `{"error":{"message":"busy"}}`))
		opts := append([]Option{WithOmniURL("https://omni.example.test"),
			WithHTTPClient(&http.Client{Transport: mock}), WithRetryWaitMin(time.Microsecond), WithRetryWaitMax(time.Microsecond)}, clientOpts...)
		c, err := NewClient("key", "secret", opts...)
		require.NoError(t, err)
		_, err = c.Requests.Get(context.Background(), "req_1", callOpts...)
		require.Error(t, err)
		return mock.GetTotalCallCount()
	}
	assert.Equal(t, 1+core.DefaultRetryMax, attempts(nil))
	assert.Equal(t, 2, attempts([]Option{WithRetryMax(1)}))
	assert.Equal(t, 2, attempts(nil, WithRetryMax(1)))
	assert.Equal(t, 1, attempts([]Option{WithRetryMax(5)}, WithRetryMax(0)))
	assert.Equal(t, 3, attempts([]Option{WithRetryMax(0)}, WithRetryMax(2)))
}

// TestAttemptTimeoutClientAndCallAgree: WithAttemptTimeout given to the
// client and given to a call bound an attempt the same way: the attempt
// ends with ErrAttemptTimeout either way.
func TestAttemptTimeoutClientAndCallAgree(t *testing.T) {
	t.Parallel()
	call := func(clientOpts []Option, callOpts ...CallOption) error {
		mock := httpmock.NewMockTransport()
		mock.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
			<-r.Context().Done()
			return nil, r.Context().Err()
		})
		opts := append([]Option{WithOmniURL("https://omni.example.test"),
			WithHTTPClient(&http.Client{Transport: mock}), WithRetryMax(0)}, clientOpts...)
		c, err := NewClient("key", "secret", opts...)
		require.NoError(t, err)
		_, err = c.Requests.Get(context.Background(), "req_1", callOpts...)
		return err
	}
	assert.ErrorIs(t, call([]Option{WithAttemptTimeout(time.Millisecond)}), ErrAttemptTimeout)
	assert.ErrorIs(t, call(nil, WithAttemptTimeout(time.Millisecond)), ErrAttemptTimeout)
	assert.ErrorIs(t, call([]Option{WithAttemptTimeout(time.Hour)}, WithAttemptTimeout(time.Millisecond)), ErrAttemptTimeout)
}
