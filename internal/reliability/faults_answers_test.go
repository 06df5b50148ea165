package reliability_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
)

// The fault suite's answers that need no socket: 429 storms, 503 and 5xx
// windows, waits between attempts ended by the context, malformed bodies,
// a large body under the limit.
// Each reaches the client whole through Setup's httpmock (see
// mocked_test.go); the cut, stalled and huge answers are in faults_test.go.

func TestRateLimitStorm(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tooMany := func(retryAfter string) handlerFunc {
		return func(w http.ResponseWriter, r *http.Request, _ int64) {
			drainRequest(r)
			w.Header().Set("Retry-After", retryAfter)
			writeJSON(w, http.StatusTooManyRequests, `{"error":{"message":"Too many requests"}}`)
		}
	}

	t.Run("outlasts the retries", func(t *testing.T) {
		c, s := newMocked(t, tooMany("0"))
		_, err := c.Orders.Get(ctx, "ord_1")
		ae := apiError(t, err, http.MethodGet, getPath, http.StatusTooManyRequests)
		assert.ErrorIs(t, err, rxdelivery.ErrRateLimited)
		assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
		assert.Equal(t, "Too many requests", ae.Message)
		assert.Equal(t, int64(attemptsMax), s.attempts.Load())

		_, err = c.Orders.Create(ctx, createParams(t, "ref-1"))
		apiError(t, err, http.MethodPost, createPath, http.StatusTooManyRequests)
		assert.ErrorIs(t, err, rxdelivery.ErrRateLimited)
		assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome, "a 429 is a refusal: nothing was created")
		assert.Equal(t, int64(2*attemptsMax), s.attempts.Load(), "a refused write is retried")
	})

	t.Run("ends before the retries do", func(t *testing.T) {
		c, s := newMocked(t, func(w http.ResponseWriter, r *http.Request, n int64) {
			if n%4 != 0 {
				tooMany("0")(w, r, n)
				return
			}
			drainRequest(r)
			writeJSON(w, http.StatusOK, orderBody("ord_1"))
		})
		o, err := c.Orders.Get(ctx, "ord_1")
		require.NoError(t, err)
		assert.Equal(t, "ord_1", o.ID)
		o, err = c.Orders.Create(ctx, createParams(t, "ref-1"))
		require.NoError(t, err)
		assert.Equal(t, "ord_1", o.ID)
		assert.Equal(t, int64(8), s.attempts.Load())
	})

	t.Run("Retry-After above the cap is not slept", func(t *testing.T) {
		c, s := newMocked(t, tooMany("120"))
		_, err := c.Orders.Get(ctx, "ord_1")
		ae := apiError(t, err, http.MethodGet, getPath, http.StatusTooManyRequests)
		assert.Equal(t, 120*time.Second, ae.RetryAfter)
		assert.Contains(t, err.Error(), "retry after 2m0s")
		assert.Equal(t, int64(1), s.attempts.Load())
	})

	t.Run("Retry-After past the deadline is not slept", func(t *testing.T) {
		c, s := newMocked(t, tooMany("30"), rxdelivery.WithRetryWaitMax(time.Hour))
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		_, err := c.Orders.Create(dctx, createParams(t, "ref-1"))
		require.NoError(t, dctx.Err(), "the call returned before the deadline instead of sleeping into it")
		ae := apiError(t, err, http.MethodPost, createPath, http.StatusTooManyRequests)
		assert.Equal(t, 30*time.Second, ae.RetryAfter)
		assert.Equal(t, int64(1), s.attempts.Load())
	})

	t.Run("Retry-After as an HTTP date", func(t *testing.T) {
		when := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
		c, s := newMocked(t, tooMany(when))
		_, err := c.Orders.Get(ctx, "ord_1")
		ae := apiError(t, err, http.MethodGet, getPath, http.StatusTooManyRequests)
		assert.Greater(t, ae.RetryAfter, 60*time.Second)
		assert.LessOrEqual(t, ae.RetryAfter, 90*time.Second)
		assert.Equal(t, int64(1), s.attempts.Load())
	})
}

