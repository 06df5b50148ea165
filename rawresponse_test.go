package rxdelivery_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// httptest: a call that gets no response is an attempt stalled on a real connection until its timeout.

// TestWithResponseIntoKeepsTheLastResponseAsReceived: status, headers
// and body as the platform sent them, a field the model does not know
// included; an error's body too, its first 64 KiB; nothing when no
// response came.
func TestWithResponseIntoKeepsTheLastResponseAsReceived(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("2xx with a field the model does not know", func(t *testing.T) {
		t.Parallel()
		body := `{"order":{"id":"ord_1","status":"new","priority_window":"2h"}}`
		s := newScriptedMock(t, step{status: 503}, step{status: 200, id: "req_7a", body: body})
		var raw rxdelivery.RawResponse
		o, err := s.client(t).Orders.Get(ctx, "ord_1", rxdelivery.WithResponseInto(&raw))
		require.NoError(t, err)
		assert.Equal(t, "ord_1", o.ID, "decoded as without the option")
		assert.Equal(t, 200, raw.StatusCode, "the last response")
		assert.Equal(t, "req_7a", raw.Header.Get("X-Request-Id"))
		assert.Equal(t, body, string(raw.Body))
		assert.False(t, raw.Truncated)
		var extra struct {
			Order struct {
				PriorityWindow string `json:"priority_window"`
			} `json:"order"`
		}
		require.NoError(t, json.Unmarshal(raw.Body, &extra))
		assert.Equal(t, "2h", extra.Order.PriorityWindow)
	})
	t.Run("an error response", func(t *testing.T) {
		t.Parallel()
		body := `{"error":{"message":"Order not found","hint":"Jane Roe"}}`
		s := newScriptedMock(t, step{status: 404, body: body})
		var raw rxdelivery.RawResponse
		_, err := s.client(t).Orders.Get(ctx, "ord_1", rxdelivery.WithResponseInto(&raw))
		require.ErrorIs(t, err, rxdelivery.ErrNotFound)
		assert.Equal(t, 404, raw.StatusCode)
		assert.Equal(t, body, string(raw.Body))
		assert.NotContains(t, err.Error(), "Jane", "the raw words stay out of the error")
	})
	t.Run("a long error body", func(t *testing.T) {
		t.Parallel()
		body := `{"error":{"message":"` + strings.Repeat("x", option.MaxRawErrorBody) + `"}}`
		s := newScriptedMock(t, step{status: 400, body: body})
		var raw rxdelivery.RawResponse
		_, err := s.client(t).Orders.Get(ctx, "ord_1", rxdelivery.WithResponseInto(&raw))
		require.ErrorIs(t, err, rxdelivery.ErrBadRequest)
		assert.Len(t, raw.Body, option.MaxRawErrorBody)
		assert.True(t, raw.Truncated)
		assert.Equal(t, body[:option.MaxRawErrorBody], string(raw.Body))
	})
	t.Run("a 2xx over the size limit", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t, step{status: 200, body: `{"order":{"id":"` + strings.Repeat("x", 2000) + `"}}`})
		var raw rxdelivery.RawResponse
		_, err := s.client(t, rxdelivery.WithMaxResponseBytes(1000)).Orders.Get(ctx, "ord_1", rxdelivery.WithResponseInto(&raw))
		require.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
		assert.Equal(t, 200, raw.StatusCode)
		assert.Nil(t, raw.Body)
		assert.True(t, raw.Truncated)
	})
	t.Run("no response", func(t *testing.T) {
		t.Parallel()
		s := newScripted(t, step{stall: true})
		raw := rxdelivery.RawResponse{StatusCode: 599, Body: []byte("stale")}
		_, err := s.client(t).Orders.Get(ctx, "ord_1", rxdelivery.WithResponseInto(&raw),
			rxdelivery.WithRetryMax(0), rxdelivery.WithAttemptTimeout(50*time.Millisecond))
		require.ErrorIs(t, err, rxdelivery.ErrAttemptTimeout)
		assert.Equal(t, rxdelivery.RawResponse{}, raw)
	})
	t.Run("a call refused before sending", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t)
		raw := rxdelivery.RawResponse{StatusCode: 599}
		_, err := s.client(t).Orders.Get(ctx, "", rxdelivery.WithResponseInto(&raw))
		require.Error(t, err)
		assert.Equal(t, rxdelivery.RawResponse{}, raw)
	})
	t.Run("a call without a decoded body", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t, step{status: 200, body: `{"ok":true,"note":"kept"}`})
		var raw rxdelivery.RawResponse
		err := s.client(t).Do(ctx, rxdelivery.Request{Interface: rxdelivery.Delivery, Method: "POST", Path: "/api/v1/ping"}, nil,
			rxdelivery.WithResponseInto(&raw))
		require.NoError(t, err)
		assert.Equal(t, `{"ok":true,"note":"kept"}`, string(raw.Body))
	})
}

// TestWithResponseIntoIsACallsOptionOnly: given to NewClient, where every
// call would write to one value, it is refused.
func TestWithResponseIntoIsACallsOptionOnly(t *testing.T) {
	t.Parallel()
	var raw rxdelivery.RawResponse
	_, err := rxdelivery.NewClient("key", "secret", rxdelivery.WithResponseInto(&raw))
	var ce *rxdelivery.ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, err.Error(), "WithResponseInto")
}

// TestRawResponseIsNeverLogged: the raw body a caller asked for reaches
// no log line and no transcript.
func TestRawResponseIsNeverLogged(t *testing.T) {
	t.Parallel()
	body := `{"order":{"id":"ord_1","status":"new","recipient":{"name":"Janet Quimby"},"aside":"Quimby-Hollow"}}`
	s := newScriptedMock(t, step{status: 500, body: `{"error":{"message":"Quimby-Hollow"}}`}, step{status: 200, body: body})
	var logs, tr bytes.Buffer
	l := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var raw rxdelivery.RawResponse
	_, err := s.client(t, rxdelivery.WithLogger(l)).Orders.Get(context.Background(), "ord_1",
		rxdelivery.WithResponseInto(&raw), rxdelivery.WithTranscript(&tr))
	require.NoError(t, err)
	require.Equal(t, body, string(raw.Body))
	require.NotEmpty(t, logs.String())
	require.NotEmpty(t, tr.String())
	for _, s := range []string{"Quimby", "Hollow"} {
		assert.NotContains(t, logs.String(), s)
		assert.NotContains(t, tr.String(), s)
	}
}
