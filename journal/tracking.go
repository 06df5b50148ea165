package journal

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// ErrTrackingBusy is the response of a [Journal.TrackingHandler] to a
// notification whose tracking number has a notification being handled by
// another process (or by this one through another handler). It matches
// [tracking.ErrBusy], so the handler answers 503 with a Retry-After
// ([tracking.BusyRetryAfter]) and logs it at info level: the platform
// delivers the notification again once that one is done.
var ErrTrackingBusy error = &trackingBusyError{}

type trackingBusyError struct{}

func (*trackingBusyError) Error() string {
	return "journal: another notification of this tracking number is being handled elsewhere; the platform delivers this one again"
}

// Is matches tracking.ErrBusy.
func (*trackingBusyError) Is(target error) bool { return target == tracking.ErrBusy }

// busyNotificationError is Once's refusal of a notification another
// process is handling: the *ClaimedError of its claim, which also matches
// tracking.ErrBusy (the handler answers 503 with a Retry-After).
type busyNotificationError struct{ claimed *ClaimedError }

func (e *busyNotificationError) Error() string        { return e.claimed.Error() }
func (e *busyNotificationError) Unwrap() error        { return e.claimed }
func (e *busyNotificationError) Is(target error) bool { return target == tracking.ErrBusy }

// NotificationKey is the key under which [Journal.Once] records a
// notification: its tracking number, status and status time (the instant in
// RFC 3339 UTC when it parsed, else the text as sent), each quoted.
func NotificationKey(n *tracking.Notification) Key {
	at := n.StatusOccurredAt.Raw
	if n.StatusOccurredAt.Valid() {
		at = n.StatusOccurredAt.UTC().Format(time.RFC3339Nano)
	}
	return Key{Interface: InterfaceTracking,
		Reference: strconv.Quote(n.TrackingNumber) + " " + strconv.Quote(string(n.Status)) + " " + strconv.Quote(at)}
}

// Once wraps fn, a [tracking.NewHandler] callback, so that a notification
// reaches fn once per (tracking number, status, status_occurred_at) across
// every process sharing the journal's store, however often the platform
// delivers it:
//   - a notification already handled (fn returned nil for its key) is
//     acknowledged without calling fn;
//   - while another process runs fn for the key, Once returns an error
//     that is a *[ClaimedError] ([errors.As]) and matches
//     [tracking.ErrBusy], so the handler responds 503 with a Retry-After
//     and the platform delivers again later;
//   - when fn fails, the key is released, so the next delivery calls fn
//     again.
//
// A process that dies while fn runs leaves the key in flight until its
// lease ends; the next delivery after that calls fn again. So fn runs
// twice for one notification only when a process died between calling
// fn and recording its success: a notification is never lost to the
// journal.
func (j *Journal) Once(fn func(context.Context, *tracking.Notification) error) func(context.Context, *tracking.Notification) error {
	return func(ctx context.Context, n *tracking.Notification) (err error) {
		k := NotificationKey(n)
		mine, deadline, other, err := j.claim(ctx, k)
		if err != nil {
			return err
		}
		if other != nil {
			switch other.State {
			case StateCreated:
				j.log(ctx, slog.LevelDebug, "journal: already handled", k)
				return nil
			case StateInFlight:
				j.logRefused(ctx, *other)
				shown := *other
				shown.Token = ""
				return &busyNotificationError{&ClaimedError{Claim: shown}}
			}
			// Unknown: its holder died while fn ran. Take the key over.
			if mine, deadline, err = j.takeOver(ctx, *other); err != nil {
				var ce *ClaimedError
				if errors.As(err, &ce) {
					// Another process took it over first.
					return &busyNotificationError{ce}
				}
				return err
			}
		}
		done := false
		defer func() {
			if done {
				return
			}
			// fn panicked: release the key so a redelivery runs it.
			sctx, cancel := settleContext(ctx)
			defer cancel()
			_ = j.release(sctx, mine)
			j.log(sctx, slog.LevelInfo, "journal: released; the callback panicked", k)
		}()
		cctx, cancel := context.WithDeadline(ctx, deadline)
		ferr := fn(cctx, n)
		cancel()
		done = true
		sctx, scancel := settleContext(ctx)
		defer scancel()
		if ferr != nil {
			if rerr := j.release(sctx, mine); rerr != nil {
				j.logErr(ctx, "journal: releasing failed", k, rerr)
				return errors.Join(ferr, errorf(k, "journal: releasing %s: %w", k, rerr))
			}
			j.log(ctx, slog.LevelInfo, "journal: released; the callback failed", k)
			return ferr
		}
		if err := j.settle(sctx, mine, StateCreated, "", ""); err != nil {
			j.logErr(ctx, "journal: recording a handled notification failed", k, err)
			return errorf(k, "journal: recording %s as handled: %w", k, err)
		}
		j.log(ctx, slog.LevelDebug, "journal: handled", k)
		return nil
	}
}

// takeOver gives the unknown claim c to this process, with a new lease
// (stamped by the store), and returns the deadline of the work it guards
// (see claim).
func (j *Journal) takeOver(ctx context.Context, c Claim) (Claim, time.Time, error) {
	start := time.Now()
	now := storeTime(j.now())
	u := Claim{Key: c.Key, State: StateInFlight, Token: newToken(), Holder: j.holder,
		ClaimedAt: now, LeaseUntil: storeTime(now.Add(j.lease)), UpdatedAt: now,
		Note: "taken over after a holder's lease ended"}
	if err := j.store.Update(ctx, Match{Key: c.Key, State: StateUnknown, Token: c.Token}, u); err != nil {
		if errors.Is(err, ErrNoMatch) {
			// Another process took it over first.
			return Claim{}, time.Time{}, &ClaimedError{Claim: Claim{Key: c.Key, State: StateInFlight, Holder: "another process",
				ClaimedAt: now, LeaseUntil: u.LeaseUntil}}
		}
		j.logErr(ctx, "journal: taking over failed", c.Key, err)
		return Claim{}, time.Time{}, errorf(c.Key, "journal: taking over %s: %w", c.Key, err)
	}
	j.log(ctx, slog.LevelWarn, "journal: taken over after a holder's lease ended", c.Key, slog.String("claim_holder", c.Holder))
	// Read back the store's stamps, so that settling keeps them.
	if stored, err := j.store.Get(ctx, c.Key); err == nil && stored.Token == u.Token {
		u = stored
	}
	return u, start.Add(j.lease), nil
}
