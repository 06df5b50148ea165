package rxtypes_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

func TestWatchError(t *testing.T) {
	t.Parallel()
	unknown := &rxtypes.WatchError{Op: "orders.Watch", ID: "ord_1", Status: "teleported"}
	assert.Equal(t, `rxdelivery: orders.Watch ord_1: status "[redacted]" is not in the documents; whether it is final is unknown`, unknown.Error())
	odd := &rxtypes.WatchError{Op: "orders.Watch", ID: "ord_1", Status: "on_hold Philomena Vandersloot"}
	assert.NotContains(t, odd.Error(), "Philomena", "a status is the platform's word: only the allowlist's words show")
	assert.NotContains(t, fmt.Sprintf("%#v", odd), "Philomena")
	assert.Contains(t, (&rxtypes.WatchError{Op: "orders.Watch", ID: "ord_1", Status: "submitted to courier"}).Error(), `status "submitted to courier"`)
	assert.True(t, errors.Is(unknown, rxtypes.ErrUnknownStatus))
	assert.False(t, errors.Is(unknown, rxtypes.ErrNotFound))

	gone := &rxtypes.WatchError{Op: "requests.WatchMany", ID: "req_1", Gone: true}
	assert.Equal(t, "rxdelivery: requests.WatchMany req_1: no longer listed by the get-many endpoint", gone.Error())
	assert.True(t, errors.Is(gone, rxtypes.ErrNotFound))
	assert.False(t, errors.Is(gone, rxtypes.ErrUnknownStatus))

	long := &rxtypes.WatchError{Op: "orders.Watch", ID: "ord_1", Status: strings.Repeat("x", 500) + "\n"}
	assert.Less(t, len(long.Error()), 200, "a long status is cut")
	assert.NotContains(t, long.Error(), "\n", "and quoted")
}
