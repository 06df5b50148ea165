package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/journal"
)

// RunMarks runs the subtests of the marks' contract ([journal.MarkStore]),
// each on a store from newStore, which must hold no marks:
//
//	func TestMarks(t *testing.T) {
//		storetest.RunMarks(t, func(t *testing.T) journal.MarkStore { return newEmptyStore(t) })
//	}
func RunMarks(t *testing.T, newStore func(t *testing.T) journal.MarkStore) {
	t.Run("Conditions", func(t *testing.T) { testMarkConditions(t, newStore(t)) })
	t.Run("ConcurrentAdvance", func(t *testing.T) { testConcurrentAdvance(t, newStore(t), false) })
	t.Run("ConcurrentLeases", func(t *testing.T) { testConcurrentAdvance(t, newStore(t), true) })
	t.Run("Delete", func(t *testing.T) { testDeleteMarks(t, newStore(t)) })
}

func minute(n int) time.Time { return base.Add(time.Duration(n) * time.Minute) }

// testMarkConditions checks AdvanceMark's condition case by case, each on
// a tracking number of its own whose stored mark is set first (at minute
// 0 of the caller's clock, with a lease running for ten hours or ended a
// minute ago), then judged at minute 100: leases are measured from the
// caller's now, whichever clock the store stamps them on.
func testMarkConditions(t *testing.T, s journal.MarkStore) {
	ctx := context.Background()
	now := minute(100)
	running, ended := minute(600), minute(-1)
	leased := func(at int, until time.Time) journal.Mark {
		return journal.Mark{At: minute(at), Token: "held", LeaseUntil: until}
	}
	for i, c := range []struct {
		name   string
		stored *journal.Mark
		next   journal.Mark
		moves  bool
	}{
		{"no mark", nil, journal.Mark{At: minute(10)}, true},
		{"after the mark", &journal.Mark{At: minute(10)}, journal.Mark{At: minute(20)}, true},
		{"at the mark", &journal.Mark{At: minute(10)}, journal.Mark{At: minute(10)}, false},
		{"before the mark", &journal.Mark{At: minute(10)}, journal.Mark{At: minute(5)}, false},
		{"after a running lease", ptr(leased(10, running)), journal.Mark{At: minute(20), Token: "n", LeaseUntil: minute(200)}, false},
		{"after an ended lease", ptr(leased(10, ended)), journal.Mark{At: minute(20), Token: "n", LeaseUntil: minute(200)}, true},
		{"at a running lease", ptr(leased(10, running)), journal.Mark{At: minute(10), Token: "n", LeaseUntil: minute(200)}, false},
		{"at an ended lease", ptr(leased(10, ended)), journal.Mark{At: minute(10), Token: "n", LeaseUntil: minute(200)}, true},
		{"at an ended lease, without a token", ptr(leased(10, ended)), journal.Mark{At: minute(10)}, false},
		{"at a handled mark, with a token", &journal.Mark{At: minute(10)}, journal.Mark{At: minute(10), Token: "n", LeaseUntil: minute(200)}, false},
	} {
		tn := fmt.Sprintf("9400100000000000001%03d", i)
		var before journal.Mark
		if c.stored != nil {
			if _, _, err := s.AdvanceMark(ctx, tn, journal.Mark{At: minute(1)}, minute(0)); err != nil {
				t.Fatal(err)
			}
			moved, m, err := s.AdvanceMark(ctx, tn, *c.stored, minute(0))
			if err != nil || !moved {
				t.Fatalf("%s: setting the mark: moved %v, %v", c.name, moved, err)
			}
			before = m
		}
		moved, m, err := s.AdvanceMark(ctx, tn, c.next, now)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := before
		if c.moves {
			want = c.next
			want.Prev = before.Prev
			if before.At.Before(c.next.At) {
				want.Prev = before.At
			}
		}
		if moved != c.moves || !sameMark(m, want) {
			t.Errorf("%s: moved %v, mark %+v; want moved %v, mark %+v", c.name, moved, m, c.moves, want)
		}
	}

	// Retreat and release act on the mark they name only.
	const tn = "9400100000000000001999"
	next := journal.Mark{At: minute(30), Token: "t", LeaseUntil: minute(200)}
	if _, _, err := s.AdvanceMark(ctx, tn, journal.Mark{At: minute(20)}, now); err != nil {
		t.Fatal(err)
	}
	if moved, _, err := s.AdvanceMark(ctx, tn, next, now); err != nil || !moved {
		t.Fatalf("moved %v, %v", moved, err)
	}
	if err := s.ReleaseMark(ctx, tn, "other"); !errors.Is(err, journal.ErrNoMatch) {
		t.Fatalf("ReleaseMark with another token: %v; want ErrNoMatch", err)
	}
	for _, r := range []struct {
		at    time.Time
		token string
	}{{minute(20), "t"}, {minute(30), "other"}, {minute(30), ""}} {
		if err := s.RetreatMark(ctx, tn, r.at, minute(20), r.token); err != nil {
			t.Fatal(err)
		}
	}
	if _, m, _ := s.AdvanceMark(ctx, tn, journal.Mark{At: minute(25)}, now); !sameMark(m, journal.Mark{At: minute(30), Prev: minute(20), Token: "t", LeaseUntil: minute(200)}) {
		t.Fatalf("after retreats that do not match: %+v; want the mark unchanged", m)
	}
	if err := s.RetreatMark(ctx, tn, minute(30), minute(20), "t"); err != nil {
		t.Fatal(err)
	}
	if moved, m, err := s.AdvanceMark(ctx, tn, journal.Mark{At: minute(25)}, now); err != nil || !moved || !m.Prev.Equal(minute(20)) {
		t.Fatalf("after the retreat: moved %v, mark %+v, %v; want moved from minute 20", moved, m, err)
	}
	if err := s.ReleaseMark(ctx, tn, ""); !errors.Is(err, journal.ErrNoMatch) {
		t.Fatalf("ReleaseMark of a mark without a lease: %v; want ErrNoMatch", err)
	}
}

