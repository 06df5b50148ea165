package tracking

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// ErrBusy is matched ([errors.Is]) by an error saying that the notification
// was not handled because another notification of its tracking number is
// being handled elsewhere: by another replica sharing the marks, or by
// another handler of this process. The journal module's ErrTrackingBusy
// (Journal.TrackingHandler) and Once's refusal of a notification another
// replica is handling match it. When Marks.Advance or the callback
// returns an error matching ErrBusy, the handler answers 503 "Service
// Unavailable" with Retry-After: [BusyRetryAfter] (in seconds), so the
// platform delivers the notification again, and logs it at info level as
// busy, not as a failure. A callback may return one too (for example when
// a lock of its own is held elsewhere), having done nothing.
var ErrBusy = errors.New("tracking: another notification of this tracking number is being handled")

// BusyRetryAfter is the Retry-After (1 second) of the handler's 503 to a
// busy notification ([ErrBusy]). The notification in flight elsewhere holds
// its tracking number only while its callback runs, usually milliseconds
// (a write to the application's database); the journal's lease (2 minutes
// by default) bounds only a replica that died mid-callback. A redelivery
// that comes while the number is still busy costs one conditional write
// and another 503; one that waits for the lease would delay every busy
// notification by minutes. The platform's documents say nothing of
// redelivery, so the header is a hint the platform may not follow.
const BusyRetryAfter = time.Second

// HandlerOption configures [NewHandler].
type HandlerOption func(*Handler)

// WithMaxBodyBytes sets the largest notification body the handler reads
// (default [DefaultMaxBodyBytes], 1 MiB); a larger one gets the
// response 413. A value of zero or less keeps the default.
func WithMaxBodyBytes(n int64) HandlerOption {
	return func(h *Handler) {
		if n > 0 {
			h.limit = n
		}
	}
}

// WithErrorLogger logs every refused request (at warning level, with the
// status and the reason), every busy notification ([ErrBusy]: at info
// level, without an error, since nothing failed) and every callback failure
// (at error level, with the callback's error). It logs the method only:
// never the path (which may hold a token the listener URL uses as a
// secret), a query string, a header or a body.
func WithErrorLogger(l *slog.Logger) HandlerOption {
	return func(h *Handler) { h.logger = l }
}

// Handler serves a listener URL; [NewHandler] makes one.
type Handler struct {
	fn     func(context.Context, *Notification) error
	limit  int64
	logger *slog.Logger
	// marks order the notifications (WithOrdering); nil for none. order
	// serialises, in this process, the notifications of one tracking
	// number (by stripe) from the mark's move to the callback's end.
	marks        Marks
	order        [64]sync.Mutex
	deliverStale bool
	stale        atomic.Int64
	// tokens are the listener path tokens accepted (WithPathToken).
	tokens [][]byte
}

// NewHandler returns the [http.Handler] of a listener URL: it parses each
// notification the platform POSTs and hands it to fn, with the request's
// context.
//
// The handler responds:
//   - 405, with an Allow: POST header, to any method but POST;
//   - 413 to a body over the size limit ([WithMaxBodyBytes]);
//   - 400 to malformed JSON or a notification missing tracking_number,
//     timestamp, carrier, status or status_occurred_at, whatever the
//     Content-Type header says (it is not looked at: a valid notification
//     is accepted with any);
//   - 204 No Content when fn returns nil;
//   - 503 "Service Unavailable" with Retry-After: 1 ([BusyRetryAfter]) when
//     another notification of the tracking number is being handled
//     elsewhere (an error matching [ErrBusy], from the marks or from fn),
//     so the platform delivers it again;
//   - 500 when fn returns any other error, so the platform may deliver
//     again.
//
// fn is never called for a refused request. The platform may deliver the
// same notification more than once and out of order: [WithOrdering] drops
// (or flags) the stale ones, and the journal module's Once lets each reach
// fn once across replicas.
//
// The platform shows no signature scheme for notifications, so the handler
// cannot tell the platform from anyone else who knows the URL: make the URL
// unguessable with [NewListenerURL], require its token with
// [WithPathToken], and serve it over https only:
//
//	listenerURL, token, err := tracking.NewListenerURL("https://pharmacy.example/hooks/tracking")
//	// ... Subscribe with ListenerURL: listenerURL; keep token as a secret.
//	h := tracking.NewHandler(func(ctx context.Context, n *tracking.Notification) error {
//		return store.SaveStatus(ctx, n.TrackingNumber, n.Status, n.StatusOccurredAt.Time)
//	}, tracking.WithPathToken(token), tracking.WithOrdering(tracking.NewMemoryMarks()))
//	mux.Handle("POST /hooks/tracking/", h)
//
// NewHandler panics when fn is nil.
func NewHandler(fn func(context.Context, *Notification) error, opts ...HandlerOption) *Handler {
	if fn == nil {
		panic("tracking: NewHandler needs a non-nil callback")
	}
	h := &Handler{fn: fn, limit: DefaultMaxBodyBytes}
	for _, o := range opts {
		if o != nil {
			o(h)
		}
	}
	return h
}

