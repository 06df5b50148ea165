package core

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// TestCallerClientWithoutTransportUsesDefaultTransport: as in net/http, a
// client whose Transport is nil uses http.DefaultTransport, so a
// process-wide proxy, CA or tracing transport installed there applies.
func TestCallerClientWithoutTransportUsesDefaultTransport(t *testing.T) {
	t.Parallel()
	s := NewShared(Config{HTTPClient: &http.Client{}})
	assert.Same(t, http.DefaultTransport, s.transport)
	s = NewShared(Config{})
	_, pooled := s.transport.(*http.Transport)
	assert.True(t, pooled)
	assert.NotSame(t, http.DefaultTransport, s.transport)
}

// stallTransport never answers: it waits for the request's context.
type stallTransport struct{}

func (stallTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	<-r.Context().Done()
	return nil, r.Context().Err()
}

// TestClientAttemptTimeout: a client whose only call default is an attempt
// timeout bounds every attempt by it.
func TestClientAttemptTimeout(t *testing.T) {
	t.Parallel()
	d := 20 * time.Millisecond
	s := NewShared(Config{HTTPClient: &http.Client{Transport: stallTransport{}},
		Defaults: option.Settings{RetryMax: new(int), AttemptTimeout: &d}})
	b, err := s.NewBackend(rxtypes.InterfaceOmni, testBase, Credentials{Key: "k", Secret: "s"}, nil)
	assert.NoError(t, err)
	_, err = b.Do(context.Background(), Call{Method: http.MethodGet, Path: "/x"}, nil)
	assert.ErrorIs(t, err, rxtypes.ErrAttemptTimeout)
	assert.False(t, errors.Is(err, context.DeadlineExceeded))
}
