package orders_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// sleeps wraps the kit's poll clock and records every wait a watch asks
// for, so a test sees the schedule without waiting for it.
type sleeps struct {
	next rxdelivery.Clock
	// onSleep, when set, runs before the n-th wait (from 1) goes on.
	onSleep func(n int)
	mu      sync.Mutex
	got     []time.Duration
}

func (s *sleeps) Now() time.Time { return s.next.Now() }

func (s *sleeps) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.got = append(s.got, d)
	n := len(s.got)
	s.mu.Unlock()
	if s.onSleep != nil {
		s.onSleep(n)
	}
	return s.next.Sleep(ctx, d)
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.got...)
}

// kit starts a simulator whose client's watches wait on a recorder of the
// kit's poll clock.
func kit(t *testing.T, srvOpts []rxdeliverytest.Option, opts ...rxdelivery.Option) (*rxdeliverytest.Server, *rxdelivery.Client, *sleeps) {
	t.Helper()
	srv := rxdeliverytest.Start(t, srvOpts...)
	rec := &sleeps{next: srv.PollClock()}
	c, err := srv.NewClient(append([]rxdelivery.Option{rxdelivery.WithClock(rec)}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return srv, c, rec
}

func create(t *testing.T, c *rxdelivery.Client) *orders.Order {
	t.Helper()
	o, err := c.Orders.Create(context.Background(), rxdeliverytest.SamedayOrderParams())
	require.NoError(t, err)
	return o
}

func statuses(t *testing.T, seq func(func(*orders.Order, error) bool)) ([]rxtypes.OrderStatus, error) {
	t.Helper()
	var got []rxtypes.OrderStatus
	for o, err := range seq {
		if err != nil {
			return got, err
		}
		got = append(got, o.Status)
	}
	return got, nil
}

func TestWatch_YieldsEachStatusOnceAndEndsAfterTheFinalOne(t *testing.T) {
	t.Parallel()
	srv, c, rec := kit(t, nil)
	o := create(t, c)
	srv.ResetCalls()

	got, err := statuses(t, c.Orders.Watch(context.Background(), o.ID))
	require.NoError(t, err)
	assert.Equal(t, []rxtypes.OrderStatus{rxtypes.OrderStatusNew, rxtypes.OrderStatusSubmittedToCourier, rxtypes.OrderStatusPickedUp, rxtypes.OrderStatusDelivered}, got)

	// Reads only, one per wait plus the first, all on the order.
	calls := srv.Calls()
	for _, call := range calls {
		assert.Equal(t, rxdeliverytest.OrdersGet, call.Operation)
		assert.Equal(t, http.MethodGet, call.Method)
		assert.Equal(t, "/api/v1/orders/"+o.ID, call.Path)
	}
	assert.Len(t, calls, len(rec.all())+1, "one read before the first wait and one after each")
	// The simulated 90 seconds of the courier passed on the kit's clock.
	assert.GreaterOrEqual(t, srv.Now().Sub(rxdeliverytest.DefaultStart), 90*time.Second)
}

func TestWatch_WaitsStartAtTheIntervalGrowWhileNothingChangesAndReset(t *testing.T) {
	t.Parallel()
	// No automatic progression: the order moves only when the test says,
	// here from the watch's own waits.
	srv, c, rec := kit(t, []rxdeliverytest.Option{rxdeliverytest.WithOrderCadence(-1)})
	o := create(t, c)
	rec.onSleep = func(n int) {
		switch n {
		case 6:
			require.NoError(t, srv.SetOrderStatus(o.ID, rxtypes.OrderStatusPickedUp))
		case 7:
			require.NoError(t, srv.SetOrderStatus(o.ID, rxtypes.OrderStatusDelivered))
		}
	}
	got, err := statuses(t, c.Orders.Watch(context.Background(), o.ID, rxdelivery.WithMaxPollInterval(30*time.Second)))
	require.NoError(t, err)
	assert.Equal(t, []rxtypes.OrderStatus{rxtypes.OrderStatusNew, rxtypes.OrderStatusPickedUp, rxtypes.OrderStatusDelivered}, got)

	w := rec.all()
	nominal := []time.Duration{10 * time.Second, 15 * time.Second, 22500 * time.Millisecond,
		30 * time.Second, 30 * time.Second, 30 * time.Second, // the cap
		10 * time.Second, // back to the interval after a change
	}
	require.Len(t, w, len(nominal))
	for i, d := range w {
		lo, hi := time.Duration(float64(nominal[i])*0.9), time.Duration(float64(nominal[i])*1.1)
		assert.True(t, d >= lo && d <= hi, "wait %d is %v: want %v ± 10%%", i+1, d, nominal[i])
	}
}

func TestWatch_FollowsRetryAfter(t *testing.T) {
	t.Parallel()
	srv, c, rec := kit(t, nil)
	o := create(t, c)
	// A Retry-After above the client's wait cap: the read returns at once
	// with it, and the watch waits at least that long before reading again.
	srv.FailNext(rxdeliverytest.OrdersGet, 1, rxdeliverytest.RateLimited(5*time.Minute))
	got, err := statuses(t, c.Orders.Watch(context.Background(), o.ID))
	require.NoError(t, err, "a 429 is passing: it is not yielded")
	assert.Equal(t, []rxtypes.OrderStatus{rxtypes.OrderStatusDelivered}, got, "five minutes later the courier is done")
	w := rec.all()
	require.Len(t, w, 1)
	assert.GreaterOrEqual(t, w[0], 5*time.Minute)
}

func TestWatch_PassingFailuresAreReadAgain(t *testing.T) {
	t.Parallel()
	srv, c, _ := kit(t, nil, rxdelivery.WithRetryMax(0))
	o := create(t, c)
	srv.FailNext(rxdeliverytest.OrdersGet, 1, rxdeliverytest.Unavailable(0))
	srv.FailNext(rxdeliverytest.OrdersGet, 1, rxdeliverytest.ServerError())
	srv.FailNext(rxdeliverytest.OrdersGet, 1, rxdeliverytest.Drop())
	got, err := statuses(t, c.Orders.Watch(context.Background(), o.ID))
	require.NoError(t, err)
	assert.Equal(t, rxtypes.OrderStatusDelivered, got[len(got)-1])
	faulted := 0
	for _, call := range srv.CallsTo(rxdeliverytest.OrdersGet) {
		if call.Fault != "" {
			faulted++
		}
	}
	assert.Equal(t, 3, faulted)
}

// The client's retry budget bounds the reads of a watch in an outage: once
// it is spent, each poll is one attempt, not one plus every retry.
func TestWatch_RetryBudgetBoundsTheReadsOfAnOutage(t *testing.T) {
	t.Parallel()
	srv, c, rec := kit(t, nil, rxdelivery.WithRetryMax(3), rxdelivery.WithRetryBudget(1))
	o := create(t, c)
	srv.ResetCalls()
	srv.FailNext(rxdeliverytest.OrdersGet, 5, rxdeliverytest.ServerError())
	waitsBeforeFirst := -1
	for _, err := range c.Orders.Watch(context.Background(), o.ID) {
		require.NoError(t, err)
		if waitsBeforeFirst < 0 {
			waitsBeforeFirst = len(rec.all())
		}
	}
	// Poll 1: an attempt and the budget's one retry; polls 2 to 4: one
	// attempt each; poll 5 reads the order.
	assert.Equal(t, 4, waitsBeforeFirst)
	calls := srv.CallsTo(rxdeliverytest.OrdersGet)
	assert.Equal(t, len(rec.all())+2, len(calls), "one read per poll, and one retry in all")
}

func TestWatch_NotFoundEndsTheWatch(t *testing.T) {
	t.Parallel()
	srv, c, rec := kit(t, nil)
	n := 0
	for o, err := range c.Orders.Watch(context.Background(), "ord_nope") {
		n++
		assert.Nil(t, o)
		assert.ErrorIs(t, err, rxdelivery.ErrNotFound)
	}
	assert.Equal(t, 1, n)
	assert.Len(t, srv.CallsTo(rxdeliverytest.OrdersGet), 1)
	assert.Empty(t, rec.all())
}

// orderBody is a get response with status.
func orderBody(status string) string {
	return `{"order":{"id":"ord_1","status":"` + status + `","pickup":null,"delivery":null,"return":null,"cancellation":null,"eta":null,"shipping":null}}`
}

func TestWatch_ResourceThatDisappearsEndsWithNotFound(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	n := 0
	env.Mock.RegisterResponder(http.MethodGet, testutil.DeliveryURL+"/api/v1/orders/ord_1", func(*http.Request) (*http.Response, error) {
		n++
		if n <= 2 {
			return httpmock.NewStringResponse(200, orderBody("picked_up")), nil
		}
		return httpmock.NewStringResponse(404, `{"error":{"message":"Order not found"}}`), nil
	})
	var got []error
	var seen []rxtypes.OrderStatus
	for o, err := range env.Client.Orders.Watch(context.Background(), "ord_1", rxdelivery.WithPollInterval(time.Millisecond)) {
		got = append(got, err)
		if o != nil {
			seen = append(seen, o.Status)
		}
	}
	assert.Equal(t, []rxtypes.OrderStatus{rxtypes.OrderStatusPickedUp}, seen, "the second read is no change")
	require.Len(t, got, 2)
	assert.NoError(t, got[0])
	assert.ErrorIs(t, got[1], rxdelivery.ErrNotFound)
	assert.Equal(t, 3, n, "nothing is read after the 404")
}

func TestWatch_UnknownStatusEndsWithATypedError(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	env.Mock.RegisterResponder(http.MethodGet, testutil.DeliveryURL+"/api/v1/orders/ord_1",
		httpmock.NewStringResponder(200, orderBody("teleported")))
	o, err := env.Client.Orders.Wait(context.Background(), "ord_1")
	require.Error(t, err)
	assert.ErrorIs(t, err, rxdelivery.ErrUnknownStatus)
	var we *rxdelivery.WatchError
	require.ErrorAs(t, err, &we)
	assert.Equal(t, rxdelivery.WatchError{Op: "orders.Watch", ID: "ord_1", Status: "teleported", Attempts: 1}, *we)
	require.NotNil(t, o, "Wait returns the order as read")
	assert.Equal(t, rxtypes.OrderStatus("teleported"), o.Status)
	assert.Equal(t, 1, env.Mock.GetTotalCallCount(), "no read after it")
}

func TestWatch_ContextEndsTheWatch(t *testing.T) {
	t.Parallel()
	srv, c, _ := kit(t, nil)
	o := create(t, c)
	srv.ResetCalls()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var errs []error
	for got, err := range c.Orders.Watch(ctx, o.ID) {
		if err != nil {
			assert.Nil(t, got)
			errs = append(errs, err)
			continue
		}
		cancel() // while the watch is about to wait
	}
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], context.Canceled)
	assert.Len(t, srv.Calls(), 1, "no read after the context ended")

	// Wait returns at once with an ended context, having sent nothing.
	srv.ResetCalls()
	got, err := c.Orders.Wait(ctx, o.ID)
	assert.Nil(t, got)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, srv.Calls())
}

