package journal_test

import (
	"context"
	"errors"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/fullsuite"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// TestProcessesRacingOnOneReferenceSendOneCreate runs 4 processes of 8
// goroutines each, all creating the same reference at once through one
// shared store.
func TestProcessesRacingOnOneReferenceSendOneCreate(t *testing.T) {
	t.Parallel()
	for name, open := range sharedStores(t) {
		t.Run(name, func(t *testing.T) {
			spec, _ := open(t)
			srv := rxdeliverytest.Start(t)
			env := append(srv.EnvLines(true), "JOURNAL_TEST_STORE="+spec, "JOURNAL_TEST_REFS=one",
				"JOURNAL_TEST_COPIES=8", "JOURNAL_TEST_WORKERS=8")
			reports := runChildren(t, 4, env...)
			created := srv.Orders()
			if len(created) != 1 {
				t.Fatalf("the platform holds %d orders; want 1", len(created))
			}
			if n := len(srv.CallsTo(rxdeliverytest.OrdersCreate)); n != 1 {
				t.Fatalf("the platform received %d creates; want 1", n)
			}
			counts := map[string]int{}
			for i, rep := range reports {
				if len(rep) != 8 {
					t.Fatalf("child %d reported %d attempts; want 8", i, len(rep))
				}
				for _, a := range rep {
					counts[a.outcome]++
					if a.outcome == outCreated && a.id != created[0].ID {
						t.Fatalf("child %d returned order %s; want %s", i, a.id, created[0].ID)
					}
					if a.outcome != outCreated && a.outcome != outInFlight {
						t.Fatalf("child %d: outcome %s; want created or in flight", i, a.outcome)
					}
				}
			}
			if counts[outCreated] < 1 {
				t.Fatalf("no attempt returned the order: %v", counts)
			}
			t.Logf("%s: 32 attempts on one reference: %v; 1 create sent", name, counts)
		})
	}
}

// TestProcessKilledMidCreate kills a process while the platform holds its
// create (committed, no answer yet). Its claim stays in flight until its
// lease ends, then is unknown; no process sends the create again, and an
// operator resolves it with the order the platform has.
func TestProcessKilledMidCreate(t *testing.T) {
	// The child's lease: long enough for the checks made while it runs,
	// which the test then waits out. The checks take milliseconds; CI's
	// whole suite, under the race detector with every store at once, is
	// given 8 s of margin, the README's command 3 s.
	killedLease := 3 * time.Second
	if fullsuite.On() {
		killedLease = 8 * time.Second
	}
	for name, open := range sharedStores(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			spec, store := open(t)
			srv := rxdeliverytest.Start(t)
			srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.Committed(rxdeliverytest.Stall()))
			env := append(srv.EnvLines(true), "JOURNAL_TEST_STORE="+spec, "JOURNAL_TEST_REFS=killed", "JOURNAL_TEST_LEASE="+killedLease.String())
			cp := startChildren(t, 1, env...)
			cp.goAll(t)
			// Wait until the platform has committed the order: the child is
			// now waiting for an answer that will not come.
			waitFor(t, func() bool { return len(srv.Orders()) == 1 })
			if err := cp.cmds[0].Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			if err := cp.cmds[0].Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
				t.Fatalf("child ended with %v; want killed", err)
			}

			ctx := context.Background()
			client := srv.Client()
			k := deliveryKey("killed")
			// While the lease runs, the claim is in flight: refused, not sent.
			now := journal.New(store)
			_, err := now.Orders(client.Orders).Create(ctx, orderParams("killed"))
			var ce *journal.ClaimedError
			if !errors.As(err, &ce) || ce.Claim.State != journal.StateInFlight || ce.Claim.Holder != "child-0" {
				t.Fatalf("Create during the lease = %v; want refused, in flight by child-0", err)
			}
			// Once the lease has ended on the store's clock (a process's
			// clock, even two hours on, does not decide it), the claim is
			// unknown, never free.
			later := journal.New(store, journal.WithClock(func() time.Time { return time.Now().Add(2 * time.Hour) }))
			if c, err := later.Get(ctx, k); err != nil || c.State != journal.StateInFlight {
				t.Fatalf("claim seen from a clock two hours on = %+v, %v; want in flight until the store's clock ends its lease", c, err)
			}
			waitFor(t, func() bool { c, err := later.Get(ctx, k); return err == nil && c.State == journal.StateUnknown })
			_, err = later.Orders(client.Orders).Create(ctx, orderParams("killed"))
			if !errors.As(err, &ce) || ce.Claim.State != journal.StateUnknown || !errors.Is(err, rxdelivery.ErrUnknownOutcome) {
				t.Fatalf("Create after the lease = %v; want refused, unknown", err)
			}
			if n := len(srv.CallsTo(rxdeliverytest.OrdersCreate)); n != 1 {
				t.Fatalf("the platform received %d creates; want 1", n)
			}
			unknown, err := later.Unknown(ctx, 10)
			if err != nil || len(unknown) != 1 || unknown[0].Key != k || unknown[0].Holder != "child-0" {
				t.Fatalf("Unknown = %+v, %v; want the killed child's claim", unknown, err)
			}
			// The runbook: the platform has an order with this reference.
			if err := later.Resolve(ctx, k, srv.Orders()[0].ID); err != nil {
				t.Fatal(err)
			}
			got, err := now.Orders(client.Orders).Create(ctx, orderParams("killed"))
			if err != nil || got.ID != srv.Orders()[0].ID {
				t.Fatalf("Create after Resolve = %+v, %v; want %s", got, err, srv.Orders()[0].ID)
			}
			if n := len(srv.Orders()); n != 1 {
				t.Fatalf("the platform holds %d orders; want 1", n)
			}
		})
	}
}

