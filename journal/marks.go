package journal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// Mark is the ordering state a [MarkStore] keeps for one tracking number:
// the latest status_occurred_at moved to, and, while a handler works on
// the notification of that instant, the lease it holds on it.
type Mark struct {
	// At is the latest status_occurred_at the mark moved to, at microsecond
	// precision (the stores' precision).
	At time.Time
	// Prev is the mark At replaced when it last moved forward (the zero
	// time for none).
	Prev time.Time
	// Token identifies the handler working on the notification at At; it
	// is empty once that notification is handled, and for marks kept
	// without leases ([Journal.Marks]).
	Token string
	// LeaseUntil is when the lease of Token ends: past it, the handler
	// counts as dead and the notification at At may be handled elsewhere.
	LeaseUntil time.Time
}

// MarkStore is a [Store] that also keeps tracking notification marks, so
// that the notifications of each tracking number are handled in order
// across every process sharing it. [MemoryStore], pgstore.Store and
// sqlitestore.Store implement it. Each method is one atomic conditional
// change of one tracking number's mark; no lock is held in the process.
// The storetest package checks an implementation (RunMarks).
//
// Leases are stamped and judged on the store's clock, as claims' are (see
// [Store]): a mark moved with a token gets the lease it was given,
// next.LeaseUntil - now, from the store's now, and a lease has ended when
// its LeaseUntil is at or before the store's now. A store shared by
// processes uses a clock they all share (the database server's); a store
// in one process ([MemoryStore]) may use the caller's, now and the times
// given.
type MarkStore interface {
	Store
	// AdvanceMark moves the mark of trackingNumber to next (next.At, with
	// the lease next.Token until next.LeaseUntil; next.Prev is ignored)
	// when there is no mark, or when the stored one is before next.At and
	// holds no lease unended at now, or when it is at next.At with a lease
	// that ended by now and next.Token is not empty (a handler died: the
	// notification is taken over). It reports whether the mark moved and
	// the mark stored afterwards (the new one, with Prev set to the mark
	// it replaced, or the one that stopped it).
	AdvanceMark(ctx context.Context, trackingNumber string, next Mark, now time.Time) (moved bool, stored Mark, err error)
	// RetreatMark moves the mark of trackingNumber back to prev, without a
	// lease, when it is at at with the lease token (empty for marks
	// without leases); otherwise it changes nothing and returns nil.
	RetreatMark(ctx context.Context, trackingNumber string, at, prev time.Time, token string) error
	// ReleaseMark ends the lease token on the mark of trackingNumber: its
	// notification is handled. It returns an error matching [ErrNoMatch]
	// when the mark no longer holds that lease.
	ReleaseMark(ctx context.Context, trackingNumber, token string) error
	// DeleteMarks removes the marks before cutoff that hold no running
	// lease (now is the caller's clock), and returns how many it removed.
	DeleteMarks(ctx context.Context, cutoff, now time.Time) (int, error)
}

// markStore returns the journal's store as a MarkStore, panicking when it
// keeps no marks: a program wiring a custom Store that cannot order
// notifications fails at start, not at its first notification.
func (j *Journal) markStore(caller string) MarkStore {
	ms, ok := j.store.(MarkStore)
	if !ok {
		panic(fmt.Sprintf("journal: %s needs a store that keeps marks (a MarkStore); %T does not", caller, j.store))
	}
	return ms
}

// Marks returns [tracking.Marks] kept in the journal's store, for
// [tracking.WithOrdering]: the notifications of each tracking number are
// ordered across every process sharing the store, and the mark moves in
// one atomic conditional write per notification (an upsert that moves it
// only forward), moving back in one conditional update when the callback
// fails.
//
// These marks hold no lease, so across processes two notifications of one
// tracking number may run their callbacks at the same time, and a process
// that dies while its callback runs leaves the mark moved: the platform's
// redelivery of that notification is then stale. [Journal.TrackingHandler]
// orders the callbacks across processes and hands such a notification to
// the next delivery; prefer it when several processes serve the listener
// URL.
//
// Status times are compared at microsecond precision. Marks panics when
// the store is not a [MarkStore] (every store of this module is).
func (j *Journal) Marks() tracking.Marks {
	return &plainMarks{s: j.markStore("Marks"), now: j.now}
}

