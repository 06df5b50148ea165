package core

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"

	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func TestBudgetSpendsAndRefills(t *testing.T) {
	t.Parallel()
	if NewBudget(0) != nil || NewBudget(-1) != nil {
		t.Fatal("a budget of no retries is no budget")
	}
	var none *Budget
	if !none.take(RetryCost) || none.Available() != 0 {
		t.Fatal("no budget never refuses")
	}
	none.give(5)
	b := NewBudget(2)
	if first, second := b.take(RetryCost), b.take(RetryCost); !first || !second {
		t.Fatal("a budget of two retries allows two")
	}
	if b.take(RetryCost) {
		t.Fatal("the third retry is refused")
	}
	b.give(SuccessRefill)
	if b.take(RetryCost) {
		t.Fatal("one success at the first attempt gives back a tenth of a retry")
	}
	b.give(100 * RetryCost)
	if got := b.Available(); got != 2 {
		t.Fatalf("refills stop at the size: %v", got)
	}
	if !b.take(TimeoutRetryCost) || b.take(RetryCost) {
		t.Fatal("a retry after a timeout costs two")
	}
}

// budgetServer answers every attempt with status on an httpmock transport
// and counts them; it returns a backend on it whose client has the budget
// b and waits of a millisecond.
func budgetServer(t *testing.T, status int, b *Budget) (*Backend, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	mock := httpmock.NewMockTransport()
	mock.RegisterNoResponder(func(*http.Request) (*http.Response, error) {
		hits.Add(1)
		return httpmock.NewStringResponse(status, ""), nil
	})
	s := NewShared(Config{HTTPClient: &http.Client{Transport: mock}, Defaults: retries(DefaultRetryMax), RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond, RetryBudget: b})
	be, err := s.NewBackend(rxtypes.InterfaceDelivery, testBase, Credentials{Key: "k", Secret: "s"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return be, &hits
}

// budgetCall makes one read with retryMax retries and returns its
// metadata.
func budgetCall(be *Backend, retryMax int) option.Metadata {
	var md option.Metadata
	_ = be.Execute(context.Background(), Request{
		Endpoint: &Endpoint{Name: "test.Get", Interface: rxtypes.InterfaceDelivery, Method: "GET", Route: "/x"},
		Opts:     []option.CallOption{option.WithRetryMax(retryMax), option.WithMetadata(&md)},
	})
	return md
}

// TestBudgetIsSpentOnlyForRetriesMade: a call that is out of retries, or
// has none, spends nothing for the attempt it does not retry. A budget of
// 1, a call with no retries against a 503, then a call with one: the
// second makes its retry.
func TestBudgetIsSpentOnlyForRetriesMade(t *testing.T) {
	t.Parallel()
	stopped := func() time.Time { return time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC) } // time earns nothing

	b := newBudget(1, stopped)
	be, hits := budgetServer(t, http.StatusServiceUnavailable, b)
	md := budgetCall(be, 0)
	assert.Equal(t, 1, md.Attempts)
	assert.False(t, md.RetryBudgetExhausted)
	assert.Equal(t, 1.0, b.Available(), "a call without retries spends nothing")
	md = budgetCall(be, 1)
	assert.Equal(t, 2, md.Attempts, "the budget's one retry is made")
	assert.False(t, md.RetryBudgetExhausted)
	assert.Equal(t, 0.0, b.Available())
	assert.Equal(t, int64(3), hits.Load())

	b = newBudget(10, stopped)
	be, _ = budgetServer(t, http.StatusServiceUnavailable, b)
	md = budgetCall(be, 3)
	assert.Equal(t, 4, md.Attempts)
	assert.Equal(t, 7.0, b.Available(), "a call of 3 retries that runs out spends 3")

	// With a 2xx nothing is spent, and a success gives back its tenth.
	b = newBudget(10, stopped)
	b.take(RetryCost)
	be, _ = budgetServer(t, http.StatusOK, b)
	md = budgetCall(be, 3)
	assert.Equal(t, 1, md.Attempts)
	assert.InDelta(t, 9.1, b.Available(), 1e-9)
}

// TestBudgetRefillsWithTime: an empty budget gets one retry back every
// RetryBudgetRefill, up to its size, whether or not calls succeed.
func TestBudgetRefillsWithTime(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	b := newBudget(3, clock)
	for b.take(RetryCost) {
	}
	assert.Equal(t, 0.0, b.Available())
	now = now.Add(RetryBudgetRefill / 2)
	assert.Equal(t, 0.5, b.Available())
	now = now.Add(RetryBudgetRefill / 2)
	assert.True(t, b.take(RetryCost), "a retry earned by time")
	assert.False(t, b.take(RetryCost))
	now = now.Add(time.Hour)
	assert.Equal(t, 3.0, b.Available(), "up to its size")
	now = now.Add(time.Hour)
	for range 3 {
		assert.True(t, b.take(RetryCost))
	}
	assert.False(t, b.take(RetryCost), "time while full earns nothing")
}