func TestWatch_CallOptionsApplyToEachRead(t *testing.T) {
	t.Parallel()
	srv, c, _ := kit(t, nil)
	o := create(t, c)
	srv.ResetCalls()
	var mu sync.Mutex
	var ops []option.Operation
	hook := rxdelivery.WithCallMiddleware(func(next option.CallFunc) option.CallFunc {
		return func(ctx context.Context, op *option.Operation) option.CallResult {
			mu.Lock()
			ops = append(ops, *op)
			mu.Unlock()
			return next(ctx, op)
		}
	})
	var md rxdelivery.Metadata
	_, err := c.Orders.Wait(context.Background(), o.ID, hook, rxdelivery.WithMetadata(&md),
		rxdelivery.WithHeader("X-Trace", "watch-1"), rxdelivery.WithAttemptTimeout(time.Second))
	require.NoError(t, err)
	require.Len(t, ops, len(srv.Calls()), "the hook saw every read")
	for _, op := range ops {
		assert.Equal(t, "orders.Get", op.Name)
		assert.Equal(t, "/api/v1/orders/{id}", op.Path, "the templated route, never the id")
		assert.Equal(t, option.Safe, op.Class)
	}
	assert.Equal(t, 200, md.StatusCode, "the last read's")
	assert.Equal(t, len(srv.Calls()), md.Attempts, "the attempts of every read, summed")
	assert.Len(t, md.AttemptLog, 1, "the last read's attempts")
}

func TestWatch_UntilOfAnotherResourceIsRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	srv, c, _ := kit(t, nil)
	srv.ResetCalls()
	_, err := c.Orders.Wait(context.Background(), "ord_1", requests.Until(func(*requests.Request) bool { return true }))
	var ce *rxdelivery.ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Error(), "*requests.Request")
	assert.Empty(t, srv.Calls())
}

func TestWait_Until(t *testing.T) {
	t.Parallel()
	_, c, _ := kit(t, nil)
	o := create(t, c)
	got, err := c.Orders.Wait(context.Background(), o.ID, orders.Until(func(o *orders.Order) bool {
		return o.Status == rxtypes.OrderStatusSubmittedToCourier
	}))
	require.NoError(t, err)
	assert.Equal(t, rxtypes.OrderStatusSubmittedToCourier, got.Status)
}

func TestWait_CancelledOrderIsFinalAtTheFirstRead(t *testing.T) {
	t.Parallel()
	srv, c, rec := kit(t, nil)
	o := create(t, c)
	require.NoError(t, c.Orders.Cancel(context.Background(), o.ID))
	srv.ResetCalls()
	got, err := c.Orders.Wait(context.Background(), o.ID)
	require.NoError(t, err)
	assert.Equal(t, rxtypes.OrderStatusCancelled, got.Status)
	assert.Len(t, srv.Calls(), 1)
	assert.Empty(t, rec.all())
}

