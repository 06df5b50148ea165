package core

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
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

// policy is the retry policy's state of one call, one value in the call:
// what go-retryablehttp's callbacks (call.go) carry from one to the next.
type policy struct {
	// retries counts the policy's retries made, replays the replays of a
	// write made since the last of them; spent is what the retries took
	// from the retry budget.
	retries, replays int
	spent            int64
	// wait is the wait before the retry decided after the last attempt;
	// retrying is set from that decision until the retry starts,
	// replaying when it is a replay, and retryCost is what it took of the
	// budget meanwhile (given back if it never starts). budgetRefused is
	// set when the budget refused a retry.
	wait          time.Duration
	retrying      bool
	replaying     bool
	retryCost     uint8
	budgetRefused bool
	// lastRetryAfter is the last response's Retry-After (call.retryAfter),
	// when hasRetryAfter; lastTook is how long the last attempt's send
	// took.
	lastRetryAfter time.Duration
	hasRetryAfter  bool
	lastTook       time.Duration
}

// retryInput is what the retry decision is made on: the attempt that
// just ended and what is left of the call.
type retryInput struct {
	// Write marks a side-effecting write.
	Write bool
	// Attempt is the number of the attempt that ended, from 1; Left is
	// how many retries the call may still make after it.
	Attempt, Left int
	// Resp is the attempt's response, nil when it failed with Err. Err is
	// its failure, read as an attempt timeout where it is one (attempt.go).
	Resp *http.Response
	Err  error
	// RetryAfter is Resp's Retry-After when HasRetryAfter (read once per
	// response, by call.retryAfter).
	RetryAfter    time.Duration
	HasRetryAfter bool
	// Ended is set when the caller's context (or the exchange's) has
	// ended: nothing is retried.
	Ended bool
	// Now is the time of the decision and Deadline the caller's deadline
	// (zero for none).
	Now, Deadline time.Time
	// WaitMin and WaitMax are the backoff's first wait and its cap (a
	// Retry-After above the cap is not waited for).
	WaitMin, WaitMax time.Duration
	// Jitter, in [0, 1), spreads a backoff wait over its upper half, and
	// a replay's wait over its range.
	Jitter float64
	// Replays is how many replays of a write the call has made since its
	// last retry; Took is how long the attempt that ended took.
	Replays int
	Took    time.Duration
}

// retryWhy says why a retry is made or not.
type retryWhy uint8

const (
	retryNotRetried    retryWhy = iota // the response or failure is not one the policy retries
	retryYes                           // retried after Wait
	retryContextEnded                  // the caller's context has ended
	retryNoneLeft                      // the call has no retries left
	retryAfterTooLong                  // the server's Retry-After is above the wait cap
	retryPastDeadline                  // the wait would pass the caller's deadline
	retryBudgetRefused                 // the client's retry budget is empty (set by the hook, not by decideRetry)
	retryReplay                        // a write HTTP proves unprocessed, sent again at once (unsent.go)
)

var retryWhyText = [...]string{
	retryNotRetried:    "not retried by the policy",
	retryYes:           "retried",
	retryContextEnded:  "the context ended",
	retryNoneLeft:      "no retries left",
	retryAfterTooLong:  "Retry-After above the longest wait",
	retryPastDeadline:  "the wait would pass the deadline",
	retryBudgetRefused: "the retry budget is empty",
	retryReplay:        "replayed: the server did not process it",
}

func (w retryWhy) String() string { return retryWhyText[w] }

// retryDecision is the retry decision: whether the call sends again, why,
// after what wait, and what the retry costs of the retry budget.
type retryDecision struct {
	Retry bool
	Why   retryWhy
	// Wait is the wait before the retry: the server's Retry-After when it
	// sent one, otherwise the backoff's.
	Wait time.Duration
	// Cost is what the retry spends of the budget (budget.go).
	Cost int64
}

