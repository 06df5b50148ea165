package journal

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// Get returns the claim under k (without its Token), with an ended lease
// reported as unknown. It returns an error matching [ErrNoClaim] when k has
// no claim.
func (j *Journal) Get(ctx context.Context, k Key) (Claim, error) {
	c, err := j.store.Get(ctx, k)
	if err != nil {
		return Claim{}, redact(k, err)
	}
	j.expire(ctx, &c)
	c.Token = ""
	return c, nil
}

// Unknown lists up to limit claims of unknown outcome, oldest first
// (without their Tokens): creates that failed after they may have reached
// the platform, and in-flight claims whose lease has ended (stored as
// unknown on the way). Each needs an operator: find out on the platform
// whether the create happened, then [Journal.Resolve] or [Journal.Free] it.
func (j *Journal) Unknown(ctx context.Context, limit int) ([]Claim, error) {
	inFlight, err := j.store.List(ctx, StateInFlight, -1)
	if err != nil {
		return nil, err
	}
	for i := range inFlight {
		j.expire(ctx, &inFlight[i])
	}
	out, err := j.store.List(ctx, StateUnknown, limit)
	for i := range out {
		out[i].Token = ""
	}
	return out, err
}

// Resolve records that the unknown claim k was created as id (the
// request or order id an operator found on the platform): later creates
// of k return that resource without sending. It refuses a claim that is
// in flight with a live lease, created already, or absent.
//
// It does not check id against the platform: an id mistyped, or of
// another patient's order, is recorded all the same, and later creates
// of k return that resource. Prefer [Orders.Resolve] and
// [Requests.Resolve], which read the resource and record it only when it
// carries k's reference; [Orders.Unresolve] and [Requests.Unresolve] undo a
// wrong record.
func (j *Journal) Resolve(ctx context.Context, k Key, id string) error {
	if id == "" {
		return errorf(k, "journal: resolving %s: an id is required (use Free when nothing was created)", k)
	}
	c, err := j.unknownClaim(ctx, k)
	if err != nil {
		return err
	}
	u := c
	u.State, u.ID, u.Note, u.UpdatedAt = StateCreated, id, noteResolved, storeTime(j.now())
	if err := j.store.Update(ctx, Match{Key: k, State: StateUnknown, Token: c.Token}, u); err != nil {
		return errorf(k, "journal: resolving %s: %w", k, err)
	}
	j.log(ctx, slog.LevelInfo, "journal: resolved by an operator", k, slog.String("id", id))
	return nil
}

// Free removes the unknown claim k, for an operator who found that its
// create did not happen: the next create of k is sent. It refuses a claim
// that is in flight with a live lease (an error matching [ErrNoMatch] and
// [ErrInFlight]), created (ErrNoMatch), or absent ([ErrNoClaim]).
func (j *Journal) Free(ctx context.Context, k Key) error {
	c, err := j.unknownClaim(ctx, k)
	if err != nil {
		return err
	}
	if err := j.store.Delete(ctx, Match{Key: k, State: StateUnknown, Token: c.Token}); err != nil {
		return errorf(k, "journal: freeing %s: %w", k, err)
	}
	j.log(ctx, slog.LevelInfo, "journal: freed by an operator", k)
	return nil
}

// unknownClaim returns the stored claim k when it is unknown (turning an
// ended lease unknown first).
func (j *Journal) unknownClaim(ctx context.Context, k Key) (Claim, error) {
	c, err := j.store.Get(ctx, k)
	if err != nil {
		return Claim{}, redact(k, err)
	}
	j.expire(ctx, &c)
	switch c.State {
	case StateUnknown:
		return c, nil
	case StateInFlight:
		return Claim{}, inFlight(c)
	default:
		return Claim{}, errorf(k, "%w: %s is already created as %s", ErrNoMatch, k, shown(c.ID))
	}
}

// Prune removes the created claims claimed before cutoff, oldest first,
// and returns how many it removed. Claims are kept until pruned, so the
// store grows by one row per create and per tracking notification; prune
// those older than any retry or redelivery you can receive, since a
// pruned reference is sent again by its next create. Claims in flight or
// of unknown outcome are never pruned.
func (j *Journal) Prune(ctx context.Context, cutoff time.Time) (removed int, err error) {
	defer func() {
		if j.logger != nil {
			j.logger.LogAttrs(ctx, slog.LevelInfo, "journal: pruned created claims", slog.String("holder", j.holder),
				slog.Int("removed", removed), slog.Time("cutoff", cutoff), slog.Bool("failed", err != nil))
		}
	}()
	const page = 500
	cutoff = storeTime(cutoff)
	for {
		claims, err := j.store.List(ctx, StateCreated, page)
		if err != nil {
			return removed, err
		}
		for _, c := range claims {
			if !c.ClaimedAt.Before(cutoff) {
				return removed, nil
			}
			err := j.store.Delete(ctx, Match{Key: c.Key, State: StateCreated, Token: c.Token})
			if err != nil && !errors.Is(err, ErrNoMatch) {
				return removed, errorf(c.Key, "journal: pruning %s: %w", c.Key, err)
			}
			if err == nil {
				removed++
			}
		}
		if len(claims) < page {
			return removed, nil
		}
	}
}
