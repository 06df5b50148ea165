// Package sandbox is an in-process simulator of the platform's four
// interfaces (omni requests and pharmacy lookup, delivery orders, tracking
// subscriptions, pricing quotes): every endpoint of docs/endpoints.md, stateful, validating as the
// interface documents say, running the sandbox scenarios on an injectable
// clock, posting tracking notifications to listener URLs, and able to inject
// faults. The public test kit, rxdeliverytest, is built on it (and
// the operator command's 'rxdelivery sandbox' on the kit); the SDK's own end-to-end tests use it
// directly.
//
// It imports nothing from the SDK: its wire structs are its own reading of
// the documents, so a test against it checks the SDK's encoding and decoding
// against an independent reading.
//
// # Mounting
//
// Each interface is served under its own prefix, because omni and delivery
// both have GET /api/v1/pharmacies/{id}. A client's base URL for an
// interface is the server URL followed by the prefix:
//
//	omni      {url}/omni      /api/v1/requests[/{id}], /api/v1/requests/?ids[]=,
//	                          /api/v1/pharmacies/, /api/v1/pharmacies/{id}
//	delivery  {url}/delivery  /api/v1/orders[/{id}], /api/v1/orders?ids[]=,
//	                          /api/v1/orders/{id}/prescriptions[/{rx_number}],
//	                          /api/v1/pharmacies/{id} (delivery information)
//	tracking  {url}/tracking  /tracking/v1/subscriptions
//	pricing   {url}/pricing   /pricing/v1/quotes
//
// One trailing slash is accepted on every path. Path parameters are
// unescaped (a prescription number may hold an escaped slash).
//
// # Example
//
//	clock := sandbox.NewManualClock(time.Time{})
//	srv := sandbox.NewServer(sandbox.Config{Key: "k", Secret: "s", Clock: clock})
//	defer srv.Close()
//	// point the client at srv.OmniURL(), srv.DeliveryURL(), ...
//	// create a request with test_meta {"scenario":"successful_delivery"}, then:
//	clock.Advance(4 * 30 * time.Second) // new, submitted, picked up, delivered
//	// GET the request: its order is delivered.
//	srv.InjectFault(sandbox.Fault{Kind: sandbox.FaultRateLimit, RetryAfter: 2 * time.Second})
//	// the next call gets 429 with Retry-After: 2
//	fmt.Println(srv.Stats().RequestsCreated)
//
// # Checks every interface shares
//
// In this order: an injected fault (see Fault); Basic authentication
// (the base64 alphabet of the interface's documents: standard for
// tracking, URL-safe for omni, delivery and pricing, padding optional; 401
// for a missing header, a scheme other than Basic, undecodable credentials
// or credentials in the other alphabet, an unknown key, a wrong
// secret or disabled credentials, with the tracking messages of document
// 002 on every interface; 403 for credentials not enabled for the
// interface); the route (404); the method (405 with Allow); Accept (406
// unless absent or allowing application/json); for bodies, Content-Type
// application/json (400 otherwise, on every interface: document 002 says so
// for tracking and no interface lists 415). Bodies are decoded strictly:
// malformed JSON, a JSON kind other than the documented one (such as a money
// amount sent as a string), a trailing value or an unknown field is 400;
// unknown query parameters are 400 too (Config.AllowUnknownFields turns the
// unknown-name checks off). Messages name the JSON path and the rule, never
// a value.
//
// Error bodies: omni {"error":{"id","type","message"}} (id is the request
// id for unable_to_cancel, else a fresh err_ id); delivery and pricing
// {"error":{"message"}}; tracking {"error":{"code","message"}}. The type
// and code values are invalid_request (400), unauthorized (401), forbidden
// (403), not_found (404), method_not_allowed (405), not_acceptable (406),
// validation_error (422), unable_to_cancel, rate_limit_exceeded (429),
// internal_error (500), bad_gateway (502), service_unavailable (503).
//
// # Omni requests
//
// Create applies every rule of document 000 and answers 422 listing every
// broken rule (400 for a body that cannot be decoded). pickup may be left
// out when pharmacy.ncpdp is a pharmacy the sandbox knows; a dropoff address
// is a full address or an object with only place_id; remittance needs both
// contact and payments (an empty payments array is accepted). The answer
// is 200 {"request":{id, external_reference_number, created_at,
// order:null}}; status and delivery_eta are absent until an order exists.
//
// A request without test_meta keeps order null for ever (tests move it with
// SetRequestOrderStatus). With test_meta, one step runs every
// duration_between seconds (default 30) on the clock:
//
//	successful_delivery    new, submitted_to_courier, picked_up, delivered
//	unsuccessful_delivery  new, submitted_to_courier, picked_up,
//	                       delivery_attempted (failure_reason), returned_to_pharmacy
//	incomplete_request     new, then status {request_incomplete,
//	                       pharmacy_out_of_stock} with the order cancelled
//	                       (cancelled_by pharmacy, reason Out of Stock)
//
// The first step creates the order (courier_company set) and sets the
// request status {name: request_received, detail: null} and delivery_eta:
// free text ("Monday, January 6, 2025 between 11:00 AM and 1:00 PM EST") for
// successful_delivery, an ISO 8601 timestamp for the other scenarios; the
// document shows both forms. Cancel answers 204 when the request has no
// order or its order is new or submitted_to_courier (the order becomes
// cancelled, cancelled_by "requester", cancellation_reason "Order
// Canceled", and the scenario stops); otherwise 422 with type
// unable_to_cancel, id the request id.
//
// # Delivery orders
//
// Create applies the rules of document 001 and answers 400 with every
// broken rule (the document lists no 422). Readings: service_level is
// absent for same-day orders ("sameday" itself is refused); delivery_fee
// and rx_amount_due ("only for sameday" in the Required column) are
// required for same-day orders and allowed, not required, on the other
// levels; other_items_amount_due and photo_id_required ("no; sameday
// only") are optional and refused on the other levels. This is the reading
// of DESIGN.md's table, shared with the SDK's validation. shipping is
// required exactly for shipping orders; at least one prescription. A refused Saturday delivery is answered with exactly
// "Carrier service level does not offer saturday delivery." when it is the
// only problem. The create answer carries only id, status, pickup,
// delivery, return, cancellation and eta, as the document says (a shipping
// order's shipping object is read with a GET).
//
// Same-day and on-demand orders move every Config.OrderCadence: "submitted
// to courier" (written with spaces, as in the document's sample), picked_up
// (pickup set, eta type delivery), delivered (delivery set; relationship for
// same-day orders; recipient_identification when photo_id_required). eta is
// {arrival_at, type} from creation on. Shipping orders have pickup,
// delivery and eta null and a shipping object; their tracking number emits
// Accepted (order picked_up), Moving Through Network, Out for Delivery and
// Delivered (order delivered, shipping.delivery set), one per cadence.
// Cancel answers 204 for new or "submitted to courier" (cancellation
// {occurred_at, reason: "Order Canceled"}, using the sample's key reason),
// else 400 "Order is not in a cancellable status". Get-many answers
// {"orders":[...]}, elements without wrapper, unknown ids left out.
// Prescriptions can be added (200 {"order":{id,status,pickup,delivery,
// return}}) or removed (204; 404 for a number not on the order) while the
// order is new or submitted to courier, else 400.
//
// # Pharmacies and delivery information
//
// Lookup needs origin_address or place_id (400 when neither is given). Both
// may be given: the document makes each required unless the other is given
// and excludes neither; the origin address then locates the search, and
// both are checked. origin_address must contain a 5-digit ZIP code (it has
// no length limit), place_id must be at most 255 characters of letters,
// digits, '_', '-' or ':', page must be at least 1 and page_size between 1
// and 100: otherwise 422. Every known pharmacy is
// within the deliverable radius except for origins whose ZIP code is in the
// no-service range 00000-00999 (count 0). distance_from_origin is a
// deterministic pseudo-distance in [0.10, 25.00) derived from the origin and
// the pharmacy; ordering is preferred first, then distance, then NCPDP.
// Get takes an NCPDP or NPI and leaves distance_from_origin out.
//
// Delivery information (GET {url}/delivery/api/v1/pharmacies/{id}) reads
// delivery[address][street|street2|city|state|zipcode] (street, city,
// state and zipcode required), POD, package and saturday[delivery]
// (true/false) from the query. Its answer, which the documents do not show,
// is the sandbox's own:
//
//	{"npi":"…","ncpdp":"…","name":"…","deliverable":true,
//	 "distance_from_pharmacy":3.21,"service_levels":["sameday","ondemand","shipping"],
//	 "proof_of_delivery":"required","package":null,"saturday_delivery":false,
//	 "estimated_delivery_fee":6.43}
//
// proof_of_delivery echoes POD, or defaults to required (preferred
// pharmacies) or none; sameday is offered within 15 miles, ondemand within
// 8; estimated_delivery_fee is null when no courier level is offered; a
// dropoff ZIP in the no-service range gives deliverable false and no
// levels.
//
// # Tracking
//
// Subscribe creates (201) or updates (200) the subscription of a tracking
// number; an update replaces listener_url and reference_id and sets the
// status back to ENABLED. carrier is PARCELA for numbers starting with 1Z,
// POSTAL otherwise. reference_id is left out when none was given. When a
// number's tracking status changes (shipping orders, EmitTracking), the
// notification of document 002 is POSTed as JSON to the ENABLED
// subscription's listener_url with Config.NotifyClient, outside the
// sandbox's lock. A transport failure or invalid URL suspends the
// subscription (subscription_status_reason says why); a listener that
// answers, with any status, keeps it ENABLED (the attempt and status are in
// Stats().Notifications).
//
// # Pricing
//
// Quotes follow the rules of document 002 (all 400). ZIP codes may be
// written 12345, 12345-6789 or 123456789; length_in, width_in and height_in
// must not be negative, weight_oz must be above zero. Street, name and
// phone members are accepted and ignored. The answer is one postal
// ground_service quote with a deterministic price_usd (see quotePrice), or
// {"quotes":[]} when the dropoff ZIP code is in the no-service range
// 00000-00999. A 502 is produced with a FaultStatus fault.
//
// # Rules beyond the documents
//
// The sandbox refuses some input the documents do not explicitly refuse, to
// catch client mistakes early. Each is a reading, named here:
//
//   - unknown JSON fields and unknown query parameters: 400 (off with
//     Config.AllowUnknownFields);
//   - a JSON kind other than the documented one (a money amount sent as a
//     string) and an Integer written with a decimal point or exponent
//     (30.0): 400;
//   - Content-Type other than application/json on a body: 400 on every
//     interface (document 002 says so for tracking only);
//   - Accept that excludes application/json: 406;
//   - an omni request without pickup whose pharmacy.ncpdp the sandbox does
//     not know: 422 (the document requires pickup "when the pickup location
//     is not supplied through pharmacy");
//   - a place_id with characters other than letters, digits, '_', '-' or
//     ':': 422 (the document says only that an invalid value is an error);
//   - page below 1, page_size below 1: 422;
//   - the service_level value "sameday": 400 (same-day orders are created
//     with the field absent);
//   - an order without prescriptions: 400;
//   - negative delivery_fee, rx_amount_due, other_items_amount_due, or
//     negative package dimensions in a quote: 400;
//   - a prescription removed or added on an order past "submitted to
//     courier": 400.
//
// # Test controls
//
// Beyond the wire, tests drive the sandbox with: a ManualClock (or a
// ShiftClock, real time that can jump ahead); SetOrderStatus,
// SetRequestOrderStatus, EmitTracking, SetPharmacies and SetEmptyQuotes;
// InjectFault, matching calls by Operation (one name per endpoint, see
// Operations), interface, method or path; and Stats, whose Calls record
// each call's operation, path, query and body (never a header).
//
// # Time and goroutines
//
// Timestamps are ISO 8601 in several forms the documents allow (Z with
// milliseconds, -05:00 offsets, microseconds for status_note_updated_at).
// With a ManualClock, Advance applies due transitions and delivers their
// notifications before returning, and the sandbox starts no goroutine. With
// any other clock, one goroutine drives transitions from the first one
// scheduled until Close. Identifiers are deterministic (req_000001,
// ord_000002, ...).
package sandbox
