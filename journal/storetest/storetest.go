// Package storetest checks a journal.Store against the contract the
// journal relies on. A store's tests call [Run] with a function that returns
// an empty store:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) journal.Store { return newEmptyStore(t) })
//	}
package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/journal"
)

// Run runs the contract's subtests, each on a store from newStore. The
// store must be empty.
func Run(t *testing.T, newStore func(t *testing.T) journal.Store) {
	t.Run("InsertOnce", func(t *testing.T) { testInsertOnce(t, newStore(t)) })
	t.Run("RoundTrip", func(t *testing.T) { testRoundTrip(t, newStore(t)) })
	t.Run("Match", func(t *testing.T) { testMatch(t, newStore(t)) })
	t.Run("LeaseStamps", func(t *testing.T) { testLeaseStamps(t, newStore(t)) })
	t.Run("List", func(t *testing.T) { testList(t, newStore(t)) })
	t.Run("ConcurrentInsert", func(t *testing.T) { testConcurrentInsert(t, newStore(t)) })
	t.Run("ConcurrentUpdate", func(t *testing.T) { testConcurrentUpdate(t, newStore(t)) })
}

var base = time.Date(2026, 3, 4, 5, 6, 7, 123456000, time.UTC)

func claim(ref, token string, at time.Time) journal.Claim {
	return journal.Claim{
		Key:   journal.Key{Interface: journal.InterfaceDelivery, Reference: ref},
		State: journal.StateInFlight, Token: token, Holder: "host:1",
		ClaimedAt: at, LeaseUntil: at.Add(time.Minute), UpdatedAt: at,
	}
}

func testInsertOnce(t *testing.T, s journal.Store) {
	ctx := context.Background()
	a, ok, err := s.Insert(ctx, claim("r1", "ta", base))
	if err != nil || !ok || !sameButTimes(a, claim("r1", "ta", base)) {
		t.Fatalf("first Insert = %+v, %v, %v; want the claim, true", a, ok, err)
	}
	b := claim("r1", "tb", base.Add(time.Second))
	got, ok, err := s.Insert(ctx, b)
	if err != nil || ok || got != a {
		t.Fatalf("second Insert = %+v, %v, %v; want the first claim as stored, false", got, ok, err)
	}
	// The same reference on another interface is another key.
	c := claim("r1", "tc", base)
	c.Interface = journal.InterfaceOmni
	if _, ok, err := s.Insert(ctx, c); err != nil || !ok {
		t.Fatalf("Insert on another interface = %v, %v; want inserted", ok, err)
	}
	if _, err := s.Get(ctx, journal.Key{Interface: "delivery", Reference: "absent"}); !errors.Is(err, journal.ErrNoClaim) {
		t.Fatalf("Get of an absent key: %v; want ErrNoClaim", err)
	}
}

func testRoundTrip(t *testing.T, s journal.Store) {
	ctx := context.Background()
	// A claim that is not in flight is stored with its times as given.
	c := claim(`ref "with" quotes, 'ünïcode' and ; -- sql`, "tok", base)
	c.State, c.ID, c.Note = journal.StateCreated, "ord_1", "a note"
	if stored, ok, err := s.Insert(ctx, c); err != nil || !ok || stored != c {
		t.Fatalf("Insert = %+v, %v, %v; want %+v", stored, ok, err, c)
	}
	got, err := s.Get(ctx, c.Key)
	if err != nil || got != c {
		t.Fatalf("Get = %+v, %v; want %+v", got, err, c)
	}
	if got.Reference != c.Reference || !got.ClaimedAt.Equal(base) || got.ClaimedAt.Location() != time.UTC {
		t.Fatalf("Get = %q at %v; want %q at %v in UTC", got.Reference, got.ClaimedAt, c.Reference, base)
	}
	// An in-flight claim reads back as Insert returned it.
	f, _, err := s.Insert(ctx, claim("in flight", "tok", base))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, f.Key); err != nil || got != f || got.LeaseUntil.Location() != time.UTC {
		t.Fatalf("Get = %+v, %v; want %+v in UTC", got, err, f)
	}
}

