package rxdeliverytest_test

import (
	"context"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// TestCallsRecordWhatTheClientGaveUpOn: a call is on the record as soon as
// the simulator has read it, so a test that asserts on the record right
// after a call returns never misses it, whatever the fault did with the
// response: a stall the client gave up on, a cut, a dropped connection, an
// error status.
func TestCallsRecordWhatTheClientGaveUpOn(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	client, err := srv.NewClient(rxdelivery.WithRetryMax(0))
	if err != nil {
		t.Fatal(err)
	}
	faults := map[string]rxdeliverytest.Fault{
		"stall":       rxdeliverytest.StallFor(time.Hour),
		"cut":         rxdeliverytest.Cut(),
		"drop":        rxdeliverytest.Drop(),
		"unavailable": rxdeliverytest.Unavailable(0),
		"malformed":   rxdeliverytest.Malformed(),
	}
	const rounds = 20
	for name, f := range faults {
		for i := 0; i < rounds; i++ {
			srv.ResetCalls()
			// A read the client gives up on.
			srv.FailNext(rxdeliverytest.OrdersGet, 1, f)
			ctx, cancel := giveUp(srv, rxdeliverytest.OrdersGet, name == "stall")
			_, _ = client.Orders.Get(ctx, "ord_missing")
			cancel()
			if n := len(srv.CallsTo(rxdeliverytest.OrdersGet)); n != 1 {
				t.Fatalf("%s, round %d: the record holds %d reads right after the call, want 1", name, i, n)
			}
			// A create the client gives up on.
			srv.FailNext(rxdeliverytest.OrdersCreate, 1, f)
			ctx, cancel = giveUp(srv, rxdeliverytest.OrdersCreate, name == "stall")
			_, _ = client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
			cancel()
			if n := len(srv.CallsTo(rxdeliverytest.OrdersCreate)); n != 1 {
				t.Fatalf("%s, round %d: the record holds %d creates right after the call, want 1", name, i, n)
			}
		}
	}
}

// giveUp returns the context of a call the client gives up on. A stalled
// call is given up as soon as the simulator has received it (the stall
// holds the answer, so before the fix the call was on the record only once
// the stall ended: never, for a call given up on), or after 5 s when the
// simulator never shows it. Every other fault ends the call by itself once
// the simulator has read it; its deadline is there only to bound a broken
// run, far above what a loaded machine takes, so that the client never
// gives up before its request arrived.
func giveUp(srv *rxdeliverytest.Server, op rxdeliverytest.Operation, stall bool) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	if stall {
		go func() {
			for ctx.Err() == nil && len(srv.CallsTo(op)) == 0 {
				time.Sleep(time.Millisecond)
			}
			cancel()
		}()
	}
	return ctx, cancel
}
