package safetext

import (
	"strings"
	"unicode"
)

// The vocabulary: every word the filter lets through, besides field names
// and paths (from package fields), ids the call names in its path and
// small numbers. It is built from five sources, each a list below, and
// from nothing else; a word is in it because one of these sentences or
// lists holds it.

// documented holds the platform's messages as its three documents give
// them: the error tables (each status's meaning), the messages quoted, the
// tracking 401 messages, the pricing rules and its 502 message, the
// sandbox scenarios and the qualifier table.
var documented = []string{
	// Document 1 (omni requests, pharmacy lookup), Errors.
	"Bad request; the request is invalid.",
	"Unauthorized; the API key is wrong.",
	"Forbidden; request not authorized.",
	"Not found; the resource does not exist.",
	"Method not allowed; route not allowed.",
	"Not acceptable; unsupported format requested.",
	"Unprocessable; for example a parameter value outside the limits.",
	"Too many requests; request limit hit, retry shortly.",
	"Internal server error.",
	"Service unavailable (maintenance).",
	"When cancellation fails because orders are not cancellable: id is the request identifier, type is unable_to_cancel, and message states that orders are not in a cancellable status.",
	"Improper format or missing ZIP code yields an error.",
	"An invalid value yields an error.",
	"A wrong key yields 401; a request not permitted yields 403.",
	// Document 1, statuses, qualifiers and scenarios.
	"Military ID; State Issued ID; Unique System ID; Permanent Resident Card; Passport ID; Driver's License ID; Social Security Number; Tribal ID",
	// Document 2 (delivery orders), Errors and the conditions shown.
	"Carrier service level does not offer saturday delivery.",
	"Order is not in a cancellable status",
	"Bad request. Unauthorized; wrong API key. Forbidden. Not found. Method not allowed. Not acceptable format. Too many requests; retry shortly. Internal server error. Service unavailable (maintenance).",
	"For another service level the response is 400 (message: carrier service level does not offer Saturday delivery).",
	"Must be under 1 pound for POSTAL First Class Mail.",
	"Must be inch.",
	"must be pharmacy",
	// Document 2, cancellation reasons (the list can change).
	"Patient no longer wants; Patient came to pickup; Medication not ready for delivery; No Coverage at this time; Copay Unpaid; Courier Company Reassignment; Pharmacy Closed; Pharmacy Closed for Lunch; Pharmacy too busy; Pharmacy Unwilling to Participate; Pharmacy Willing to Participate; Out of Stock; Unwilling to give to driver; Driver unwilling to wait; Unknown Reason; Pickup Address Inaccessible; Pickup Address Incorrect; Cold Chain Violation; Pickup Contact Unavailable; Delivery Job Expired; Excessive Courier Delay; Courier Initiated Cancellation; Duplicate Job Cancellation; Delivery Already Completed; Delivery Contents Damaged; Delivery Contents Incorrect; Not Ready for Pickup; Order Canceled; Incomplete Order Contents; Order Not Found; Wait Time Exceeded at Pickup; Item Not As Described; Other.",
	// Document 2, carriers' services, signatures and packages.
	"PARCELA Ground, PARCELA 2nd Day Air, PARCELA Next Day Air, PARCELB 2 Day, PARCELB Standard Overnight, PARCELB Priority Overnight, PARCELB Ground, PARCELB Home Delivery, POSTAL Priority Mail, POSTAL Priority Mail Express, POSTAL First Class Mail.",
	// Document 3 (tracking, pricing), Authentication and Errors.
	"Authorization header is required; Authorization scheme must be Basic; Invalid authorization credentials; API key is invalid; API secret is invalid; API credentials are disabled.",
	"tracking_number missing; body is not valid JSON; tracking_number is not a string; Content-Type is not application/json.",
	"credentials not enabled for Tracking access. subscription not found. method not allowed on the route. Accept header is not application/json. too many requests; a Retry-After header is included when available. unexpected error. unable to subscribe via the upstream provider. temporarily unavailable.",
	"invalid request, including the validation rules above; key missing or invalid; key not enabled for Pricing; retry shortly; no reliable quote from the upstream provider; message says pricing could not be retrieved from the provider",
	"ZIP codes must normalize to valid 5-digit ZIP codes; Weight must be greater than zero; Length, width, height and weight are all required; Unsupported provider; Unsupported service level; package_code supplied (unsupported in v1); signature_requirement supplied (unsupported in v1)",
	"Notifications could not be delivered to the listener URL. the listener URL cannot be reached or is invalid. Active; notifications are sent to the listener URL. A previously enabled subscription has ended.",
	"Accepted; Moving Through Network",
}

