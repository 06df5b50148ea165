// Package rxdelivery is the Go client of the prescription-delivery
// platform: omni requests, delivery orders, pharmacy lookup, tracking
// subscriptions and pricing quotes, over the platform's four interfaces.
//
// A [Client], made by [NewClient] or [NewClientFromEnv], holds the
// credentials and base URLs and hands out one service per interface
// (Requests, Orders, Pharmacies, Tracking, Pricing). Every call takes a
// context, validates its params before anything leaves the process, and
// returns typed models or a typed error.
//
// # Quickstart
//
// Without credentials the quickstart runs against the SDK's built-in
// simulator of the platform, offline: it creates an omni request and
// follows it to delivery.
//
//	go run ./examples/quickstart
//
// In a program the calls look like this; the package's first example runs
// the same steps against the test kit's simulator (package
// [github.com/rxdelivery/rxdelivery-go/rxdeliverytest]):
//
//	client, err := rxdelivery.NewClientFromEnv()
//	if err != nil {
//		log.Fatal(err)
//	}
//	order, err := client.Orders.Get(ctx, "ord_123")
//	var apiErr *rxdelivery.APIError
//	switch {
//	case errors.Is(err, rxdelivery.ErrNotFound):
//		// no such order
//	case errors.As(err, &apiErr):
//		log.Printf("platform said %d: %s", apiErr.StatusCode, apiErr.Message)
//	}
//
// # Guides
//
// The [README] holds the quickstart, configuration and errors; the rest is
// in guides under [docs], read in this order:
//   - [endpoints.md]: what each service method sends ([orders.Service.Create]
//     and the others), and the life cycles;
//   - [retries.md]: what is sent again, the unknown outcome
//     ([ErrUnknownOutcome]), the retry budget and rate limits;
//   - [exactly-once.md]: creating once, and the journal module;
//   - [operations.md]: the journal behind poolers and across failovers,
//     runbooks, stopping for a deploy ([WithWriteGrace]);
//   - [calls.md]: per-call options ([option.CallOption]), [Metadata] and
//     [Client.Do] for an endpoint the SDK does not model;
//   - [observability.md]: logs, hooks, OpenTelemetry, transcripts;
//   - [following.md]: Watch, Wait and WatchMany;
//   - [notifications.md]: tracking notifications, in order and once;
//   - [testkit.md]: the test kit (package
//     [github.com/rxdelivery/rxdelivery-go/rxdeliverytest]) and sandbox
//     scenarios;
//   - [models.md]: validation, money and dates;
//   - [cli.md]: the operator command rxdelivery;
//   - [development.md] and [versioning.md]: working on the SDK, and what a
//     version promises.
//
// The packages: [github.com/rxdelivery/rxdelivery-go/requests],
// [github.com/rxdelivery/rxdelivery-go/orders],
// [github.com/rxdelivery/rxdelivery-go/pharmacies],
// [github.com/rxdelivery/rxdelivery-go/tracking] and
// [github.com/rxdelivery/rxdelivery-go/pricing] hold each interface's
// service, params and models; [github.com/rxdelivery/rxdelivery-go/rxtypes]
// the shared types (money, dates, errors), which this package names by
// alias; [github.com/rxdelivery/rxdelivery-go/option] the option types.
//
// # Per-call options
//
// Every service method takes options as its trailing arguments, and they
// apply to that call only:
//
//	var md rxdelivery.Metadata
//	order, err := client.Orders.Get(ctx, id,
//		rxdelivery.WithRetryMax(0),
//		rxdelivery.WithAttemptTimeout(2*time.Second),
//		rxdelivery.WithHeader("X-Correlation-Id", corr),
//		rxdelivery.WithMetadata(&md))
//
// Options that exist at both levels are one value: [WithRetryMax],
// [WithAttemptTimeout], [WithHeader], [WithMiddleware] and
// [WithCallMiddleware] return a [CallOption], which [NewClient] also takes
// as the default of every call. The options of a whole client only (base
// URLs, credentials, the HTTP client, [WithRateLimit]) are [Option] values
// but not CallOptions, so the compiler refuses them where a call's options
// go.
//
// The option types live in the small public package [option], which the
// service packages import (they cannot import this package, which imports
// them); this package re-exports them by alias ([Option], [CallOption],
// [Metadata], [Middleware], [CallMiddleware]), so a program rarely imports
// option, and every signature shows a public name such as
// [option.CallOption]. Package option documents what hooks see and must
// not log.
//
// # Life cycles
//
// How omni requests, delivery orders and tracking subscriptions move from
// status to status, and which statuses are final or cancellable, is drawn
// in [docs/lifecycles.md].
//
// # Retries and unknown outcomes
//
// Reads are retried on 429, 5xx, transport errors and responses cut short;
// creates, cancels and prescription changes are retried only when the
// platform provably did not act (429, 503, a failed dial, a stream the
// server refused unprocessed), so a retry never creates a second delivery.
// A write that fails otherwise matches [ErrUnknownOutcome]. Retry-After, in
// seconds or as an HTTP date, is obeyed up to the [WithRetryWaitMax] cap. No
// layer below the retry policy sends a write again on its own: each attempt
// of a write goes to the connection pool with a body that cannot be
// rewound, so neither net/http's HTTP/2 transport nor its HTTP/1 transport
// replays it. The SDK sends it again, a bounded number of times, only where
// HTTP proves the server did not process it: REFUSED_STREAM, a stream above
// the last stream id of a GOAWAY (a load balancer recycling a connection).
//
// # Redirects and plain http
//
// Redirects are not followed: a 3xx response is an [*APIError], and a write
// whose response is a 3xx matches [ErrUnknownOutcome]. Only a client given to
// [WithHTTPClient] with a CheckRedirect function of its own follows them, for
// reads only, never carrying credentials to another origin than the base
// URL's and never to plain http off loopback.
//
// Plain http is allowed to a loopback host only, and judged on where the
// bytes go: a name such as "localhost" or "pharmacy.localhost" is dialled
// as 127.0.0.1 then ::1 without a DNS lookup, a plain-http request never
// goes through a proxy, and a connection whose peer is not a loopback
// address is closed before anything is written (see WithHTTPClient).
//
// # Timeouts
//
// Each attempt is bounded by its own timeout, [DefaultAttemptTimeout] (30s)
// unless [WithAttemptTimeout] says otherwise, so a stalled server cannot hold
// a call made with context.Background(); the context bounds the whole
// call. An attempt that runs out of its time matches [ErrAttemptTimeout],
// never context.DeadlineExceeded: a read is retried, a write is not.
//
// # What is never logged
//
// Bodies, query strings and credentials are never logged and never appear
// in error strings: they carry patient data. An error string holds the
// method, the path (a prescription number shown as :rx_number), the status
// and the platform's words, from which every value the call sent (in its
// body, its query or its path) and every credential has been replaced by
// "[redacted]", since platforms echo what they were sent. [APIError].Body is
// the one field that keeps the platform's raw words; never log it.
//
// [docs/lifecycles.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/lifecycles.md
// [README]: https://github.com/rxdelivery/rxdelivery-go#readme
// [docs]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/
// [endpoints.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/endpoints.md
// [retries.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/retries.md
// [exactly-once.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/exactly-once.md
// [operations.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/operations.md
// [calls.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/calls.md
// [observability.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/observability.md
// [following.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/following.md
// [notifications.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/notifications.md
// [testkit.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/testkit.md
// [models.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/models.md
// [cli.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/cli.md
// [development.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/development.md
// [versioning.md]: https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/versioning.md
package rxdelivery