func TestWatch_ShippingOrderEndsDelivered(t *testing.T) {
	t.Parallel()
	_, c, _ := kit(t, nil)
	p := rxdeliverytest.SamedayOrderParams()
	p.ServiceLevel = orders.ServiceLevelShipping
	p.DeliveryFee, p.RxAmountDue = nil, nil
	p.Patient.MobilePhoneNumber = "6145550100"
	p.Shipping = &orders.ShippingParams{
		Carrier:        orders.CarrierPostal,
		CarrierService: orders.CarrierServicePostalPriorityMail,
		Signature:      orders.SignatureRequired,
		Weight:         orders.Weight{Unit: orders.WeightUnitOunce, Value: rxdelivery.MustDecimal("12")},
		PackageCode:    orders.PackagePostalSmallFlatRateBox,
	}
	o, err := c.Orders.Create(context.Background(), p)
	require.NoError(t, err)
	got, err := c.Orders.Wait(context.Background(), o.ID)
	require.NoError(t, err)
	assert.Equal(t, rxtypes.OrderStatusDelivered, got.Status)
	assert.NotNil(t, got.Shipping.Delivery)
}

func TestWatchMany_ReadsInBatchesAndDropsFinalIDs(t *testing.T) {
	t.Parallel()
	srv, c, _ := kit(t, nil)
	var ids []string
	for range 5 {
		ids = append(ids, create(t, c).ID)
	}
	// Two are cancelled: final at the first round.
	require.NoError(t, c.Orders.Cancel(context.Background(), ids[1]))
	require.NoError(t, c.Orders.Cancel(context.Background(), ids[3]))
	srv.ResetCalls()

	seen := map[string][]rxtypes.OrderStatus{}
	for o, err := range c.Orders.WatchMany(context.Background(), append(ids, ids[0]), rxdelivery.WithPollBatchSize(2)) {
		require.NoError(t, err)
		seen[o.ID] = append(seen[o.ID], o.Status)
	}
	all := []rxtypes.OrderStatus{rxtypes.OrderStatusNew, rxtypes.OrderStatusSubmittedToCourier, rxtypes.OrderStatusPickedUp, rxtypes.OrderStatusDelivered}
	for _, i := range []int{0, 2, 4} {
		assert.Equal(t, all, seen[ids[i]], "order %d", i)
	}
	assert.Equal(t, []rxtypes.OrderStatus{rxtypes.OrderStatusCancelled}, seen[ids[1]])
	assert.Equal(t, []rxtypes.OrderStatus{rxtypes.OrderStatusCancelled}, seen[ids[3]])

	assert.Empty(t, srv.CallsTo(rxdeliverytest.OrdersGet), "never one read per order")
	calls := srv.Calls()
	require.Greater(t, len(calls), 3)
	var first [][]string
	for i, call := range calls {
		assert.Equal(t, rxdeliverytest.OrdersGetMany, call.Operation)
		got := call.Query["ids[]"]
		assert.LessOrEqual(t, len(got), 2, "batch size")
		if i < 3 {
			first = append(first, got)
		} else {
			assert.NotContains(t, got, ids[1], "a final order left the batches")
			assert.NotContains(t, got, ids[3])
		}
	}
	assert.Equal(t, [][]string{{ids[0], ids[1]}, {ids[2], ids[3]}, {ids[4]}}, first, "the first round: every id once, in order")
	assert.Equal(t, []string{ids[0], ids[2]}, calls[3].Query["ids[]"], "the second round: the open ones")
}

