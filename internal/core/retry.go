package core

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
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

// retryPolicy decides whether to retry, for one kind of call.
type retryPolicy struct {
	write   bool
	waitMax time.Duration
	now     func() time.Time
}

// check is the CheckRetry of go-retryablehttp. It is given the request's
// context, so it can refuse a Retry-After wait that would outlive the
// deadline; a wait longer than the cap is refused too, and the caller gets
// the final answer with its Retry-After.
func (p *retryPolicy) check(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		// Not ctx.Err(): go-retryablehttp would return that bare, and a bare
		// context error is how Do tells an end during a wait (nothing in
		// flight) from an end during an attempt (wrapped in *url.Error).
		return false, nil
	}
	if err != nil {
		var ns *NotSentError
		if errors.As(err, &ns) {
			// Stopped before sending, by the rate limit's wait or a hook.
			return false, nil
		}
		var cut *bodyCutError
		if errors.As(err, &cut) {
			// A 2xx whose body was cut: a safe call is sent again, a write
			// has been applied and is not.
			return !p.write, nil
		}
		// A timeout of the attempt's own (not the caller's context, which
		// is live here) may pass on a second try.
		err = asAttemptTimeout(ctx, err)
		if !retryableTransportError(err) {
			return false, nil
		}
		return !p.write || neverSent(err), nil
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
		if p.write {
			return false, nil
		}
	default:
		return false, nil
	}
	if wait, ok := parseRetryAfter(resp.Header.Get("Retry-After"), p.now()); ok {
		if wait > p.waitMax {
			return false, nil
		}
		if dl, has := ctx.Deadline(); has && p.now().Add(wait).After(dl) {
			return false, nil
		}
	}
	return true, nil
}

// backoff is the Backoff of go-retryablehttp: the server's Retry-After when
// it gave one (check has already refused one above the cap), otherwise an
// exponential wait from min, doubled per attempt, capped at max, with the
// upper half jittered so that clients do not retry in step.
func (p *retryPolicy) backoff(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if wait, ok := parseRetryAfter(resp.Header.Get("Retry-After"), p.now()); ok {
			return min2(wait, max)
		}
	}
	wait := min
	for i := 0; i < attempt && wait < max; i++ {
		wait *= 2
	}
	wait = min2(wait, max)
	if wait <= 0 {
		return 0
	}
	half := wait / 2
	return half + rand.N(wait-half+1)
}

func min2(a, b time.Duration) time.Duration {
	if a < b {
		return a
	}
	return b
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
	var ns *NotSentError
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
