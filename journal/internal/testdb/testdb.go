// Package testdb gives the journal's tests their databases: a fresh SQLite
// file, and a fresh PostgreSQL schema on a server. The server is the one
// JOURNAL_TEST_POSTGRES_DSN names when it is set (CI sets it:
// .ci/postgres.sh); otherwise the test binary starts a throwaway one of its
// own, on loopback, from PostgreSQL's server binaries, and stops it when it
// ends. Without the binaries the PostgreSQL tests skip, saying how to get
// them; in CI (CI=true) they fail instead. The repository's PostgreSQL
// tests (a schema of their own, a cluster, PgBouncer) run with
// RXDELIVERY_FULL=1, which .ci/run sets; the README's test command skips
// them. The public journaltest.PostgresDSN is not gated.
package testdb

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/fullsuite"
	"github.com/rxdelivery/rxdelivery-go/journal/pgstore"
	"github.com/rxdelivery/rxdelivery-go/journal/sqlitestore"
)

// EnvPostgres names the variable holding the test server's DSN.
const EnvPostgres = "JOURNAL_TEST_POSTGRES_DSN"

// PostgresDSN returns the DSN of the server to test against: the one
// JOURNAL_TEST_POSTGRES_DSN names, else the test binary's own, started on
// first use (skipping t when the machine has no PostgreSQL binaries).
func PostgresDSN(t testing.TB) string {
	t.Helper()
	if dsn := os.Getenv(EnvPostgres); dsn != "" {
		return dsn
	}
	return shared.DSN(t)
}

// NewSchema creates an empty schema on the test server, dropped when t
// ends, and returns a DSN whose connections use it.
func NewSchema(t testing.TB) string {
	fullsuite.Require(t, "the journal's PostgreSQL tests")
	dsn := PostgresDSN(t)
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "journal_test_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			return
		}
		defer db.Close()
		_, _ = db.Exec("DROP SCHEMA " + schema + " CASCADE")
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Postgres opens a pgstore.Store on a fresh schema, closed when t ends.
func Postgres(t testing.TB) *pgstore.Store { return OpenPostgres(t, NewSchema(t)) }

// OpenPostgres opens a pgstore.Store on dsn, closed when t ends.
func OpenPostgres(t testing.TB, dsn string) *pgstore.Store {
	s, err := pgstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// SQLitePath returns the path of a new SQLite file in t's temp dir.
func SQLitePath(t testing.TB) string {
	return filepath.Join(t.TempDir(), "journal.db")
}

// SQLite opens a sqlitestore.Store on path, closed when t ends.
func SQLite(t testing.TB, path string) *sqlitestore.Store {
	s, err := sqlitestore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
