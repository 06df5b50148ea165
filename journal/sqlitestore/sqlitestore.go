// Package sqlitestore keeps a journal's claims in an SQLite file, the
// embedded store for a program on one host: its processes share the file,
// and a claim survives a crash or a restart. It uses a pure-Go SQLite
// driver, so it builds without cgo. [Open] opens (or creates) the file;
// [New] takes a *sql.DB of the program's own:
//
//	store, err := sqlitestore.Open("journal.db")
//	if err != nil {
//		return err
//	}
//	defer store.Close()
//	j := journal.New(store)
//
// The file is opened in write-ahead-log mode with full synchronous
// commits: a claim is on disk before the create it guards is sent. Several
// processes may open the same file on a local disk (not a network file
// system, where SQLite's locks are not reliable); replicas on several hosts
// need the PostgreSQL store.
//
// # Leases and clocks
//
// The store stamps and judges claims' leases in its statements, on the
// clock of the process running each one (SQLite's 'now', in
// milliseconds). The processes sharing a file are on one host and read its
// one system clock, so they never judge each other's leases on clocks that
// disagree, and journal.WithClock does not change them. What remains is a
// step of that clock: set by hand, or stepped by a time daemon (ntpd steps
// an offset above 128 ms, chrony when configured to), it moves every lease
// with it, and a forward step of s ends the leases in flight s early. Keep
// a skew allowance: make the lease (journal.WithLease) longer than the
// longest create or tracking callback by at least the largest step the
// host's clock may take.
package sqlitestore

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"time"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/sqlstore"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// Store is a [journal.Store] in an SQLite database. It is safe for
// concurrent use, and several processes may share its file.
//
// It is a [journal.MarkStore] too: it keeps tracking notification marks
// ([journal.Journal.Marks] and [journal.Journal.TrackingHandler]) in the
// table rxdelivery_journal_marks, created with the journal's table, one row
// per tracking number. Each mark method changes a mark in one conditional
// statement, which stamps and judges leases as the claims' are (see Leases
// and clocks); DeleteMarks does not use its now.
type Store struct {
	*sqlstore.Store
}

var _ journal.MarkStore = (*Store)(nil)

// busyTimeout is how long a statement waits for another connection's or
// process's write lock before failing.
const busyTimeout = 30 * time.Second

// Open opens (creating when missing) the SQLite database at path and the
// journal's table in it. Close the [Store] when done.
func Open(path string) (*Store, error) {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("journal: opening %s: %w", path, err)
	}
	s, err := New(context.Background(), db)
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// New returns a [Store] on db, an SQLite database opened with the "sqlite"
// driver, creating the journal's table when missing. Give db a busy
// timeout (the _pragma=busy_timeout(ms) parameter) when several
// connections or processes share the file. Closing the Store closes db.
func New(ctx context.Context, db *sql.DB) (*Store, error) {
	if _, err := db.ExecContext(ctx, sqlstore.Schema); err != nil {
		return nil, fmt.Errorf("journal: creating the journal table: %w", err)
	}
	if _, err := db.ExecContext(ctx, sqlstore.MarksSchema); err != nil {
		return nil, fmt.Errorf("journal: creating the marks table: %w", err)
	}
	return &Store{Store: sqlstore.New(db, sqlstore.Question, &sqlstore.SQLiteMarks)}, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.DB().Close() }
