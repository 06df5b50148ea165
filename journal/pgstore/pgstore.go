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
// [Open] works through a connection pooler in transaction mode (PgBouncer's
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
// of your own given to [New] must be opened the same way (see Open).
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
// failover may promote, and synchronous_commit on (the default),
// remote_write or remote_apply.
//
// Open checks what it can see when standbys are attached
// (pg_stat_replication): it judges the configuration first, then the
// standbys' reported state. It refuses with an error matching
// [ErrAsyncReplication] when synchronous_standby_names is empty, when
// synchronous_commit is local or off, or when every attached standby
// streams with a flush position reported and none is named by
// synchronous_standby_names (sync_state sync, quorum or potential).
// [AllowAsyncReplication] accepts that risk instead (a deployment that
// never fails over, or reconciles after one), and [WithLogger] then warns
// of it. A standby still attaching (state startup or catchup, or no flush
// position reported yet) shows sync_state 'async' whatever the setting
// says; Open does not refuse then, since every commit waits until a named
// standby confirms it, and WithLogger says so in one Info line ("a
// PostgreSQL standby is attaching", with counts, never a host). A role
// without pg_read_all_stats sees no standby's state: Open then goes by the
// setting. A standby that is not attached when Open runs, or a
// replication managed outside PostgreSQL, cannot be seen: that is the
// deployment's to get right.
package pgstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib" // also registers the "pgx" database/sql driver

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/sqlstore"
)

// Store is a [journal.Store] in a PostgreSQL database. It is safe for
// concurrent use by any number of processes.
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

// Option configures [Open] and [New].
type Option func(*options)

type options struct {
	allowAsync bool
	logger     *slog.Logger
}

// AllowAsyncReplication lets [Open] and [New] use a primary whose attached
// standbys are all asynchronous, accepting that a failover to one of them
// may lose claims (and so create an order twice). See the package
// documentation.
func AllowAsyncReplication() Option { return func(o *options) { o.allowAsync = true } }

// WithLogger warns through l, once at [Open], of a replication that exactly
// once cannot rely on (when [AllowAsyncReplication] lets Open go on), and
// says at Info level when a synchronous standby is still attaching. The
// lines name counts of standbys, never a host or a key.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// ErrAsyncReplication matches [Open]'s refusal of a primary whose commits
// do not wait for an attached standby, so that a failover may lose
// claims: synchronous_standby_names empty (this error itself),
// synchronous_commit local or off, or no attached standby named by
// synchronous_standby_names (errors that name their cause).
var ErrAsyncReplication = errors.New(asyncOnly + risk + " (set synchronous_standby_names, or pass pgstore.AllowAsyncReplication)")

// Open connects to the PostgreSQL database at dsn (a URL or key=value
// connection string), checks its replication (see the package
// documentation) and creates the journal's table when missing. Its
// statements use pgx's "exec" query mode unless dsn sets
// default_query_exec_mode, so that it works through a transaction-mode
// pooler. Close the [Store] when done.
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

// New returns a [Store] on db, a PostgreSQL database opened with the "pgx"
// driver, checking its replication and creating the journal's table when
// missing. Closing the Store closes db. Behind a transaction-mode pooler,
// open db with pgx's exec or simple-protocol query mode (as [Open] does).
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

// replication is what Open reads of a primary's replication: the
// standbys attached (pg_stat_replication) and the settings that decide
// whether a commit waits for one.
type replication struct {
	standbys  int // attached
	named     int // reported sync, quorum or potential: named by synchronous_standby_names
	hidden    int // whose state this role may not read (no pg_read_all_stats)
	attaching int // visible, and not yet streaming with a flush position reported
	names     string
	commit    string // synchronous_commit
}

// replicationQuery reads a replication. A standby that has not yet
// reported a flush position shows sync_state 'async' whatever
// synchronous_standby_names says, so sync_state alone cannot tell an
// attaching synchronous standby from an asynchronous one.
const replicationQuery = `SELECT count(*),
	count(*) FILTER (WHERE sync_state IN ('sync', 'quorum', 'potential')),
	count(*) FILTER (WHERE sync_state IS NULL),
	count(*) FILTER (WHERE sync_state IS NOT NULL AND (state <> 'streaming' OR flush_lsn IS NULL)),
	current_setting('synchronous_standby_names'),
	current_setting('synchronous_commit')
	FROM pg_stat_replication`

// judge says whether a failover may lose a claim committed on the primary
// (a refusal naming why), or, when it may not, whether a standby is still
// attaching (then commits wait until a synchronous standby confirms them,
// and Open says so at Info level).
func (r replication) judge() (refusal *asyncError, attaching bool) {
	switch {
	case r.standbys == 0:
		// Nothing attached to lose claims to (or nothing this check can
		// see): the deployment's to get right.
		return nil, false
	case strings.TrimSpace(r.names) == "":
		return &asyncError{cause: asyncOnly, fix: "set synchronous_standby_names"}, false
	case r.commit == "local" || r.commit == "off":
		return &asyncError{cause: "journal: synchronous_commit is " + r.commit + " on the PostgreSQL primary, so commits wait for no standby",
			fix: "set synchronous_commit to on"}, false
	case r.named > 0, r.hidden > 0:
		// A named standby is attached, or synchronous replication is
		// configured and this role cannot see the standbys' state.
		return nil, false
	case r.attaching > 0:
		// Synchronous replication is configured and a standby is
		// attaching: whether it is one the setting names shows only once
		// it reports a flush position; until a named one confirms them,
		// commits wait.
		return nil, true
	default:
		return &asyncError{cause: "journal: none of the PostgreSQL primary's " + strconv.Itoa(r.standbys) +
			" attached standbys is named by synchronous_standby_names",
			fix: "name there the standbys a failover may promote"}, false
	}
}

// asyncOnly is the cause of ErrAsyncReplication.
const asyncOnly = "journal: the PostgreSQL primary streams to standbys asynchronously only"

// asyncError is a refusal of the replication: its cause and what to do
// about it. It matches ErrAsyncReplication.
type asyncError struct{ cause, fix string }

// risk is what every refusal risks.
const risk = "; a failover may lose claims and create an order twice"

func (e *asyncError) Error() string {
	return e.cause + risk + " (" + e.fix + ", or pass pgstore.AllowAsyncReplication)"
}

func (e *asyncError) Is(target error) bool { return target == ErrAsyncReplication }

// checkReplication refuses a primary a failover from which may lose
// claims (see replication.judge), unless o allows it (then it warns
// through o's logger), and tells o's logger when a synchronous standby is
// attaching.
func checkReplication(ctx context.Context, db *sql.DB, o options) error {
	var r replication
	err := db.QueryRowContext(ctx, replicationQuery).Scan(&r.standbys, &r.named, &r.hidden, &r.attaching, &r.names, &r.commit)
	if err != nil {
		return fmt.Errorf("journal: reading the replication state: %w", err)
	}
	refusal, attaching := r.judge()
	if attaching && o.logger != nil {
		o.logger.Info("journal: a PostgreSQL standby is attaching and none named by synchronous_standby_names has confirmed yet; commits wait until one does",
			slog.Int("standbys", r.standbys), slog.Int("attaching", r.attaching))
	}
	if refusal == nil {
		return nil
	}
	if !o.allowAsync {
		if refusal.cause == asyncOnly {
			return ErrAsyncReplication
		}
		return refusal
	}
	if o.logger != nil {
		o.logger.Warn(refusal.cause+risk, slog.Int("standbys", r.standbys))
	}
	return nil
}
