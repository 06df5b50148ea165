// Package rxtypes holds what every interface of the platform shares: an
// exact [Decimal] for money and measures, a civil [Date], a tolerant [Time] for
// timestamps in the platform's replies, the models the omni request and
// delivery order documents describe alike (order status, pickup, delivery,
// gender, the delivery address), the error types and sentinels, and
// [Interface]. The service packages use these
// types in their params and models, and the root package names the most
// used ones by alias (rxdelivery.Decimal is rxtypes.Decimal):
//
//	fee := rxtypes.MustDecimal("5.00")
//	dob := rxtypes.Date{Year: 1980, Month: time.February, Day: 29}
//
// [OrderStatus]'s life cycle, with its final and cancellable statuses, is
// drawn in https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/lifecycles.md
//
// # Request ids
//
// The errors of a call that got a response ([*APIError], [*DecodeError], and
// [*TransportError] when an earlier attempt got one; a [*WatchError], that of
// the read that ended the watch) carry the platform's
// identifier of the request in RequestID, and the number of attempts the
// call made in Attempts; Error ends with " (request id ID)" when there is
// one, so an error quoted in a support ticket is enough to find the call.
// The id is that of the call's last response, read from its X-Request-Id
// header (or Request-Id, X-Correlation-Id: the documents name none), and
// it is kept only in the form of a generated identifier: one token of at
// most 128 letters, digits and . _ : -, whose runs of letters past an
// optional prefix such as "req_" are hexadecimal or at most two long,
// with a digit, holding no value the call sent. Any other value (a word,
// a name a platform put in the header) is left out, as it is from
// Metadata, logs and spans. A call refused before anything was sent (a
// [*ValidationError], a [*ConfigError], a cause [*NotSentError]) has no request
// id.
package rxtypes