func TestWatchMany_MissingIDIsYieldedAsGoneAndTheOthersGoOn(t *testing.T) {
	t.Parallel()
	srv, c, _ := kit(t, nil)
	o := create(t, c)
	srv.ResetCalls()
	var gone []error
	var last *orders.Order
	for got, err := range c.Orders.WatchMany(context.Background(), []string{"ord_nope", o.ID}) {
		if err != nil {
			assert.Nil(t, got)
			gone = append(gone, err)
			continue
		}
		last = got
	}
	require.Len(t, gone, 1)
	assert.ErrorIs(t, gone[0], rxdelivery.ErrNotFound)
	var we *rxdelivery.WatchError
	require.ErrorAs(t, gone[0], &we)
	assert.Equal(t, rxdelivery.WatchError{Op: "orders.WatchMany", ID: "ord_nope", Gone: true, Attempts: 1}, *we)
	require.NotNil(t, last)
	assert.Equal(t, rxtypes.OrderStatusDelivered, last.Status)
	for _, call := range srv.Calls()[1:] {
		assert.Equal(t, []string{o.ID}, call.Query["ids[]"])
	}
}

func TestWatchMany_RefusesAnEmptyListBeforeSending(t *testing.T) {
	t.Parallel()
	srv, c, _ := kit(t, nil)
	srv.ResetCalls()
	for _, ids := range [][]string{nil, {"ord_1", ""}} {
		n := 0
		for o, err := range c.Orders.WatchMany(context.Background(), ids) {
			n++
			assert.Nil(t, o)
			assert.Error(t, err)
		}
		assert.Equal(t, 1, n)
	}
	assert.Empty(t, srv.Calls())
}

