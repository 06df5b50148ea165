package requests

import (
	"context"
	"iter"

	"github.com/rxdelivery/rxdelivery-go/internal/poll"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// Final reports whether the request reached the end of its life: its order
// is in a final status (rxtypes.OrderStatus.Final: delivered, returned_to_pharmacy
// or cancelled), or the request's own status is request_incomplete. A
// request without an order is not final: the platform has yet to
// associate one.
func (r *Request) Final() bool {
	if r == nil {
		return false
	}
	if r.Status != nil && r.Status.Name == StatusRequestIncomplete {
		return true
	}
	return r.Order != nil && r.Order.Status.Final()
}

// Watch returns an iterator that follows the request id to the end of its
// life: it reads the request (GET /api/v1/requests/{id}), yields it, and
// reads it again after a wait, yielding it each time its state changes
// (an order associated, the order's status, the request's [Status] name or
// detail), until it is [Request.Final] or meets the condition of an [Until]
// option; the request that ends the watch is yielded last.
//
//	for r, err := range client.Requests.Watch(ctx, id) {
//		if err != nil {
//			return err
//		}
//		if r.Order != nil {
//			fmt.Println(r.Order.Status)
//		}
//	}
//
// A watch only reads. Each read is one [Service.Get], with the client's
// rate limiter, retry policy and retry budget, hooks, metadata, log line
// and span, and with the call options among opts (WithAttemptTimeout,
// WithMetadata, WithMiddleware, ...). Between reads it waits on the
// client's Clock (real time unless rxdelivery.WithClock): the wait starts
// at the poll interval (rxdelivery.DefaultPollInterval, 10s, or
// WithPollInterval), grows by half after each read that saw no change up
// to the cap (DefaultMaxPollInterval, 2m, or WithMaxPollInterval), comes
// back to the interval after a change, is spread by 10% either way, and is
// never shorter than a Retry-After the platform sent.
//
// A read that fails for a passing reason (429, 5xx, a failed connection,
// an attempt timeout) is tried again after the next wait, without being
// yielded. Anything else is yielded once, with a nil request, and ends the
// watch: the end of ctx (its error), a request that is gone (the
// *rxdelivery.APIError of the 404, matching rxdelivery.ErrNotFound), a
// refused or malformed response. A request whose order has a status the
// documents do not list is yielded with a *rxdelivery.WatchError matching
// rxdelivery.ErrUnknownStatus, and ends the watch: whether such a status
// is final cannot be told. (The request's own status names are not all
// listed by the document, so an unlisted one is followed, not refused.)
// Breaking out of the loop stops the watch before its next read.
func (s *Service) Watch(ctx context.Context, id string, opts ...option.WatchOption) iter.Seq2[*Request, error] {
	return s.kind().One(ctx, s.b.Clock(), id, opts)
}

// Wait follows the request id as [Service.Watch] does and returns it once
// it is [Request.Final] or meets the condition of an [Until] option. On an
// error it returns the request as last read (nil if none was) with the
// error Watch would have yielded, such as ctx's when it ends first.
func (s *Service) Wait(ctx context.Context, id string, opts ...option.WatchOption) (*Request, error) {
	return poll.Last(s.Watch(ctx, id, opts...))
}

// WatchMany follows many requests at once with the get-many endpoint
// (GET /api/v1/requests/?ids[]=…), never one read per request: each round
// reads the requests still open in batches of
// rxdelivery.DefaultPollBatchSize (50; WithPollBatchSize), yields each
// request at its first read and at every change of its state, as it is
// seen, and drops from the batches each request that is [Request.Final] (or
// meets the [Until] condition). The watch ends when no request is left.
// Duplicate ids are read once.
//
// Rounds wait between them as [Service.Watch]'s reads do: the wait comes
// back to the interval after a round that saw a change. A batch that fails
// for a passing reason is read again next round; any other failure is
// yielded once, with a nil request, and ends the watch, as does the end of
// ctx. A request the response leaves out is yielded as a
// *rxdelivery.WatchError (with a nil request) matching
// rxdelivery.ErrNotFound, and one whose order has a status the documents do
// not list with a *rxdelivery.WatchError matching
// rxdelivery.ErrUnknownStatus; either leaves the batches, and the others go
// on. An empty ids, or an empty id in it, is refused before anything is
// sent.
func (s *Service) WatchMany(ctx context.Context, ids []string, opts ...option.WatchOption) iter.Seq2[*Request, error] {
	return s.kind().Many(ctx, s.b.Clock(), ids, opts)
}

// Until ends a watch of requests ([Service.Watch], [Service.WatchMany]) or
// makes [Service.Wait] return as soon as cond reports true for a request
// read, even before it is [Request.Final]:
//
//	r, err := client.Requests.Wait(ctx, id, requests.Until(func(r *requests.Request) bool {
//		return r.Order != nil && r.Order.Status == rxtypes.OrderStatusPickedUp
//	}))
//
// The request that meets it is yielded (or returned) as the last one; with
// [Service.WatchMany] it leaves the batches.
func Until(cond func(*Request) bool) option.WatchOption { return option.Until(cond) }

// kind describes requests to the watch engine.
func (s *Service) kind() *poll.Kind[Request] {
	return &poll.Kind[Request]{
		Watch: "requests.Watch", WatchMany: "requests.WatchMany",
		ID:    func(r *Request) string { return r.ID },
		State: state,
		Unknown: func(r *Request) (string, bool) {
			if r.Order == nil {
				return "", false
			}
			return string(r.Order.Status), !r.Order.Status.Known()
		},
		Final:   (*Request).Final,
		Get:     s.Get,
		GetMany: s.GetMany,
	}
}

// state is what a change of a request is judged on: whether it has an
// order, the order's status, and the request's status name and detail.
func state(r *Request) string {
	s := "no order"
	if r.Order != nil {
		s = "order " + string(r.Order.Status)
	}
	if r.Status != nil {
		s += "\x00" + string(r.Status.Name) + "\x00" + string(r.Status.Detail)
	}
	return s
}