func TestUnavailableWindows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	window := func(status int, width int64) handlerFunc {
		return func(w http.ResponseWriter, r *http.Request, n int64) {
			drainRequest(r)
			if width < 0 || n <= width {
				writeJSON(w, status, `{"error":{"message":"Service unavailable"}}`)
				return
			}
			writeJSON(w, http.StatusOK, orderBody("ord_9"))
		}
	}

	t.Run("a window that closes", func(t *testing.T) {
		c, s := newMocked(t, window(http.StatusServiceUnavailable, 2))
		o, err := c.Orders.Create(ctx, createParams(t, "ref-1"))
		require.NoError(t, err)
		assert.Equal(t, "ord_9", o.ID)
		assert.Equal(t, int64(3), s.attempts.Load())
	})

	t.Run("a window that outlasts the retries", func(t *testing.T) {
		c, s := newMocked(t, window(http.StatusServiceUnavailable, -1))
		_, err := c.Orders.Create(ctx, createParams(t, "ref-1"))
		apiError(t, err, http.MethodPost, createPath, http.StatusServiceUnavailable)
		assert.ErrorIs(t, err, rxdelivery.ErrUnavailable)
		assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome, "a 503 is a refusal")
		assert.Equal(t, int64(attemptsMax), s.attempts.Load())
	})

	for _, status := range []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			c, s := newMocked(t, window(status, -1))
			_, err := c.Orders.Get(ctx, "ord_1")
			apiError(t, err, http.MethodGet, getPath, status)
			assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
			assert.Equal(t, int64(attemptsMax), s.attempts.Load(), "a read is retried")

			_, err = c.Orders.Create(ctx, createParams(t, "ref-1"))
			apiError(t, err, http.MethodPost, createPath, status)
			assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome, "the write may have been applied")
			assert.Equal(t, int64(attemptsMax+1), s.attempts.Load(), "a write of unknown outcome is not retried")
			if status != http.StatusInternalServerError {
				assert.ErrorIs(t, err, rxdelivery.ErrUnavailable)
			}
		})
	}
}

// TestBackoffEndsWithTheContext: a wait between attempts (here an hour)
// is ended by the call's context, its deadline or its cancellation.
func TestBackoffEndsWithTheContext(t *testing.T) {
	t.Parallel()
	// The client would wait an hour between attempts; only the context can
	// end the wait. The bound below only detects a wait the context did
	// not end.
	const bound = 30 * time.Second
	refuse := func(w http.ResponseWriter, r *http.Request, _ int64) {
		drainRequest(r)
		writeJSON(w, http.StatusServiceUnavailable, `{"error":{"message":"down"}}`)
	}

	t.Run("backoff ended by the deadline", func(t *testing.T) {
		// The deadline falls 100ms after the refusal was answered, so it
		// ends the wait however slow the machine.
		ctx, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		c, s := newMocked(t, func(w http.ResponseWriter, r *http.Request, n int64) {
			refuse(w, r, n)
			time.AfterFunc(100*time.Millisecond, func() { cancel(context.DeadlineExceeded) })
		}, rxdelivery.WithRetryWaitMax(time.Hour), rxdelivery.WithRetryWaitMin(time.Hour))
		start := time.Now()
		_, err := c.Orders.Create(ctx, createParams(t, "ref-1"))
		assert.Less(t, time.Since(start), bound)
		te := transportError(t, err, http.MethodPost, createPath)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.False(t, te.UnknownOutcome, "the wait followed a refusal: nothing was created")
		assert.Equal(t, int64(1), s.attempts.Load())
	})

	t.Run("backoff ended by cancellation", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		// The refusal is flushed first and the context cancelled a little
		// later, so the cancellation almost always lands in the hour's
		// wait. On a machine so loaded that the client has not yet judged
		// the refusal by then, the call ends with the refusal itself
		// instead; either way it must not wait the hour.
		c, s := newMocked(t, func(w http.ResponseWriter, r *http.Request, n int64) {
			refuse(w, r, n)
			w.(http.Flusher).Flush()
			time.AfterFunc(100*time.Millisecond, cancel)
		}, rxdelivery.WithRetryWaitMax(time.Hour), rxdelivery.WithRetryWaitMin(time.Hour))
		start := time.Now()
		_, err := c.Orders.Get(ctx, "ord_1")
		assert.Less(t, time.Since(start), bound)
		var ae *rxdelivery.APIError
		if errors.As(err, &ae) {
			apiError(t, err, http.MethodGet, getPath, http.StatusServiceUnavailable)
		} else {
			transportError(t, err, http.MethodGet, getPath)
			assert.ErrorIs(t, err, context.Canceled)
		}
		assert.Equal(t, int64(1), s.attempts.Load())
	})
}

