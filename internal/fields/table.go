package fields

import "strings"

// The decision of every field the platform's documents name is written in
// the documents, on the property (x-rxdelivery-privacy in api/), and
// generated into documented (documents_gen.go) by go generate
// ./internal/core. The notes below record why the documents decide as they
// do where the name does not say it:
//
//   - "identifier" is the program identifier the platform issued to the
//     caller (omni create), not a person's: ID.
//   - "refrigeration" is none, fridge or frozen (order create);
//     "qualifier" a code of the recipient identification's table (01-08);
//     "cancellation_reason" and "reason" a phrase of the documented list
//     of reasons: Enum.
//   - "courier_company" is a courier's name, not listed by the documents:
//     Carrier, shown only when Documented.
//   - "error" holds an object, or in a body of another shape a sentence:
//     Message; "type" and "code" are Enums only inside "error" (qualified
//     below).
//   - "name" is a recipient's, a pickup contact's (an individual's name
//     when the pickup location is a person) or a pharmacy's: Patient (a
//     request status's name is qualified below).
//   - "type" is a recipient identification's "human-readable description
//     of the identification type" (free text a courier typed): Patient.
//   - "state" is an address's; "jurisdiction_code" the issuing state of
//     the recipient's ID; "number" a prescription's or an ID's number.
//   - "gender" and "relationship" (patient to recipient: Spouse, Neighbor)
//     describe the patient; "government_plan_indicator" is the patient's
//     insurance.
//   - "cancelled_by" is "who cancelled the order": the documents list no
//     values, so it may be a person's name.
//   - "tracking_number" is a bearer key to the shipment's whereabouts on
//     the carrier's public site (its query is hidden the same way);
//     "reference_id" and "external_reference_number" are the caller's
//     references, often a medical record number.
//   - "delivery_eta" is free text; "description", "status_note",
//     "status_text", "failure_reason", "subscription_status_reason" are
//     free text or may hold a URL.
//   - URLs carry tokens: "signature_url", "tracking_url", "label_pdf",
//     "listener_url".

// table holds the decisions of the names the documents' schemas do not
// hold (query parameters, and the fields the sandbox simulator adds to its
// answer of a pharmacy's delivery information), and the names it holds
// stricter than a document, because the SDK or the simulator uses them
// elsewhere too (TestTableKeepsTheDocuments: never looser, never a repeat
// of the document's decision). A name neither table nor documented holds
// is Patient. qualified below loosens a name under one parent where the
// documents say what the values are there.
var table = map[string]Kind{
	// The get-many query parameter.
	"ids": ID,
	// Delivery information: its query (POD, a signature method; saturday,
	// holding saturday[delivery]) and the simulator's answer
	// (proof_of_delivery, service_levels, estimated_delivery_fee,
	// distance_from_pharmacy, deliverable).
	"POD": Enum, "proof_of_delivery": Enum, "service_levels": Enum,
	"estimated_delivery_fee": Money, "distance_from_pharmacy": Count, "deliverable": Flag,
	"saturday": Object,
	// The pharmacy search's origin, and the delivery information's package
	// input, which the documents do not describe.
	"origin_address": Patient, "package": Patient,
	// Stricter than the documents: "detail" is free text outside a request
	// status (qualified below), "code" has no meaning outside an error,
	// "value" is a weight's only under "weight" (qualified below).
	"detail": Patient, "code": Patient, "value": Patient,
}

// qualified holds the parent-qualified entries: "parent.field" is the kind
// of field inside the object under the JSON key parent, in place of the
// field's own entry.
var qualified = map[string]Kind{
	// A request's status: { name, detail }, both from the omni document's
	// lists (request_received, pharmacy_out_of_stock).
	"status.name": Enum, "status.detail": Enum,
	// An ETA's type is pickup or delivery (delivery document, ETA).
	"eta.type": Enum,
	// The error body's id is the request's identifier; its type
	// (unable_to_cancel) and code (not_found) are machine-readable words
	// (omni and tracking documents, Errors).
	"error.id": ID, "error.type": Enum, "error.code": Enum,
	// A shipping weight is { unit, value }: the value is a weight.
	"weight.value": Count,
	// Delivery information's saturday.delivery input.
	"saturday.delivery": Flag,
}

// enumWords are the words of every value the documents list for an Enum
// or Carrier field (and of the SDK's constants for them): order and
// request statuses, subscription statuses and tracking categories,
// carriers, carrier services, signatures, units, package codes, service
// levels, providers and services, initiator, refrigeration, coverage
// types, payment kinds, identification qualifiers, ETA types, sandbox
// scenarios, the cancellation reasons, and the error types and codes.
var enumWords = wordSet(
	// Order statuses (both documents), request status names and details.
	"new submitted to courier picked up delivered delivery attempted returned pharmacy cancelled",
	"request incomplete received patient out of stock",
	// Subscription statuses, tracking status categories (samples).
	"ENABLED DISABLED SUSPENDED Accepted Moving Through Network",
	// Carriers and carrier services.
	"POSTAL PARCELA PARCELB Ground 2nd Day Air Next 2 Standard Overnight Priority Home Delivery Mail Express First Class",
	// Signatures, units, package codes.
	"none required adult patient signature ounce pound inch",
	"postal small medium large flat rate box parcelb envelope onerate extra",
	// Service levels, pricing providers and services, initiator,
	// refrigeration, coverage types, payment kinds.
	"sameday ondemand shipping all ground service pharmacy fridge frozen primary secondary tertiary fee copay",
	// Identification qualifiers (01 Military ID ... 08 Tribal ID).
	"01 02 03 04 05 06 07 08",
	// ETA types and sandbox scenarios.
	"pickup delivery successful unsuccessful incomplete",
	// Cancellation reasons (delivery document, Cancellation).
	"Patient no longer wants came Medication not ready for No Coverage at this time Copay Unpaid Company Reassignment",
	"Closed Lunch too busy Unwilling Willing Participate give driver Driver wait Unknown Reason Address Inaccessible Incorrect",
	"Cold Chain Violation Contact Unavailable Job Expired Excessive Delay Initiated Cancellation Duplicate Already Completed",
	"Contents Damaged Not Ready Order Canceled Found Wait Time Exceeded Item As Described Other",
	// Error types and codes (omni and tracking documents, Errors; the
	// omni fixture's invalid_parameter).
	"unable cancel parameter invalid unauthorized forbidden not found method allowed acceptable limit exceeded internal error bad gateway unavailable",
)

func wordSet(lines ...string) map[string]bool {
	set := map[string]bool{}
	for _, l := range lines {
		for _, w := range strings.Fields(l) {
			set[strings.ToLower(w)] = true
		}
	}
	return set
}
