package journal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/requests"
)

// ErrMismatch matches the refusal of [Orders.Resolve] and
// [Requests.Resolve] to record an id whose order or request, as the
// platform reads it, does not carry the claim's external reference number:
// recording it would hand that resource to every later create of the
// reference, and leave the create the reference stands for undone. The
// error is a *[MismatchError] saying what was found.
var ErrMismatch = errors.New("journal: the resource's external reference number differs from the claim's")

// MismatchError is the refusal to record an id for a claim because the
// platform's order or request of that id carries another external
// reference number (or none). It matches [ErrMismatch]. It says what was
// found without quoting either reference: both are patient data.
type MismatchError struct {
	// Interface is the claim's interface ([InterfaceDelivery] or
	// [InterfaceOmni]).
	Interface string
	// ID is the id that was read on the platform.
	ID string
	// Status is the status the platform reports for it ("" when it
	// reports none).
	Status string
}

// Error says which resource was read, its status, and that its reference
// differs from the claim's.
func (e *MismatchError) Error() string {
	noun := nounOf(e.Interface)
	status := "status " + e.Status
	if e.Status == "" {
		status = "no status reported"
	}
	return fmt.Sprintf("journal: not recorded: the platform's %s %s (%s) is not the create of this %s claim: the %s's external reference number differs from the claim's",
		noun, shown(e.ID), shown(status), e.Interface, noun)
}

// Is matches [ErrMismatch].
func (e *MismatchError) Is(target error) bool { return target == ErrMismatch }

// nounOf names the resource a create on iface makes.
func nounOf(iface string) string {
	if iface == InterfaceOmni {
		return "request"
	}
	return "order"
}

// The notes of claims an operator changed. Unresolve reads the first to
// tell a record an operator made from one a create made.
const (
	noteResolved   = "resolved by an operator"
	noteVerified   = noteResolved + "; the platform's resource carries the reference"
	noteUnresolved = "an operator undid the record of "
)

// resolve records that the unknown claim of ref was created as id once
// the platform's resource id carries ref (Orders.Resolve).
func (c *creates[P, V]) resolve(ctx context.Context, ref, id string, opts []option.CallOption) (*V, error) {
	k := Key{Interface: c.iface, Reference: ref}
	if ref == "" {
		return nil, fmt.Errorf("%w: there is no claim to resolve", ErrNoReference)
	}
	if id == "" {
		return nil, errorf(k, "journal: resolving %s: an id is required (use Free when nothing was created)", k)
	}
	cl, err := c.j.unknownClaim(ctx, k)
	if err != nil {
		return nil, err
	}
	v, err := c.api.Get(ctx, id, opts...)
	if err != nil {
		return nil, errorf(k, "journal: resolving %s: reading %s %s: %w", k, nounOf(c.iface), shown(id), err)
	}
	if c.resourceRef(v) != ref {
		c.j.log(ctx, slog.LevelWarn, "journal: resolve refused; the resource carries another reference", k, slog.String("id", id))
		return nil, &MismatchError{Interface: c.iface, ID: id, Status: c.status(v)}
	}
	u := cl
	u.State, u.ID, u.Note, u.UpdatedAt = StateCreated, id, noteVerified, storeTime(c.j.now())
	if err := c.j.store.Update(ctx, Match{Key: k, State: StateUnknown, Token: cl.Token}, u); err != nil {
		return nil, errorf(k, "journal: resolving %s: %w", k, err)
	}
	c.j.log(ctx, slog.LevelInfo, "journal: resolved by an operator, verified on the platform", k, slog.String("id", id))
	return v, nil
}

// unresolve returns the created claim of ref, recorded as id, to unknown
// (Orders.Unresolve).
func (c *creates[P, V]) unresolve(ctx context.Context, ref, id string, opts []option.CallOption) error {
	k := Key{Interface: c.iface, Reference: ref}
	if ref == "" {
		return fmt.Errorf("%w: there is no claim to unresolve", ErrNoReference)
	}
	cl, err := c.j.store.Get(ctx, k)
	if err != nil {
		return redact(k, err)
	}
	c.j.expire(ctx, &cl)
	switch {
	case cl.State == StateInFlight:
		return inFlight(cl)
	case cl.State != StateCreated:
		return errorf(k, "%w: %s is %s, not created: resolve or free it", ErrNoMatch, k, cl.State)
	case cl.ID != id:
		return errorf(k, "%w: %s is created as %s, not as %s", ErrNoMatch, k, shown(cl.ID), shown(id))
	}
	if !strings.HasPrefix(cl.Note, noteResolved) {
		// Its create recorded the id: undo it only when the platform shows
		// that the id does not carry the reference.
		v, err := c.api.Get(ctx, id, opts...)
		switch {
		case errors.Is(err, rxdelivery.ErrNotFound):
		case err != nil:
			return errorf(k, "journal: unresolving %s: reading %s %s: %w", k, nounOf(c.iface), shown(id), err)
		case c.resourceRef(v) == ref:
			return errorf(k, "%w: %s was recorded by its create, and the platform's %s %s carries its reference: there is nothing to undo",
				ErrNoMatch, k, nounOf(c.iface), shown(id))
		}
	}
	u := cl
	u.State, u.ID, u.Note, u.UpdatedAt = StateUnknown, "", noteUnresolved+nounOf(c.iface)+" "+shown(id), storeTime(c.j.now())
	if err := c.j.store.Update(ctx, Match{Key: k, State: StateCreated, Token: cl.Token}, u); err != nil {
		return errorf(k, "journal: unresolving %s: %w", k, err)
	}
	c.j.log(ctx, slog.LevelInfo, "journal: unresolved by an operator; outcome unknown", k, slog.String("id", id))
	return nil
}

