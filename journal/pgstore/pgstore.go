// Package pgstore keeps a journal's claims in PostgreSQL, the store for a
// deployment of several replicas: correctness comes from the database (a
// primary key on the claim's key, and one atomic conditional statement per
// change), not from locks in the processes, so any number of replicas on
// any number of hosts may share it.
//
//	store, err := pgstore.Open(ctx, os.Getenv("JOURNAL_DATABASE_URL"))
//	if err != nil {
//		return err
//	}
//	defer store.Close()
//	j := journal.New(store)
//
// The journal's table, rxdelivery_journal, is created when missing. Keep
// the database's default synchronous_commit (on): a claim must be durable
// before the create it guards is sent.
package pgstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/sqlstore"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// Store is a journal.Store in a PostgreSQL database. It is safe for
// concurrent use by any number of processes.
type Store struct {
	*sqlstore.Store
}

var _ journal.Store = (*Store)(nil)

// Open connects to the PostgreSQL database at dsn (a URL or key=value
// connection string) and creates the journal's table when missing. Close
// the Store when done.
func Open(ctx context.Context, dsn string) (*Store, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("journal: opening the database: %w", err)
	}
	s, err := New(ctx, db)
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// schemaLock is the advisory lock key under which the table is created, so
// that replicas starting at once do not race on CREATE TABLE IF NOT EXISTS
// (which is not safe to run concurrently in PostgreSQL).
const schemaLock = 0x72786a6f75726e // "rxjourn"

// New returns a Store on db, a PostgreSQL database opened with the "pgx"
// driver, creating the journal's table when missing. Closing the Store
// closes db.
func New(ctx context.Context, db *sql.DB) (*Store, error) {
	if err := migrate(ctx, db); err != nil {
		return nil, fmt.Errorf("journal: creating the journal table: %w", err)
	}
	return &Store{Store: sqlstore.New(db, sqlstore.Dollar)}, nil
}

func migrate(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(schemaLock)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, sqlstore.Schema); err != nil {
		return err
	}
	return tx.Commit()
}

// Close closes the database.
func (s *Store) Close() error { return s.DB().Close() }
