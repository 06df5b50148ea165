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
//
// # Leases and clocks
//
// The store stamps and judges claims' leases in its statements, on the
// PostgreSQL server's clock (statement_timestamp()): one clock for every
// replica, so replicas whose clocks disagree never judge each other's
// leases, and journal.WithClock does not change them. A step of the
// server's clock moves every lease with it: make the lease
// (journal.WithLease) longer than the longest create or tracking callback
// by at least the largest step the server's clock may take.
//
// # Connection poolers
//
// Open works through a connection pooler in transaction mode (PgBouncer's
// pool_mode = transaction and its kin) as well as straight to PostgreSQL:
// every statement the store sends stands alone or inside one transaction,
// and relies on nothing of a session (no named prepared statement, no
// session setting, no session-level lock, no temporary table). Open sets
// pgx's query mode to "exec" (unnamed statements, one round trip each)
// unless the connection string chooses one with default_query_exec_mode;
// pgx's default, a cache of named prepared statements per connection,
// fails behind such a pooler ("prepared statement ... already exists").
// What the store needs of a pooler: that a transaction runs on one server
// connection from BEGIN to COMMIT, which every pooler mode gives. A *sql.DB
// of your own given to New must be opened the same way (see Open).
//
// # Replication and failover
//
// Exactly once rests on the claim being durable before the create it
// guards is sent. With a primary and streaming standbys, a claim committed
// on the primary but not yet on a standby is lost when that standby is
// promoted, and the job that delivers the same reference again to the new
// primary creates the order a second time. PostgreSQL streams to standbys
// asynchronously by default, so exactly once across a failover needs
// synchronous replication: synchronous_standby_names naming the standbys a
// failover may promote, and synchronous_commit on (the default) or above.
// Open checks what it can see: when standbys are attached and none is
// synchronous (pg_stat_replication) it refuses with ErrAsyncReplication,
// unless AllowAsyncReplication is given, which accepts the risk (a
// deployment that never fails over, or reconciles after one); WithLogger
// then warns of it. A standby that is not attached when Open runs, or a
// replication managed outside PostgreSQL, cannot be seen: that is the
// deployment's to get right.
package pgstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib" // also registers the "pgx" database/sql driver

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/sqlstore"
)

// Store is a journal.Store in a PostgreSQL database. It is safe for
// concurrent use by any number of processes.
//
// It is a journal.MarkStore too: it keeps tracking notification marks
// (journal.Journal.Marks and journal.Journal.TrackingHandler) in the table
// rxdelivery_journal_marks, created with the journal's table, one row per
// tracking number. Each mark method changes a mark in one conditional
// statement, which stamps and judges leases as the claims' are (see Leases
// and clocks); DeleteMarks does not use its now.
type Store struct {
	*sqlstore.Store
}

var _ journal.MarkStore = (*Store)(nil)

// Option configures Open and New.
type Option func(*options)

type options struct {
	allowAsync bool
	logger     *slog.Logger
}

// AllowAsyncReplication lets Open and New use a primary whose attached
// standbys are all asynchronous, accepting that a failover to one of them
// may lose claims (and so create an order twice). See the package
// documentation.
func AllowAsyncReplication() Option { return func(o *options) { o.allowAsync = true } }

// WithLogger warns through l, once at Open, of a replication that exactly
// once cannot rely on (when AllowAsyncReplication lets Open go on). The
// line names the count of standbys, never a host or a key.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// ErrAsyncReplication is the refusal of a primary with attached standbys
// none of which is synchronous: a failover may lose claims.
var ErrAsyncReplication = errors.New("journal: the PostgreSQL primary streams to standbys asynchronously only; a failover may lose claims and create an order twice (set synchronous_standby_names, or pass pgstore.AllowAsyncReplication)")