// inFlightError refuses to settle a claim another create holds with a
// live lease. It matches ErrNoMatch (the claim is not in the state the
// operation needs) and ErrInFlight.
type inFlightError struct{ msg string }

func (e *inFlightError) Error() string { return e.msg }

func (e *inFlightError) Is(target error) bool { return target == ErrNoMatch || target == ErrInFlight }

// inFlight is the refusal to settle the in-flight claim c.
func inFlight(c Claim) error {
	return &inFlightError{msg: fmt.Sprintf("journal: %s is in flight (held by %s): its create may still succeed; retry after the lease ends at %s",
		c.Key, shown(c.Holder), c.LeaseUntil.UTC().Format("2006-01-02T15:04:05Z07:00"))}
}

// Resolve records that the unknown claim of reference was created as the
// order id, after reading that order on the platform: later creates of
// reference return it without sending. An operator calls it once they
// have found the order the lost create made. The check relies on the
// delivery document's Order, whose external_reference_number is the
// caller's reference as its create sent it (the omni document's Request
// likewise); the comparison is exact.
//
// It records nothing, and returns a *[MismatchError] (matching
// [ErrMismatch]) saying what it read, when the order's external reference
// number is not reference; an error matching [rxdelivery.ErrNotFound] when
// there is no order id; and an error matching [ErrNoMatch] when the claim
// is not unknown ([ErrInFlight] too when another create holds it). It
// returns the order read. opts apply to that read.
func (o *Orders) Resolve(ctx context.Context, reference, id string, opts ...option.CallOption) (*orders.Order, error) {
	return o.c.resolve(ctx, reference, id, opts)
}

// Unresolve undoes the record that the claim of reference was created as
// the order id, returning the claim to unknown: the journal sends nothing
// for reference until an operator resolves it again ([Orders.Resolve]) or
// frees it ([Journal.Free]). It is for an id recorded by mistake.
//
// It refuses, with an error matching [ErrNoMatch], unless the claim is
// created as id and either an operator recorded it ([Orders.Resolve],
// [Journal.Resolve]) or the platform shows that id does not carry reference
// (no such order, or one with another external reference number): an id
// its own create recorded and the platform confirms is never undone.
// opts apply to the read.
func (o *Orders) Unresolve(ctx context.Context, reference, id string, opts ...option.CallOption) error {
	return o.c.unresolve(ctx, reference, id, opts)
}

// Resolve records that the unknown claim of reference was created as the
// omni request id, after reading that request on the platform, as
// [Orders.Resolve] does for orders: it refuses with a *[MismatchError] when
// the request's external reference number is not reference.
func (r *Requests) Resolve(ctx context.Context, reference, id string, opts ...option.CallOption) (*requests.Request, error) {
	return r.c.resolve(ctx, reference, id, opts)
}

// Unresolve undoes the record that the claim of reference was created as
// the omni request id, returning the claim to unknown, under the
// conditions of [Orders.Unresolve].
func (r *Requests) Unresolve(ctx context.Context, reference, id string, opts ...option.CallOption) error {
	return r.c.unresolve(ctx, reference, id, opts)
}

// errNoReference is the refusal of a create without a reference: invalid
// params (a *rxdelivery.ValidationError, nothing sent) that also matches
// ErrNoReference.
func errNoReference() error {
	return &noReferenceError{ve: &rxdelivery.ValidationError{Problems: []rxdelivery.Problem{{
		Path:    "external_reference_number",
		Message: "is required: the journal claims each create by its external reference number",
	}}}}
}

type noReferenceError struct{ ve *rxdelivery.ValidationError }

func (e *noReferenceError) Error() string   { return e.ve.Error() }
func (e *noReferenceError) Unwrap() []error { return []error{e.ve, ErrNoReference} }

// shown renders a value the journal's errors quote (a holder, an id, a
// note, a status) as it is when every character of it prints, and
// otherwise quoted with those characters escaped: a value from a store's
// row or an operator's argument cannot move a terminal's cursor, clear its
// screen or hide the text after it.
func shown(s string) string {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	return s
}
