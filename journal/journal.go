package journal

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
)

// Defaults of a [Journal].
const (
	// DefaultLease is how long a claim stays in flight before it counts as
	// unknown; a create is given at most this long.
	DefaultLease = 2 * time.Minute
	// SettleMargin is how long past the end of its context (its deadline,
	// or the moment it was cancelled) a create goes on writing its outcome
	// to the store: the claim's settling after the call (created, unknown,
	// or released), or the removal of a claim whose insert failed. A
	// create therefore returns at most this long after its context ends,
	// even when the store stalls (a synchronous standby that stopped
	// answering, say). What was not written in time stays as it was: a
	// claim in flight until its lease ends, then unknown, for the runbook;
	// the error returned says so. A tracking callback's outcome is settled
	// under the same margin.
	SettleMargin = 2 * time.Second
	// settleTimeout bounds the store writes that settle a claim after the
	// call when the caller's context has neither ended nor a deadline.
	settleTimeout = 30 * time.Second
)

// Errors of the journal. Every refusal of an already-claimed reference
// matches ErrClaimed and [rxdelivery.ErrUnknownOutcome], and is a
// *[ClaimedError] carrying the claim.
var (
	// ErrClaimed matches a create that was not sent because its reference
	// is already claimed by a create in flight or of unknown outcome.
	ErrClaimed = errors.New("journal: reference already claimed")
	// ErrNoReference matches a create without an external reference
	// number: the journal has nothing to key it by, so nothing is sent.
	// The create's error is a *[rxdelivery.ValidationError] too (path
	// external_reference_number): invalid params.
	ErrNoReference = errors.New("journal: the create has no external reference number")
	// ErrNotRecorded matches a create that succeeded but whose id the
	// journal could not record (the store failed, or an operator settled
	// the claim while the call ran). The created resource is returned with
	// it: record its id by hand ([Orders.Resolve], [Requests.Resolve]) if
	// the claim is unknown.
	ErrNotRecorded = errors.New("journal: created, but the id was not recorded")
	// ErrInFlight matches a refusal because the claim is in flight: a
	// create holds it with a live lease. The *[ClaimedError] of a create
	// refused so matches it, and so does a Resolve ([Journal.Resolve],
	// [Orders.Resolve], [Requests.Resolve]), [Journal.Free] or Unresolve
	// ([Orders.Unresolve], [Requests.Unresolve]) of such a claim. Nothing
	// is to be settled: retry once the lease has ended (Claim.LeaseUntil),
	// when the claim is created or unknown.
	ErrInFlight = errors.New("journal: the claim is in flight")
)

// ClaimedError is the refusal to send a create whose reference is already
// claimed. It matches [ErrClaimed] and [rxdelivery.ErrUnknownOutcome]: the
// create may exist on the platform. When the claim is in flight (another
// create holds it with a live lease) it matches [ErrInFlight] too: that
// create may still succeed, so retry after Claim.LeaseUntil rather than
// settle anything.
type ClaimedError struct {
	// Claim is the stored claim (without its Token): its [State] says
	// whether it is in flight (another holder is sending it now) or
	// unknown (an operator must resolve it), and Holder, ClaimedAt,
	// LeaseUntil and Note what the journal knows.
	Claim Claim
}

// Error says on which interface a create is already claimed, since when,
// by whom and why. It never quotes the reference (a pharmacy's medical
// record number, often): Claim.Reference holds it for code.
func (e *ClaimedError) Error() string {
	c := &e.Claim
	s := "journal: a " + c.Interface + " create with this reference is already claimed by " + shown(c.Holder) +
		" since " + c.ClaimedAt.Format(time.RFC3339)
	switch c.State {
	case StateInFlight:
		s += ": in flight; retry after the lease ends at " + c.LeaseUntil.Format(time.RFC3339)
	default:
		s += ": outcome unknown"
		if c.Note != "" {
			s += " (" + shown(c.Note) + ")"
		}
		s += "; reconcile it, then resolve or free the claim"
	}
	return s
}

