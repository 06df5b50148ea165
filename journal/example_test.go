package journal_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/sqlitestore"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// A create whose answer is lost is never sent again: the journal refuses
// it until an operator has reconciled it, then returns the order found.
func Example() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	dir, err := os.MkdirTemp("", "journal")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store, err := sqlitestore.Open(filepath.Join(dir, "journal.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()

	ctx := context.Background()
	j := journal.New(store)
	orders := j.Orders(srv.Client().Orders)
	params := rxdeliverytest.SamedayOrderParams()
	params.ExternalReferenceNumber = "rx-2026-0042"

	// The platform creates the order, then answers 500.
	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.CommittedThenFailed())
	_, err = orders.Create(ctx, params)
	fmt.Println("first:", errors.Is(err, rxdelivery.ErrUnknownOutcome))

	// A retry (this process, another replica, or after a restart) is refused.
	_, err = orders.Create(ctx, params)
	fmt.Println("retry:", errors.Is(err, journal.ErrClaimed), errors.Is(err, rxdelivery.ErrUnknownOutcome))

	// The operator lists the unknown claims and records the order they
	// found, which Resolve reads to check that it carries the reference.
	unknown, err := j.Unknown(ctx, 10)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("unknown:", unknown[0].Reference)
	if _, err := orders.Resolve(ctx, unknown[0].Reference, srv.Orders()[0].ID); err != nil {
		log.Fatal(err)
	}

	order, err := orders.Create(ctx, params)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("after:", order.ID, "orders on the platform:", len(srv.Orders()))
	// Output:
	// first: true
	// retry: true true
	// unknown: rx-2026-0042
	// after: ord_000001 orders on the platform: 1
}

// The README's "Creating exactly once" block.
func ExampleJournal_Orders() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	client, ctx := srv.Client(), context.Background()
	params := rxdeliverytest.SamedayOrderParams()
	params.ExternalReferenceNumber = "rx-2026-0001"
	dir, err := os.MkdirTemp("", "journal")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "journal.db")

	store, err := sqlitestore.Open(path) // pgstore.Open(ctx, dsn) when replicas share it
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	j := journal.New(store)
	order, err := j.Orders(client.Orders).Create(ctx, params)
	switch {
	case err == nil:
		fmt.Println("created", order.ID) // now, or earlier and read back: never twice
	case errors.Is(err, journal.ErrInFlight):
		fmt.Println("not sent: in flight elsewhere; retry after its lease")
	case errors.Is(err, journal.ErrClaimed):
		fmt.Println("not sent: waiting for an operator")
	case errors.Is(err, rxdelivery.ErrUnknownOutcome):
		fmt.Println("sent, no answer: the claim waits for an operator")
	default:
		fmt.Println("not created:", err) // the claim is released; fix and retry
	}
	// Output:
	// created ord_000001
}

// stalledStore is a store whose updates wait until their context ends, as
// one whose commits wait for a standby that stopped answering.
type stalledStore struct{ journal.Store }

func (s stalledStore) Update(ctx context.Context, _ journal.Match, _ journal.Claim) error {
	<-ctx.Done()
	return ctx.Err()
}

// A create returns at most SettleMargin after its context ends, even when
// the store cannot record its outcome: the claim then stays in flight
// until its lease ends, and reads unknown for the runbook.
func Example_settleMargin() {
	srv := rxdeliverytest.NewServer()
	defer srv.Close()
	j := journal.New(stalledStore{journal.NewMemoryStore()})
	params := rxdeliverytest.SamedayOrderParams()
	params.ExternalReferenceNumber = "rx-2026-0043"

	const budget = 500 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	start := time.Now()
	order, err := j.Orders(srv.Client().Orders).Create(ctx, params)
	fmt.Println("created:", order != nil)
	fmt.Println("recorded:", !errors.Is(err, journal.ErrNotRecorded))
	fmt.Println("returned within the context and the margin:", time.Since(start) < budget+journal.SettleMargin+time.Second)
	// Output:
	// created: true
	// recorded: false
	// returned within the context and the margin: true
}
