package journal_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

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

	// The same standby, but commits that do not wait for it.
	for _, commit := range []string{"local", "off"} {
		_, err = pgstore.Open(ctx, primary.DSN+"&synchronous_commit="+commit)
		if !errors.Is(err, pgstore.ErrAsyncReplication) || !strings.Contains(err.Error(), "synchronous_commit is "+commit) {
			t.Errorf("Open with synchronous_commit %s: %v, want ErrAsyncReplication naming the setting", commit, err)
		}
	}

	// A setting that names another standby than the one attached.
	if _, err := admin.Exec(`ALTER SYSTEM SET synchronous_standby_names = 'another'`); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(`SELECT pg_reload_conf()`); err != nil {
		t.Fatal(err)
	}
	testdb.WaitFor(t, "the standby to be asynchronous", func() bool { return syncState() == "async" })
	_, err = pgstore.Open(ctx, primary.DSN)
	if !errors.Is(err, pgstore.ErrAsyncReplication) || !strings.Contains(err.Error(), "none of the PostgreSQL primary's 1 attached standbys is named") {
		t.Errorf("Open with no attached standby named: %v, want ErrAsyncReplication naming the cause", err)
	}
}

// TestPostgresStoreOpensWhileASynchronousStandbyAttaches restarts the
// synchronous standby of a primary and opens the store while the standby
// attaches: until it reports a flush position it shows sync_state
// 'async', yet synchronous_standby_names names it and every commit waits
// for it, so exactly once holds and Open must not refuse. It opens at
// least 20 times inside such windows.
func TestPostgresStoreOpensWhileASynchronousStandbyAttaches(t *testing.T) {
	t.Parallel()
	primary := testdb.StartCluster(t)
	standby := testdb.StartStandby(t, primary)
	admin, err := sql.Open("pgx", primary.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec(`ALTER SYSTEM SET synchronous_standby_names = 'standby'`); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(`SELECT pg_reload_conf()`); err != nil {
		t.Fatal(err)
	}
	// attached counts the standbys attached and the synchronous ones.
	attached := func() (n, sync int) {
		_ = admin.QueryRow(`SELECT count(*), count(*) FILTER (WHERE sync_state IN ('sync', 'quorum')) FROM pg_stat_replication`).Scan(&n, &sync)
		return n, sync
	}
	testdb.WaitFor(t, "the standby to be synchronous", func() bool { _, s := attached(); return s == 1 })

	ctx := context.Background()
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	opens, refused, restarts := 0, 0, 0
	var firstRefusal error
	for ; opens < 20 && restarts < 20; restarts++ {
		standby.Stop()
		testdb.WaitFor(t, "the standby to detach", func() bool { n, _ := attached(); return n == 0 })
		// WAL for the standby to catch up with, so that it spends a while
		// attaching; committed without waiting for the standby, which is
		// down.
		tx, err := admin.Begin()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(`SET LOCAL synchronous_commit = local`); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(`CREATE TABLE IF NOT EXISTS filler (n int, pad text); INSERT INTO filler SELECT g, repeat('x', 500) FROM generate_series(1, 40000) g`); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		standby.StartNoWait()
		// Wait for the standby to attach, then open as long as it is not
		// synchronous yet.
		for end := time.Now().Add(30 * time.Second); time.Now().Before(end); {
			n, sync := attached()
			if sync > 0 {
				break
			}
			if n == 0 {
				time.Sleep(time.Millisecond)
				continue
			}
			opens++
			s, err := pgstore.Open(ctx, primary.DSN, pgstore.WithLogger(logger))
			if err != nil {
				refused++
				if firstRefusal == nil {
					firstRefusal = err
				}
				continue
			}
			s.Close()
		}
		testdb.WaitFor(t, "the standby to be synchronous again", func() bool { _, s := attached(); return s == 1 })
	}
	t.Logf("%d opens while the standby attached, over %d restarts", opens, restarts)
	if strings.Contains(logs.String(), "127.0.0.1") || strings.Contains(logs.String(), strconv.Itoa(primary.Port)) {
		t.Errorf("the log names a host: %q", logs.String())
	}
	if refused > 0 {
		t.Errorf("%d of %d opens while the synchronous standby attached were refused; the first: %v", refused, opens, firstRefusal)
	}
	if opens < 20 {
		t.Fatalf("only %d opens fell while the standby attached, over %d restarts; want 20", opens, restarts)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
