// Package rxdeliverytest is a test kit for code that uses the rxdelivery
// SDK, as net/http/httptest is for code that uses net/http. It runs an
// in-process simulator of the platform's four interfaces (omni requests and
// pharmacy lookup, delivery orders, tracking subscriptions, pricing quotes)
// and hands your test a *rxdelivery.Client pointed at it, plus the controls
// a real environment cannot give: a clock you move by hand, statuses you
// set, faults you inject, and a record of every call.
//
// The simulator is stateful and validates what it receives as the
// platform's documents say. It reads and writes the wire with its own
// structures, written from the documents independently of the SDK's
// encoding, so a test through it also checks the SDK's wire format.
//
// # Starting
//
// [Start] runs a simulator for one test and stops it when the test ends:
//
//	func TestDispatch(t *testing.T) {
//		srv := rxdeliverytest.Start(t)
//		client := srv.Client() // sandbox mode, credentials, tiny retry waits
//		err := mypkg.Dispatch(context.Background(), client, order)
//		...
//	}
//
// [Server.Client] is built with rxdelivery.NewClient on the simulator's four
// base URLs, in sandbox mode, with the server's credentials and retry waits
// of a few milliseconds, then with your own options ([WithClientOptions]), so
// it behaves as your production client does. [Server.NewClient] builds more.
// Code that builds its client from the environment can be given
// [Server.EnvLines]. [NewServer] starts a simulator without a testing.TB, for
// Example functions and programs; call Close when done.
//
// # The clock
//
// The simulator runs on a manual clock starting at [DefaultStart],
// 2026-03-02T09:00:00Z ([WithStartTime] sets another start). Nothing moves until the test calls [Server.Advance], which
// applies, before it returns and in time order, every transition that
// became due: the steps of omni sandbox scenarios (test_meta), the courier
// progress of delivery orders (new, "submitted to courier", picked_up,
// delivered, one step per [WithOrderCadence], 30 seconds by default), the
// tracking events of shipping orders (Accepted, Moving Through Network, Out
// for Delivery, Delivered), and the tracking notifications they cause. A
// test never sleeps and always sees the same sequence. [WithRealClock] runs
// on real time instead (Advance still jumps ahead). On either clock a
// status shows from its occurred_at on: the platform writes timestamps to
// the second, so the first step after a create falls on the last whole
// second before creation plus the cadence (the next ones follow at the
// cadence), and a call shows every step that was due when it arrived.
// With a cadence under a second the steps fall between seconds, and an
// occurred_at may be up to a second before its step shows.
//
// The simulator writes timestamps in the several ISO 8601 forms the
// documents allow, so that code reading them meets each:
//
//   - milliseconds and Z (2026-03-02T09:00:00.000Z): an omni request's
//     created_at, a subscription's subscribed_at and updated_at, and a
//     tracking notification's timestamp, status_occurred_at and events;
//   - a -05:00 offset, whole seconds (2026-03-02T04:00:30-05:00): the
//     occurred_at of an omni request's order and a delivery order's
//     eta.arrival_at;
//   - microseconds and Z (2026-03-02T09:00:30.000000Z): an omni order's
//     status_note_updated_at;
//   - whole seconds and Z (2026-03-02T09:01:00Z): a delivery order's
//     occurred_at (pickup, delivery, return, cancellation,
//     shipping.delivery).
//
// Code that waits for a delivery (Orders.Wait, Requests.Watch, WatchMany)
// runs on the same clock: the kit's clients wait between reads on
// Server.PollClock, which moves the manual clock forward by each wait
// instead of sleeping. A test of such code therefore needs no Advance and
// no goroutine: the wait returns once the simulated courier is done, in
// milliseconds of real time.
//
// # State control
//
// To reach a state without walking a scenario to it:
//
//   - SetOrderStatus puts a delivery order in any status of the documents,
//     with the pickup, delivery, return or cancellation data it implies.
//   - SetRequestOrderStatus does the same for the order of an omni request;
//     SetRequestIncomplete marks a request request_incomplete.
//   - SetPharmacies replaces the pharmacies that pharmacy lookups and gets
//     answer with ([BuiltinPharmacies] lists the default twelve).
//   - Track records a tracking status for a number and delivers the
//     notification to its subscription's listener.
//   - SetEmptyQuotes makes pricing answer an empty quote list.
//
// OrderStatus, RequestOrderStatus, TrackingNumber and SubscriptionStatus
// read the simulator's state back.
//
// # Notifications
//
// Server.Listener registers an http.Handler, typically the one
// tracking.NewHandler returns, and gives back an https URL for it that
// never reaches a network. Subscribe a tracking number with that URL and
// every notification for it is handed to the handler, in-process, before
// Track or Advance returns: no certificate, port or goroutine in the test.
// Notifications to other URLs are posted over the network
// ([WithListenerClient] sets the client). [Server.Notifications] records each
// delivery attempt.
//
// # Faults
//
// [Server.FailNext] makes the next N calls of one operation (or of any, with
// [AnyOperation]) fail:
//
//	RateLimited(d)        429 with Retry-After in seconds
//	RateLimitedUntil(d)   429 with Retry-After as an HTTP date
//	Unavailable(d)        503, with Retry-After when d > 0
//	ServerError()         500; StatusError(code) for any other status
//	Cut()                 headers and part of the body, then the connection closes
//	Drop()                the connection closes with no response
//	Stall(), StallFor(d)  no response until the client gives up, or for d of real time
//	Malformed()           200 with a body that is not JSON
//	CommittedThenFailed() the call is carried out, then answered 500
//
// Committed(f) applies any fault after the call was carried out, so a test
// can reach the SDK's unknown-outcome error (rxdelivery.ErrUnknownOutcome)
// with the order really created, and check that the code under test
// reconciles instead of creating twice (Server.Orders shows what exists).
// Without [Committed], a fault answers before anything is done; a write that
// meets Cut, Drop or Stall still ends as an unknown outcome, since the
// client cannot tell.
//
// Retries are calls too. The client retries 429 and 503 (and, for reads,
// 500, cut responses and dropped connections) on its own, up to its retry
// count, so a fault on fewer calls than that is absorbed and one on more
// (or a negative n: every call) reaches your code. A Retry-After longer
// than the client's wait cap is not slept at all: the call returns at once
// an error carrying it. With the kit's client, whose cap is a few
// milliseconds, a [RateLimited] fault of time.Second therefore tests the
// "come back later" path and one of 0 the path where the client retries.
//
// # The call record
//
// Server.Calls lists what the simulator received, oldest first: the
// operation (such as [OrdersCreate]), method, path (as the documents write
// it), decoded query and body, the status answered, the fault applied, and
// when it arrived: ReceivedAt on the wall clock (so the real wait between a
// 429 and its retry can be checked against the Retry-After) and
// SimulatedAt on the simulator's clock. No header is kept, so no
// credential is in it. [Server.CallsTo] filters by operation; ResetCalls empties the
// record; Call.DecodeBody decodes a body into a type of yours. The record
// keeps the latest [DefaultCallRecordLimit] calls ([WithCallRecordLimit] sets
// another bound, or none); CallCounts counts every call per operation,
// past that bound.
//
// # The control API
//
// A Server also serves its controls over HTTP under [ControlPrefix]
// ("/_control"), for tests written in other languages against a standalone
// server (the repository's operator command, 'rxdelivery sandbox'). Every endpoint needs
// the server's key and secret as Basic credentials (401 otherwise); bodies
// and responses are JSON; errors are {"error":{"message"}}. The OpenAPI
// document api/sandbox.yaml in the repository describes every body in full
// (see docs/api.md); in brief:
//
//	GET    /_control/clock                  {"now"}
//	POST   /_control/clock/advance          {"seconds":90} or {"duration":"1m30s"} -> {"now"}
//	GET    /_control/orders/{id}            {"id","status","tracking_number"}
//	PUT    /_control/orders/{id}/status     {"status":"delivered"} -> as GET
//	GET    /_control/requests/{id}          {"id","order_status"}
//	PUT    /_control/requests/{id}/status   {"status":"picked_up"} (or "request_incomplete") -> as GET
//	POST   /_control/tracking               {"tracking_number","status"} -> 204 once delivered
//	GET    /_control/pharmacies             {"pharmacies":[{npi,ncpdp,name,preferred,phone_number,fax_number,address}]}
//	PUT    /_control/pharmacies             same shape -> as GET
//	PUT    /_control/quotes                 {"empty":true}
//	POST   /_control/faults                 {"operation","times","kind","status","retry_after_seconds","stall_seconds","committed"} -> 201
//	DELETE /_control/faults                 204
//	GET    /_control/calls[?operation=]     {"calls":[{operation,method,path,query,body,status,fault,received_at,simulated_at}],"counts":{operation:n}}
//	DELETE /_control/calls                  204
//	GET    /_control/notifications          {"notifications":[{tracking_number,status,listener_url,status_code,error,at}]}
//
// A fault's kind is one of rate_limit, rate_limit_date, unavailable,
// server_error, status (with "status"), cut, drop, stall (forever, or
// "stall_seconds"), malformed, committed_then_failed; "committed" applies
// it after the call is carried out; "times" defaults to 1, and a negative
// value lasts until DELETE. Operations are named as the Operation
// constants are ("orders.Create", "requests.Cancel", ...); "" means any.
//
// # What the simulator checks
//
// Every rule of the documents is applied: required fields, lengths, enums,
// conditional rules, and the answers' shapes, statuses and error bodies of
// each interface. Where the documents leave a point open it reads it as
// the SDK does: a pharmacy lookup may give both origin_address and
// place_id; delivery_fee and rx_amount_due are required on same-day orders
// and allowed on the others, while other_items_amount_due and
// photo_id_required are same-day only; cancellable orders are new and
// "submitted to courier"; unable_to_cancel is answered 422.
//
// It also refuses, on purpose, some input the documents do not explicitly
// refuse, to catch mistakes in the code under test:
//
//   - unknown JSON fields and unknown query parameters (400), so a
//     misspelt key fails;
//   - a JSON kind other than the documented one, such as an amount sent as
//     a string, and an Integer written 30.0 (400);
//   - a body without Content-Type application/json (400, on every
//     interface), and an Accept header that excludes JSON (406);
//   - an omni request without pickup whose pharmacy NCPDP the simulator
//     does not know (422);
//   - a place_id with characters other than letters, digits, '_', '-' or
//     ':' (422), page or page_size below 1 (422);
//   - service_level "sameday" (same-day orders leave it out), an order
//     without prescriptions, a negative fee or package dimension (400);
//   - adding or removing a prescription on an order past "submitted to
//     courier" (400);
//   - Basic credentials in the base64 alphabet the interface's documents
//     do not show (401, as undecodable credentials): tracking reads the
//     standard alphabet, omni, delivery and pricing the URL-safe one, as
//     the SDK sends them (padding optional). The control API reads the
//     standard one, as most HTTP clients write Basic credentials.
//
// The simulator also has its own responses where the documents show none:
// delivery information (pharmacies.DeliveryInfo) answers a deliverability
// summary, pricing answers one postal ground quote with a deterministic
// price, and ZIP codes 00000 to 00999 are outside every service area
// (no pharmacy, no quote, not deliverable).
//
// # Cassettes
//
// A Recorder records a client's exchanges with any environment (the
// simulator, rxdelivery sandbox, a staging platform) into a cassette file;
// Replay answers a later test's client from it, with no network. Every
// patient value and credential is a typed placeholder in the file
// ("<patient.last_name#1>"), redacted in memory as it is recorded, by the
// SDK's table of the platform's fields; ids, statuses, times, amounts and
// counts stay. Replay redacts the live request the same way and compares,
// strictly: a mismatch names the operation, the JSON path and the kind of
// difference, never a value. [UseCassette] replays, or records again when
// RXDELIVERY_RECORD=1; [CheckCassette] (rxdelivery cassette check) proves a
// file holds nothing its fields do not allow. The guide is
// https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/cassettes.md
//
// The simulator, its scenarios and faults are told in the guide
// https://github.com/rxdelivery/rxdelivery-go/blob/main/docs/testkit.md
package rxdeliverytest
