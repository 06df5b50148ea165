package journal

import (
	"context"
	"errors"
	"time"
)

// Key names one create: the interface it goes to and the caller's
// external_reference_number. At most one claim exists per key.
type Key struct {
	// Interface is "omni" for omni requests, "delivery" for delivery orders
	// and "tracking" for the keys of tracking notifications.
	Interface string
	// Reference is the caller's external_reference_number (for a tracking
	// notification, its tracking number, status and status time). It is
	// for code only: [Key.String], [Key.Format], the [Claim] holding it and
	// every error of the journal leave it out.
	Reference string
}

// The interfaces of a [Key].
const (
	// InterfaceOmni is the Key.Interface of omni request creates.
	InterfaceOmni = "omni"
	// InterfaceDelivery is the Key.Interface of delivery order creates.
	InterfaceDelivery = "delivery"
	// InterfaceTracking is the Key.Interface of tracking notifications
	// handled through [Journal.Once].
	InterfaceTracking = "tracking"
)

// State is where a claim stands.
type State string

// The states of a claim. A claim never goes back to being absent on its own:
// only its holder (on a response proving nothing was created) or an operator
// ([Journal.Free]) removes it.
const (
	// StateInFlight is a claim whose holder is sending the create now, or
	// was until its lease ended. A claim in flight whose lease has ended is
	// reported, and stored on first sight, as StateUnknown.
	StateInFlight State = "in_flight"
	// StateCreated is a claim whose create succeeded: Claim.ID holds the
	// created resource's id. For a tracking notification it means the
	// callback returned nil.
	StateCreated State = "created"
	// StateUnknown is a claim whose create may or may not have taken effect:
	// it failed after it may have reached the platform, or its holder's
	// lease ended before it settled. Only an operator moves it on, with
	// [Orders.Resolve], [Requests.Resolve] or [Journal.Free].
	StateUnknown State = "unknown"
)

// Claim is the journal's record of one key.
type Claim struct {
	Key
	// State is where the claim stands.
	State State
	// Token identifies the holder's attempt; only that attempt settles an
	// in-flight claim. It is random and never shown in errors.
	Token string
	// Holder names the process that claimed the key (host and process id,
	// or the name given with [WithHolder]), for the operator.
	Holder string
	// ID is the created resource's id once State is [StateCreated] (empty
	// for tracking notifications).
	ID string
	// Note says why a claim is unknown (the failed call's error, which
	// carries method, path, status and the platform's message, never a
	// request body) or how an operator resolved it.
	Note string
	// ClaimedAt is when the key was claimed.
	ClaimedAt time.Time
	// LeaseUntil is when an in-flight claim's lease ends: past it, on the
	// store's clock, the claim is unknown. ClaimedAt and LeaseUntil of an
	// in-flight claim are stamped by the store (see [Store]).
	LeaseUntil time.Time
	// UpdatedAt is when the claim last changed, on the clock of the store
	// (a claim taken) or of the process that changed it (a claim settled).
	UpdatedAt time.Time
}

// Expired reports whether c is in flight with a lease that ended at or
// before now. The journal does not use it to decide: it asks its store,
// which judges leases on its own clock (see [Store]).
func (c *Claim) Expired(now time.Time) bool {
	return c.State == StateInFlight && !c.LeaseUntil.After(now)
}

// Match selects the stored claim an Update or Delete may change: the one
// under Key, in State, and, when set, with Token and a lease that has
// ended. Stores apply the condition and the change in one atomic step.
type Match struct {
	// Key is the claim's key.
	Key Key
	// State is the state the stored claim must be in.
	State State
	// Token, when not empty, must equal the stored claim's Token.
	Token string
	// LeaseEndedBy, when not zero, asks for a stored claim whose lease has
	// ended: whose LeaseUntil is at or before the store's clock. It is the
	// caller's clock, which a store kept in one process ([MemoryStore])
	// uses as its own; a store shared by processes reads its own clock
	// instead.
	LeaseEndedBy time.Time
}

// Matches reports whether c satisfies m, with m.LeaseEndedBy as the clock.
// Stores that keep claims in Go values (such as [MemoryStore]) use it; SQL
// stores express the same condition in their WHERE clause, on their clock.
func (m *Match) Matches(c *Claim) bool {
	return c.Key == m.Key && c.State == m.State &&
		(m.Token == "" || c.Token == m.Token) &&
		(m.LeaseEndedBy.IsZero() || !c.LeaseUntil.After(m.LeaseEndedBy))
}

// Store keeps claims durably. Every method is atomic on its own: that, and
// one claim per [Key], is all the journal needs for correctness, so a store
// shared by several processes (PostgreSQL, or SQLite on one host) makes
// their creates exactly once without any lock in the processes.
//
// Leases are stamped and judged on one clock, the store's: processes'
// clocks disagree, and a replica whose clock runs ahead would otherwise
// judge a live claim of another replica ended. An Insert, or an Update,
// of an in-flight claim c stores it with ClaimedAt and UpdatedAt set to
// the store's now and LeaseUntil to that plus the lease it was given,
// c.LeaseUntil - c.ClaimedAt; a [Match]'s LeaseEndedBy is judged on the
// same clock. Claims in other states keep the times given. A store shared
// by processes uses a clock they all share (the database server's); a
// store in one process may use the caller's, the times in c and m.
//
// The storetest package checks an implementation against this contract.
type Store interface {
	// Insert stores c unless a claim with c.Key exists. It returns the
	// claim stored under the key afterwards (c as stored, with the store's
	// stamps, when it inserted it) and whether it inserted c.
	Insert(ctx context.Context, c Claim) (stored Claim, inserted bool, err error)
	// Get returns the claim stored under k, or an error matching
	// [ErrNoClaim].
	Get(ctx context.Context, k Key) (Claim, error)
	// Update replaces the stored claim that satisfies m with c (c.Key is
	// m.Key). It returns an error matching [ErrNoMatch] when no stored
	// claim satisfies m.
	Update(ctx context.Context, m Match, c Claim) error
	// Delete removes the stored claim that satisfies m, or returns an error
	// matching [ErrNoMatch].
	Delete(ctx context.Context, m Match) error
	// List returns up to limit claims in state s, oldest ClaimedAt first.
	List(ctx context.Context, s State, limit int) ([]Claim, error)
}

// Errors a [Store] returns.
var (
	// ErrNoClaim matches Get (and [Journal.Get]) on a key that has no
	// claim.
	ErrNoClaim = errors.New("journal: no claim under this key")
	// ErrNoMatch matches an Update or Delete whose [Match] no stored claim
	// satisfies: the claim changed since it was read.
	ErrNoMatch = errors.New("journal: the claim is not in the expected state")
)

// Times are kept at microsecond precision in every store (PostgreSQL's),
// so a claim reads back as it was written whichever store holds it.
func storeTime(t time.Time) time.Time { return t.Round(0).Truncate(time.Microsecond).UTC() }
