package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/rxdelivery/rxdelivery-go/journal"
)

// MarksTable is the name of the table of tracking notification marks.
const MarksTable = "rxdelivery_journal_marks"

// MarksSchema creates the marks table when missing: one row per tracking
// number, times in Unix microseconds (0 for none).
const MarksSchema = `CREATE TABLE IF NOT EXISTS rxdelivery_journal_marks (
	tracking_number TEXT   NOT NULL PRIMARY KEY,
	status_at       BIGINT NOT NULL,
	prev_at         BIGINT NOT NULL,
	token           TEXT   NOT NULL,
	lease_until     BIGINT NOT NULL
)`

// Leases are stamped and judged on the database's clock ({now}, see
// Dollar and Question), as the journal's claims are: a moved mark with a
// token gets the lease the caller gave (next.LeaseUntil - now, passed as
// a duration) from the database's now, and a lease has ended when it is at
// or before the database's now. Every statement that reads a mark also
// returns the database's now, by which the caller judges it.

// markValue is the new mark's row: $1 the tracking number, $2 the status
// time, $3 the lease token (empty for none), $4 the lease's length.
const markValue = `CAST($1 AS TEXT), CAST($2 AS BIGINT), 0, CAST($3 AS TEXT),
	CASE WHEN CAST($3 AS TEXT) = '' THEN 0 ELSE {now} + CAST($4 AS BIGINT) END`

// upsertTail is the conflict clause of the advance: its WHERE clause is
// journal.MarkStore's condition.
const upsertTail = `ON CONFLICT (tracking_number) DO UPDATE SET
		prev_at = CASE WHEN m.status_at < excluded.status_at THEN m.status_at ELSE m.prev_at END,
		status_at = excluded.status_at, token = excluded.token, lease_until = excluded.lease_until
	WHERE (m.status_at < excluded.status_at AND (m.token = '' OR m.lease_until <= {now}))
		OR (m.status_at = excluded.status_at AND excluded.token <> '' AND m.token <> '' AND m.lease_until <= {now})`

const insertMark = `INSERT INTO rxdelivery_journal_marks AS m (tracking_number, status_at, prev_at, token, lease_until)`

const readMark = `SELECT status_at, prev_at, token, lease_until, {now} FROM rxdelivery_journal_marks WHERE tracking_number = $1`

// MarkStatements are one database's statements on the marks table.
type MarkStatements struct {
	// advance returns (moved, mark..., now) in one statement when
	// oneTrip, else the moved mark only (then read fetches the mark that
	// stopped it).
	advance, read, retreat, release, del string
	oneTrip                              bool
}

// PostgresMarks are PostgreSQL's statements. The advance is one
// statement (one round trip): it reads the mark, runs the conditional
// upsert only when the mark read does not already stop it, and returns
// either the moved mark or the one that stopped it. A notification the
// mark read stops (stale, or busy) so takes no row lock and writes
// nothing: its transaction has no commit to wait for. The upsert's own
// condition still decides whenever it runs, so a mark changed since the
// read is never overwritten.
var PostgresMarks = MarkStatements{
	advance: Dollar(`WITH cur AS (
		SELECT status_at, prev_at, token, lease_until FROM rxdelivery_journal_marks WHERE tracking_number = $1
	), up AS (
		` + insertMark + `
		SELECT ` + markValue + `
		WHERE NOT EXISTS (SELECT 1 FROM cur c WHERE c.status_at > CAST($2 AS BIGINT)
			OR (c.status_at = CAST($2 AS BIGINT) AND (CAST($3 AS TEXT) = '' OR c.token = '' OR c.lease_until > {now}))
			OR (c.status_at < CAST($2 AS BIGINT) AND c.token <> '' AND c.lease_until > {now}))
		` + upsertTail + `
		RETURNING status_at, prev_at, token, lease_until
	)
	SELECT true, status_at, prev_at, token, lease_until, {now} FROM up
	UNION ALL
	SELECT false, status_at, prev_at, token, lease_until, {now} FROM cur WHERE NOT EXISTS (SELECT 1 FROM up)`),
	read:    Dollar(readMark),
	retreat: Dollar(retreatMark),
	release: Dollar(releaseMark),
	del:     Dollar(deleteMarks),
	oneTrip: true,
}

// SQLiteMarks are SQLite's statements (it has no data-modifying WITH: a
// mark that does not move is read by a second statement, in process).
// WHERE true tells SQLite's parser the upsert from a join.
var SQLiteMarks = MarkStatements{
	advance: Question(insertMark + ` SELECT ` + markValue + ` WHERE true ` + upsertTail +
		` RETURNING status_at, prev_at, token, lease_until, {now}`),
	read:    Question(readMark),
	retreat: Question(retreatMark),
	release: Question(releaseMark),
	del:     Question(deleteMarks),
}

