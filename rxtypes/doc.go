// Package rxtypes holds what every interface of the platform shares: an
// exact Decimal for money and measures, a civil Date, a tolerant Time for
// timestamps in the platform's replies, the models the omni request and
// delivery order documents describe alike (order status, pickup, delivery,
// gender, the delivery address), the error types and sentinels, and
// Interface. The service packages use these
// types in their params and models, and the root package names the most
// used ones by alias (rxdelivery.Decimal is rxtypes.Decimal):
//
//	fee := rxtypes.MustDecimal("5.00")
//	dob := rxtypes.Date{Year: 1980, Month: time.February, Day: 29}
//
// OrderStatus's life cycle, with its final and cancellable statuses, is
// drawn in https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/lifecycles.md
package rxtypes
