// Package sqlstore is the journal.Store over database/sql shared by the
// PostgreSQL and SQLite stores. Correctness comes from the database: the
// table's primary key allows one claim per key, and every change is one
// conditional statement, which the database applies atomically.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/rxdelivery/rxdelivery-go/journal"
)

// Table is the name of the journal's table.
const Table = "rxdelivery_journal"

// Schema creates the table and its index when missing. Times are Unix
// microseconds, the same in every database.
const Schema = `CREATE TABLE IF NOT EXISTS rxdelivery_journal (
	interface   TEXT   NOT NULL,
	reference   TEXT   NOT NULL,
	state       TEXT   NOT NULL,
	token       TEXT   NOT NULL,
	holder      TEXT   NOT NULL,
	resource_id TEXT   NOT NULL,
	note        TEXT   NOT NULL,
	claimed_at  BIGINT NOT NULL,
	lease_until BIGINT NOT NULL,
	updated_at  BIGINT NOT NULL,
	PRIMARY KEY (interface, reference)
);
CREATE INDEX IF NOT EXISTS rxdelivery_journal_state ON rxdelivery_journal (state, claimed_at)`

// Store is a journal.Store on a database/sql handle. It stamps and judges
// leases on the database's clock (see Dollar and Question), so that the
// processes sharing it never compare their own clocks.
type Store struct {
	db    *sql.DB
	marks *MarkStatements

	insert, get, update, del, list string
}

// New returns a Store on db. Statements are written with $n placeholders
// and {now} for the database's clock in Unix microseconds; positional
// rewrites both to the database's form. marks are the same database's
// statements on the marks table (PostgresMarks or SQLiteMarks).
func New(db *sql.DB, positional func(string) string, marks *MarkStatements) *Store {
	const cols = `interface, reference, state, token, holder, resource_id, note, claimed_at, lease_until, updated_at`
	const match = ` WHERE interface = $1 AND reference = $2 AND state = $3 AND ($4 = '' OR token = $4)
		AND (CAST($5 AS BIGINT) = 0 OR lease_until <= {now})`
	// An in-flight claim is stamped on the database's clock: claimed and
	// updated now, its lease ending now plus the lease it was given
	// (LeaseUntil - ClaimedAt). Other claims keep their times.
	stamp := func(state, claimed, lease, updated string) string {
		inFlight := `CAST(` + state + ` AS TEXT) = '` + string(journal.StateInFlight) + `'`
		return `CASE WHEN ` + inFlight + ` THEN {now} ELSE CAST(` + claimed + ` AS BIGINT) END, ` +
			`CASE WHEN ` + inFlight + ` THEN {now} + CAST(` + lease + ` AS BIGINT) - CAST(` + claimed + ` AS BIGINT) ELSE CAST(` + lease + ` AS BIGINT) END, ` +
			`CASE WHEN ` + inFlight + ` THEN {now} ELSE CAST(` + updated + ` AS BIGINT) END`
	}
	return &Store{
		db:    db,
		marks: marks,
		// WHERE true: SQLite needs it to tell an upsert from a join.
		insert: positional(`INSERT INTO rxdelivery_journal (` + cols + `)
			SELECT $1, $2, $3, $4, $5, $6, $7, ` + stamp("$3", "$8", "$9", "$10") + ` WHERE true
			ON CONFLICT (interface, reference) DO NOTHING
			RETURNING claimed_at, lease_until, updated_at`),
		get: positional(`SELECT ` + cols + ` FROM rxdelivery_journal WHERE interface = $1 AND reference = $2`),
		update: positional(`UPDATE rxdelivery_journal SET (state, token, holder, resource_id, note, claimed_at, lease_until, updated_at) =
			(SELECT $6, $7, $8, $9, $10, ` + stamp("$6", "$11", "$12", "$13") + `)` + match),
		del:  positional(`DELETE FROM rxdelivery_journal` + match),
		list: positional(`SELECT ` + cols + ` FROM rxdelivery_journal WHERE state = $1 ORDER BY claimed_at, interface, reference LIMIT $2`),
	}
}

// Dollar keeps $n placeholders and reads the clock of the PostgreSQL
// server (statement_timestamp(): one clock for every replica).
func Dollar(q string) string {
	return strings.ReplaceAll(q, "{now}", "CAST(EXTRACT(EPOCH FROM statement_timestamp()) * 1000000 AS BIGINT)")
}