func testMatch(t *testing.T, s journal.Store) {
	ctx := context.Background()
	c, _, err := s.Insert(ctx, claim("r", "tok", base))
	if err != nil {
		t.Fatal(err)
	}
	created := c
	created.State, created.ID, created.UpdatedAt = journal.StateCreated, "ord_9", base.Add(time.Second)
	for _, m := range []journal.Match{
		{Key: c.Key, State: journal.StateUnknown},                                              // wrong state
		{Key: c.Key, State: journal.StateInFlight, Token: "other"},                             // wrong token
		{Key: c.Key, State: journal.StateInFlight, LeaseEndedBy: c.ClaimedAt.Add(time.Second)}, // lease not ended
		{Key: journal.Key{Interface: "delivery", Reference: "nope"}, State: journal.StateInFlight},
	} {
		if err := s.Update(ctx, m, created); !errors.Is(err, journal.ErrNoMatch) {
			t.Fatalf("Update(%+v) = %v; want ErrNoMatch", m, err)
		}
		if err := s.Delete(ctx, m); !errors.Is(err, journal.ErrNoMatch) {
			t.Fatalf("Delete(%+v) = %v; want ErrNoMatch", m, err)
		}
	}
	if got, _ := s.Get(ctx, c.Key); got != c {
		t.Fatalf("claim changed by unmatched calls: %+v", got)
	}
	// The lease ends exactly at LeaseUntil: a claim given no lease has
	// one that ended when it was stamped.
	if err := s.Delete(ctx, journal.Match{Key: c.Key, State: journal.StateInFlight, Token: "tok"}); err != nil {
		t.Fatal(err)
	}
	zero := claim("r", "tok", base)
	zero.LeaseUntil = zero.ClaimedAt
	if c, _, err = s.Insert(ctx, zero); err != nil {
		t.Fatal(err)
	}
	expired := c
	expired.State, expired.Note = journal.StateUnknown, "lease ended"
	if err := s.Update(ctx, journal.Match{Key: c.Key, State: journal.StateInFlight, Token: "tok", LeaseEndedBy: c.LeaseUntil}, expired); err != nil {
		t.Fatalf("Update at the lease's end: %v", err)
	}
	if got, _ := s.Get(ctx, c.Key); got != expired {
		t.Fatalf("after Update: %+v; want %+v", got, expired)
	}
	created.State = journal.StateCreated
	if err := s.Update(ctx, journal.Match{Key: c.Key, State: journal.StateUnknown}, created); err != nil {
		t.Fatalf("Update with any token: %v", err)
	}
	if got, _ := s.Get(ctx, c.Key); got != created {
		t.Fatalf("after Update: %+v; want %+v", got, created)
	}
	if err := s.Delete(ctx, journal.Match{Key: c.Key, State: journal.StateCreated, Token: "tok"}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := s.Get(ctx, c.Key); !errors.Is(err, journal.ErrNoClaim) {
		t.Fatalf("Get after Delete: %v; want ErrNoClaim", err)
	}
	if _, ok, err := s.Insert(ctx, c); err != nil || !ok {
		t.Fatalf("Insert after Delete = %v, %v; want inserted", ok, err)
	}
}

// sameButTimes reports whether a and b differ at most in their times.
func sameButTimes(a, b journal.Claim) bool {
	a.ClaimedAt, a.LeaseUntil, a.UpdatedAt = b.ClaimedAt, b.LeaseUntil, b.UpdatedAt
	return a == b
}

// testLeaseStamps checks the lease an in-flight claim is given, whichever
// clock stamps it (the caller's, in the claim, or the store's own): it
// runs LeaseUntil - ClaimedAt from the stamp, on insert and when an update
// puts a claim in flight again (a takeover).
func testLeaseStamps(t *testing.T, s journal.Store) {
	ctx := context.Background()
	c := claim("stamped", "tok", base)
	c.LeaseUntil = base.Add(90 * time.Second)
	stored, ok, err := s.Insert(ctx, c)
	if err != nil || !ok || !sameButTimes(stored, c) {
		t.Fatalf("Insert = %+v, %v, %v; want %+v", stored, ok, err, c)
	}
	if d := stored.LeaseUntil.Sub(stored.ClaimedAt); d != 90*time.Second || !stored.UpdatedAt.Equal(stored.ClaimedAt) {
		t.Fatalf("stored %+v: a lease of %v; want 90s from the claim's stamp", stored, d)
	}
	// A live lease has not ended.
	if err := s.Update(ctx, journal.Match{Key: c.Key, State: journal.StateInFlight, LeaseEndedBy: stored.ClaimedAt}, stored); !errors.Is(err, journal.ErrNoMatch) {
		t.Fatalf("Update of a live lease as ended = %v; want ErrNoMatch", err)
	}
	unknown := stored
	unknown.State = journal.StateUnknown
	if err := s.Update(ctx, journal.Match{Key: c.Key, State: journal.StateInFlight, Token: "tok"}, unknown); err != nil {
		t.Fatal(err)
	}
	taken := claim("stamped", "tok2", base.Add(time.Hour))
	taken.LeaseUntil = taken.ClaimedAt.Add(30 * time.Second)
	if err := s.Update(ctx, journal.Match{Key: c.Key, State: journal.StateUnknown, Token: "tok"}, taken); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, c.Key)
	if err != nil || !sameButTimes(got, taken) {
		t.Fatalf("Get after a takeover = %+v, %v; want %+v", got, err, taken)
	}
	if d := got.LeaseUntil.Sub(got.ClaimedAt); d != 30*time.Second {
		t.Fatalf("taken over with a lease of %v; want 30s", d)
	}
}

