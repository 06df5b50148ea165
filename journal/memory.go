package journal

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
)

// MemoryStore is a [Store] in process memory, for tests and for programs
// whose creates need no protection across a restart. Its claims are lost
// when the process ends. Its clock is its callers' (the journal's, see
// [WithClock]): it keeps the times it is given. It is safe for concurrent
// use.
type MemoryStore struct {
	mu     sync.Mutex
	claims map[Key]Claim
	marks  map[string]Mark // tracking notification marks (marks.go)
}

// NewMemoryStore returns an empty [MemoryStore].
func NewMemoryStore() *MemoryStore { return &MemoryStore{claims: map[Key]Claim{}} }

// Insert stores c unless its key has a claim.
func (s *MemoryStore) Insert(ctx context.Context, c Claim) (Claim, bool, error) {
	if err := ctx.Err(); err != nil {
		return Claim{}, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.claims[c.Key]; ok {
		return old, false, nil
	}
	s.claims[c.Key] = c
	return c, true, nil
}

// Get returns the claim under k.
func (s *MemoryStore) Get(ctx context.Context, k Key) (Claim, error) {
	if err := ctx.Err(); err != nil {
		return Claim{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.claims[k]
	if !ok {
		return Claim{}, fmt.Errorf("%w: %s", ErrNoClaim, k)
	}
	return c, nil
}

// Update replaces the claim that satisfies m with c.
func (s *MemoryStore) Update(ctx context.Context, m Match, c Claim) error {
	c.Key = m.Key
	return s.changeMatching(ctx, m, func() { s.claims[m.Key] = c })
}

// Delete removes the claim that satisfies m.
func (s *MemoryStore) Delete(ctx context.Context, m Match) error {
	return s.changeMatching(ctx, m, func() { delete(s.claims, m.Key) })
}

// changeMatching runs change under the store's lock when the claim under
// m.Key satisfies m, and returns an error matching ErrNoMatch otherwise.
func (s *MemoryStore) changeMatching(ctx context.Context, m Match, change func()) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.claims[m.Key]
	if !ok || !m.Matches(&old) {
		return fmt.Errorf("%w: %s", ErrNoMatch, m.Key)
	}
	change()
	return nil
}

// List returns up to limit claims in state st, oldest first.
func (s *MemoryStore) List(ctx context.Context, st State, limit int) ([]Claim, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	var out []Claim
	for _, c := range s.claims {
		if c.State == st {
			out = append(out, c)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b Claim) int {
		return cmp.Or(a.ClaimedAt.Compare(b.ClaimedAt), cmp.Compare(a.Interface, b.Interface), cmp.Compare(a.Reference, b.Reference))
	})
	if limit >= 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
