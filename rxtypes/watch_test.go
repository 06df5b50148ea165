package rxtypes

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWatchError(t *testing.T) {
	t.Parallel()
	unknown := &WatchError{Op: "orders.Watch", ID: "ord_1", Status: "teleported"}
	assert.Equal(t, `rxdelivery: orders.Watch ord_1: status "teleported" is not in the documents; whether it is final is unknown`, unknown.Error())
	assert.True(t, errors.Is(unknown, ErrUnknownStatus))
	assert.False(t, errors.Is(unknown, ErrNotFound))

	gone := &WatchError{Op: "requests.WatchMany", ID: "req_1", Gone: true}
	assert.Equal(t, "rxdelivery: requests.WatchMany req_1: no longer listed by the get-many endpoint", gone.Error())
	assert.True(t, errors.Is(gone, ErrNotFound))
	assert.False(t, errors.Is(gone, ErrUnknownStatus))

	long := &WatchError{Op: "orders.Watch", ID: "ord_1", Status: strings.Repeat("x", 500) + "\n"}
	assert.Less(t, len(long.Error()), 200, "a long status is cut")
	assert.NotContains(t, long.Error(), "\n", "and quoted")
}
