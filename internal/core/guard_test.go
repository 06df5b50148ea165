package core

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCallerClientWithoutTransportUsesDefaultTransport: as in net/http, a
// client whose Transport is nil uses http.DefaultTransport, so a
// process-wide proxy, CA or tracing transport installed there applies.
func TestCallerClientWithoutTransportUsesDefaultTransport(t *testing.T) {
	s := NewShared(Config{HTTPClient: &http.Client{}})
	assert.Same(t, http.DefaultTransport, s.transport)
	s = NewShared(Config{})
	_, pooled := s.transport.(*http.Transport)
	assert.True(t, pooled)
	assert.NotSame(t, http.DefaultTransport, s.transport)
}
