package journal_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
)

func deliveryKey(ref string) journal.Key {
	return journal.Key{Interface: journal.InterfaceDelivery, Reference: ref}
}

func TestCreateRecordsTheIDAndNeverSendsTwice(t *testing.T) {
	t.Parallel()
	p := newPlatform(t)
	store := journal.NewMemoryStore()
	ctx := context.Background()
	first := journal.New(store).Orders(p.client(t).Orders)
	o1, err := first.Create(ctx, orderParams("ref-1"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := journal.New(store).Get(ctx, deliveryKey("ref-1"))
	if err != nil || c.State != journal.StateCreated || c.ID != o1.ID || c.Token != "" {
		t.Fatalf("claim = %+v, %v; want created as %s, token hidden", c, err, o1.ID)
	}
	// Another journal on the same store (another replica, or this process
	// restarted) returns the recorded order as the platform has it now.
	again := journal.New(store).Orders(p.client(t).Orders)
	o2, err := again.Create(ctx, orderParams("ref-1"))
	if err != nil {
		t.Fatal(err)
	}
	if o2.ID != o1.ID || o2.ExternalReferenceNumber != "ref-1" {
		t.Fatalf("second create returned %+v; want the order %s", o2, o1.ID)
	}
	if n := p.createsOf("ref-1"); n != 1 {
		t.Fatalf("platform received %d creates; want 1", n)
	}
	if n := p.gets.Load(); n != 1 {
		t.Fatalf("platform received %d gets; want 1 (the recorded order read back)", n)
	}
}

func TestRequestsCreateOnce(t *testing.T) {
	t.Parallel()
	p := newPlatform(t)
	store := journal.NewMemoryStore()
	ctx := context.Background()
	rq := journal.New(store).Requests(p.client(t).Requests)
	r1, err := rq.Create(ctx, requestParams("omni-1"))
	if err != nil {
		t.Fatal(err)
	}
	r2, err := rq.Create(ctx, requestParams("omni-1"))
	if err != nil || r2.ID != r1.ID {
		t.Fatalf("second create = %+v, %v; want %s", r2, err, r1.ID)
	}
	// The same reference on the delivery interface is another key.
	if _, err := journal.New(store).Orders(p.client(t).Orders).Create(ctx, orderParams("omni-1")); err != nil {
		t.Fatal(err)
	}
	if n := p.createsOf("omni-1"); n != 2 {
		t.Fatalf("platform received %d creates; want 2 (one request, one order)", n)
	}
}

func TestAnswersProvingNothingCreatedReleaseTheClaim(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusNotFound,
		http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			p := newPlatform(t)
			p.status.Store(int32(status))
			store := journal.NewMemoryStore()
			j := journal.New(store)
			o := j.Orders(p.client(t).Orders)
			ctx := context.Background()
			_, err := o.Create(ctx, orderParams("r"))
			var apiErr *rxdelivery.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != status || errors.Is(err, rxdelivery.ErrUnknownOutcome) {
				t.Fatalf("Create = %v; want the platform's %d, a known outcome", err, status)
			}
			if _, err := j.Get(ctx, deliveryKey("r")); !errors.Is(err, journal.ErrNoClaim) {
				t.Fatalf("claim after a %d: %v; want released", status, err)
			}
			p.status.Store(0)
			if _, err := o.Create(ctx, orderParams("r")); err != nil {
				t.Fatalf("create after the refusal: %v", err)
			}
			if n := p.committed("r"); n != 1 {
				t.Fatalf("%d orders committed; want 1", n)
			}
		})
	}
}

func TestInvalidOrUnsentCreateReleasesTheClaim(t *testing.T) {
	t.Parallel()
	p := newPlatform(t)
	store := journal.NewMemoryStore()
	j := journal.New(store)
	ctx := context.Background()

	bad := orderParams("invalid")
	bad.Patient.FirstName = ""
	_, err := j.Orders(p.client(t).Orders).Create(ctx, bad)
	if !errors.Is(err, rxdelivery.ErrInvalidParams) {
		t.Fatalf("Create = %v; want ErrInvalidParams", err)
	}
	if _, err := j.Get(ctx, deliveryKey("invalid")); !errors.Is(err, journal.ErrNoClaim) {
		t.Fatalf("claim after invalid params: %v; want released", err)
	}

	// Nothing listens: the request never leaves.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	c, err := rxdelivery.NewClient("key", "secret", rxdelivery.WithDeliveryURL(closed), rxdelivery.WithRetryMax(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = j.Orders(c.Orders).Create(ctx, orderParams("unsent"))
	if err == nil || errors.Is(err, rxdelivery.ErrUnknownOutcome) {
		t.Fatalf("Create to a closed port = %v; want a known failure", err)
	}
	if _, err := j.Get(ctx, deliveryKey("unsent")); !errors.Is(err, journal.ErrNoClaim) {
		t.Fatalf("claim after a failed dial: %v; want released", err)
	}

	if _, err := j.Orders(p.client(t).Orders).Create(ctx, orderParams("")); !errors.Is(err, journal.ErrNoReference) {
		t.Fatalf("Create without a reference = %v; want ErrNoReference", err)
	}
	if n := p.createsOf(""); n != 0 {
		t.Fatalf("a create without a reference was sent")
	}
}

func TestUnknownOutcomeIsNeverSentAgainUntilResolved(t *testing.T) {
	t.Parallel()
	p := newPlatform(t)
	p.status.Store(http.StatusInternalServerError)
	p.commit.Store(true) // committed, then failed
	store := journal.NewMemoryStore()
	j := journal.New(store, journal.WithHolder("replica-a"))
	o := j.Orders(p.client(t).Orders)
	ctx := context.Background()

	_, err := o.Create(ctx, orderParams("lost"))
	if !errors.Is(err, rxdelivery.ErrUnknownOutcome) {
		t.Fatalf("Create = %v; want ErrUnknownOutcome", err)
	}
	p.status.Store(0)
	_, err = o.Create(ctx, orderParams("lost"))
	var ce *journal.ClaimedError
	if !errors.As(err, &ce) || !errors.Is(err, journal.ErrClaimed) || !errors.Is(err, rxdelivery.ErrUnknownOutcome) {
		t.Fatalf("second Create = %v; want a *ClaimedError matching ErrClaimed and ErrUnknownOutcome", err)
	}
	if ce.Claim.State != journal.StateUnknown || ce.Claim.Holder != "replica-a" || !strings.Contains(ce.Claim.Note, "500") || ce.Claim.Token != "" {
		t.Fatalf("claim in the error = %+v; want unknown, held by replica-a, noting the 500, no token", ce.Claim)
	}
	for _, want := range []string{"delivery", "replica-a", "outcome unknown", "500"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "lost") || ce.Claim.Reference != "lost" {
		t.Errorf("error %q quotes the reference, or its claim lost it (%q)", err, ce.Claim.Reference)
	}
	if n := p.createsOf("lost"); n != 1 {
		t.Fatalf("platform received %d creates; want 1", n)
	}

	unknown, err := j.Unknown(ctx, 10)
	if err != nil || len(unknown) != 1 || unknown[0].Reference != "lost" {
		t.Fatalf("Unknown = %+v, %v; want the one claim", unknown, err)
	}
	// The operator finds the order the platform committed and records it.
	if err := j.Resolve(ctx, deliveryKey("lost"), "ord_000001"); err != nil {
		t.Fatal(err)
	}
	got, err := o.Create(ctx, orderParams("lost"))
	if err != nil || got.ID != "ord_000001" {
		t.Fatalf("Create after Resolve = %+v, %v; want ord_000001", got, err)
	}
	if n := p.createsOf("lost"); n != 1 {
		t.Fatalf("platform received %d creates; want 1", n)
	}
	if err := j.Resolve(ctx, deliveryKey("lost"), "ord_2"); !errors.Is(err, journal.ErrNoMatch) {
		t.Fatalf("Resolve of a created claim = %v; want ErrNoMatch", err)
	}
	if unknown, _ := j.Unknown(ctx, 10); len(unknown) != 0 {
		t.Fatalf("Unknown after Resolve = %+v; want none", unknown)
	}
}

func TestFreeLetsTheNextCreateSend(t *testing.T) {
	t.Parallel()
	p := newPlatform(t)
	p.status.Store(http.StatusBadGateway) // 502: may have been acted on
	j := journal.New(journal.NewMemoryStore())
	o := j.Orders(p.client(t).Orders)
	ctx := context.Background()
	if _, err := o.Create(ctx, orderParams("r")); !errors.Is(err, rxdelivery.ErrUnknownOutcome) {
		t.Fatalf("Create = %v; want ErrUnknownOutcome", err)
	}
	if err := j.Free(ctx, deliveryKey("absent")); !errors.Is(err, journal.ErrNoClaim) {
		t.Fatalf("Free of an absent claim = %v; want ErrNoClaim", err)
	}
	// The operator finds that the platform has no such order.
	if err := j.Free(ctx, deliveryKey("r")); err != nil {
		t.Fatal(err)
	}
	p.status.Store(0)
	if _, err := o.Create(ctx, orderParams("r")); err != nil {
		t.Fatal(err)
	}
	if n := p.committed("r"); n != 1 {
		t.Fatalf("%d orders committed; want 1", n)
	}
	if err := j.Free(ctx, deliveryKey("r")); !errors.Is(err, journal.ErrNoMatch) {
		t.Fatalf("Free of a created claim = %v; want ErrNoMatch", err)
	}
}

func TestCreateInFlightElsewhereIsRefused(t *testing.T) {
	t.Parallel()
	p := newPlatform(t)
	p.hold, p.arrived = make(chan struct{}), make(chan string, 1)
	store := journal.NewMemoryStore()
	ctx := context.Background()
	a := journal.New(store, journal.WithHolder("a")).Orders(p.client(t).Orders)
	b := journal.New(store, journal.WithHolder("b"))
	done := make(chan error, 1)
	go func() {
		_, err := a.Create(ctx, orderParams("busy"))
		done <- err
	}()
	<-p.arrived
	_, err := b.Orders(p.client(t).Orders).Create(ctx, orderParams("busy"))
	var ce *journal.ClaimedError
	if !errors.As(err, &ce) || ce.Claim.State != journal.StateInFlight || ce.Claim.Holder != "a" || !errors.Is(err, rxdelivery.ErrUnknownOutcome) {
		t.Fatalf("Create while in flight = %v; want a *ClaimedError in flight held by a", err)
	}
	if err := b.Free(ctx, deliveryKey("busy")); !errors.Is(err, journal.ErrNoMatch) {
		t.Fatalf("Free of a live claim = %v; want ErrNoMatch", err)
	}
	close(p.hold)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := p.createsOf("busy"); n != 1 {
		t.Fatalf("platform received %d creates; want 1", n)
	}
}

func TestEndedLeaseIsUnknownNeverFree(t *testing.T) {
	t.Parallel()
	store := journal.NewMemoryStore()
	ctx := context.Background()
	now := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	// A holder that claimed and died: its lease ended a second ago.
	dead := journal.Claim{Key: deliveryKey("orphan"), State: journal.StateInFlight, Token: "t", Holder: "dead:1",
		ClaimedAt: now.Add(-time.Minute), LeaseUntil: now.Add(-time.Second), UpdatedAt: now.Add(-time.Minute)}
	if _, _, err := store.Insert(ctx, dead); err != nil {
		t.Fatal(err)
	}
	p := newPlatform(t)
	j := journal.New(store, journal.WithClock(func() time.Time { return now }))
	_, err := j.Orders(p.client(t).Orders).Create(ctx, orderParams("orphan"))
	var ce *journal.ClaimedError
	if !errors.As(err, &ce) || ce.Claim.State != journal.StateUnknown || ce.Claim.Holder != "dead:1" {
		t.Fatalf("Create = %v; want a *ClaimedError of unknown outcome held by dead:1", err)
	}
	if n := p.createsOf("orphan"); n != 0 {
		t.Fatalf("platform received %d creates; want none", n)
	}
	stored, _ := store.Get(ctx, deliveryKey("orphan"))
	if stored.State != journal.StateUnknown || !strings.Contains(stored.Note, "lease") {
		t.Fatalf("stored claim = %+v; want unknown, noting the lease", stored)
	}
}

func TestUnknownListsEndedLeases(t *testing.T) {
	t.Parallel()
	store := journal.NewMemoryStore()
	ctx := context.Background()
	now := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		ref   string
		lease time.Duration
	}{{"ended", -time.Second}, {"live", time.Minute}} {
		if _, _, err := store.Insert(ctx, journal.Claim{Key: deliveryKey(c.ref), State: journal.StateInFlight, Token: c.ref,
			Holder: "h", ClaimedAt: now, LeaseUntil: now.Add(c.lease), UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	j := journal.New(store, journal.WithClock(func() time.Time { return now }))
	got, err := j.Unknown(ctx, 10)
	if err != nil || len(got) != 1 || got[0].Reference != "ended" || got[0].Token != "" {
		t.Fatalf("Unknown = %+v, %v; want only the ended lease, without token", got, err)
	}
	if c, _ := j.Get(ctx, deliveryKey("live")); c.State != journal.StateInFlight {
		t.Fatalf("live claim = %+v; want in flight", c)
	}
}

func TestCreateIsBoundedByTheLease(t *testing.T) {
	t.Parallel()
	// The lease's deadline ends a create the platform holds on a real
	// connection, after the request was written.
	p := newLoopbackPlatform(t)
	p.hold, p.arrived = make(chan struct{}), make(chan string, 1)
	defer close(p.hold)
	j := journal.New(journal.NewMemoryStore(), journal.WithLease(2*time.Second))
	_, err := j.Orders(p.client(t).Orders).Create(context.Background(), orderParams("slow"))
	if !errors.Is(err, rxdelivery.ErrUnknownOutcome) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Create past the lease = %v; want ErrUnknownOutcome after the deadline", err)
	}
	if c, _ := j.Get(context.Background(), deliveryKey("slow")); c.State != journal.StateUnknown {
		t.Fatalf("claim = %+v; want unknown", c)
	}
}

func TestCreatedClaimWhoseReadFailsSaysSo(t *testing.T) {
	t.Parallel()
	p := newPlatform(t)
	store := journal.NewMemoryStore()
	j := journal.New(store)
	ctx := context.Background()
	if _, _, err := store.Insert(ctx, journal.Claim{Key: deliveryKey("gone"), State: journal.StateCreated, ID: "ord_999", Token: "t"}); err != nil {
		t.Fatal(err)
	}
	_, err := j.Orders(p.client(t).Orders).Create(ctx, orderParams("gone"))
	if !errors.Is(err, rxdelivery.ErrNotFound) || errors.Is(err, rxdelivery.ErrUnknownOutcome) || !strings.Contains(err.Error(), "ord_999") {
		t.Fatalf("Create = %v; want the read's ErrNotFound naming ord_999", err)
	}
	if n := p.createsOf("gone"); n != 0 {
		t.Fatalf("platform received %d creates; want none", n)
	}
}

func TestPruneRemovesOldCreatedClaimsOnly(t *testing.T) {
	t.Parallel()
	for name, store := range map[string]journal.Store{
		"memory": journal.NewMemoryStore(),
		"sqlite": testdb.SQLite(t, testdb.SQLitePath(t)),
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			base := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
			for i, st := range []journal.State{journal.StateCreated, journal.StateUnknown, journal.StateCreated, journal.StateInFlight, journal.StateCreated} {
				at := base.Add(time.Duration(i) * time.Hour)
				if _, _, err := store.Insert(ctx, journal.Claim{Key: deliveryKey(fmt.Sprint("p", i)), State: st, Token: "t",
					ClaimedAt: at, LeaseUntil: at, UpdatedAt: at}); err != nil {
					t.Fatal(err)
				}
			}
			// Created at 0h and 2h are before the cutoff; 4h is not.
			n, err := journal.New(store).Prune(ctx, base.Add(3*time.Hour))
			if err != nil || n != 2 {
				t.Fatalf("Prune = %d, %v; want 2", n, err)
			}
			for i, kept := range []bool{false, true, false, true, true} {
				_, err := store.Get(ctx, deliveryKey(fmt.Sprint("p", i)))
				if kept != (err == nil) {
					t.Errorf("p%d: kept %v, Get error %v", i, kept, err)
				}
			}
		})
	}
}
