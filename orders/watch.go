package orders

import (
	"context"
	"iter"

	"github.com/rxdelivery/rxdelivery-go/internal/poll"
	"github.com/rxdelivery/rxdelivery-go/option"
)

// Watch returns an iterator that follows the order id to the end of its
// life: it reads the order (GET /api/v1/orders/{id}), yields it, and reads
// it again after a wait, yielding it each time its Status changes, until a
// final status (rxtypes.OrderStatus.Final: delivered, returned_to_pharmacy or
// cancelled, at every service level: same-day, on-demand and shipping) or
// the condition of an [Until] option; the order that ends the watch is
// yielded last.
//
//	for o, err := range client.Orders.Watch(ctx, id) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(o.Status)
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
// yielded. Anything else is yielded once, with a nil order, and ends the
// watch: the end of ctx (its error), an order that is gone (the
// *rxdelivery.APIError of the 404, matching rxdelivery.ErrNotFound), a
// refused or malformed response. An order read with a status the
// documents do not list is yielded with a *rxdelivery.WatchError matching
// rxdelivery.ErrUnknownStatus, and ends the watch: whether such a status
// is final cannot be told. Breaking out of the loop stops the watch
// before its next read.
func (s *Service) Watch(ctx context.Context, id string, opts ...option.WatchOption) iter.Seq2[*Order, error] {
	return s.kind().One(ctx, s.b.Clock(), id, opts)
}

// Wait follows the order id as [Service.Watch] does and returns it once it
// reaches a final status (rxtypes.OrderStatus.Final) or the condition of an
// [Until] option. On an error it returns the order as last read (nil if
// none was) with the error Watch would have yielded, such as ctx's when it
// ends first.
func (s *Service) Wait(ctx context.Context, id string, opts ...option.WatchOption) (*Order, error) {
	return poll.Last(s.Watch(ctx, id, opts...))
}

// WatchMany follows many orders at once with the get-many endpoint
// (GET /api/v1/orders?ids[]=…), never one read per order: each round reads
// the orders still open in batches of rxdelivery.DefaultPollBatchSize (50;
// WithPollBatchSize), yields each order at its first read and at every
// change of its Status, as it is seen, and drops from the batches each
// order that reached a final status (or the [Until] condition). The watch
// ends when no order is left. Duplicate ids are read once.
//
// Rounds wait between them as [Service.Watch]'s reads do: the wait comes
// back to the interval after a round that saw a change. A batch that fails
// for a passing reason is read again next round; any other failure is
// yielded once, with a nil order, and ends the watch, as does the end of
// ctx. An order the response leaves out is yielded as a
// *rxdelivery.WatchError (with a nil order) matching
// rxdelivery.ErrNotFound, and one read with a status the documents do not
// list with a *rxdelivery.WatchError matching rxdelivery.ErrUnknownStatus;
// either leaves the batches, and the others go on. An empty ids, or an
// empty id in it, is refused before anything is sent.
func (s *Service) WatchMany(ctx context.Context, ids []string, opts ...option.WatchOption) iter.Seq2[*Order, error] {
	return s.kind().Many(ctx, s.b.Clock(), ids, opts)
}

// Until ends a watch of orders ([Service.Watch], [Service.WatchMany]) or
// makes [Service.Wait] return as soon as cond reports true for an order
// read, even before a final status:
//
//	o, err := client.Orders.Wait(ctx, id, orders.Until(func(o *orders.Order) bool {
//		return o.Status == rxtypes.OrderStatusPickedUp
//	}))
//
// The order that meets it is yielded (or returned) as the last one; with
// [Service.WatchMany] it leaves the batches.
func Until(cond func(*Order) bool) option.WatchOption { return option.Until(cond) }

// kind describes orders to the watch engine.
func (s *Service) kind() *poll.Kind[Order] {
	return &poll.Kind[Order]{
		Watch: "orders.Watch", WatchMany: "orders.WatchMany",
		ID:      func(o *Order) string { return o.ID },
		State:   func(o *Order) string { return string(o.Status) },
		Unknown: func(o *Order) (string, bool) { return string(o.Status), !o.Status.Known() },
		Final:   func(o *Order) bool { return o.Status.Final() },
		Get:     s.Get,
		GetMany: s.GetMany,
	}
}