func TestMalformedAnswers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, tc := range map[string]struct {
		body  string
		cause error
	}{
		"not JSON":       {body: `<html>Service maintenance</html>`},
		"truncated JSON": {body: `{"order":{"id":"ord_1","status":"new"`, cause: io.ErrUnexpectedEOF},
		"empty body":     {body: ``, cause: io.ErrUnexpectedEOF},
		"wrong shape":    {body: `{"order":"ord_1"}`},
		"an array":       {body: `[{"order":{}}]`},
		"no order":       {body: `{"orders":[]}`},
		"bad member":     {body: `{"order":{"id":{"value":"ord_1"}}}`},
	} {
		t.Run(name, func(t *testing.T) {
			c, s := newMocked(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
				drainRequest(r)
				writeJSON(w, http.StatusOK, tc.body)
			})
			_, err := c.Orders.Get(ctx, "ord_1")
			de := decodeError(t, err, http.MethodGet, getPath)
			assert.False(t, de.Incomplete, "the whole body arrived")
			assert.Contains(t, err.Error(), "200 OK: malformed response body: ")
			if tc.cause != nil {
				assert.ErrorIs(t, err, tc.cause)
			}
			_, err = c.Orders.Create(ctx, createParams(t, "ref-1"))
			decodeError(t, err, http.MethodPost, createPath)
			assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
			assert.Equal(t, int64(2), s.attempts.Load(), "a malformed answer is not retried")
		})
	}

	t.Run("odd values are kept", func(t *testing.T) {
		c, _ := newMocked(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
			writeJSON(w, http.StatusOK, `{"order":{"id":"ord_1","status":"teleported","eta":{"arrival_at":12},"extra":[1]}}`)
		})
		o, err := c.Orders.Get(ctx, "ord_1")
		require.NoError(t, err)
		assert.Equal(t, "teleported", string(o.Status))
		require.NotNil(t, o.ETA)
		assert.Equal(t, "12", o.ETA.ArrivalAt.Raw)
	})

	t.Run("error bodies", func(t *testing.T) {
		for _, tc := range []struct {
			status   int
			body     string
			sentinel error
		}{
			{http.StatusBadGateway, `<html><body>502 Bad Gateway</body></html>`, rxdelivery.ErrUnavailable},
			{http.StatusBadRequest, `{"error":{"message":"Order is not in a canc`, rxdelivery.ErrBadRequest},
			{http.StatusNotFound, `{"error":"Not found"}`, rxdelivery.ErrNotFound},
			{http.StatusUnauthorized, `null`, rxdelivery.ErrUnauthorized},
			{http.StatusForbidden, ``, rxdelivery.ErrForbidden},
		} {
			c, _ := newMocked(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
				writeJSON(w, tc.status, tc.body)
			}, rxdelivery.WithRetryMax(0))
			_, err := c.Orders.Get(ctx, "ord_1")
			ae := apiError(t, err, http.MethodGet, getPath, tc.status)
			assert.ErrorIs(t, err, tc.sentinel)
			assert.LessOrEqual(t, len(ae.Body), len(tc.body))
		}
	})
}

// TestLargeAnswerUnderTheLimit: an answer of more than 4 MiB, under the
// default size limit, is read whole (the huge answers over it are
// TestHugeBodies'). It runs alone (not in parallel): it allocates some
// tens of MiB, and TestHugeBodies measures the allocations of the whole
// process.
func TestLargeAnswerUnderTheLimit(t *testing.T) {
	ctx := context.Background()
	var b strings.Builder
	b.WriteString(`{"orders":[`)
	for i := 0; i < 20000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":"ord_` + strconv.Itoa(i) + `","status":"new","external_reference_number":"` + strings.Repeat("r", 200) + `"}`)
	}
	b.WriteString(`]}`)
	body := b.String()
	c, _ := newMocked(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
		writeJSON(w, http.StatusOK, body)
	})
	list, err := c.Orders.GetMany(ctx, []string{"ord_1"})
	require.NoError(t, err)
	assert.Len(t, list, 20000)
	assert.Greater(t, len(body), 4<<20)
}
