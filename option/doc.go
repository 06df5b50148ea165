// Package option holds the options of rxdelivery clients and calls, and
// the types their hooks see.
//
// Most programs never import it: package rxdelivery re-exports every
// option (rxdelivery.WithRetryMax, rxdelivery.WithHeader, ..., the same
// values as this package's [WithRetryMax] and [WithHeader]) and the
// main types by alias. It exists so that the service packages (orders,
// requests, ...), which the root package imports and which therefore
// cannot import it, can name the type of their trailing parameter:
//
//	func (s *orders.Service) Get(ctx context.Context, id string, opts ...option.CallOption) (*orders.Order, error)
//
// One vocabulary serves both levels. A [CallOption] given to a service
// method applies to that call only; the same value given to
// rxdelivery.NewClient sets the default of every call of the client. An
// [Option] that is not a CallOption (a base URL, credentials, the HTTP
// client) exists only for a whole client, and the compiler refuses it
// where a call's options go.
//
// # What hooks see
//
// A [Middleware] wraps every attempt of a call, a [CallMiddleware] the whole
// call. Both see the [Operation]: its name ("orders.Create"), HTTP method,
// templated path ("/api/v1/orders/{id}/prescriptions/{rx_number}"),
// interface and class (Safe or Write). An attempt hook also sees the
// attempt's number and what came back: the status and the response's
// headers, or the failure's cause, which never holds a URL. A call hook
// sees the call's [Metadata] and its error.
//
// Hooks never see the request: not its query string, its body or its
// headers, which carry patient data (names, dates of birth, addresses,
// phone numbers) and credentials. Identifiers in the path (an order id, a
// prescription number) are replaced by their template's placeholder. What
// a hook is given may be logged and used as telemetry attributes, with one
// caution: an error's message (Error()) can repeat the platform's words,
// and a platform may echo what it was sent; record the error's kind
// ([ErrorKind]) rather than its message. A response's headers are the
// platform's, not the caller's; log the ones you name, not all of them.
//
// # Watches
//
// Watch, Wait and WatchMany of the orders and requests services take
// [WatchOption] values: [WithPollInterval], [WithMaxPollInterval],
// [WithPollBatchSize], [Until], and every CallOption, which applies to each read of the watch. A
// client's watches wait between reads on its [Clock] (real time unless
// rxdelivery.WithClock says otherwise).
//
// Per-call options are told in
// https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/calls.md,
// retries and the unknown outcome in
// https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/retries.md,
// and watches in
// https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/following.md
package option
