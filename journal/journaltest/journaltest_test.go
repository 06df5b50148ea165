package journaltest_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/fullsuite"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/journaltest"
	"github.com/rxdelivery/rxdelivery-go/journal/pgstore"
)

func TestMain(m *testing.M) { os.Exit(journaltest.Main(m)) }

// TestPostgresDSNServesTheStore: the DSN opens a working pgstore.Store.
func TestPostgresDSNServesTheStore(t *testing.T) {
	t.Parallel()
	fullsuite.Require(t, "the journal's PostgreSQL tests")
	ctx := context.Background()
	store, err := pgstore.Open(ctx, journaltest.PostgresDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	k := journal.Key{Interface: journal.InterfaceDelivery, Reference: "journaltest-never-claimed"}
	if _, err := journal.New(store).Get(ctx, k); !errors.Is(err, journal.ErrNoClaim) {
		t.Fatalf("Get of a key never claimed: %v, want ErrNoClaim", err)
	}
}