// Question rewrites $n placeholders as ?n (SQLite) and reads the clock of
// the process running the statement, which every process sharing the
// file on its host shares (in milliseconds).
func Question(q string) string {
	q = strings.ReplaceAll(q, "{now}", "CAST(unixepoch('subsec') * 1000 AS INTEGER) * 1000")
	return strings.ReplaceAll(q, "$", "?")
}

// DB returns the handle.
func (s *Store) DB() *sql.DB { return s.db }

func micros(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMicro()
}

func fromMicros(us int64) time.Time {
	if us == 0 {
		return time.Time{}
	}
	return time.UnixMicro(us).UTC()
}

func scan(row interface{ Scan(...any) error }) (journal.Claim, error) {
	var c journal.Claim
	var claimed, lease, updated int64
	var state string
	err := row.Scan(&c.Interface, &c.Reference, &state, &c.Token, &c.Holder, &c.ID, &c.Note, &claimed, &lease, &updated)
	c.State = journal.State(state)
	c.ClaimedAt, c.LeaseUntil, c.UpdatedAt = fromMicros(claimed), fromMicros(lease), fromMicros(updated)
	return c, err
}

// Insert stores c unless its key has a claim; an in-flight c is stamped
// on the database's clock, and returned as stored.
func (s *Store) Insert(ctx context.Context, c journal.Claim) (journal.Claim, bool, error) {
	// A claim seen as present can be gone by the time it is read (its
	// holder released it): then insert again.
	for range 10 {
		var claimed, lease, updated int64
		err := s.db.QueryRowContext(ctx, s.insert, c.Interface, c.Reference, string(c.State), c.Token, c.Holder, c.ID, c.Note,
			micros(c.ClaimedAt), micros(c.LeaseUntil), micros(c.UpdatedAt)).Scan(&claimed, &lease, &updated)
		if err == nil {
			c.ClaimedAt, c.LeaseUntil, c.UpdatedAt = fromMicros(claimed), fromMicros(lease), fromMicros(updated)
			return c, true, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return journal.Claim{}, false, err
		}
		stored, err := s.Get(ctx, c.Key)
		if errors.Is(err, journal.ErrNoClaim) {
			continue
		}
		return stored, false, err
	}
	return journal.Claim{}, false, fmt.Errorf("journal: claiming %s: the claim kept changing", c.Key)
}

// Get returns the claim under k.
func (s *Store) Get(ctx context.Context, k journal.Key) (journal.Claim, error) {
	c, err := scan(s.db.QueryRowContext(ctx, s.get, k.Interface, k.Reference))
	if errors.Is(err, sql.ErrNoRows) {
		return journal.Claim{}, fmt.Errorf("%w: %s", journal.ErrNoClaim, k)
	}
	return c, err
}

func matchArgs(m journal.Match) []any {
	return []any{m.Key.Interface, m.Key.Reference, string(m.State), m.Token, micros(m.LeaseEndedBy)}
}

// affectedOne returns the error of a conditional change of one row: err
// when it failed, and an error matching journal.ErrNoMatch that names what
// (never a reference) when it changed no row.
func affectedOne(res sql.Result, err error, what string) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w: %s", journal.ErrNoMatch, what)
	}
	return nil
}

// Update replaces the claim that satisfies m with c; an in-flight c is
// stamped on the database's clock.
func (s *Store) Update(ctx context.Context, m journal.Match, c journal.Claim) error {
	args := append(matchArgs(m), string(c.State), c.Token, c.Holder, c.ID, c.Note,
		micros(c.ClaimedAt), micros(c.LeaseUntil), micros(c.UpdatedAt))
	res, err := s.db.ExecContext(ctx, s.update, args...)
	return affectedOne(res, err, m.Key.String())
}

// Delete removes the claim that satisfies m.
func (s *Store) Delete(ctx context.Context, m journal.Match) error {
	res, err := s.db.ExecContext(ctx, s.del, matchArgs(m)...)
	return affectedOne(res, err, m.Key.String())
}

// List returns up to limit claims in state st, oldest first; a negative
// limit lists all.
func (s *Store) List(ctx context.Context, st journal.State, limit int) ([]journal.Claim, error) {
	n := int64(limit)
	if limit < 0 {
		n = math.MaxInt64
	}
	rows, err := s.db.QueryContext(ctx, s.list, string(st), n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []journal.Claim
	for rows.Next() {
		c, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
