package tracking_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// busyMarks are Marks whose Advance answers adv and whose Retreat answers
// ret.
type busyMarks struct{ adv, ret error }

func (m busyMarks) Advance(context.Context, string, time.Time) (bool, time.Time, error) {
	if m.adv != nil {
		return false, time.Time{}, m.adv
	}
	return true, time.Time{}, nil
}

func (m busyMarks) Retreat(context.Context, string, time.Time, time.Time) error { return m.ret }

// TestBusyNotification: an error matching ErrBusy, from the marks or from
// the callback, is answered 503 with Retry-After and logged at info level
// as busy; any other failure is a 500 logged at error level, a busy
// callback whose mark did not move back included (its redelivery may be
// taken for stale), and a failure of the marks says the callback did not
// run.
func TestBusyNotification(t *testing.T) {
	t.Parallel()
	busy := fmt.Errorf("the application's lock is held: %w", tracking.ErrBusy)
	down := errors.New("marks store down")
	cases := []struct {
		name       string
		marks      tracking.Marks
		fnErr      error
		code       int
		calls      int32
		level, msg string
	}{
		{"callback busy, no marks", nil, busy, http.StatusServiceUnavailable, 1, "INFO", "tracking notification busy"},
		{"callback busy, mark moved back", busyMarks{}, busy, http.StatusServiceUnavailable, 1, "INFO", "tracking notification busy"},
		{"marks busy", busyMarks{adv: busy}, nil, http.StatusServiceUnavailable, 0, "INFO", "tracking notification busy"},
		{"callback busy, mark not moved back", busyMarks{ret: down}, busy, http.StatusInternalServerError, 1, "ERROR", "tracking notification callback failed"},
		{"marks failed", busyMarks{adv: down}, nil, http.StatusInternalServerError, 0, "ERROR", "the marks failed and the callback did not run"},
		{"callback failed", busyMarks{}, errors.New("database down"), http.StatusInternalServerError, 1, "ERROR", "tracking notification callback failed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int32
			var logs bytes.Buffer
			opts := []tracking.HandlerOption{tracking.WithErrorLogger(slogTo(&logs))}
			if c.marks != nil {
				opts = append(opts, tracking.WithOrdering(c.marks))
			}
			h := tracking.NewHandler(func(context.Context, *tracking.Notification) error {
				calls.Add(1)
				return c.fnErr
			}, opts...)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/hooks", bytes.NewReader(notificationBody("9400", 1))))
			if rec.Code != c.code {
				t.Errorf("answered %d; want %d", rec.Code, c.code)
			}
			wantRetry := ""
			if c.code == http.StatusServiceUnavailable {
				wantRetry = "1"
			}
			if got := rec.Header().Get("Retry-After"); got != wantRetry {
				t.Errorf("Retry-After %q; want %q", got, wantRetry)
			}
			if n := calls.Load(); n != c.calls {
				t.Errorf("callback ran %d times; want %d", n, c.calls)
			}
			out := logs.String()
			if strings.Count(out, "\n") != 1 || !strings.Contains(out, "level="+c.level) || !strings.Contains(out, c.msg) {
				t.Errorf("logged %q; want one line at %s saying %q", out, c.level, c.msg)
			}
			if c.code == http.StatusServiceUnavailable && strings.Contains(out, "error=") {
				t.Errorf("a busy notification logged an error: %q", out)
			}
		})
	}
	if got := int(tracking.BusyRetryAfter / time.Second); got != 1 {
		t.Errorf("BusyRetryAfter is %d s; the documents of NewHandler and the README say 1", got)
	}
}

// TestOrderingAfterAFailedCallback pins what WithOrdering promises: the
// callbacks that succeed for a tracking number come in increasing
// status_occurred_at. A callback that fails moves the mark back, so an
// older notification that arrives before the failed one's redelivery
// reaches the callback (it is not stale: nothing after it was processed),
// and the failed one is processed when the platform delivers it again.
func TestOrderingAfterAFailedCallback(t *testing.T) {
	t.Parallel()
	var calls, successes []int
	h := tracking.NewHandler(func(_ context.Context, n *tracking.Notification) error {
		m := n.StatusOccurredAt.Minute()
		calls = append(calls, m)
		if m == 30 && len(calls) == 2 {
			return errors.New("database down")
		}
		successes = append(successes, m)
		return nil
	}, tracking.WithOrdering(tracking.NewMemoryMarks()))
	for _, d := range []struct{ minute, code int }{
		{10, http.StatusNoContent},
		{30, http.StatusInternalServerError}, // fails: the mark moves back to 10
		{20, http.StatusNoContent},           // older than 30, newer than 10: handled
		{30, http.StatusNoContent},           // the platform's redelivery
		{20, http.StatusNoContent},           // stale now
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/hooks", bytes.NewReader(notificationBody("9400", d.minute))))
		if rec.Code != d.code {
			t.Fatalf("minute %d answered %d; want %d", d.minute, rec.Code, d.code)
		}
	}
	if fmt.Sprint(calls) != "[10 30 20 30]" || fmt.Sprint(successes) != "[10 20 30]" {
		t.Fatalf("callback calls %v, successes %v; want [10 30 20 30] and [10 20 30]", calls, successes)
	}
	if h.Stale() != 1 {
		t.Errorf("Stale() = %d; want 1", h.Stale())
	}
}