func ptr[T any](v T) *T { return &v }

// sameMark compares marks but for their lease's end, which a store may
// stamp on its own clock: a mark has one exactly when it has a token.
func sameMark(a, b journal.Mark) bool {
	return a.At.Equal(b.At) && a.Prev.Equal(b.Prev) && a.Token == b.Token && a.LeaseUntil.IsZero() == (a.Token == "")
}

// testConcurrentAdvance has 16 goroutines advance one tracking number to
// 200 instants in shuffled order. Every move must replace the mark the
// previous move set (no move lost to a race), ending at the latest
// instant. With leases, a goroutine releases its lease after its move,
// and no move may happen while another lease runs.
func testConcurrentAdvance(t *testing.T, s journal.MarkStore, leases bool) {
	ctx := context.Background()
	const tn = "9400100000000000002000"
	instants := rand.Perm(200)
	var (
		next    atomic.Int64
		holders atomic.Int32
		mu      sync.Mutex
		moves   []journal.Mark
		wg      sync.WaitGroup
	)
	for g := range 16 {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(instants) {
					return
				}
				m := journal.Mark{At: minute(instants[i] + 1)}
				if leases {
					m.Token, m.LeaseUntil = fmt.Sprintf("g%d-%d", g, i), minute(10_000)
				}
				for {
					moved, stored, err := s.AdvanceMark(ctx, tn, m, minute(0))
					if err != nil {
						t.Error(err)
						return
					}
					if moved && leases && holders.Add(1) != 1 {
						t.Error("a mark moved while another lease ran")
					}
					if moved {
						mu.Lock()
						moves = append(moves, stored)
						mu.Unlock()
					}
					if moved && leases {
						holders.Add(-1)
						if err := s.ReleaseMark(ctx, tn, m.Token); err != nil {
							t.Error(err)
							return
						}
					}
					// A running lease stops a newer instant: try again
					// once it ends.
					if moved || !leases || !stored.At.Before(m.At) || stored.Token == "" {
						break
					}
				}
			}
		})
	}
	wg.Wait()
	slices.SortFunc(moves, func(a, b journal.Mark) int { return a.At.Compare(b.At) })
	prev := time.Time{}
	for _, m := range moves {
		if !m.Prev.Equal(prev) {
			t.Fatalf("a move to %v replaced %v; the move before set %v", m.At, m.Prev, prev)
		}
		prev = m.At
	}
	if !prev.Equal(minute(200)) {
		t.Fatalf("the mark ended at %v; want %v", prev, minute(200))
	}
}

// testDeleteMarks checks DeleteMarks's condition.
func testDeleteMarks(t *testing.T, s journal.MarkStore) {
	ctx := context.Background()
	for tn, m := range map[string]journal.Mark{
		"before":        {At: minute(10)},
		"before-ended":  {At: minute(10), Token: "t", LeaseUntil: minute(-1)},
		"before-leased": {At: minute(10), Token: "t", LeaseUntil: minute(600)},
		"at-cutoff":     {At: minute(50)},
	} {
		if _, _, err := s.AdvanceMark(ctx, tn, m, minute(0)); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.DeleteMarks(ctx, minute(50), minute(0))
	if err != nil || n != 2 {
		t.Fatalf("DeleteMarks = %d, %v; want 2 (before, before-ended)", n, err)
	}
	for tn, gone := range map[string]bool{"before": true, "before-ended": true, "before-leased": false, "at-cutoff": false} {
		moved, _, err := s.AdvanceMark(ctx, tn, journal.Mark{At: minute(1)}, minute(0))
		if err != nil || moved != gone {
			t.Fatalf("%s: moved %v, %v; want moved %v (deleted: %v)", tn, moved, err, gone, gone)
		}
	}
}