// ServeHTTP responds to one notification request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.tokens != nil && !h.tokenMatches(r) {
		// Not the platform's URL: nothing is read, nothing is logged.
		http.NotFound(w, r)
		return
	}
	if r.Body != nil && r.Method == http.MethodPost {
		// Tells the server to close the connection when the body runs over.
		r.Body = http.MaxBytesReader(w, r.Body, h.limit)
	}
	n, err := parseNotification(r, h.limit)
	if err != nil {
		status := http.StatusBadRequest
		var ne *NotificationError
		if errors.As(err, &ne) {
			status = ne.StatusCode
		}
		h.log(r, slog.LevelWarn, "rxdelivery: tracking notification refused", status, err)
		if status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", http.MethodPost)
		}
		http.Error(w, err.Error(), status)
		return
	}
	if err := h.handle(r.Context(), n); err != nil {
		if errors.Is(err, ErrBusy) {
			h.log(r, slog.LevelInfo, "rxdelivery: tracking notification busy; another of its tracking number is being handled, redelivery asked", http.StatusServiceUnavailable, nil)
			w.Header().Set("Retry-After", strconv.Itoa(int(BusyRetryAfter/time.Second)))
			http.Error(w, http.StatusText(http.StatusServiceUnavailable), http.StatusServiceUnavailable)
			return
		}
		msg := "rxdelivery: tracking notification callback failed"
		var me *marksError
		if errors.As(err, &me) {
			msg = "rxdelivery: tracking notification not ordered; the marks failed and the callback did not run"
		}
		h.log(r, slog.LevelError, msg, http.StatusInternalServerError, err)
		http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handle runs the callback on n, ordered by the handler's marks when it
// has them: a stale notification is acknowledged (or delivered flagged),
// and the mark moves back when the callback fails.
func (h *Handler) handle(ctx context.Context, n *Notification) error {
	at := n.StatusOccurredAt.Time
	if h.marks == nil || !n.StatusOccurredAt.Valid() {
		return h.fn(ctx, n)
	}
	if l, ok := h.marks.(numberLocker); ok {
		defer l.lockNumber(n.TrackingNumber)()
	} else {
		stripe := &h.order[stripeOf(n.TrackingNumber)]
		stripe.Lock()
		defer stripe.Unlock()
	}
	moved, prev, err := h.marks.Advance(ctx, n.TrackingNumber, at)
	if err != nil {
		return &marksError{err}
	}
	if !moved {
		h.stale.Add(1)
		if h.logger != nil {
			h.logger.LogAttrs(ctx, slog.LevelInfo, "rxdelivery: stale tracking notification acknowledged",
				slog.Bool("delivered", h.deliverStale))
		}
		if !h.deliverStale {
			return nil
		}
		n.Stale = true
		return h.fn(ctx, n)
	}
	if err := h.fn(ctx, n); err != nil {
		if rerr := h.marks.Retreat(ctx, n.TrackingNumber, at, prev); rerr != nil {
			// The mark stays moved, so the redelivery may be taken for
			// stale: a failure, whatever fn said.
			return &retreatError{err, rerr}
		}
		return err
	}
	return nil
}

// marksError is a failure of Marks.Advance: the callback did not run.
type marksError struct{ err error }

func (e *marksError) Error() string { return e.err.Error() }
func (e *marksError) Unwrap() error { return e.err }

// retreatError is a callback's failure whose mark did not move back. It
// unwraps to the Retreat's error alone, so that it never matches ErrBusy.
type retreatError struct{ fn, retreat error }

func (e *retreatError) Error() string { return e.fn.Error() + "\n" + e.retreat.Error() }
func (e *retreatError) Unwrap() error { return e.retreat }

// log writes one line without path, body, query or headers, and with
// err's text when err is not nil.
func (h *Handler) log(r *http.Request, level slog.Level, msg string, status int, err error) {
	if h.logger == nil || !h.logger.Enabled(r.Context(), level) {
		return
	}
	attrs := []slog.Attr{slog.String("method", r.Method), slog.Int("status", status)}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	h.logger.LogAttrs(r.Context(), level, msg, attrs...)
}

// numberLocker is Marks that serialise the notifications of a tracking
// number themselves, for every handler that shares them in the process.
type numberLocker interface {
	lockNumber(trackingNumber string) (unlock func())
}

// stripeOf spreads tracking numbers over the handler's 64 order locks.
func stripeOf(n string) int {
	var h uint32 = 2166136261
	for i := 0; i < len(n); i++ {
		h = (h ^ uint32(n[i])) * 16777619
	}
	return int(h % 64)
}