// simulated holds the messages of the sandbox simulator
// (internal/sandbox), the SDK's reading of the platform, which tests
// assert; a test in this package checks that every message the simulator
// writes passes unchanged.
var simulated = []string{
	"Not found", "No such route", "Method not allowed on this route", "Accept must allow application/json",
	"API credentials are not enabled for this interface", "Bad gateway", "Service temporarily unavailable",
	"Listener URL could not be reached", "Listener URL is invalid", "invalid listener URL", "listener unreachable",
	"Order not found", "Orders are not in a cancellable status", "Pharmacy not found", "Request not found",
	"Subscription not found", "Prescription not found on this order",
	"Prescriptions can only be changed while the order is new or submitted to courier",
	"Pricing could not be retrieved from the provider", "Unable to subscribe via the upstream provider",
	"body could not be read or is too large", "body is required", "body must hold a single JSON value",
	"must be an object", "must be a string", "must be a boolean", "must be a number", "must be an integer",
	"must be an array", "encoding failed", "unknown field", "unknown query parameter", "ids[] is required",
	"is not a valid place identifier", "is not available for this carrier", "is not supported in this version",
	"is only accepted for same-day orders", "is only accepted for shipping orders",
	"is only accepted for the dropoff address", "is required (at least one)", "is required for shipping orders",
	"is required when ndc is not provided", "is required when package_code is not set",
	"is required when pharmacy.ncpdp is not a pharmacy the sandbox knows", "is required when remittance is present",
	"length_in, width_in, height_in and weight_oz are required", "listener_url must be an HTTPS URL",
	"mobile_phone_number or home_phone_number is required for shipping orders", "must be 5 or 9 digits",
	"must be a JSON integer", "must be a JSON number", "must be a street address including a 5-digit ZIP code",
	"must be absent (same-day) or one of ondemand, shipping", "must be an ISO 8601 date (YYYY-MM-DD)",
	"must be an ISO 8601 timestamp with offset", "must be at least 1", "must be at most 255 characters",
	"must be between 1 and 100", "must be exactly 10 digits", "must be greater than 0", "must be true or false",
	"must be either a full address or an object with only place_id", "must normalize to a valid 5-digit ZIP code",
	"must not be negative", "number: is already on the order", "origin_address or place_id is required",
	"reference_id must be a string", "unsupported provider (accepted: all, postal)", "Too many requests; retry shortly",
}

// enums holds the status and enum values of the documents, and the error
// types and codes the platform and the simulator use.
var enums = []string{
	// Statuses.
	"new", "submitted_to_courier", "submitted to courier", "picked_up", "delivered", "delivery_attempted",
	"returned_to_pharmacy", "cancelled", "request_incomplete", "request_received", "patient_picked_up",
	"pharmacy_out_of_stock", "ENABLED", "DISABLED", "SUSPENDED",
	// Enums of the params.
	"sameday", "ondemand", "shipping", "pharmacy", "male", "female", "unspecified", "delivery_fee", "copay",
	"none", "fridge", "frozen", "primary", "secondary", "tertiary", "POSTAL", "PARCELA", "PARCELB",
	"required", "adult_required", "patient_signature", "ounce", "pound", "inch", "pickup", "delivery",
	"postal_small_flat_rate_box", "postal_medium_flat_rate_box", "postal_large_flat_rate_box",
	"parcelb_envelope_onerate", "parcelb_small_box_onerate", "parcelb_medium_box_onerate",
	"parcelb_large_box_onerate", "parcelb_extra_large_box_onerate", "all", "postal", "ground_service",
	"successful_delivery", "unsuccessful_delivery", "incomplete_request",
	// Error types and codes.
	"unable_to_cancel", "invalid_request", "validation_error", "unauthorized", "forbidden", "not_found",
	"method_not_allowed", "not_acceptable", "rate_limit_exceeded", "rate_limit", "internal_error",
	"bad_gateway", "service_unavailable",
	// Query parameters (not fields of a model).
	"ids", "origin_address", "place_id", "page", "page_size", "tracking_number",
}