// Is matches [ErrClaimed] and [rxdelivery.ErrUnknownOutcome], and
// [ErrInFlight] when the claim is in flight.
func (e *ClaimedError) Is(target error) bool {
	return target == ErrClaimed || target == rxdelivery.ErrUnknownOutcome ||
		(target == ErrInFlight && e.Claim.State == StateInFlight)
}

// Journal makes the creates of omni requests and delivery orders happen at
// most once per external reference number, across retries, restarts and
// replicas that share its [Store], and tells which of them may have
// happened without a response. It is safe for concurrent use.
type Journal struct {
	store  Store
	lease  time.Duration
	holder string
	now    func() time.Time

	logger        *slog.Logger
	logReferences bool
}

// Option configures [New].
type Option func(*Journal)

// WithLease sets how long a claim stays in flight (default [DefaultLease]).
// The create is given at most this long (its context ends then), so a
// claim whose lease ended belongs to a holder that died or stalled, and
// is reported unknown. Values of zero or less keep the default.
func WithLease(d time.Duration) Option {
	return func(j *Journal) {
		if d > 0 {
			j.lease = d
		}
	}
}

// WithHolder names this process in its claims, for the operator (default:
// host name and process id).
func WithHolder(name string) Option {
	return func(j *Journal) {
		if name != "" {
			j.holder = name
		}
	}
}

// WithClock sets this process's clock (default [time.Now]), for tests. It
// stamps the times a claim records when it changes, and the leases of a
// store kept in this process ([MemoryStore]). A store shared by processes
// stamps and judges leases on its own clock, one for every replica:
// pgstore on the PostgreSQL server's, sqlitestore on its host's. So
// replicas whose clocks disagree never judge each other's leases: a claim
// in flight elsewhere turns unknown, and a tracking notification is run
// again, only when its lease has ended on the store's clock.
func WithClock(now func() time.Time) Option {
	return func(j *Journal) {
		if now != nil {
			j.now = now
		}
	}
}

// New returns a [Journal] that keeps its claims in store.
func New(store Store, opts ...Option) *Journal {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	j := &Journal{store: store, lease: DefaultLease, holder: host + ":" + strconv.Itoa(os.Getpid()), now: time.Now}
	for _, o := range opts {
		o(j)
	}
	return j
}

// Store returns the journal's store.
func (j *Journal) Store() Store { return j.store }

func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// claim takes k for this process. It returns the new claim and the
// deadline of the work it guards, or the claim that another holder has
// (with a lease the store judged ended turned unknown).
//
// The deadline is this process's monotonic clock at the start of the
// claim plus the lease: the store stamps the lease later, on its clock,
// so the work ends before the lease does on any clock that runs at the
// rate of this one, whatever its offset.
func (j *Journal) claim(ctx context.Context, k Key) (mine Claim, deadline time.Time, other *Claim, err error) {
	start := time.Now()
	now := storeTime(j.now())
	c := Claim{Key: k, State: StateInFlight, Token: newToken(), Holder: j.holder,
		ClaimedAt: now, LeaseUntil: storeTime(now.Add(j.lease)), UpdatedAt: now}
	stored, inserted, err := j.store.Insert(ctx, c)
	if err != nil {
		// The insert may have been applied without its response reaching us:
		// remove it, or it would count as unknown once its lease ended.
		sctx, cancel := settleContext(ctx)
		defer cancel()
		j.logErr(ctx, "journal: claiming failed", k, err)
		if derr := j.store.Delete(sctx, Match{Key: k, State: StateInFlight, Token: c.Token}); derr != nil {
			// Not removed (or not yet visible: an insert waiting for a
			// synchronous standby commits when the standby answers).
			return Claim{}, time.Time{}, nil, errorf(k, "journal: claiming %s (a claim may have been written: if so, it stays in flight until its lease ends, then reads unknown): %w", k, err)
		}
		return Claim{}, time.Time{}, nil, errorf(k, "journal: claiming %s: %w", k, err)
	}
	if inserted {
		j.log(ctx, slog.LevelDebug, "journal: claimed", k, slog.Time("lease_until", stored.LeaseUntil))
		return stored, start.Add(j.lease), nil, nil
	}
	j.expire(ctx, &stored)
	return Claim{}, time.Time{}, &stored, nil
}

