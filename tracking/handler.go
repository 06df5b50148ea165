package tracking

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
)

// HandlerOption configures NewHandler.
type HandlerOption func(*handler)

// WithMaxBodyBytes sets the largest notification body the handler reads
// (default DefaultMaxBodyBytes, 1 MiB); a larger one gets the response 413. A
// value of zero or less keeps the default.
func WithMaxBodyBytes(n int64) HandlerOption {
	return func(h *handler) {
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
	return func(h *handler) { h.logger = l }
}

type handler struct {
	fn     func(context.Context, *Notification) error
	limit  int64
	logger *slog.Logger
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
// same notification more than once and may deliver them out of order:
// compare StatusOccurredAt with what you stored.
//
// The platform shows no signature scheme for notifications, so the handler
// cannot tell the platform from anyone else who knows the URL. Wrap it with
// your own check, for example an unguessable token in the listener URL that
// you compare in constant time, and serve it over https only:
//
//	h := tracking.NewHandler(func(ctx context.Context, n *tracking.Notification) error {
//		return store.SaveStatus(ctx, n.TrackingNumber, n.Status, n.StatusOccurredAt.Time)
//	}, tracking.WithErrorLogger(logger))
//	mux.Handle("POST /hooks/tracking/{token}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
//		if subtle.ConstantTimeCompare([]byte(r.PathValue("token")), []byte(secretToken)) != 1 {
//			http.NotFound(w, r)
//			return
//		}
//		h.ServeHTTP(w, r)
//	}))
//
// NewHandler panics when fn is nil.
func NewHandler(fn func(context.Context, *Notification) error, opts ...HandlerOption) http.Handler {
	if fn == nil {
		panic("tracking: NewHandler needs a non-nil callback")
	}
	h := &handler{fn: fn, limit: DefaultMaxBodyBytes}
	for _, o := range opts {
		if o != nil {
			o(h)
		}
	}
	return h
}

// ServeHTTP responds to one notification request.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
	if err := h.fn(r.Context(), n); err != nil {
		h.log(r, slog.LevelError, "rxdelivery: tracking notification callback failed", http.StatusInternalServerError, err)
		http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// log writes one line without path, body, query or headers.
func (h *handler) log(r *http.Request, level slog.Level, msg string, status int, err error) {
	if h.logger == nil || !h.logger.Enabled(r.Context(), level) {
		return
	}
	h.logger.LogAttrs(r.Context(), level, msg,
		slog.String("method", r.Method),
		slog.Int("status", status),
		slog.String("error", err.Error()))
}