// Open connects to the PostgreSQL database at dsn (a URL or key=value
// connection string), checks its replication (see the package
// documentation) and creates the journal's table when missing. Its
// statements use pgx's "exec" query mode unless dsn sets
// default_query_exec_mode, so that it works through a transaction-mode
// pooler. Close the Store when done.
func Open(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, parseError(err)
	}
	if !strings.Contains(dsn, "default_query_exec_mode") {
		cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	}
	db := stdlib.OpenDB(*cfg)
	s, err := New(ctx, db, opts...)
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// parseReasons are pgx's own words for why a connection string does not
// parse, the only part of its error shown.
var parseReasons = []string{
	"failed to parse as URL", "failed to parse as keyword/value", "invalid port",
	"failed to configure TLS", "invalid connect_timeout", "invalid sslcertmode",
	"failed to read service", "invalid require_auth",
	"min_protocol_version cannot be greater than max_protocol_version",
}

// parseError is the refusal of a connection string pgx cannot parse. It
// never shows the string, nor any part of it: pgx quotes it, hiding only
// the passwords it recognises, and an unparsable string hides them where
// pgx does not look (a password with a space, or text that is not a
// connection string at all). It says why when pgx's reason is one of its
// own fixed phrases, and keeps no link to pgx's error.
func parseError(err error) error {
	reason := "it is neither a postgres:// URL nor key=value settings"
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) {
		bare := *pe
		bare.ConnString = ""
		msg := strings.TrimPrefix(bare.Error(), "cannot parse ``: ")
		for _, r := range parseReasons {
			if strings.HasPrefix(msg, r) {
				reason = r
				break
			}
		}
	}
	return errors.New("journal: the PostgreSQL connection string is not valid (" + reason +
		"); its text is withheld, as it may hold a password (percent-encode special characters in a URL's password)")
}

// schemaLock is the advisory lock key under which the table is created, so
// that replicas starting at once do not race on CREATE TABLE IF NOT EXISTS
// (which is not safe to run concurrently in PostgreSQL).
const schemaLock = 0x72786a6f75726e // "rxjourn"

// New returns a Store on db, a PostgreSQL database opened with the "pgx"
// driver, checking its replication and creating the journal's table when
// missing. Closing the Store closes db. Behind a transaction-mode pooler,
// open db with pgx's exec or simple-protocol query mode (as Open does).
func New(ctx context.Context, db *sql.DB, opts ...Option) (*Store, error) {
	var o options
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
	if err := checkReplication(ctx, db, o); err != nil {
		return nil, err
	}
	if err := migrate(ctx, db); err != nil {
		return nil, fmt.Errorf("journal: creating the journal table: %w", err)
	}
	return &Store{Store: sqlstore.New(db, sqlstore.Dollar, &sqlstore.PostgresMarks)}, nil
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
	if _, err := tx.ExecContext(ctx, sqlstore.MarksSchema); err != nil {
		return err
	}
	return tx.Commit()
}

// Close closes the database.
func (s *Store) Close() error { return s.DB().Close() }

// checkReplication refuses a primary whose attached standbys are all
// asynchronous, unless o allows it (then it warns through o's logger).
func checkReplication(ctx context.Context, db *sql.DB, o options) error {
	// A role without pg_read_all_stats sees the standbys but not their
	// sync_state; the setting then tells whether synchronous replication
	// is configured.
	var standbys, sync, hidden int
	var names string
	err := db.QueryRowContext(ctx, `SELECT count(*),
		count(*) FILTER (WHERE sync_state IN ('sync', 'quorum')),
		count(*) FILTER (WHERE sync_state IS NULL),
		current_setting('synchronous_standby_names')
		FROM pg_stat_replication`).Scan(&standbys, &sync, &hidden, &names)
	if err != nil {
		return fmt.Errorf("journal: reading the replication state: %w", err)
	}
	if standbys == 0 || sync > 0 || (hidden > 0 && strings.TrimSpace(names) != "") {
		return nil
	}
	if !o.allowAsync {
		return ErrAsyncReplication
	}
	if o.logger != nil {
		o.logger.Warn("journal: the PostgreSQL primary streams to standbys asynchronously only; a failover may lose claims and create an order twice",
			slog.Int("standbys", standbys))
	}
	return nil
}