type plainMarks struct {
	s   MarkStore
	now func() time.Time
}

func (m *plainMarks) Advance(ctx context.Context, tn string, at time.Time) (bool, time.Time, error) {
	moved, stored, err := m.s.AdvanceMark(ctx, tn, Mark{At: storeTime(at)}, storeTime(m.now()))
	if err != nil {
		return false, time.Time{}, fmt.Errorf("journal: moving a tracking mark: %w", err)
	}
	if moved {
		return true, stored.Prev, nil
	}
	return false, stored.At, nil
}

func (m *plainMarks) Retreat(ctx context.Context, tn string, at, prev time.Time) error {
	// The callback may have failed because the request ended: the mark
	// moves back all the same, or the redelivery would be stale.
	sctx, cancel := settleContext(ctx)
	defer cancel()
	if err := m.s.RetreatMark(sctx, tn, storeTime(at), storeTime(prev), ""); err != nil {
		return fmt.Errorf("journal: moving a tracking mark back: %w", err)
	}
	return nil
}

// TrackingHandler returns the tracking listener handler of fn
// ([tracking.NewHandler] with opts) that hands each notification to fn once
// and in order across every process sharing the journal's store:
// [Journal.Once] and [tracking.WithOrdering] in one.
//
// One conditional write to the store both orders a notification and
// claims it: it moves the tracking number's mark to the notification's
// status_occurred_at and takes a lease on it (the journal's lease,
// [WithLease]), only when the mark is before it and no other notification
// of the tracking number is being handled. The handler then answers:
//   - 204 without calling fn to a notification at or before the mark once
//     that one is handled (stale, or already handled:
//     [tracking.Handler.Stale] counts both, and
//     [tracking.WithStaleDelivery] hands them to fn with
//     Notification.Stale set);
//   - 503 with Retry-After ([ErrTrackingBusy], which matches
//     [tracking.ErrBusy]) while another notification of the tracking number
//     is being handled, so the platform delivers it again later;
//   - after fn: 204 when fn returns nil (the lease ends: a second write),
//     500 when it fails (the mark moves back, so the redelivery is
//     handled).
//
// So the callbacks of a tracking number run one at a time across
// processes, those that succeed in increasing status_occurred_at (after a
// failed call, an older notification may reach fn before the failed one's
// redelivery: see [tracking.WithOrdering]), each notification reaches fn at
// most once when fn succeeds, and a notification newer than every
// one before it is never lost: when a process dies while fn runs, the
// next delivery after the lease ends takes the notification over (fn may
// then see it twice, as with [Journal.Once]). fn is given at most the
// lease. A notification whose status_occurred_at does not parse is not
// ordered; it goes through Once.
//
// Status times are compared at microsecond precision. Do not share the
// store's marks between TrackingHandler and [Journal.Marks].
// TrackingHandler panics when fn is nil or the store is not a [MarkStore]
// (every store of this module is).
func (j *Journal) TrackingHandler(fn func(context.Context, *tracking.Notification) error, opts ...tracking.HandlerOption) *tracking.Handler {
	if fn == nil {
		panic("journal: TrackingHandler needs a non-nil callback")
	}
	m := &leasedMarks{j: j, s: j.markStore("TrackingHandler"), leases: map[string]lease{}}
	return tracking.NewHandler(m.wrap(fn), append(opts[:len(opts):len(opts)], tracking.WithOrdering(m))...)
}

// leasedMarks are the marks of a TrackingHandler: moving one takes a lease
// on its notification, which the callback's success ends.
type leasedMarks struct {
	j *Journal
	s MarkStore

	// leases are the leases this handler holds, by tracking number. The
	// handler serialises the notifications of a tracking number from
	// Advance to Retreat, so there is one at a time per tracking number.
	mu     sync.Mutex
	leases map[string]lease
}