// expire asks the store to turn the in-flight claim c unknown if its lease
// has ended (the store judges it, on its clock), and updates c to what the
// store holds.
func (j *Journal) expire(ctx context.Context, c *Claim) {
	if c.State != StateInFlight {
		return
	}
	now := storeTime(j.now())
	u := *c
	u.State = StateUnknown
	u.Note = "the holder's lease ended before the create settled"
	u.UpdatedAt = now
	err := j.store.Update(ctx, Match{Key: c.Key, State: StateInFlight, Token: c.Token, LeaseEndedBy: now}, u)
	if err == nil {
		j.log(ctx, slog.LevelWarn, "journal: lease ended; outcome unknown", c.Key,
			slog.String("claim_holder", c.Holder), slog.Time("lease_until", c.LeaseUntil))
		*c = u
		return
	}
	if !errors.Is(err, ErrNoMatch) {
		j.logErr(ctx, "journal: expiring a lease failed", c.Key, err)
	}
	if fresh, gerr := j.store.Get(ctx, c.Key); gerr == nil {
		*c = fresh
	}
}

// settleContext returns the context of the store writes that settle a
// claim after ctx's work: they run even when ctx has ended, until
// SettleMargin after it ends (past its deadline, or past the moment it is
// cancelled) and for settleTimeout at most.
func settleContext(ctx context.Context) (context.Context, context.CancelFunc) {
	deadline := time.Now().Add(settleTimeout)
	if d, ok := ctx.Deadline(); ok && d.Add(SettleMargin).Before(deadline) {
		deadline = d.Add(SettleMargin)
	}
	sctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), deadline)
	// A cancellation (before or while settling) leaves the margin from
	// its moment.
	var timer *time.Timer
	var mu sync.Mutex
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		timer = time.AfterFunc(SettleMargin, cancel)
	})
	return sctx, func() {
		stop()
		mu.Lock()
		if timer != nil {
			timer.Stop()
		}
		mu.Unlock()
		cancel()
	}
}

// createOnce runs create under a claim on k: the shared body of
// Requests.Create and Orders.Create.
func createOnce[T any](ctx context.Context, j *Journal, k Key,
	create func(context.Context) (*T, error), get func(context.Context, string) (*T, error), idOf func(*T) string,
) (*T, error) {
	if k.Reference == "" {
		return nil, errNoReference()
	}
	mine, deadline, other, err := j.claim(ctx, k)
	if err != nil {
		return nil, err
	}
	if other != nil {
		if other.State == StateCreated {
			j.log(ctx, slog.LevelDebug, "journal: already created; reading it back", k, slog.String("id", other.ID))
			v, err := get(ctx, other.ID)
			if err != nil {
				return nil, errorf(k, "journal: %s was created as %s; reading it: %w", k, shown(other.ID), err)
			}
			return v, nil
		}
		j.logRefused(ctx, *other)
		shown := *other
		shown.Token = ""
		return nil, &ClaimedError{Claim: shown}
	}

	cctx, cancel := context.WithDeadline(ctx, deadline)
	v, callErr := create(cctx)
	cancel()

	sctx, scancel := settleContext(ctx)
	defer scancel()
	switch {
	case callErr == nil && v != nil && idOf(v) != "":
		if err := j.settle(sctx, mine, StateCreated, idOf(v), ""); err != nil {
			j.logErr(ctx, "journal: created, but the id was not recorded", k, err)
			return v, errorf(k, "%w: %s as %s (%s: resolve it with this id): %w", ErrNotRecorded, k, idOf(v), leftInFlight(mine), err)
		}
		j.log(ctx, slog.LevelDebug, "journal: created", k, slog.String("id", idOf(v)))
		return v, nil
	case callErr == nil:
		// A success without an id: something exists that cannot be read
		// back by id.
		note := "the platform reported success without an id"
		if err := j.settle(sctx, mine, StateUnknown, "", note); err != nil {
			j.logErr(ctx, "journal: created without an id, not recorded", k, err)
			return v, errorf(k, "%w: %s: %w", ErrNotRecorded, k, err)
		}
		j.log(ctx, slog.LevelWarn, "journal: outcome unknown", k, slog.String("cause", note))
		return v, nil
	case provenNotCreated(callErr):
		if err := j.release(sctx, mine); err != nil {
			j.logErr(ctx, "journal: releasing failed", k, err)
			return nil, redact(k, errors.Join(callErr, fmt.Errorf("journal: releasing %s (%s: nothing was created, free it): %w", k, leftInFlight(mine), err)))
		}
		j.log(ctx, slog.LevelInfo, "journal: released; the response proves nothing was created", k)
		return nil, callErr
	default:
		if err := j.settle(sctx, mine, StateUnknown, "", callErr.Error()); err != nil {
			j.logErr(ctx, "journal: marking an unknown outcome failed", k, err)
			return nil, redact(k, errors.Join(callErr, fmt.Errorf("journal: marking %s unknown (%s): %w", k, leftInFlight(mine), err)))
		}
		j.log(ctx, slog.LevelWarn, "journal: outcome unknown", k, slog.String("cause", callErr.Error()))
		return nil, callErr
	}
}

