// Package journaltest gives the tests of a program that keeps its journal
// on PostgreSQL (package pgstore) a real server to run against, with
// nothing to set up: the server JOURNAL_TEST_POSTGRES_DSN names when it is
// set, else a throwaway server the test binary starts on first use, on a
// free loopback port, from PostgreSQL's installed server binaries (Debian
// and Ubuntu: apt-get install postgresql; looked for in
// /usr/lib/postgresql/<version>/bin, then on PATH, or in PG_BINDIR), and
// stops when it ends. [Main] goes in the package's TestMain and
// [PostgresDSN] gives each test the server's connection string:
//
//	func TestMain(m *testing.M) { os.Exit(journaltest.Main(m)) }
//
//	func TestJobRunner(t *testing.T) {
//		store, err := pgstore.Open(ctx, journaltest.PostgresDSN(t))
//		...
//	}
//
// Without the binaries a test that asks for a server is skipped, with a
// message saying how to get them; under CI=true it fails instead, so that
// a CI machine missing PostgreSQL cannot pass by skipping.
package journaltest

import (
	"testing"

	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
)

// EnvPostgres names the variable that points the tests at a server of the
// caller's instead of a throwaway one.
const EnvPostgres = testdb.EnvPostgres

// PostgresDSN returns the DSN of the PostgreSQL server to test against,
// starting the test binary's throwaway server on first use. Tests share
// the server: give each its own schema or its own keys.
func PostgresDSN(t testing.TB) string {
	t.Helper()
	return testdb.PostgresDSN(t)
}

// Main runs the tests and then stops the throwaway server, if one was
// started; call it from TestMain as os.Exit(journaltest.Main(m)). Without
// it the server stops a moment after the test binary ends.
func Main(m *testing.M) int { return testdb.Main(m) }
