package journal_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
	"github.com/rxdelivery/rxdelivery-go/journal/pgstore"
)

// TestPostgresStoreRefusesAsyncStandbys runs a real primary and a
// streaming standby: while the standby replicates asynchronously (the
// default) a failover may lose claims, and pgstore refuses the primary
// unless told to accept the risk; once the standby is synchronous it opens.
func TestPostgresStoreRefusesAsyncStandbys(t *testing.T) {
	t.Parallel()
	primary := testdb.StartCluster(t)
	testdb.StartStandby(t, primary)
	admin, err := sql.Open("pgx", primary.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	syncState := func() string {
		var s sql.NullString
		_ = admin.QueryRow(`SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'`).Scan(&s)
		return s.String
	}
	testdb.WaitFor(t, "the standby to stream", func() bool { return syncState() == "async" })

	ctx := context.Background()
	if _, err := pgstore.Open(ctx, primary.DSN); !errors.Is(err, pgstore.ErrAsyncReplication) {
		t.Fatalf("Open with an asynchronous standby: %v, want ErrAsyncReplication", err)
	}

	var logs bytes.Buffer
	s, err := pgstore.Open(ctx, primary.DSN, pgstore.AllowAsyncReplication(), pgstore.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err != nil {
		t.Fatalf("Open allowing asynchronous replication: %v", err)
	}
	s.Close()
	if !strings.Contains(logs.String(), "asynchronously only") || !strings.Contains(logs.String(), "standbys=1") {
		t.Errorf("no warning of the asynchronous standby: %q", logs.String())
	}
	if strings.Contains(logs.String(), "127.0.0.1") || strings.Contains(logs.String(), strconv.Itoa(primary.Port)) {
		t.Errorf("the warning names a host: %q", logs.String())
	}

	// Synchronous replication to the standby: exactly once survives its
	// promotion, and the store opens.
	if _, err := admin.Exec(`ALTER SYSTEM SET synchronous_standby_names = 'standby'`); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(`SELECT pg_reload_conf()`); err != nil {
		t.Fatal(err)
	}
	testdb.WaitFor(t, "the standby to be synchronous", func() bool { return syncState() == "sync" })
	s, err = pgstore.Open(ctx, primary.DSN)
	if err != nil {
		t.Fatalf("Open with a synchronous standby: %v", err)
	}
	s.Close()
}
