package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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

// advanceMark is the one conditional upsert that moves a mark: $1 the
// tracking number, $2 the new status time, $3 the lease token (empty for
// none), $4 the lease's end, $5 now. Its WHERE clause is
// journal.MarkStore's condition.
const advanceMark = `INSERT INTO rxdelivery_journal_marks AS m (tracking_number, status_at, prev_at, token, lease_until)
	VALUES ($1, $2, 0, $3, $4)
	` + upsertTail

// upsertTail is the conflict clause of advanceMark.
const upsertTail = `ON CONFLICT (tracking_number) DO UPDATE SET
		prev_at = CASE WHEN m.status_at < excluded.status_at THEN m.status_at ELSE m.prev_at END,
		status_at = excluded.status_at, token = excluded.token, lease_until = excluded.lease_until
	WHERE (m.status_at < excluded.status_at AND (m.token = '' OR m.lease_until <= $5))
		OR (m.status_at = excluded.status_at AND excluded.token <> '' AND m.token <> '' AND m.lease_until <= $5)
	RETURNING status_at, prev_at, token, lease_until`

const readMark = `SELECT status_at, prev_at, token, lease_until FROM rxdelivery_journal_marks WHERE tracking_number = $1`

// MarkStatements are one database's statements on the marks table.
type MarkStatements struct {
	// advance returns (moved, mark...) in one statement when oneTrip,
	// else the moved mark only (then read fetches the mark that stopped
	// it).
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
	advance: `WITH cur AS (
		SELECT status_at, prev_at, token, lease_until FROM rxdelivery_journal_marks WHERE tracking_number = $1
	), up AS (
		INSERT INTO rxdelivery_journal_marks AS m (tracking_number, status_at, prev_at, token, lease_until)
		SELECT CAST($1 AS TEXT), CAST($2 AS BIGINT), 0, CAST($3 AS TEXT), CAST($4 AS BIGINT)
		WHERE NOT EXISTS (SELECT 1 FROM cur c WHERE c.status_at > CAST($2 AS BIGINT)
			OR (c.status_at = CAST($2 AS BIGINT) AND (CAST($3 AS TEXT) = '' OR c.token = '' OR c.lease_until > CAST($5 AS BIGINT)))
			OR (c.status_at < CAST($2 AS BIGINT) AND c.token <> '' AND c.lease_until > CAST($5 AS BIGINT)))
		` + upsertTail + `
	)
	SELECT true, status_at, prev_at, token, lease_until FROM up
	UNION ALL
	SELECT false, status_at, prev_at, token, lease_until FROM cur WHERE NOT EXISTS (SELECT 1 FROM up)`,
	read:    readMark,
	retreat: retreatMark,
	release: releaseMark,
	del:     deleteMarks,
	oneTrip: true,
}

// SQLiteMarks are SQLite's statements (it has no data-modifying WITH: a
// mark that does not move is read by a second statement, in process).
var SQLiteMarks = MarkStatements{
	advance: Question(advanceMark),
	read:    Question(readMark),
	retreat: Question(retreatMark),
	release: Question(releaseMark),
	del:     Question(deleteMarks),
}

const retreatMark = `UPDATE rxdelivery_journal_marks SET status_at = $3, token = '', lease_until = 0
	WHERE tracking_number = $1 AND status_at = $2 AND token = $4`

const deleteMarks = `DELETE FROM rxdelivery_journal_marks
	WHERE status_at < $1 AND (token = '' OR lease_until <= $1)`

const releaseMark = `UPDATE rxdelivery_journal_marks SET token = '', lease_until = 0
	WHERE tracking_number = $1 AND token = $2 AND token <> ''`

func scanMark(row interface{ Scan(...any) error }, moved *bool) (journal.Mark, error) {
	var at, prev, lease int64
	var m journal.Mark
	dest := []any{&at, &prev, &m.Token, &lease}
	if moved != nil {
		dest = append([]any{moved}, dest...)
	}
	if err := row.Scan(dest...); err != nil {
		return journal.Mark{}, err
	}
	m.At, m.Prev, m.LeaseUntil = fromMicros(at), fromMicros(prev), fromMicros(lease)
	return m, nil
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

// AdvanceMark moves the mark of tn to next under journal.MarkStore's
// condition, in one conditional upsert.
func AdvanceMark(ctx context.Context, db *sql.DB, st *MarkStatements, tn string, next journal.Mark, now time.Time) (bool, journal.Mark, error) {
	args := []any{tn, micros(next.At), next.Token, micros(next.LeaseUntil), micros(now)}
	// The mark that stopped the upsert may have changed before it is
	// read (PostgreSQL reads it from the statement's snapshot; SQLite in
	// a second statement): then the upsert is tried again.
	for range 10 {
		var (
			moved bool
			m     journal.Mark
			err   error
		)
		if st.oneTrip {
			m, err = scanMark(db.QueryRowContext(ctx, st.advance, args...), &moved)
		} else {
			m, err = scanMark(db.QueryRowContext(ctx, st.advance, args...), nil)
			moved = err == nil
			if errors.Is(err, sql.ErrNoRows) {
				m, err = scanMark(db.QueryRowContext(ctx, st.read, tn), nil)
			}
		}
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return false, journal.Mark{}, err
		}
		if moved || stops(m, next, now) {
			return moved, m, nil
		}
	}
	return false, journal.Mark{}, errors.New("journal: moving a tracking mark: the mark kept changing")
}

// RetreatMark moves the mark of tn back to prev when it is at at with
// token, in one conditional update.
func RetreatMark(ctx context.Context, db *sql.DB, st *MarkStatements, tn string, at, prev time.Time, token string) error {
	_, err := db.ExecContext(ctx, st.retreat, tn, micros(at), micros(prev), token)
	return err
}

// ReleaseMark ends the lease token on the mark of tn, in one conditional
// update.
func ReleaseMark(ctx context.Context, db *sql.DB, st *MarkStatements, tn, token string) error {
	res, err := db.ExecContext(ctx, st.release, tn, token)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w: the mark of a tracking number", journal.ErrNoMatch)
	}
	return nil
}

// DeleteMarks removes the marks before cutoff that hold no lease unended
// at cutoff, in one statement.
func DeleteMarks(ctx context.Context, db *sql.DB, st *MarkStatements, cutoff time.Time) (int, error) {
	res, err := db.ExecContext(ctx, st.del, micros(cutoff))
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