// TestRestartedProcessReturnsTheRecordedOrder creates in one process, then
// in a new one: the second sends nothing and reads the order back.
func TestRestartedProcessReturnsTheRecordedOrder(t *testing.T) {
	t.Parallel()
	for name, open := range sharedStores(t) {
		t.Run(name, func(t *testing.T) {
			spec, _ := open(t)
			srv := rxdeliverytest.Start(t)
			env := append(srv.EnvLines(true), "JOURNAL_TEST_STORE="+spec, "JOURNAL_TEST_REFS=restart")
			first := runChildren(t, 1, env...)[0]
			if len(first) != 1 || first[0].outcome != outCreated {
				t.Fatalf("first process: %+v; want created", first)
			}
			srv.ResetCalls()
			second := runChildren(t, 1, env...)[0]
			if len(second) != 1 || second[0].outcome != outCreated || second[0].id != first[0].id {
				t.Fatalf("restarted process: %+v; want the order %s", second, first[0].id)
			}
			var ops []string
			for _, c := range srv.Calls() {
				ops = append(ops, string(c.Operation))
			}
			if strings.Join(ops, " ") != string(rxdeliverytest.OrdersGet) {
				t.Fatalf("the restarted process made the calls %v; want one get and no create", ops)
			}
		})
	}
}

