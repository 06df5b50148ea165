package storetest_test

import (
	"testing"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
	"github.com/rxdelivery/rxdelivery-go/journal/storetest"
)

func TestMemoryStoreMarks(t *testing.T) {
	t.Parallel()
	storetest.RunMarks(t, func(*testing.T) journal.MarkStore { return journal.NewMemoryStore() })
}

func TestSQLiteStoreMarks(t *testing.T) {
	t.Parallel()
	storetest.RunMarks(t, func(t *testing.T) journal.MarkStore { return testdb.SQLite(t, testdb.SQLitePath(t)) })
}

func TestPostgresStoreMarks(t *testing.T) {
	t.Parallel()
	storetest.RunMarks(t, func(t *testing.T) journal.MarkStore { return testdb.Postgres(t) })
}
