package rxdeliverytest_test

import (
	"context"
	"net/http"
	"reflect"
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

// TestCallsCarryReceiveTimes: every recorded call carries the wall-clock
// time it was received and the simulator's clock at that moment, so a
// test can tell how long the client waited between two calls and when,
// on the simulated clock, each one arrived.
func TestCallsCarryReceiveTimes(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	client, ctx := srv.Client(), context.Background()
	before := time.Now()
	order, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
	if err != nil {
		t.Fatal(err)
	}
	srv.Advance(90 * time.Second)
	if _, err := client.Orders.Get(ctx, order.ID); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	calls := srv.Calls()
	if len(calls) != 2 {
		t.Fatalf("%d calls recorded, want 2", len(calls))
	}
	for i, c := range calls {
		if c.ReceivedAt.Before(before) || c.ReceivedAt.After(after) {
			t.Errorf("call %d: ReceivedAt %v is outside the %v..%v it was made in", i, c.ReceivedAt, before, after)
		}
	}
	if calls[1].ReceivedAt.Before(calls[0].ReceivedAt) {
		t.Errorf("the second call's ReceivedAt %v is before the first's %v", calls[1].ReceivedAt, calls[0].ReceivedAt)
	}
	if want := rxdeliverytest.DefaultStart; !calls[0].SimulatedAt.Equal(want) {
		t.Errorf("the create's SimulatedAt is %v, want the start %v", calls[0].SimulatedAt, want)
	}
	if want := rxdeliverytest.DefaultStart.Add(90 * time.Second); !calls[1].SimulatedAt.Equal(want) {
		t.Errorf("the read's SimulatedAt is %v, want %v (after Advance)", calls[1].SimulatedAt, want)
	}
}

// TestCallsShowARetryAfterWaitedOut: with a client whose wait cap lets it
// honour a Retry-After of one second, the retry's ReceivedAt is at least
// that second after the 429's. This is the check a test of the SDK's
// Retry-After compliance makes on the record.
func TestCallsShowARetryAfterWaitedOut(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	client, err := srv.NewClient(rxdelivery.WithRetryWaitMax(3 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	srv.FailNext(rxdeliverytest.OrdersGet, 1, rxdeliverytest.RateLimited(time.Second))
	_, _ = client.Orders.Get(context.Background(), "ord_missing")
	calls := srv.CallsTo(rxdeliverytest.OrdersGet)
	if len(calls) != 2 {
		t.Fatalf("%d reads recorded, want the 429 and its retry", len(calls))
	}
	if calls[0].Status != 429 {
		t.Fatalf("the first read was answered %d, want 429", calls[0].Status)
	}
	if gap := calls[1].ReceivedAt.Sub(calls[0].ReceivedAt); gap < time.Second {
		t.Errorf("the retry came %v after the 429, inside its Retry-After of 1s", gap)
	}
}

// TestCallRecordLimitAndCounts: WithCallRecordLimit bounds Calls to the
// latest n, and CallCounts keeps counting every call per operation past
// that bound, until ResetCalls.
func TestCallRecordLimitAndCounts(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t, rxdeliverytest.WithCallRecordLimit(3))
	client, ctx := srv.Client(), context.Background()
	var id string
	for range 4 {
		o, err := client.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
		if err != nil {
			t.Fatal(err)
		}
		id = o.ID
	}
	for range 3 {
		if _, err := client.Orders.Get(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	res, err := http.Get(srv.DeliveryURL() + "/api/v1/nowhere")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()

	calls := srv.Calls()
	if len(calls) != 3 {
		t.Fatalf("the record holds %d calls, want the limit of 3", len(calls))
	}
	if calls[0].Operation != rxdeliverytest.OrdersGet || calls[2].Operation != rxdeliverytest.AnyOperation {
		t.Errorf("the record holds %s..%q, want the latest three calls", calls[0].Operation, calls[2].Operation)
	}
	want := map[rxdeliverytest.Operation]int{rxdeliverytest.OrdersCreate: 4, rxdeliverytest.OrdersGet: 3, rxdeliverytest.AnyOperation: 1}
	if got := srv.CallCounts(); !reflect.DeepEqual(got, want) {
		t.Errorf("CallCounts() = %v, want %v", got, want)
	}
	srv.ResetCalls()
	if got := srv.CallCounts(); len(got) != 0 {
		t.Errorf("CallCounts() after ResetCalls = %v, want none", got)
	}
}
