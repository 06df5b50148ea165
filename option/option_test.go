package option_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"

	"github.com/rxdelivery/rxdelivery-go/option"
)

// applied is what opts set, and their refusal.
type applied struct {
	option.Settings
	Err error
}

func apply(opts ...option.CallOption) applied {
	s, err := option.Resolve(&option.Settings{}, append(opts, option.CallOption{}))
	return applied{s, err}
}

func TestJoinAppliesInOrder(t *testing.T) {
	t.Parallel()
	s := apply(option.Join(option.WithRetryMax(2), option.WithHeader("X-A", "1"), option.CallOption{}, option.WithRetryMax(5), option.WithHeader("x-a", "2")))
	if s.RetryMax == nil || *s.RetryMax != 5 {
		t.Errorf("retry: %+v", s)
	}
	if got := s.Header.Get("X-A"); got != "2" {
		t.Errorf("header: %q", got)
	}
	for name, o := range map[string]option.CallOption{"WithRetryMax": option.WithRetryMax(-1), "WithAttemptTimeout": option.WithAttemptTimeout(-1), "WithWriteGrace": option.WithWriteGrace(-time.Second)} {
		s := apply(o)
		var ce *rxtypes.ConfigError
		if !errors.As(s.Err, &ce) || !strings.HasPrefix(ce.Message, name+": ") || s.RetryMax != nil || s.AttemptTimeout != nil || s.WriteGrace != nil {
			t.Errorf("%s of a negative value: want a ConfigError naming it and nothing set, got %v / %+v", name, s.Err, s)
		}
	}
}

func TestWithHeaderKeepsTheSDKsHeaders(t *testing.T) {
	t.Parallel()
	s := apply(option.WithHeader("Authorization", "x"), option.WithHeader("content-type", "x"), option.WithHeader("X-Ok", "v"))
	if len(s.Header) != 1 || s.Header.Get("X-Ok") != "v" || s.Err != nil {
		t.Errorf("headers: %v, err %v", s.Header, s.Err)
	}
	for _, bad := range [][2]string{{"X-Bad", "a\nb"}, {"Bad Name", "v"}, {"", "v"}, {"X-Nul", "a\x00"}} {
		if s := apply(option.WithHeader(bad[0], bad[1])); s.Err == nil || len(s.Header) != 0 {
			t.Errorf("%q: want a refusal, got %v / %v", bad, s.Err, s.Header)
		}
	}
	if s := apply(option.WithHeader("X-Tab", "a\tb")); s.Err != nil {
		t.Errorf("a tab is allowed: %v", s.Err)
	}
}

func TestMetadataIsCallOnly(t *testing.T) {
	t.Parallel()
	var md option.Metadata
	s := apply(option.WithMetadata(&md))
	if s.Err != nil || s.Metadata != &md {
		t.Fatalf("%+v", s)
	}
	_, err := option.ClientDefaults([]option.CallOption{option.WithRetryMax(1), option.WithMetadata(&md)})
	var ce *rxtypes.ConfigError
	if !errors.As(err, &ce) || !strings.HasPrefix(ce.Message, "WithMetadata applies to one call") {
		t.Fatalf("a client refuses WithMetadata: %v", err)
	}
}

func TestClassAndErrorKind(t *testing.T) {
	t.Parallel()
	if option.Safe.String() != "safe" || option.Write.String() != "write" {
		t.Error(option.Safe, option.Write)
	}
	if option.ErrorKind(nil) != "" {
		t.Error("nil has no kind")
	}
	wrapped := fmt.Errorf("x: %w", rxtypes.ErrUnknownOutcome)
	if option.ErrorKind(wrapped) != "unknown_outcome" {
		t.Error(option.ErrorKind(wrapped))
	}
	if option.ErrorKind(errors.New("patient Jane Doe")) != "error" {
		t.Error("an unknown error is named by kind, not message")
	}
}

// TestSetHeaderRefusals checks what an attempt's SetHeader sets.
func TestSetHeaderRefusals(t *testing.T) {
	t.Parallel()
	h := http.Header{}
	a := option.NewAttempt(option.Operation{}, 1, h)
	assert.True(t, a.SetHeader("x-trace", "t"))
	assert.False(t, a.SetHeader("X-Trace", "t\r\nX-Injected: 1"))
	assert.False(t, a.SetHeader("X Trace", "t"))
	assert.False(t, a.SetHeader("content-type", "text/plain"))
	assert.False(t, a.SetHeader("upgrade", "h2c"))
	assert.Equal(t, http.Header{"X-Trace": {"t"}}, h)
	assert.False(t, option.NewAttempt(option.Operation{}, 1, nil).SetHeader("X-Trace", "t"), "no request to set it on")
}
