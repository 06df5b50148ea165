package tracking

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
)

// HandlerOption configures NewHandler.
type HandlerOption func(*Handler)

// WithMaxBodyBytes sets the largest notification body the handler reads
// (default DefaultMaxBodyBytes, 1 MiB); a larger one gets the response 413. A
// value of zero or less keeps the default.
func WithMaxBodyBytes(n int64) HandlerOption {
	return func(h *Handler) {
		if n > 0 {
			h.limit = n
		}
	}
}

// WithErrorLogger logs every refused request (at warning level, with the
// status and the reason) and every callback failure (at error level, with
// the callback's error). It logs the method only: never the path (which
// may hold a token the listener URL uses as a secret), a query string, a
// header or a body.
func WithErrorLogger(l *slog.Logger) HandlerOption {
	return func(h *Handler) { h.logger = l }
}

// Handler serves a listener URL; NewHandler makes one.
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

// NewHandler returns the http.Handler of a listener URL: it parses each
// notification the platform POSTs and hands it to fn, with the request's
// context.
//
// The handler responds:
//   - 405, with an Allow: POST header, to any method but POST;
//   - 413 to a body over the size limit (WithMaxBodyBytes);
//   - 400 to malformed JSON or a notification missing tracking_number,
//     timestamp, carrier, status or status_occurred_at, whatever the
//     Content-Type header says (it is not looked at: a valid notification
//     is accepted with any);
//   - 204 No Content when fn returns nil;
//   - 500 when fn returns an error, so the platform may deliver again.
//
// fn is never called for a refused request. The platform may deliver the
// same notification more than once and out of order: WithOrdering drops
// (or flags) the stale ones, and the journal module's Once lets each reach
// fn once across replicas.
//
// The platform shows no signature scheme for notifications, so the handler
// cannot tell the platform from anyone else who knows the URL: make the URL
// unguessable with NewListenerURL, require its token with WithPathToken,
// and serve it over https only:
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
		h.log(r, slog.LevelError, "rxdelivery: tracking notification callback failed", http.StatusInternalServerError, err)
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
		return err
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
			return errors.Join(err, rerr)
		}
		return err
	}
	return nil
}

// log writes one line without path, body, query or headers.
func (h *Handler) log(r *http.Request, level slog.Level, msg string, status int, err error) {
	if h.logger == nil || !h.logger.Enabled(r.Context(), level) {
		return
	}
	h.logger.LogAttrs(r.Context(), level, msg,
		slog.String("method", r.Method),
		slog.Int("status", status),
		slog.String("error", err.Error()))
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