func TestWatchMany_FailureThatIsNotPassingEndsTheWatch(t *testing.T) {
	t.Parallel()
	srv, c, _ := kit(t, nil)
	o := create(t, c)
	srv.ResetCalls()
	srv.FailNext(rxdeliverytest.OrdersGetMany, 1, rxdeliverytest.StatusError(http.StatusUnauthorized))
	var errs []error
	for _, err := range c.Orders.WatchMany(context.Background(), []string{o.ID}) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	assert.True(t, errors.Is(errs[0], rxdelivery.ErrUnauthorized))
	assert.Len(t, srv.Calls(), 1)
}

// lockedBuffer is a log sink safe for the client's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestWatch_LogsOneLinePerPollWithTheTemplatedRoute(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv, c, _ := kit(t, nil, rxdelivery.WithLogger(logger))
	o := create(t, c)
	srv.ResetCalls()
	before := strings.Count(logs.String(), "\n")
	_, err := c.Orders.Wait(context.Background(), o.ID)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")[before:]
	assert.Len(t, lines, len(srv.Calls()), "one line per poll")
	for _, line := range lines {
		var entry map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &entry))
		assert.Equal(t, "orders.Get", entry["operation"])
		assert.Equal(t, "/delivery/api/v1/orders/{id}", entry["path"])
		assert.NotContains(t, line, o.ID, "the route, never the id")
	}
}

// A pharmacy with 500 open deliveries: each round is 10 get-many reads of
// 50 ids, not 500 reads.
func TestWatchMany_FiveHundredOpenDeliveriesAreTenReadsARound(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("creates 500 orders")
	}
	srv, c, rec := kit(t, nil)
	ids := make([]string, 500)
	for i := range ids {
		ids[i] = create(t, c).ID
	}
	srv.ResetCalls()
	delivered := 0
	for o, err := range c.Orders.WatchMany(context.Background(), ids) {
		require.NoError(t, err)
		if o.Status == rxtypes.OrderStatusDelivered {
			delivered++
		}
	}
	assert.Equal(t, 500, delivered)
	assert.Empty(t, srv.CallsTo(rxdeliverytest.OrdersGet))
	calls := srv.CallsTo(rxdeliverytest.OrdersGetMany)
	rounds := len(rec.all()) + 1
	assert.Len(t, calls, 10*rounds, "10 reads a round while all 500 are open")
	for _, call := range calls {
		assert.Len(t, call.Query["ids[]"], 50)
	}
	t.Logf("500 orders followed to delivered: %d rounds, %d get-many reads", rounds, len(calls))
}

func TestWatchMany_UnknownStatusLeavesTheBatchAndTheOthersGoOn(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	var mu sync.Mutex
	var asked [][]string
	env.Mock.RegisterResponder(http.MethodGet, testutil.DeliveryURL+"/api/v1/orders", func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, r.URL.Query()["ids[]"])
		status := "picked_up"
		if len(asked) > 2 {
			status = "delivered"
		}
		return httpmock.NewStringResponse(200, `{"orders":[
			{"id":"ord_1","status":"teleported"},
			{"id":"ord_2","status":"`+status+`"}]}`), nil
	})
	type event struct {
		id     string
		status rxtypes.OrderStatus
		err    error
	}
	var got []event
	for o, err := range env.Client.Orders.WatchMany(context.Background(), []string{"ord_1", "ord_2"}, rxdelivery.WithPollInterval(time.Millisecond)) {
		var e event
		if o != nil {
			e.id, e.status = o.ID, o.Status
		}
		e.err = err
		got = append(got, e)
	}
	require.Len(t, got, 3)
	assert.Equal(t, "ord_1", got[0].id)
	assert.ErrorIs(t, got[0].err, rxdelivery.ErrUnknownStatus)
	assert.Equal(t, event{id: "ord_2", status: rxtypes.OrderStatusPickedUp}, got[1])
	assert.Equal(t, event{id: "ord_2", status: rxtypes.OrderStatusDelivered}, got[2])
	require.Len(t, asked, 3)
	assert.Equal(t, []string{"ord_1", "ord_2"}, asked[0])
	assert.Equal(t, []string{"ord_2"}, asked[1], "the unknown one left the batch")
}

