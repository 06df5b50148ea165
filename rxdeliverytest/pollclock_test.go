package rxdeliverytest_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func TestPollClock_ManualWaitAdvancesTheSimulator(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	order, err := srv.Client().Orders.Create(context.Background(), rxdeliverytest.SamedayOrderParams())
	require.NoError(t, err)

	c := srv.PollClock()
	require.NoError(t, c.Sleep(context.Background(), 2*rxdeliverytest.DefaultOrderCadence))
	assert.Equal(t, rxdeliverytest.DefaultStart.Add(2*rxdeliverytest.DefaultOrderCadence), c.Now())
	status, _ := srv.OrderStatus(order.ID)
	assert.Equal(t, rxtypes.OrderStatusPickedUp, status, "the transitions that became due were applied")
}

func TestPollClock_EndedContextDoesNotMoveTheClock(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, srv.PollClock().Sleep(ctx, time.Hour), context.Canceled)
	assert.Equal(t, rxdeliverytest.DefaultStart, srv.Now())
}

func TestPollClock_RealClockSleepsUntilTheContextEnds(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t, rxdeliverytest.WithRealClock())
	ctx, cancel := context.WithCancel(context.Background())
	before := srv.Now()
	go cancel()
	// An hour's wait on real time ends only with the context.
	assert.ErrorIs(t, srv.PollClock().Sleep(ctx, time.Hour), context.Canceled)
	assert.Less(t, srv.Now().Sub(before), time.Hour, "real time: the clock did not jump")
}

// The kit's own client waits on PollClock: Wait runs a courier's life
// cycle on the manual clock.
func TestPollClock_KitClientWaitsOnIt(t *testing.T) {
	t.Parallel()
	srv := rxdeliverytest.Start(t)
	// Without the kit's clock the manual clock would never move, and the
	// wait would end with this guard's deadline.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, c := range clients(t, srv) {
		o, err := c.Orders.Create(ctx, rxdeliverytest.SamedayOrderParams())
		require.NoError(t, err)
		got, err := c.Orders.Wait(ctx, o.ID)
		require.NoError(t, err)
		assert.Equal(t, rxtypes.OrderStatusDelivered, got.Status)
	}
}

// clients returns the kit's client and one built from ClientOptions.
func clients(t *testing.T, srv *rxdeliverytest.Server) []*rxdelivery.Client {
	t.Helper()
	c, err := rxdelivery.NewClient("", "", srv.ClientOptions()...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return []*rxdelivery.Client{srv.Client(), c}
}