type lease struct {
	at, prev time.Time
	token    string
	// deadline ends the callback: this process's monotonic clock before
	// the store stamped the lease, plus the lease, so the callback ends
	// before the lease does on any clock running at this one's rate.
	deadline time.Time
}

func (m *leasedMarks) Advance(ctx context.Context, tn string, at time.Time) (bool, time.Time, error) {
	at = storeTime(at)
	start := time.Now()
	now := storeTime(m.j.now())
	next := Mark{At: at, Token: newToken(), LeaseUntil: storeTime(now.Add(m.j.lease))}
	moved, stored, err := m.s.AdvanceMark(ctx, tn, next, now)
	if err != nil {
		return false, time.Time{}, fmt.Errorf("journal: moving a tracking mark: %w", err)
	}
	if moved {
		m.mu.Lock()
		m.leases[tn] = lease{at: at, prev: stored.Prev, token: next.Token, deadline: start.Add(m.j.lease)}
		m.mu.Unlock()
		return true, stored.Prev, nil
	}
	if stored.At.After(at) || (stored.At.Equal(at) && stored.Token == "") {
		// Before the mark, or the very notification already handled.
		return false, stored.At, nil
	}
	m.j.log(ctx, slog.LevelInfo, "journal: refused; another notification of the tracking number is being handled",
		Key{Interface: InterfaceTracking, Reference: strconv.Quote(tn)})
	return false, time.Time{}, ErrTrackingBusy
}

// take returns (and forgets) the lease this handler holds on tn at at.
func (m *leasedMarks) take(tn string, at time.Time) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	l, ok := m.leases[tn]
	if !ok || !l.at.Equal(at) {
		return "", false
	}
	delete(m.leases, tn)
	return l.token, true
}

func (m *leasedMarks) Retreat(ctx context.Context, tn string, at, prev time.Time) error {
	at = storeTime(at)
	token, ok := m.take(tn, at)
	if !ok {
		// The callback succeeded and recording it failed: the lease was
		// already given up, or is another's.
		return nil
	}
	sctx, cancel := settleContext(ctx)
	defer cancel()
	if err := m.s.RetreatMark(sctx, tn, at, storeTime(prev), token); err != nil {
		return fmt.Errorf("journal: moving a tracking mark back: %w", err)
	}
	return nil
}

// wrap returns the callback of the handler: fn under the lease Advance
// took, or under Once for a notification the handler does not order.
func (m *leasedMarks) wrap(fn func(context.Context, *tracking.Notification) error) func(context.Context, *tracking.Notification) error {
	once := m.j.Once(fn)
	return func(ctx context.Context, n *tracking.Notification) error {
		if n.Stale {
			// WithStaleDelivery: the caller asked to see it.
			return fn(ctx, n)
		}
		if !n.StatusOccurredAt.Valid() {
			return once(ctx, n)
		}
		at := storeTime(n.StatusOccurredAt.Time)
		m.mu.Lock()
		l, ok := m.leases[n.TrackingNumber]
		m.mu.Unlock()
		if !ok || !l.at.Equal(at) {
			return once(ctx, n)
		}
		k := NotificationKey(n)
		done := false
		defer func() {
			if done {
				return
			}
			// fn panicked: move the mark back so a redelivery runs it.
			if token, ok := m.take(n.TrackingNumber, at); ok {
				sctx, cancel := settleContext(ctx)
				defer cancel()
				_ = m.s.RetreatMark(sctx, n.TrackingNumber, at, l.prev, token)
			}
		}()
		cctx, cancel := context.WithDeadline(ctx, l.deadline)
		err := fn(cctx, n)
		cancel()
		done = true
		if err != nil {
			// The handler moves the mark back (Retreat).
			m.j.log(ctx, slog.LevelInfo, "journal: callback failed; the mark moves back", k)
			return err
		}
		token, ok := m.take(n.TrackingNumber, at)
		if !ok {
			return nil
		}
		sctx, scancel := settleContext(ctx)
		defer scancel()
		if err := m.s.ReleaseMark(sctx, n.TrackingNumber, token); err != nil {
			m.j.logErr(ctx, "journal: recording a tracking notification as handled failed", k, err)
			if errors.Is(err, ErrNoMatch) {
				return errors.New("journal: the lease on a tracking notification ended before its callback returned; it may be handled again")
			}
			return fmt.Errorf("journal: recording a tracking notification as handled: %w", err)
		}
		m.j.log(ctx, slog.LevelDebug, "journal: tracking notification handled", k)
		return nil
	}
}