// leftInFlight says what becomes of claim c when the journal could not
// settle it (within SettleMargin of the create's context): the runbook's
// case.
func leftInFlight(c Claim) string {
	return "the claim stays in flight until its lease ends at " + c.LeaseUntil.Format(time.RFC3339) + ", then reads unknown"
}

// logRefused writes the refusal of a key claimed by c.
func (j *Journal) logRefused(ctx context.Context, c Claim) {
	j.log(ctx, slog.LevelInfo, "journal: refused; the key is claimed", c.Key,
		slog.String("state", string(c.State)), slog.String("claim_holder", c.Holder))
}

// settle moves this holder's claim to state (created with id, or unknown
// with note). A claim whose lease ended meanwhile was turned unknown with
// the same token, and is settled all the same.
func (j *Journal) settle(ctx context.Context, mine Claim, state State, id, note string) error {
	u := mine
	u.State, u.ID, u.Note, u.UpdatedAt = state, id, note, storeTime(j.now())
	err := j.store.Update(ctx, Match{Key: mine.Key, State: StateInFlight, Token: mine.Token}, u)
	if errors.Is(err, ErrNoMatch) {
		err = j.store.Update(ctx, Match{Key: mine.Key, State: StateUnknown, Token: mine.Token}, u)
	}
	return err
}

// release removes this holder's claim after a response that proves nothing
// was created.
func (j *Journal) release(ctx context.Context, mine Claim) error {
	err := j.store.Delete(ctx, Match{Key: mine.Key, State: StateInFlight, Token: mine.Token})
	if errors.Is(err, ErrNoMatch) {
		err = j.store.Delete(ctx, Match{Key: mine.Key, State: StateUnknown, Token: mine.Token})
	}
	return err
}

// provenNotCreated reports whether err proves that a create did not take
// effect: the SDK refused to send it (invalid params, configuration), the
// platform responded without acting (a 4xx, 429, 501 or 503), or the request
// never left the process. Any error the SDK did not classify counts as
// unknown.
func provenNotCreated(err error) bool {
	if errors.Is(err, rxdelivery.ErrUnknownOutcome) {
		return false
	}
	var (
		ve *rxdelivery.ValidationError
		ce *rxdelivery.ConfigError
		ae *rxdelivery.APIError
		te *rxdelivery.TransportError
	)
	return errors.As(err, &ve) || errors.As(err, &ce) || errors.As(err, &ae) || errors.As(err, &te)
}
