package sqlitestore

import (
	"context"
	"time"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/sqlstore"
)

// The store keeps tracking notification marks (journal.Journal.Marks and
// journal.Journal.TrackingHandler) in the table rxdelivery_journal_marks,
// created with the journal's table: one row per tracking number.
var _ journal.MarkStore = (*Store)(nil)

// AdvanceMark moves the mark of trackingNumber to next under the
// condition journal.MarkStore gives, in one conditional upsert, stamping
// and judging leases on the database's clock. Marks are
// rows of the table rxdelivery_journal_marks, created with the journal's
// table.
func (s *Store) AdvanceMark(ctx context.Context, trackingNumber string, next journal.Mark, now time.Time) (bool, journal.Mark, error) {
	return sqlstore.AdvanceMark(ctx, s.DB(), &sqlstore.SQLiteMarks, trackingNumber, next, now)
}

// RetreatMark moves the mark of trackingNumber back to prev when it is at
// at with the lease token, in one conditional update.
func (s *Store) RetreatMark(ctx context.Context, trackingNumber string, at, prev time.Time, token string) error {
	return sqlstore.RetreatMark(ctx, s.DB(), &sqlstore.SQLiteMarks, trackingNumber, at, prev, token)
}

// ReleaseMark ends the lease token on the mark of trackingNumber, in one
// conditional update.
func (s *Store) ReleaseMark(ctx context.Context, trackingNumber, token string) error {
	return sqlstore.ReleaseMark(ctx, s.DB(), &sqlstore.SQLiteMarks, trackingNumber, token)
}

// DeleteMarks removes the marks before cutoff that hold no running lease
// on the database's clock (journal.Journal.PruneMarks), in one statement;
// now is not used.
func (s *Store) DeleteMarks(ctx context.Context, cutoff, _ time.Time) (int, error) {
	return sqlstore.DeleteMarks(ctx, s.DB(), &sqlstore.SQLiteMarks, cutoff)
}