// function holds the English function words: the words a sentence needs
// whatever it says, which name nothing.
var function = []string{
	"a", "an", "the", "this", "that", "these", "those", "it", "its", "is", "are", "was", "were", "be", "been",
	"being", "am", "has", "have", "had", "do", "does", "did", "done", "not", "no", "nor", "or", "and", "but",
	"if", "then", "else", "than", "of", "in", "on", "at", "to", "from", "for", "by", "with", "without",
	"within", "into", "onto", "as", "per", "via", "about", "above", "below", "under", "over", "between",
	"before", "after", "while", "when", "where", "which", "who", "what", "whose", "why", "how", "only", "also",
	"any", "each", "every", "either", "neither", "both", "one", "two", "three", "some", "more", "most", "less",
	"least", "other", "another", "same", "such", "can", "cannot", "could", "may", "might", "must", "should",
	"shall", "will", "would", "please", "yet", "already", "still", "again", "once", "least", "there", "here",
	"out", "up", "down", "off", "so", "too", "very", "than", "all", "because", "due", "else", "otherwise",
	"until", "since", "through", "whether", "we", "you", "your", "our", "their", "they", "them", "i",
}

// common holds the common words of validation and server messages:
// words that describe a rule or a fault.
var common = []string{
	"required", "invalid", "valid", "missing", "format", "formatted", "characters", "character", "digits",
	"digit", "letters", "letter", "long", "short", "length", "too", "empty", "blank", "null", "value", "values",
	"field", "fields", "parameter", "parameters", "param", "params", "key", "keys", "expected", "unexpected",
	"allowed", "accepted", "supported", "unsupported", "unknown", "known", "exceeds", "exceeded", "exceed",
	"limit", "limits", "maximum", "minimum", "max", "min", "at", "exactly", "greater", "lower", "higher",
	"equal", "positive", "negative", "zero", "integer", "number", "numbers", "numeric", "decimal", "string",
	"boolean", "array", "object", "list", "date", "time", "timestamp", "timezone", "zone", "offset", "iso",
	"json", "yyyy", "mm", "dd", "true", "false", "must", "should", "need", "needs", "needed", "provided",
	"provide", "present", "absent", "given", "set", "unset", "duplicate", "duplicated", "already", "exists",
	"exist", "taken", "mismatch", "match", "matches", "does", "contain", "contains", "containing", "include",
	"includes", "including", "malformed", "parse", "parsed", "parsing", "decode", "encoded", "encoding",
	"error", "errors", "occurred", "happened", "platform", "pause", "pauses", "paused", "past", "longer",
	"longest", "handled", "handling", "failed", "fails", "failure", "fault", "problem", "problems", "reason", "range", "out",
	"outside", "inside", "bad", "wrong", "incorrect", "correct", "illegal", "permitted", "forbidden",
	"denied", "rejected", "refused", "unable", "able", "cannot", "could", "because", "expired", "disabled",
	"enabled", "suspended", "active", "inactive", "closed", "open", "pending", "processed", "processing",
	"completed", "complete", "incomplete", "ready", "busy", "available", "unavailable", "temporarily",
	"try", "again", "later", "retry", "retried", "shortly", "wait", "seconds", "second", "minutes", "minute",
	"hours", "hour", "days", "day", "phone", "zip", "code", "codes", "note", "notes", "first", "last",
	"birth", "email", "city", "state", "street", "name", "names", "description", "size", "area",
	"radius", "deliverable", "region", "distance", "outside",
}

