package storetest_test

import (
	"testing"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
	"github.com/rxdelivery/rxdelivery-go/journal/storetest"
)

func TestMemoryStore(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(*testing.T) journal.Store { return journal.NewMemoryStore() })
}

func TestSQLiteStore(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) journal.Store { return testdb.SQLite(t, testdb.SQLitePath(t)) })
}

func TestPostgresStore(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) journal.Store { return testdb.Postgres(t) })
}
