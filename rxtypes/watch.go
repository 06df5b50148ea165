package rxtypes

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/rxdelivery/rxdelivery-go/internal/safetext"
)

// ErrUnknownStatus matches a *[WatchError] for a resource whose status is
// not one the documents list: a watch cannot tell whether such a status is
// final, so it ends instead of polling on.
var ErrUnknownStatus = errors.New("rxdelivery: status not in the documents")

// WatchError ends the watch of one resource (Watch, Wait, WatchMany of the
// orders and requests services) for a reason no single call reports: the
// resource was read with a status the documents do not list, or it is
// missing from a get-many response that was asked for it. A resource
// whose own read responds 404 ends its watch with that *[APIError] instead.
//
// Its [WatchError.Error] string names the operation, the id and the status
// (as the platform's words are shown: an enum-like word of the platform's
// vocabulary, "[redacted]" otherwise, since a status field may carry
// anything); no patient data. Status itself is the value read, raw.
type WatchError struct {
	// Op is the watch: "orders.Watch", "requests.WatchMany", ...
	Op string
	// ID is the id of the resource watched.
	ID string
	// Status is the status read when it is not a listed one; "" when Gone.
	Status string
	// Gone is true when a get-many response did not list the resource.
	Gone bool
	// RequestID is the platform's identifier of the read that showed the
	// status, or of the get-many response that left the resource out, in
	// a safe form (see the package documentation, "Request ids"); "" when
	// it had none. Error shows it.
	RequestID string
	// Attempts is how many attempts that read made: 1 plus its retries.
	Attempts int
}

// Error returns "rxdelivery: OP ID: ...".
func (e *WatchError) Error() string {
	if e.Gone {
		return "rxdelivery: " + e.Op + " " + e.ID + ": no longer listed by the get-many endpoint" + requestIDSuffix(e.RequestID)
	}
	st := e.Status
	if len(st) > maxStatusShown {
		st = st[:maxStatusShown] + "..."
	}
	// The status is the platform's word: shown when it is an enum-like
	// word of the platform's vocabulary, "[redacted]" otherwise.
	st = (*safetext.Filter)(nil).Code(st)
	return "rxdelivery: " + e.Op + " " + e.ID + ": status " + strconv.Quote(st) + " is not in the documents; whether it is final is unknown" +
		requestIDSuffix(e.RequestID)
}

// maxStatusShown bounds the status an error string quotes: a platform
// that sends something else than a status name in its place does not
// fill logs with it.
const maxStatusShown = 64

// Is matches [ErrUnknownStatus] for an unknown status, and [ErrNotFound]
// for a resource that is gone.
func (e *WatchError) Is(target error) bool {
	if e.Gone {
		return target == ErrNotFound
	}
	return target == ErrUnknownStatus
}

// Format renders e's [WatchError.Error] text for every verb and flag (%#v
// as the type and that text), so that no format shows Status raw.
func (e *WatchError) Format(f fmt.State, verb rune) { formatError(f, verb, "WatchError", e.Error()) }
