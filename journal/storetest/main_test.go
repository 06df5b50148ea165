package storetest_test

import (
	"os"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
)

// TestMain stops the PostgreSQL server the tests started, if any.
func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }
