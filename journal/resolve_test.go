package journal_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
)

// lostCreates returns a journal on a fresh store and a platform on which a
// create of each of refs was committed and then answered 500: each claim
// is unknown, and the platform holds ord_000001, ord_000002... in the
// order of refs.
func lostCreates(t *testing.T, refs ...string) (*platform, *journal.Journal, *journal.Orders) {
	t.Helper()
	p := newPlatform(t)
	p.status.Store(http.StatusInternalServerError)
	p.commit.Store(true)
	j := journal.New(journal.NewMemoryStore(), journal.WithHolder("replica-a"))
	o := j.Orders(p.client(t).Orders)
	for _, ref := range refs {
		if _, err := o.Create(context.Background(), orderParams(ref)); !errors.Is(err, rxdelivery.ErrUnknownOutcome) {
			t.Fatalf("Create(%s) = %v; want ErrUnknownOutcome", ref, err)
		}
	}
	p.status.Store(0)
	p.commit.Store(false)
	return p, j, o
}

// TestResolveVerifiesTheReference: Orders.Resolve binds a claim only to an
// order that carries its reference. Another patient's order is refused
// with what was found (id, status, never either reference), a missing one
// as not found, and the claim stays unknown: the next create of the
// reference is refused, not answered with the other order.
func TestResolveVerifiesTheReference(t *testing.T) {
	t.Parallel()
	p, j, o := lostCreates(t, "mrn-1111", "mrn-2222")
	ctx := context.Background()

	_, err := o.Resolve(ctx, "mrn-1111", "ord_000002") // the other patient's order
	var me *journal.MismatchError
	if !errors.As(err, &me) || !errors.Is(err, journal.ErrMismatch) || me.ID != "ord_000002" || me.Status != "new" {
		t.Fatalf("Resolve with another reference's order = %v; want a *MismatchError for ord_000002, status new", err)
	}
	for _, want := range []string{"ord_000002", "status new", "the order's external reference number differs from the claim's"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not say %q", err, want)
		}
	}
	if s := fmt.Sprintf("%v %+v %#v", err, err, err); strings.Contains(s, "mrn-") {
		t.Errorf("refusal quotes a reference: %s", s)
	}
	_, err = o.Resolve(ctx, "mrn-1111", "ord_999999") // mistyped
	if !errors.Is(err, rxdelivery.ErrNotFound) || errors.Is(err, journal.ErrMismatch) {
		t.Fatalf("Resolve with a missing order = %v; want ErrNotFound", err)
	}
	if c, _ := j.Get(ctx, deliveryKey("mrn-1111")); c.State != journal.StateUnknown {
		t.Fatalf("claim after refused resolves = %+v; want unknown", c)
	}
	if _, err := o.Create(ctx, orderParams("mrn-1111")); !errors.Is(err, journal.ErrClaimed) {
		t.Fatalf("Create after refused resolves = %v; want refused as claimed", err)
	}

	got, err := o.Resolve(ctx, "mrn-1111", "ord_000001")
	if err != nil || got.ID != "ord_000001" || got.ExternalReferenceNumber != "mrn-1111" {
		t.Fatalf("Resolve with the right order = %+v, %v", got, err)
	}
	if o2, err := o.Create(ctx, orderParams("mrn-1111")); err != nil || o2.ID != "ord_000001" {
		t.Fatalf("Create after Resolve = %+v, %v; want ord_000001", o2, err)
	}
	if _, err := o.Resolve(ctx, "mrn-1111", "ord_000001"); !errors.Is(err, journal.ErrNoMatch) {
		t.Fatalf("Resolve of a created claim = %v; want ErrNoMatch", err)
	}
	if n := p.createsOf("mrn-1111"); n != 1 {
		t.Fatalf("platform received %d creates of mrn-1111; want 1", n)
	}
}

// TestRequestsResolveVerifiesTheReference: the same for omni requests.
func TestRequestsResolveVerifiesTheReference(t *testing.T) {
	t.Parallel()
	p := newPlatform(t)
	p.status.Store(http.StatusInternalServerError)
	p.commit.Store(true)
	j := journal.New(journal.NewMemoryStore())
	rq := j.Requests(p.client(t).Requests)
	ctx := context.Background()
	for _, ref := range []string{"omni-a", "omni-b"} {
		if _, err := rq.Create(ctx, requestParams(ref)); !errors.Is(err, rxdelivery.ErrUnknownOutcome) {
			t.Fatalf("Create(%s) = %v", ref, err)
		}
	}
	p.status.Store(0)
	_, err := rq.Resolve(ctx, "omni-a", "req_000002")
	var me *journal.MismatchError
	if !errors.As(err, &me) || me.Interface != journal.InterfaceOmni || !strings.Contains(err.Error(), "the request's external reference number differs") {
		t.Fatalf("Resolve with another request = %v; want a *MismatchError", err)
	}
	if _, err := rq.Resolve(ctx, "omni-a", "ord_000001"); !errors.Is(err, rxdelivery.ErrNotFound) {
		t.Fatalf("Resolve with an order's id = %v; want ErrNotFound", err)
	}
	if _, err := rq.Resolve(ctx, "omni-a", "req_000001"); err != nil {
		t.Fatal(err)
	}
	if err := rq.Unresolve(ctx, "omni-a", "req_000001"); err != nil {
		t.Fatalf("Unresolve of an operator's record = %v", err)
	}
	if c, _ := j.Get(ctx, journal.Key{Interface: journal.InterfaceOmni, Reference: "omni-a"}); c.State != journal.StateUnknown || c.ID != "" {
		t.Fatalf("claim after Unresolve = %+v; want unknown without an id", c)
	}
}

// TestUnresolveUndoesAWrongRecord: a claim the unverified Journal.Resolve
// bound to a mistyped id, or to another patient's order, is returned to
// unknown by Unresolve, and then resolved right; the next create returns
// the right order.
func TestUnresolveUndoesAWrongRecord(t *testing.T) {
	t.Parallel()
	_, j, o := lostCreates(t, "mrn-1111", "mrn-2222")
	ctx := context.Background()
	k := deliveryKey("mrn-1111")
	if err := j.Resolve(ctx, k, "ord_000002"); err != nil { // unverified: the other patient's order
		t.Fatal(err)
	}
	if got, _ := o.Create(ctx, orderParams("mrn-1111")); got == nil || got.ID != "ord_000002" {
		t.Fatalf("the unverified record is not in effect: %+v", got)
	}
	if err := o.Unresolve(ctx, "mrn-1111", "ord_000001"); !errors.Is(err, journal.ErrNoMatch) {
		t.Fatalf("Unresolve naming another id = %v; want ErrNoMatch", err)
	}
	if err := o.Unresolve(ctx, "mrn-1111", "ord_000002"); err != nil {
		t.Fatal(err)
	}
	c, err := j.Get(ctx, k)
	if err != nil || c.State != journal.StateUnknown || c.ID != "" || !strings.Contains(c.Note, "ord_000002") {
		t.Fatalf("claim after Unresolve = %+v, %v; want unknown, noting the undone id", c, err)
	}
	if _, err := o.Create(ctx, orderParams("mrn-1111")); !errors.Is(err, journal.ErrClaimed) {
		t.Fatalf("Create after Unresolve = %v; want refused until resolved", err)
	}
	if err := o.Unresolve(ctx, "mrn-1111", "ord_000002"); !errors.Is(err, journal.ErrNoMatch) {
		t.Fatalf("Unresolve of an unknown claim = %v; want ErrNoMatch", err)
	}
	if _, err := o.Resolve(ctx, "mrn-1111", "ord_000001"); err != nil {
		t.Fatal(err)
	}
	if got, err := o.Create(ctx, orderParams("mrn-1111")); err != nil || got.ID != "ord_000001" {
		t.Fatalf("Create after the right resolve = %+v, %v; want ord_000001", got, err)
	}

	// A mistyped id recorded without verification: the platform has no
	// such order, so the record is undone.
	if err := j.Resolve(ctx, deliveryKey("mrn-2222"), "ord_00002"); err != nil {
		t.Fatal(err)
	}
	if err := o.Unresolve(ctx, "mrn-2222", "ord_00002"); err != nil {
		t.Fatalf("Unresolve of a mistyped id = %v", err)
	}
	if err := o.Unresolve(ctx, "absent", "ord_000001"); !errors.Is(err, journal.ErrNoClaim) {
		t.Fatalf("Unresolve of no claim = %v; want ErrNoClaim", err)
	}
}

// TestUnresolveKeepsWhatACreateRecorded: an id recorded by the create
// itself, which the platform confirms carries the reference, is never
// undone; one the platform no longer shows (or shows with another
// reference) is.
func TestUnresolveKeepsWhatACreateRecorded(t *testing.T) {
	t.Parallel()
	p := newPlatform(t)
	j := journal.New(journal.NewMemoryStore())
	o := j.Orders(p.client(t).Orders)
	ctx := context.Background()
	created, err := o.Create(ctx, orderParams("mrn-3333"))
	if err != nil {
		t.Fatal(err)
	}
	err = o.Unresolve(ctx, "mrn-3333", created.ID)
	if !errors.Is(err, journal.ErrNoMatch) || !strings.Contains(err.Error(), "nothing to undo") || strings.Contains(err.Error(), "mrn-") {
		t.Fatalf("Unresolve of a confirmed create = %v; want refused, without the reference", err)
	}
	p.mu.Lock()
	p.stored[created.ID] = "mrn-9999" // the platform now shows another reference
	p.mu.Unlock()
	if err := o.Unresolve(ctx, "mrn-3333", created.ID); err != nil {
		t.Fatalf("Unresolve of an id that carries another reference = %v", err)
	}
}

// TestSettlingAClaimInFlightSaysRetry: Resolve, Unresolve and Free of a
// claim another create holds with a live lease are refused as in flight
// (ErrInFlight, and ErrNoMatch as before), saying the holder and when
// the lease ends; the create refused meanwhile matches ErrInFlight too,
// and a create refused on an unknown claim does not.
func TestSettlingAClaimInFlightSaysRetry(t *testing.T) {
	t.Parallel()
	p := newPlatform(t)
	p.hold, p.arrived = make(chan struct{}), make(chan string, 1)
	store := journal.NewMemoryStore()
	ctx := context.Background()
	a := journal.New(store, journal.WithHolder("replica-a")).Orders(p.client(t).Orders)
	b := journal.New(store, journal.WithHolder("replica-b"))
	ob := b.Orders(p.client(t).Orders)
	done := make(chan error, 1)
	go func() {
		_, err := a.Create(ctx, orderParams("busy"))
		done <- err
	}()
	<-p.arrived
	_, err := ob.Create(ctx, orderParams("busy"))
	if !errors.Is(err, journal.ErrInFlight) || !strings.Contains(err.Error(), "retry after the lease ends at ") {
		t.Fatalf("Create while in flight = %v; want ErrInFlight, saying when to retry", err)
	}
	for name, settle := range map[string]func() error{
		"Free":      func() error { return b.Free(ctx, deliveryKey("busy")) },
		"Resolve":   func() error { _, err := ob.Resolve(ctx, "busy", "ord_000001"); return err },
		"Unresolve": func() error { return ob.Unresolve(ctx, "busy", "ord_000001") },
	} {
		err := settle()
		if !errors.Is(err, journal.ErrInFlight) || !errors.Is(err, journal.ErrNoMatch) ||
			!strings.Contains(err.Error(), "held by replica-a") || !strings.Contains(err.Error(), "retry after the lease ends at ") {
			t.Errorf("%s while in flight = %v; want ErrInFlight and ErrNoMatch, naming the holder and the lease", name, err)
		}
	}
	if n := p.gets.Load(); n != 0 {
		t.Errorf("the platform was read %d times for claims in flight; want 0", n)
	}
	close(p.hold)
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	_, _, o := lostCreates(t, "lost")
	if _, err := o.Create(ctx, orderParams("lost")); !errors.Is(err, journal.ErrClaimed) || errors.Is(err, journal.ErrInFlight) {
		t.Fatalf("Create of an unknown claim = %v; want ErrClaimed, not ErrInFlight", err)
	}
}

// TestCreateWithoutReferenceIsInvalidParams: a journaled create without an
// external reference number is invalid params (a *ValidationError at
// external_reference_number), matching ErrNoReference as before, for
// orders and requests alike; nothing is sent.
func TestCreateWithoutReferenceIsInvalidParams(t *testing.T) {
	t.Parallel()
	p := newPlatform(t)
	j := journal.New(journal.NewMemoryStore())
	c := p.client(t)
	ctx := context.Background()
	_, errOrder := j.Orders(c.Orders).Create(ctx, orderParams(""))
	_, errRequest := j.Requests(c.Requests).Create(ctx, requestParams(""))
	for _, err := range []error{errOrder, errRequest} {
		var ve *rxdelivery.ValidationError
		if !errors.As(err, &ve) || !ve.Has("external_reference_number") || !errors.Is(err, rxdelivery.ErrInvalidParams) || !errors.Is(err, journal.ErrNoReference) {
			t.Errorf("Create without a reference = %v; want a *ValidationError at external_reference_number matching ErrNoReference", err)
		}
	}
	if n := p.createsOf(""); n != 0 {
		t.Fatalf("%d creates without a reference were sent", n)
	}
}

// TestErrorsEscapeStoredText: a holder, note or id read from a store's row
// (an old row, another process's WithHolder) reaches the journal's errors
// with its characters that do not print escaped.
func TestErrorsEscapeStoredText(t *testing.T) {
	t.Parallel()
	p := newPlatform(t)
	store := journal.NewMemoryStore()
	ctx := context.Background()
	now := time.Now().UTC()
	for ref, c := range map[string]journal.Claim{
		"unknown":   {State: journal.StateUnknown, Holder: "host\x1b[2J:1", Note: "500\x1b]0;x\x07\r"},
		"created":   {State: journal.StateCreated, Holder: "h", ID: "ord_1\x1b[2J"},
		"in-flight": {State: journal.StateInFlight, Holder: "host\u202e:1", LeaseUntil: now.Add(time.Hour)},
	} {
		c.Key, c.Token, c.ClaimedAt, c.UpdatedAt = deliveryKey(ref), "t", now, now
		if c.LeaseUntil.IsZero() {
			c.LeaseUntil = now
		}
		if _, _, err := store.Insert(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	j := journal.New(store)
	o := j.Orders(p.client(t).Orders)
	_, e1 := o.Create(ctx, orderParams("unknown"))
	_, e2 := o.Resolve(ctx, "created", "ord_2")
	e3 := j.Free(ctx, deliveryKey("in-flight"))
	_, e4 := o.Create(ctx, orderParams("in-flight"))
	e5 := o.Unresolve(ctx, "created", "ord_2\x1b")
	for _, err := range []error{e1, e2, e3, e4, e5} {
		if err == nil {
			t.Fatal("an operation on a claim succeeded")
		}
		for _, r := range err.Error() {
			if !unicode.IsPrint(r) {
				t.Errorf("error prints %U: %q", r, err.Error())
				break
			}
		}
	}
}
