package testutil

import (
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// SamedayOrder returns valid params of a same-day order for a pharmacy the
// sandbox knows (NCPDP 5550001), with one prescription: the test kit's
// rxdeliverytest.SamedayOrderParams, so that the SDK's own tests and its
// users' tests start from the same order. Each call returns a fresh value
// the caller may change.
func SamedayOrder() *orders.CreateParams { return rxdeliverytest.SamedayOrderParams() }
