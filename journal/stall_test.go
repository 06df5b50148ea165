package journal_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
	"github.com/rxdelivery/rxdelivery-go/journal/pgstore"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/orders"
)

// stallingOrders is a delivery orders service whose Create runs stall
// (which stalls the journal's store) and then succeeds.
type stallingOrders struct{ stall func() }

func (o stallingOrders) Create(context.Context, *orders.CreateParams, ...option.CallOption) (*orders.Order, error) {
	o.stall()
	return &orders.Order{ID: "ord_000001"}, nil
}

func (stallingOrders) Get(context.Context, string, ...option.CallOption) (*orders.Order, error) {
	return nil, errors.New("not read back in this test")
}

// TestCreateOnAStalledSynchronousStandbyReturnsWithinItsContext: with the
// primary's synchronous standby down, every commit waits for it. A create
// given 4 s returns within those 4 s plus journal.SettleMargin, whether
// the stall meets the claim (its insert, then the cleanup of a claim that
// may have been written) or the settling of the outcome after the call;
// it used to wait 30 s more. The error says the claim may be left in
// flight, for the runbook.
func TestCreateOnAStalledSynchronousStandbyReturnsWithinItsContext(t *testing.T) {
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
	synchronous := func() bool {
		var n int
		_ = admin.QueryRow(`SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'`).Scan(&n)
		return n == 1
	}
	testdb.WaitFor(t, "the standby to be synchronous", synchronous)
	store, err := pgstore.Open(context.Background(), primary.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()

	const budget = 4 * time.Second
	// The margin, and the moment it takes a call to return once its
	// deadline has passed.
	const limit = budget + journal.SettleMargin + time.Second
	for _, tc := range []struct {
		name      string
		stallCall bool // stall during the call (else before the claim)
	}{
		{"the claim", false},
		{"the settling", true},
	} {
		if !synchronous() {
			standby.Start()
			testdb.WaitFor(t, "the standby to be synchronous again", synchronous)
		}
		stall := func() {}
		if tc.stallCall {
			stall = standby.Stop
		} else {
			standby.Stop()
		}
		j := journal.New(store)
		ctx, cancel := context.WithTimeout(context.Background(), budget)
		start := time.Now()
		_, err := j.Orders(stallingOrders{stall: stall}).Create(ctx, orderParams("stall-"+tc.name))
		took := time.Since(start)
		cancel()
		t.Logf("%s stalled: the create returned after %v: %v", tc.name, took.Round(time.Millisecond), err)
		if err == nil {
			t.Errorf("%s stalled: the create succeeded", tc.name)
		}
		if err != nil && !strings.Contains(err.Error(), "stays in flight until its lease ends") {
			t.Errorf("%s stalled: the error does not say the claim is left in flight: %v", tc.name, err)
		}
		if took > limit {
			t.Errorf("%s stalled: the create of %v returned after %v, past its context and the margin of %v", tc.name, budget, took, journal.SettleMargin)
		}
	}
}

// stalledUpdates is a store whose updates wait until their context ends,
// as a store whose commits wait for a standby that never answers.
type stalledUpdates struct{ journal.Store }

func (s stalledUpdates) Update(ctx context.Context, _ journal.Match, _ journal.Claim) error {
	<-ctx.Done()
	return ctx.Err()
}

// TestCreateCancelledWhileSettlingReturnsWithinTheMargin: a create whose
// context has no deadline and is cancelled during the call settles its
// outcome for SettleMargin after the cancellation at most, not for the
// 30 s it used to; the error says the claim is left in flight.
func TestCreateCancelledWhileSettlingReturnsWithinTheMargin(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	j := journal.New(stalledUpdates{journal.NewMemoryStore()})
	start := time.Now()
	_, err := j.Orders(stallingOrders{stall: cancel}).Create(ctx, orderParams("ref-cancelled"))
	took := time.Since(start)
	if !errors.Is(err, journal.ErrNotRecorded) || !strings.Contains(err.Error(), "stays in flight until its lease ends") {
		t.Errorf("the create returned %v, want ErrNotRecorded saying the claim stays in flight", err)
	}
	// Far below the 30 s it took before, whatever the machine's load.
	if limit := journal.SettleMargin + 5*time.Second; took > limit {
		t.Errorf("the create returned %v after its cancellation, past the margin of %v", took, journal.SettleMargin)
	}
}
