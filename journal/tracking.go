package journal

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// NotificationKey is the key under which Once records a notification: its
// tracking number, status and status time (the instant in RFC 3339 UTC
// when it parsed, else the text as sent), each quoted.
func NotificationKey(n *tracking.Notification) Key {
	at := n.StatusOccurredAt.Raw
	if n.StatusOccurredAt.Valid() {
		at = n.StatusOccurredAt.UTC().Format(time.RFC3339Nano)
	}
	return Key{Interface: InterfaceTracking,
		Reference: strconv.Quote(n.TrackingNumber) + " " + strconv.Quote(string(n.Status)) + " " + strconv.Quote(at)}
}

// Once wraps fn, a tracking.NewHandler callback, so that a notification
// reaches fn once per (tracking number, status, status_occurred_at) across
// every process sharing the journal's store, however often the platform
// delivers it:
//   - a notification already handled (fn returned nil for its key) is
//     acknowledged without calling fn;
//   - while another process runs fn for the key, Once returns a
//     *ClaimedError, so the handler responds 500 and the platform delivers
//     again later;
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
				return &ClaimedError{Claim: shown}
			}
			// Unknown: its holder died while fn ran. Take the key over.
			if mine, deadline, err = j.takeOver(ctx, *other); err != nil {
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