func TestWatchMany_PassingFailureOfABatchIsReadAgainNextRound(t *testing.T) {
	t.Parallel()
	srv, c, _ := kit(t, nil, rxdelivery.WithRetryMax(0))
	a, b := create(t, c), create(t, c)
	srv.ResetCalls()
	srv.FailNext(rxdeliverytest.OrdersGetMany, 1, rxdeliverytest.Unavailable(0))
	final := map[string]rxtypes.OrderStatus{}
	for o, err := range c.Orders.WatchMany(context.Background(), []string{a.ID, b.ID}, rxdelivery.WithPollBatchSize(1)) {
		require.NoError(t, err, "a 503 is not yielded")
		final[o.ID] = o.Status
	}
	assert.Equal(t, map[string]rxtypes.OrderStatus{a.ID: rxtypes.OrderStatusDelivered, b.ID: rxtypes.OrderStatusDelivered}, final)
	calls := srv.Calls()
	require.GreaterOrEqual(t, len(calls), 4)
	assert.NotEmpty(t, calls[0].Fault, "the first batch failed")
	assert.Equal(t, []string{b.ID}, calls[1].Query["ids[]"], "the round went on with the next batch")
	assert.Equal(t, []string{a.ID}, calls[2].Query["ids[]"], "and the failed batch was read next round")
}

// TestWatchMany_ReportsEachRoundAndSumsItsReadsIntoMetadata: each round
// is reported with what it read, the throttled batch that ended it and
// the ids carried over, the wait before the next; the watch's Metadata
// sums every read instead of holding the last one's alone.
func TestWatchMany_ReportsEachRoundAndSumsItsReadsIntoMetadata(t *testing.T) {
	t.Parallel()
	srv, c, rec := kit(t, nil, rxdelivery.WithRetryMax(0))
	var ids []string
	for range 5 {
		ids = append(ids, create(t, c).ID)
	}
	srv.ResetCalls()
	// The second batch of the first round is throttled: the round ends
	// there, and the next starts with the 3 ids it did not read.
	var rounds []option.WatchRound
	var md rxdelivery.Metadata
	first := true
	for _, err := range c.Orders.WatchMany(context.Background(), ids, rxdelivery.WithPollBatchSize(2),
		rxdelivery.WithMetadata(&md), rxdelivery.WithWatchProgress(func(r option.WatchRound) { rounds = append(rounds, r) })) {
		require.NoError(t, err)
		if first {
			first = false
			srv.FailNext(rxdeliverytest.OrdersGetMany, 1, rxdeliverytest.RateLimited(time.Second))
		}
	}
	calls := srv.CallsTo(rxdeliverytest.OrdersGetMany)
	require.Greater(t, len(rounds), 2)
	r1 := rounds[0]
	assert.Equal(t, option.WatchRound{Round: 1, Batches: 2, Read: 2, Failed: 1, Throttled: 1, Carried: 3, Changed: 2, Open: 5, Wait: r1.Wait}, r1)
	assert.GreaterOrEqual(t, r1.Wait, time.Second, "the wait honours the Retry-After")
	assert.Equal(t, rec.all()[0], r1.Wait, "the wait reported is the wait slept")
	r2 := rounds[1]
	assert.Equal(t, 3, r2.Batches)
	assert.Equal(t, 5, r2.Read)
	assert.GreaterOrEqual(t, r2.Changed, 3, "the 3 ids first read")
	last := rounds[len(rounds)-1]
	assert.Zero(t, last.Open)
	assert.Zero(t, last.Wait, "the round that ended the watch")
	batches := 0
	for i, r := range rounds {
		assert.Equal(t, i+1, r.Round)
		batches += r.Batches
	}
	assert.Equal(t, len(calls), batches, "every read is in a round")
	assert.Len(t, rec.all(), len(rounds)-1, "a wait between rounds")

	assert.Equal(t, len(calls), md.Attempts, "the attempts of every read")
	assert.Equal(t, 200, md.StatusCode)
	assert.True(t, md.OutcomeKnown)
	require.Len(t, md.AttemptLog, 1, "the last read's")
	assert.Equal(t, 200, md.AttemptLog[0].StatusCode)
}

