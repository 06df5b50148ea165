package rxdelivery_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// httptest: a write whose connection is dropped before any answer needs a real socket.

// errPolicy is a hook's own verdict on a response.
var errPolicy = errors.New("policy: refused by the hook")

// failingAttempt fails every attempt that got a response.
func failingAttempt(next option.AttemptFunc) option.AttemptFunc {
	return func(ctx context.Context, a *option.Attempt) option.AttemptResult {
		res := next(ctx, a)
		if res.Err == nil {
			res.Err = errPolicy
		}
		return res
	}
}

// rawCreate is a write through the escape hatch (no validation to meet).
var rawCreate = rxdelivery.Request{Interface: rxdelivery.Delivery, Method: "POST", Path: "/api/v1/orders", Body: map[string]string{"x": "y"}}

// rawGet is a read through the escape hatch.
var rawGet = rxdelivery.Request{Interface: rxdelivery.Delivery, Method: "GET", Path: "/api/v1/orders/{id}", PathParams: map[string]string{"id": "ord_1"}}

// TestAttemptHookResultIsUsed: what an attempt hook returns is the
// attempt's result. A hook that fails an attempt that got a response
// fails it as an attempt that was sent: a read is retried, a write is
// never sent again and its outcome is unknown; the hook's error stays in
// the chain.
func TestAttemptHookResultIsUsed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("read", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t)
		var md rxdelivery.Metadata
		err := s.client(t).Do(ctx, rawGet, nil, rxdelivery.WithRetryMax(1), rxdelivery.WithMiddleware(failingAttempt), rxdelivery.WithMetadata(&md))
		require.ErrorIs(t, err, errPolicy)
		assert.Equal(t, 2, s.requests(), "a read the hook failed is retried")
		assert.Equal(t, 2, md.Attempts)
	})
	t.Run("write", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t, step{status: 201, body: `{"order":{"id":"ord_1"}}`})
		err := s.client(t).Do(ctx, rawCreate, nil, rxdelivery.WithRetryMax(3), rxdelivery.WithMiddleware(failingAttempt))
		require.ErrorIs(t, err, errPolicy)
		assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome, "the write was sent: its outcome is the caller's to resolve")
		assert.Equal(t, 1, s.requests(), "a write the hook failed is never sent again")
	})
}

// TestCallHookResultIsUsed: what a call hook returns is the call's
// result for a read; for a write it is the call's result only when it
// keeps what the platform said (it wraps the call's error), and a hook
// that would fail an applied write or hide why one failed is logged and
// not used.
func TestCallHookResultIsUsed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	replace := func(with func(error) error) rxdelivery.CallMiddleware {
		return func(next option.CallFunc) option.CallFunc {
			return func(ctx context.Context, op *option.Operation) option.CallResult {
				res := next(ctx, op)
				res.Err = with(res.Err)
				return res
			}
		}
	}
	fail := replace(func(error) error { return errPolicy })
	annotate := replace(func(err error) error {
		if err == nil {
			return nil
		}
		return fmt.Errorf("annotated: %w", err)
	})
	clear := replace(func(error) error { return nil })

	t.Run("a read the hook fails", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t)
		assert.ErrorIs(t, s.client(t).Do(ctx, rawGet, nil, rxdelivery.WithCallMiddleware(fail)), errPolicy)
	})
	t.Run("a read's error annotated", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t, step{status: 404, body: `{"error":"no"}`})
		err := s.client(t).Do(ctx, rawGet, nil, rxdelivery.WithCallMiddleware(annotate))
		assert.ErrorIs(t, err, rxdelivery.ErrNotFound)
		assert.Contains(t, err.Error(), "annotated: ")
	})
	t.Run("a failed read cannot succeed", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t, step{status: 404, body: `{"error":"no"}`})
		assert.ErrorIs(t, s.client(t).Do(ctx, rawGet, nil, rxdelivery.WithCallMiddleware(clear)), rxdelivery.ErrNotFound)
	})
	t.Run("an applied write stays applied", func(t *testing.T) {
		t.Parallel()
		s := newScriptedMock(t, step{status: 201, body: `{"order":{"id":"ord_1"}}`})
		var logs bytes.Buffer
		c := s.client(t, rxdelivery.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
		require.NoError(t, c.Do(ctx, rawCreate, nil, rxdelivery.WithCallMiddleware(fail)), "the platform applied it")
		assert.Contains(t, logs.String(), "a call hook's error is not the result of a write")
		assert.NotContains(t, logs.String(), "refused by the hook", "the hook's words are not logged")
	})
	t.Run("a write's error annotated", func(t *testing.T) {
		t.Parallel()
		s := newScripted(t, step{drop: true})
		err := s.client(t).Do(ctx, rawCreate, nil, rxdelivery.WithCallMiddleware(annotate))
		assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
		assert.Contains(t, err.Error(), "annotated: ")
	})
	t.Run("a write's error cannot be hidden", func(t *testing.T) {
		t.Parallel()
		s := newScripted(t, step{drop: true})
		err := s.client(t).Do(ctx, rawCreate, nil, rxdelivery.WithCallMiddleware(fail))
		assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome, "the caller still learns the outcome is unknown")
		assert.NotErrorIs(t, err, errPolicy)
	})
}