func testList(t *testing.T, s journal.Store) {
	ctx := context.Background()
	for i, st := range []journal.State{journal.StateUnknown, journal.StateInFlight, journal.StateUnknown, journal.StateCreated, journal.StateUnknown} {
		c := claim(fmt.Sprintf("r%d", i), "t", base.Add(-time.Duration(i)*time.Second))
		c.State = st
		if _, _, err := s.Insert(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.List(ctx, journal.StateUnknown, -1)
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, c := range got {
		refs = append(refs, c.Reference)
	}
	if fmt.Sprint(refs) != "[r4 r2 r0]" {
		t.Fatalf("List(unknown) = %v; want [r4 r2 r0], oldest first", refs)
	}
	if got, err := s.List(ctx, journal.StateUnknown, 2); err != nil || len(got) != 2 || got[0].Reference != "r4" {
		t.Fatalf("List(unknown, 2) = %+v, %v; want r4 and r2", got, err)
	}
	if got, err := s.List(ctx, journal.StateCreated, 10); err != nil || len(got) != 1 {
		t.Fatalf("List(created) = %+v, %v; want one", got, err)
	}
}

// testConcurrentInsert races inserts of one key: exactly one wins, and
// every loser sees the winner's claim.
func testConcurrentInsert(t *testing.T, s journal.Store) {
	ctx := context.Background()
	const n = 16
	var wins atomic.Int32
	var wg sync.WaitGroup
	winner := make([]string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, ok, err := s.Insert(ctx, claim("race", fmt.Sprint("t", i), base))
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				wins.Add(1)
			}
			winner[i] = got.Token
		}()
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d inserts of one key won; want 1", wins.Load())
	}
	for i := 1; i < n; i++ {
		if winner[i] != winner[0] {
			t.Fatalf("inserts saw different claims: %q and %q", winner[0], winner[i])
		}
	}
}

// testConcurrentUpdate races conditional updates of one claim: exactly one
// applies.
func testConcurrentUpdate(t *testing.T, s journal.Store) {
	ctx := context.Background()
	c := claim("upd", "tok", base)
	if _, _, err := s.Insert(ctx, c); err != nil {
		t.Fatal(err)
	}
	const n = 16
	var wins atomic.Int32
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := c
			u.State, u.Token = journal.StateUnknown, fmt.Sprint("t", i)
			err := s.Update(ctx, journal.Match{Key: c.Key, State: journal.StateInFlight, Token: "tok"}, u)
			switch {
			case err == nil:
				wins.Add(1)
			case !errors.Is(err, journal.ErrNoMatch):
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d conditional updates applied; want 1", wins.Load())
	}
}