// PruneMarks removes the tracking marks ([Journal.Marks],
// [Journal.TrackingHandler]) whose status_occurred_at is before cutoff, and
// returns how many it removed. The store keeps one mark per tracking number
// until pruned; prune those older than any notification you can still
// receive, since a notification of a pruned tracking number is no longer
// known to be stale. A mark whose notification is being handled is kept.
// PruneMarks panics when the store is not a [MarkStore] (every store of
// this module is).
func (j *Journal) PruneMarks(ctx context.Context, cutoff time.Time) (int, error) {
	n, err := j.markStore("PruneMarks").DeleteMarks(ctx, storeTime(cutoff), storeTime(j.now()))
	if err != nil {
		return n, fmt.Errorf("journal: pruning tracking marks: %w", err)
	}
	return n, nil
}

// AdvanceMark moves the mark of trackingNumber to next under the
// conditions of [MarkStore].
func (s *MemoryStore) AdvanceMark(ctx context.Context, trackingNumber string, next Mark, now time.Time) (bool, Mark, error) {
	if err := ctx.Err(); err != nil {
		return false, Mark{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.marks == nil {
		s.marks = map[string]Mark{}
	}
	cur, ok := s.marks[trackingNumber]
	if ok && !markMoves(cur, next, now) {
		return false, cur, nil
	}
	next.Prev = time.Time{}
	if ok {
		next.Prev = cur.Prev
		if cur.At.Before(next.At) {
			next.Prev = cur.At
		}
	}
	s.marks[trackingNumber] = next
	return true, next, nil
}

// markMoves is the condition of MarkStore.AdvanceMark on a stored mark;
// SQL stores express it in their upsert's WHERE clause.
func markMoves(cur, next Mark, now time.Time) bool {
	free := cur.Token == "" || !cur.LeaseUntil.After(now)
	if cur.At.Before(next.At) {
		return free
	}
	return cur.At.Equal(next.At) && next.Token != "" && cur.Token != "" && !cur.LeaseUntil.After(now)
}

// RetreatMark moves the mark of trackingNumber back to prev when it is at
// at with token.
func (s *MemoryStore) RetreatMark(ctx context.Context, trackingNumber string, at, prev time.Time, token string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, ok := s.marks[trackingNumber]
	if !ok || !cur.At.Equal(at) || cur.Token != token {
		return nil
	}
	if prev.IsZero() {
		delete(s.marks, trackingNumber)
		return nil
	}
	s.marks[trackingNumber] = Mark{At: prev, Prev: cur.Prev}
	return nil
}

// ReleaseMark ends the lease token on the mark of trackingNumber.
func (s *MemoryStore) ReleaseMark(ctx context.Context, trackingNumber, token string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, ok := s.marks[trackingNumber]
	if !ok || token == "" || cur.Token != token {
		return fmt.Errorf("%w: the mark of a tracking number", ErrNoMatch)
	}
	cur.Token, cur.LeaseUntil = "", time.Time{}
	s.marks[trackingNumber] = cur
	return nil
}

// DeleteMarks removes the marks before cutoff that hold no lease running
// at now.
func (s *MemoryStore) DeleteMarks(ctx context.Context, cutoff, now time.Time) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for tn, m := range s.marks {
		if m.At.Before(cutoff) && (m.Token == "" || !m.LeaseUntil.After(now)) {
			delete(s.marks, tn)
			n++
		}
	}
	return n, nil
}

var _ MarkStore = (*MemoryStore)(nil)