// decideRetry is the retry decision, a pure function of the attempt that
// ended and what is left of the call. A retry is decided only when the
// policy retries the response or failure, the call has a retry left, the
// context is live and, when the server sent a Retry-After, that wait is
// within WaitMax and ends by the deadline; only then does it cost
// anything. A write HTTP proves the server did not process is first
// replayed, MaxReplays times at most, without counting as a retry. A backoff wait is the SDK's own: it is slept within the
// context, whose end ends it (and gives its cost back, see exchange).
func decideRetry(in retryInput) retryDecision {
	if in.Ended {
		return retryDecision{Why: retryContextEnded}
	}
	cost := int64(RetryCost)
	var wait time.Duration
	if in.Err != nil {
		if wait, ok := replayWait(in); ok {
			// Sent again soon, as an attempt of its own that is no retry
			// and costs nothing: HTTP proves the server did not process it.
			return retryDecision{Retry: true, Why: retryReplay, Wait: wait}
		}
		if !retryAfterError(in.Write, in.Err) {
			return retryDecision{Why: retryNotRetried}
		}
		if errors.Is(in.Err, rxtypes.ErrAttemptTimeout) {
			cost = TimeoutRetryCost
		}
		wait = backoffWait(in.WaitMin, in.WaitMax, in.Attempt-1, in.Jitter)
	} else {
		if in.Resp == nil {
			return retryDecision{Why: retryNotRetried}
		}
		// 429 and 503 (the platform refused the request) are retried for
		// every call; 500, 502 and 504 for a safe call only.
		switch st := in.Resp.StatusCode; st {
		case http.StatusTooManyRequests, http.StatusServiceUnavailable, http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
			if in.Write && !writeMaySendAgain(st, nil) {
				return retryDecision{Why: retryNotRetried}
			}
		default:
			return retryDecision{Why: retryNotRetried}
		}
		if ra := in.RetryAfter; in.HasRetryAfter {
			if ra > in.WaitMax {
				return retryDecision{Why: retryAfterTooLong, Wait: ra}
			}
			if in.Left > 0 && !in.Deadline.IsZero() && in.Now.Add(ra).After(in.Deadline) {
				return retryDecision{Why: retryPastDeadline, Wait: ra}
			}
			wait = ra
		} else {
			wait = backoffWait(in.WaitMin, in.WaitMax, in.Attempt-1, in.Jitter)
		}
	}
	if in.Left <= 0 {
		return retryDecision{Why: retryNoneLeft, Wait: wait}
	}
	return retryDecision{Retry: true, Why: retryYes, Wait: wait, Cost: cost}
}

// backoffWait is the exponential backoff's wait after the attempt of
// index attempt (0 for the first): min doubled per attempt, capped at max,
// its upper half spread by jitter (in [0, 1)) so that clients do not
// retry in step.
func backoffWait(min, max time.Duration, attempt int, jitter float64) time.Duration {
	wait := min
	for i := 0; i < attempt && wait < max; i++ {
		wait *= 2
	}
	wait = minDuration(wait, max)
	if wait <= 0 {
		return 0
	}
	half := wait / 2
	return half + time.Duration(jitter*float64(wait-half+1))
}

// retryAfterError reports whether an attempt that failed with err (no
// response, or a 2xx body cut short) may be retried: for a safe call when
// a second try may pass; for a write only when the request provably did
// not leave. A timeout of the attempt's own is read as one by the caller
// (asAttemptTimeout), while the caller's context is live.
func retryAfterError(write bool, err error) bool {
	var ns *rxtypes.NotSentError
	if errors.As(err, &ns) {
		// Stopped before sending, by the rate limit's wait or a hook.
		return false
	}
	if !retryableTransportError(err) {
		return false
	}
	if write {
		return writeMaySendAgain(0, err)
	}
	return true
}

// retryAfter reads the Retry-After of a response's header h, once per
// response (send keeps it for the attempt's record, log line, retry
// decision and the interface's pause): an HTTP date is read against the
// client's wall clock.
func (c *call) retryAfter(h http.Header) (time.Duration, bool) {
	// The canonical key, as net/http keeps a response's headers: most
	// responses have none, and the lookup is then all it costs.
	v := h["Retry-After"]
	if len(v) == 0 {
		return 0, false
	}
	return parseRetryAfter(v[0], c.b.s.cfg.WallNow())
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
// (an invalid header, method or scheme) and refused redirects (a loop the
// caller's CheckRedirect stopped, a hop the guard refused) do not.
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
	case isRedirectRefusal(err):
		// The caller's CheckRedirect refused a hop (a redirect loop, a
		// policy), or the guard did: the next try meets the same refusal.
		return false
	}
	return true
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