// TestThousandCreatesAcrossFourProcesses: 4 processes each create the same
// 1,000 references in their own order, while the platform commits 100
// creates and answers them 500 (committed, then failed) and fails 50 more
// with 500 before acting. Then the operator's runbook settles every unknown
// claim against what the platform holds, and 4 processes run again, each on
// a quarter of the references: every reference ends with exactly one order.
func TestThousandCreatesAcrossFourProcesses(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short")
	}
	fullsuite.Require(t, "the thousand creates across processes")
	const refs, committedFailed, failed = 1000, 100, 50
	for name, open := range sharedStores(t) {
		t.Run(name, func(t *testing.T) {
			spec, store := open(t)
			srv := rxdeliverytest.Start(t)
			srv.FailNext(rxdeliverytest.OrdersCreate, committedFailed, rxdeliverytest.CommittedThenFailed())
			srv.FailNext(rxdeliverytest.OrdersCreate, failed, rxdeliverytest.ServerError())
			env := append(srv.EnvLines(true), "JOURNAL_TEST_STORE="+spec, "JOURNAL_TEST_REFS=bulk:1000", "JOURNAL_TEST_WORKERS=8")

			start := time.Now()
			first := runChildren(t, 4, env...)
			firstTook := time.Since(start)
			outcomes := map[string]int{}
			for _, rep := range first {
				for _, a := range rep {
					outcomes[a.outcome]++
				}
			}
			if outcomes[outUnknown] != committedFailed+failed {
				t.Fatalf("first run: %v; want %d unknown outcomes", outcomes, committedFailed+failed)
			}
			if n := len(srv.CallsTo(rxdeliverytest.OrdersCreate)); n != refs {
				t.Fatalf("first run: the platform received %d creates; want %d (one per reference)", n, refs)
			}

			// The runbook: list the unknown claims, look each reference up
			// in what the platform holds, resolve or free.
			held := map[string][]string{}
			for _, o := range srv.Orders() {
				held[o.ExternalReferenceNumber] = append(held[o.ExternalReferenceNumber], o.ID)
			}
			ctx := context.Background()
			op := journal.New(store)
			unknown, err := op.Unknown(ctx, -1)
			if err != nil || len(unknown) != committedFailed+failed {
				t.Fatalf("Unknown: %d claims, %v; want %d", len(unknown), err, committedFailed+failed)
			}
			resolved, freed := 0, 0
			for _, c := range unknown {
				if ids := held[c.Reference]; len(ids) == 1 {
					err, resolved = op.Resolve(ctx, c.Key, ids[0]), resolved+1
				} else {
					err, freed = op.Free(ctx, c.Key), freed+1
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if resolved != committedFailed || freed != failed {
				t.Fatalf("resolved %d, freed %d; want %d and %d", resolved, freed, committedFailed, failed)
			}

			// Each process now takes a quarter of the references: every
			// one is tried once more.
			start = time.Now()
			second := runChildren(t, 4, append(env, "JOURNAL_TEST_SHARDS=4")...)
			secondTook := time.Since(start)
			tried := 0
			for i, rep := range second {
				for _, a := range rep {
					if a.outcome != outCreated {
						t.Fatalf("second run, child %d: %+v; want created", i, a)
					}
					tried++
				}
			}
			if tried != refs {
				t.Fatalf("second run tried %d references; want %d", tried, refs)
			}
			byRef := map[string][]string{}
			for _, o := range srv.Orders() {
				byRef[o.ExternalReferenceNumber] = append(byRef[o.ExternalReferenceNumber], o.ID)
			}
			if len(byRef) != refs {
				t.Fatalf("the platform holds orders for %d references; want %d", len(byRef), refs)
			}
			var dup []string
			for ref, ids := range byRef {
				if len(ids) != 1 {
					dup = append(dup, ref)
				}
				c, err := op.Get(ctx, deliveryKey(ref))
				if err != nil || c.State != journal.StateCreated || c.ID != ids[0] {
					t.Fatalf("claim of %s = %+v, %v; want created as %s", ref, c, err, ids[0])
				}
			}
			sort.Strings(dup)
			if len(dup) > 0 {
				t.Fatalf("references with more than one order: %v", dup)
			}
			t.Logf("%s: first run %v (%v), %d unknown settled (%d resolved, %d freed), second run %v; %d orders for %d references, %d creates sent",
				name, firstTook.Round(time.Millisecond), outcomes, len(unknown), resolved, freed, secondTook.Round(time.Millisecond),
				len(srv.Orders()), refs, len(srv.CallsTo(rxdeliverytest.OrdersCreate)))
		})
	}
}

// waitFor polls cond until it holds, failing the test after a minute.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within a minute")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
