package core

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// The retry policy. Safe calls (reads, pricing quotes, tracking subscribe,
// which is create-or-update) are retried on 429, 500, 502, 503, 504 and
// transport errors. Side-effecting writes are retried only where the
// platform provably did not act: 429 and 503 (it refused the request), a
// failed dial (the request never left), and a stream the server did not
// process (fateOf, unsent.go: a GOAWAY below the stream, REFUSED_STREAM, a
// connection found unusable before the request was written to it). Every
// other failure of a write is returned at once and marked as an unknown
// outcome.

// retryAfterError reports whether an attempt that failed with err (no
// response, or a 2xx body cut short) may be retried: for a safe call when
// a second try may pass; for a write only when the request provably did
// not leave.
func retryAfterError(ctx context.Context, write bool, err error) bool {
	var ns *rxtypes.NotSentError
	if errors.As(err, &ns) {
		// Stopped before sending, by the rate limit's wait or a hook.
		return false
	}
	var cut *bodyCutError
	if errors.As(err, &cut) {
		// A 2xx whose body was cut: a safe call is sent again, a write has
		// been applied and is not.
		return !write
	}
	// A timeout of the attempt's own (not the caller's context, which is
	// live here) may pass on a second try.
	err = asAttemptTimeout(ctx, err)
	if !retryableTransportError(err) {
		return false
	}
	return !write || neverSent(err)
}

// retryStatus reports whether a response with status may be retried: 429
// and 503 (the platform refused the request) for every call; 500, 502 and
// 504 for a safe call only.
func retryStatus(status int, write bool) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return true
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
		return !write
	}
	return false
}

// parseRetryAfter reads a Retry-After value in delay-seconds or as an HTTP
// date (RFC 1123, RFC 850 or ANSI C form). A date in the past is a zero wait.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	const maxSecs = int64(365 * 24 * time.Hour / time.Second)
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(min(secs, maxSecs)) * time.Second, true
	} else if errors.Is(err, strconv.ErrRange) && v[0] != '-' {
		// Digits too many for an int64: a wait longer than any cap.
		return time.Duration(maxSecs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d := t.Sub(now); d > 0 {
		return d, true
	}
	return 0, true
}

// retryableTransportError reports whether a transport failure may pass on a
// second try: certificate problems, requests net/http refuses to write
// (an invalid header, method or scheme) and redirect loops do not.
func retryableTransportError(err error) bool {
	if fateOf(err) == notSentInvalid {
		return false
	}
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalid x509.CertificateInvalidError
	switch {
	case errors.As(err, &certErr), errors.As(err, &unknownAuth), errors.As(err, &hostErr), errors.As(err, &invalid):
		return false
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return false
	}
	return !strings.Contains(err.Error(), "stopped after")
}

// neverSent reports whether err proves that the platform did not act on the
// request: it did not leave the process (the connection could not be made:
// refused, unreachable, DNS; net/http refused to write it), or HTTP proves
// the server did not process it (fateOf).
func neverSent(err error) bool {
	var ns *rxtypes.NotSentError
	if errors.As(err, &ns) || fateOf(err) != mayHaveActed {
		return true
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}

// unknownStatus reports whether a write whose response has status may have
// taken effect.
func unknownStatus(status int) bool {
	return status >= 500 && status != http.StatusServiceUnavailable && status != http.StatusNotImplemented
}

// isWaitCancel reports whether err is a bare context error, as
// go-retryablehttp returns when the context ends during a wait between
// attempts (as opposed to one wrapped in *url.Error, which ended an
// attempt in flight). A write waits only after a refusal (429, 503) or a
// failed dial, so its outcome is known: not applied.
func isWaitCancel(err error) bool {
	return err == context.Canceled || err == context.DeadlineExceeded
}

// retriedKind reports whether err is of a kind the retry policy retries:
// a 429 or 5xx response, a failed exchange that the caller's context did not
// end, or a response cut short.
func retriedKind(err error) bool {
	var ae *rxtypes.APIError
	if errors.As(err, &ae) {
		return ae.StatusCode == http.StatusTooManyRequests || ae.StatusCode >= 500
	}
	var te *rxtypes.TransportError
	if errors.As(err, &te) {
		return !errors.Is(te.Err, context.Canceled) && !errors.Is(te.Err, context.DeadlineExceeded)
	}
	var de *rxtypes.DecodeError
	return errors.As(err, &de) && de.Incomplete
}