// resources holds the words of the platform's resources and of HTTP.
var resources = []string{
	"request", "requests", "order", "orders", "prescription", "prescriptions", "pharmacy", "pharmacies",
	"patient", "recipient", "prescriber", "payer", "payers", "payment", "payments", "pickup", "dropoff",
	"delivery", "deliveries", "return", "shipping", "shipment", "carrier", "carriers", "courier", "service",
	"services", "level", "levels", "label", "package", "dimensions", "weight", "quote", "quotes", "price",
	"pricing", "provider", "providers", "tracking", "subscription", "subscriptions", "notification",
	"notifications", "listener", "url", "https", "http", "address", "addresses", "status", "statuses",
	"cancellation", "cancel", "cancelled", "canceled", "cancellable", "cancelable", "identifier",
	"identifiers", "id", "reference", "program", "scenario", "sandbox", "test", "api", "v1", "v2", "route",
	"template", "placeholder", "placeholders", "hidden",
	"path", "method", "header", "headers", "body", "content", "type", "accept", "query", "version",
	"credentials", "credential", "secret", "authorization", "authentication", "scheme", "basic", "bearer",
	"token", "interface", "server", "gateway", "upstream", "downstream", "timeout", "timed", "rate",
	"internal", "maintenance", "resource", "resources", "record", "records", "item", "items", "operation",
	"action", "update", "updated", "create", "created", "delete", "deleted", "get", "post", "put", "patch",
	"found", "added", "removed", "changed", "change", "modify", "modified", "new", "old", "current",
}

// machine holds the words of the faults a TransportError or a DecodeError
// names, in the SDK's own messages (a test holds every message literal of
// the SDK's packages to the filter) and in those of Go's net, net/http,
// crypto/tls and encoding/json: a broken server's status line is quoted
// inside them, so they pass through the filter too.
var machine = []string{
	"rxdelivery", "rxtypes", "jsonx", "jsontext", "tracking", "client", "side", "hook", "hooks", "next",
	"called", "send", "sent", "plain", "loopback", "never", "proxy", "resolves", "resolve", "write",
	"redirect", "redirects", "target", "refused", "follow", "host", "size", "response", "responses",
	"array", "objects", "asked", "repeats", "decoder", "panicked", "listener", "base", "absolute",
	"carry", "fragment", "attempt", "attempts", "reading", "pass", "context", "context's", "deadline",
	"exceeded", "canceled", "canceling", "cancelled", "connection", "connections", "reset", "peer", "eof",
	"broken", "pipe", "closed", "close", "network", "use", "dial", "tcp", "udp", "ip", "connect", "read",
	"lookup", "such", "i", "o", "io", "timeout", "awaiting", "headers", "handshake", "tls", "record",
	"look", "like", "certificate", "signed", "authority", "verify", "expired", "net", "transport",
	"malformed", "unsupported", "transfer", "idle", "server", "stream", "protocol_error", "graceful",
	"shutdown", "goaway", "received", "retry", "err", "define", "avoid", "getbody", "lastStreamID",
	"errcode", "no_error", "debug", "frame", "frames", "refused_stream", "cancel", "internal_error",
	"flow_control_error", "settings_timeout", "stream_closed", "frame_size_error", "compression_error",
	"connect_error", "enhance_your_calm", "inadequate_security", "http_1_1_required", "unexpected",
	"end", "input", "character", "characters", "looking", "beginning", "after", "top", "level", "literal",
	"unmarshal", "marshal", "go", "struct", "type", "types", "int", "int64", "int32", "uint", "float64",
	"bool", "map", "slice", "pointer", "interface", "escape", "escaped", "quoted", "quote", "within",
	"syntax", "duplicate", "name", "names", "invalid", "token", "begin", "object", "key", "value", "text",
	"user", "agent", "status", "line", "lines", "chunked", "encoding", "gzip", "length", "truncated",
	"body", "request", "too", "large", "limit", "decimal", "cents", "amount", "whole", "fit", "want",
	"fixed", "point", "form", "limited", "outcome", "configured", "mode", "document", "documents",
}

// vocab is the set of lower-case words the five lists hold.
var vocab = func() map[string]bool {
	m := map[string]bool{}
	for _, list := range [...][]string{documented, simulated, enums, function, common, resources, machine, extra} {
		for _, s := range list {
			for _, w := range words(s) {
				m[w] = true
			}
		}
	}
	return m
}()

// functionWords is the set of words of function: those of a patient's
// value (a delivery note's "with") are not matched as sent words, since
// they name nothing.
var functionWords = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range function {
		m[strings.ToLower(s)] = true
	}
	return m
}()