const retreatMark = `UPDATE rxdelivery_journal_marks SET status_at = $3, token = '', lease_until = 0
	WHERE tracking_number = $1 AND status_at = $2 AND token = $4`

const deleteMarks = `DELETE FROM rxdelivery_journal_marks
	WHERE status_at < $1 AND (token = '' OR lease_until <= {now})`

const releaseMark = `UPDATE rxdelivery_journal_marks SET token = '', lease_until = 0
	WHERE tracking_number = $1 AND token = $2 AND token <> ''`

func scanMark(row interface{ Scan(...any) error }, moved *bool) (journal.Mark, time.Time, error) {
	var at, prev, lease, now int64
	var m journal.Mark
	dest := []any{&at, &prev, &m.Token, &lease, &now}
	if moved != nil {
		dest = append([]any{moved}, dest...)
	}
	if err := row.Scan(dest...); err != nil {
		return journal.Mark{}, time.Time{}, err
	}
	m.At, m.Prev, m.LeaseUntil = fromMicros(at), fromMicros(prev), fromMicros(lease)
	return m, fromMicros(now), nil
}

// stops reports whether the stored mark cur justifies not moving to next:
// it is false when cur was read from a snapshot older than the upsert's
// view (another process changed the mark meanwhile).
func stops(cur, next journal.Mark, now time.Time) bool {
	free := cur.Token == "" || !cur.LeaseUntil.After(now)
	switch {
	case cur.At.After(next.At):
		return true
	case cur.At.Equal(next.At):
		return next.Token == "" || cur.Token == "" || cur.LeaseUntil.After(now)
	default:
		return !free
	}
}

var _ journal.MarkStore = (*Store)(nil)

// AdvanceMark moves the mark of trackingNumber to next under the
// condition journal.MarkStore gives, in one conditional upsert, stamping
// and judging leases on the database's clock; now is the caller's clock,
// from which next's lease is measured.
func (s *Store) AdvanceMark(ctx context.Context, trackingNumber string, next journal.Mark, now time.Time) (bool, journal.Mark, error) {
	var lease int64
	if next.Token != "" {
		lease = next.LeaseUntil.Sub(now).Microseconds()
	}
	args := []any{trackingNumber, micros(next.At), next.Token, lease}
	// The mark that stopped the upsert may have changed before it is
	// read (PostgreSQL reads it from the statement's snapshot; SQLite in
	// a second statement): then the upsert is tried again.
	for range 10 {
		var (
			moved bool
			m     journal.Mark
			dbNow time.Time
			err   error
		)
		if s.marks.oneTrip {
			m, dbNow, err = scanMark(s.db.QueryRowContext(ctx, s.marks.advance, args...), &moved)
		} else {
			m, dbNow, err = scanMark(s.db.QueryRowContext(ctx, s.marks.advance, args...), nil)
			moved = err == nil
			if errors.Is(err, sql.ErrNoRows) {
				m, dbNow, err = scanMark(s.db.QueryRowContext(ctx, s.marks.read, trackingNumber), nil)
			}
		}
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return false, journal.Mark{}, err
		}
		if moved || stops(m, next, dbNow) {
			return moved, m, nil
		}
	}
	return false, journal.Mark{}, errors.New("journal: moving a tracking mark: the mark kept changing")
}

// RetreatMark moves the mark of trackingNumber back to prev when it is at
// at with the lease token, in one conditional update.
func (s *Store) RetreatMark(ctx context.Context, trackingNumber string, at, prev time.Time, token string) error {
	_, err := s.db.ExecContext(ctx, s.marks.retreat, trackingNumber, micros(at), micros(prev), token)
	return err
}

// ReleaseMark ends the lease token on the mark of trackingNumber, in one
// conditional update.
func (s *Store) ReleaseMark(ctx context.Context, trackingNumber, token string) error {
	res, err := s.db.ExecContext(ctx, s.marks.release, trackingNumber, token)
	return affectedOne(res, err, "the mark of a tracking number")
}

// DeleteMarks removes the marks before cutoff that hold no running lease
// on the database's clock (journal.Journal.PruneMarks), in one statement;
// now is not used.
func (s *Store) DeleteMarks(ctx context.Context, cutoff, _ time.Time) (int, error) {
	res, err := s.db.ExecContext(ctx, s.marks.del, micros(cutoff))
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