// TestWatch_ReportsEachRead: a watch of one order is a round per read.
func TestWatch_ReportsEachRead(t *testing.T) {
	t.Parallel()
	srv, c, _ := kit(t, nil, rxdelivery.WithRetryMax(0))
	o := create(t, c)
	srv.ResetCalls()
	srv.FailNext(rxdeliverytest.OrdersGet, 1, rxdeliverytest.Unavailable(0))
	var rounds []option.WatchRound
	var md rxdelivery.Metadata
	_, err := c.Orders.Wait(context.Background(), o.ID, rxdelivery.WithMetadata(&md),
		rxdelivery.WithWatchProgress(func(r option.WatchRound) { rounds = append(rounds, r) }))
	require.NoError(t, err)
	require.Len(t, rounds, len(srv.Calls()))
	assert.Equal(t, option.WatchRound{Round: 1, Batches: 1, Failed: 1, Open: 1, Wait: rounds[0].Wait}, rounds[0])
	assert.Equal(t, option.WatchRound{Round: 2, Batches: 1, Read: 1, Changed: 1, Open: 1, Wait: rounds[1].Wait}, rounds[1])
	assert.Equal(t, option.WatchRound{Round: len(rounds), Batches: 1, Read: 1, Changed: 1}, rounds[len(rounds)-1])
	assert.Equal(t, len(rounds), md.Attempts)
	assert.Equal(t, 200, md.StatusCode, "the last response's, not the 503's")
}

// TestWatchError_CarriesTheRequestIDOfItsRead: a watch that ends on a
// status the documents do not list, or on an order a get-many response
// leaves out, names the request id of that read and its attempts.
func TestWatchError_CarriesTheRequestIDOfItsRead(t *testing.T) {
	t.Parallel()
	env := testutil.Setup(t)
	answer := func(id, body string) httpmock.Responder {
		return func(*http.Request) (*http.Response, error) {
			r := httpmock.NewStringResponse(200, body)
			r.Header.Set("X-Request-Id", id)
			return r, nil
		}
	}
	env.Mock.RegisterResponder(http.MethodGet, testutil.DeliveryURL+"/api/v1/orders/ord_1",
		answer("req_5e1", `{"order":{"id":"ord_1","status":"teleported"}}`))
	_, err := env.Client.Orders.Wait(context.Background(), "ord_1")
	var we *rxdelivery.WatchError
	require.ErrorAs(t, err, &we)
	assert.Equal(t, "req_5e1", we.RequestID)
	assert.Equal(t, 1, we.Attempts, "the attempts of the read that showed the status")
	assert.True(t, strings.HasSuffix(err.Error(), " (request id req_5e1)"), err.Error())

	env.Mock.RegisterResponder(http.MethodGet, testutil.DeliveryURL+"/api/v1/orders",
		answer("req_5e2", `{"orders":[{"id":"ord_2","status":"delivered"}]}`))
	for _, err := range env.Client.Orders.WatchMany(context.Background(), []string{"ord_2", "ord_3"}) {
		if err != nil {
			require.ErrorAs(t, err, &we)
			assert.True(t, we.Gone)
			assert.Equal(t, "req_5e2", we.RequestID)
			assert.Equal(t, 1, we.Attempts)
			assert.True(t, strings.HasSuffix(err.Error(), " (request id req_5e2)"), err.Error())
		}
	}
}