// enumWords is the set of the words of the platform's enums and of HTTP's
// methods: never a name where the platform writes one ("with POSTAL").
var enumWords = func() map[string]bool {
	m := map[string]bool{"get": true, "post": true, "put": true, "patch": true, "delete": true, "head": true}
	for _, s := range enums {
		for _, w := range words(s) {
			m[w] = true
		}
	}
	return m
}()

// httpMethods are HTTP's methods, which a platform writes in capitals.
var httpMethods = set("get", "post", "put", "patch", "delete", "head", "options")

// nouns is the set of the platform's and the SDK's own words: those of
// the platform's documented and simulated messages, its enums and its
// resources, and of the faults the SDK names ("reset by peer"). A capitalised one
// that is no first name stays ("picked up by the Courier", "Price could
// not be computed").
var nouns = func() map[string]bool {
	m := map[string]bool{}
	for _, list := range [...][]string{documented, simulated, enums, resources, machine} {
		for _, s := range list {
			for _, w := range words(s) {
				m[w] = true
			}
		}
	}
	for w := range functionWords {
		delete(m, w)
	}
	return m
}()

// words returns the lower-case words of s that hold a letter, other than
// single letters ("a" aside, an initial is a patient's): numbers in the
// sentences above are not words of the vocabulary (small numbers pass by
// their own rule), nor is the "s" of "Driver's" (a possessive passes with
// the word it follows).
func words(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !isWord(r) }) {
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 && (len(w) > 1 || w == "a" || w == "A") {
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}

// Word reports whether w (any case) is a word of the vocabulary.
func Word(w string) bool { return vocab[strings.ToLower(w)] }

// extra holds the words of the platform's domain and of the web that the
// dictionaries leave out: abbreviations and units, the platform's
// interfaces, formats and technical words, and the names of the states of
// the United States (a service area, not an address: a state names no
// one).
var extra = []string{
	"rx", "otc", "ndc", "npi", "ncpdp", "dea", "mrn", "sms", "otp", "pin", "eta", "utc", "gmt", "et", "est", "edt",
	"pt", "pst", "pdt", "ct", "cst", "cdt", "mt", "mst", "mdt", "kb", "mb", "gb", "lb", "lbs", "oz", "kg", "cm", "mm",
	"km", "ft", "sku", "ups", "usps", "po", "apo", "fpo", "dpo", "ii", "iii", "iv", "omni", "xml", "html", "csv",
	"pdf", "urlencoded", "webhook", "webhooks", "geocode", "geocoded", "geocoder", "geocoding", "lookup", "lookups",
	"failover", "reindex", "reindexing", "whitespace", "base64", "serializer", "serialization", "offline", "online",
	"admin", "lockbox", "luhn", "nppes", "ach", "eft", "hsa", "fsa", "pbm", "bin", "pcn", "cvv", "api", "sdk",
	"uuid", "oauth", "jwt", "hmac", "sha256", "ttl", "cdn", "dns", "smtp", "qr", "gps", "id", "ids",
	"alabama", "alaska", "arizona", "arkansas", "california", "colorado", "connecticut", "delaware", "florida",
	"georgia", "hawaii", "idaho", "illinois", "indiana", "iowa", "kansas", "kentucky", "louisiana", "maine",
	"maryland", "massachusetts", "michigan", "minnesota", "mississippi", "missouri", "montana", "nebraska",
	"nevada", "hampshire", "jersey", "mexico", "york", "carolina", "dakota", "ohio", "oklahoma", "oregon",
	"pennsylvania", "rhode", "tennessee", "texas", "utah", "vermont", "virginia", "washington", "wisconsin",
	"wyoming", "puerto", "rico", "guam", "alaskan", "hawaiian", "pacific", "atlantic", "continental",
	"al", "ak", "az", "ar", "ca", "co", "de", "fl", "ga", "hi", "ia", "il", "ks", "ky", "la", "ma", "md",
	"me", "mi", "mn", "mo", "ms", "nc", "nd", "ne", "nh", "nj", "nm", "nv", "ny", "oh", "ok", "or", "pa", "ri",
	"sc", "sd", "tn", "tx", "ut", "va", "vt", "wa", "wi", "wv", "wy", "dc", "pr", "undeliverable",
	"re", "pre", "non", "co", "un", "sub", "multi", "www",
	"sundays", "mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "weekdays",
}
