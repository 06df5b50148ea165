package fields

import "strings"

// table is the one decision per field name (request and response bodies,
// query parameters, error bodies, and the fields the sandbox simulator
// adds). A name used by several models takes the strictest kind any of
// them needs; qualified below loosens it under one parent where the
// documents say what the values are there. The documents' sections are
// named after each decision that is not plain from the name.
var table = map[string]Kind{
	// Identifiers the platform minted, and public codes. "identifier" is
	// the program identifier the platform issued to the caller (omni
	// create), not a person's; "ids" is the get-many query parameter.
	"id": ID, "identifier": ID, "ids": ID, "npi": ID, "ncpdp": ID,

	// Statuses, types and other words from the documents' lists.
	// "refrigeration" is none, fridge or frozen (order create);
	// "qualifier" a code of the recipient identification's table (01-08);
	// "cancellation_reason" and "reason" a phrase of the documented list of
	// reasons; "POD" and "proof_of_delivery" a signature method (delivery
	// information, and the simulator's answer to it).
	"status": Enum, "subscription_status": Enum, "service_level": Enum, "service_levels": Enum,
	"initiator": Enum, "kind": Enum, "cancellation_reason": Enum, "reason": Enum,
	"qualifier": Enum, "coverage_type": Enum, "scenario": Enum, "signature": Enum,
	"signature_requirement": Enum, "unit": Enum, "package_code": Enum, "provider": Enum,
	"providers": Enum, "service": Enum, "refrigeration": Enum, "POD": Enum,
	"proof_of_delivery": Enum,

	// Times of the platform's own events.
	"created_at": Time, "updated_at": Time, "occurred_at": Time, "arrival_at": Time,
	"ready_at": Time, "status_occurred_at": Time, "status_note_updated_at": Time,
	"subscribed_at": Time, "timestamp": Time,

	// Money.
	"cost": Money, "delivery_fee": Money, "rx_amount_due": Money, "other_items_amount_due": Money,
	"patient_pay": Money, "price_usd": Money, "fee": Money, "estimated_delivery_fee": Money,

	// Counts, sizes, weights and distances.
	"count": Count, "page": Count, "page_size": Count, "total_pages": Count, "quantity": Count,
	"days_supply": Count, "fill_quantity": Count, "fill_number": Count,
	"height": Count, "height_in": Count, "length": Count, "length_in": Count,
	"width": Count, "width_in": Count, "weight": Count, "weight_oz": Count,
	"distance_from_origin": Count, "distance_from_pharmacy": Count, "duration_between": Count,

	// Flags.
	"saturday_delivery": Flag, "photo_id_required": Flag, "preferred": Flag, "deliverable": Flag,

	// Carrier and service names. "courier_company" is a courier's name,
	// not listed by the documents: shown only when Documented.
	"carrier": Carrier, "carrier_service": Carrier, "courier_company": Carrier,

	// Objects and lists: their fields are judged one by one.
	"order": Object, "orders": Object, "objects": Object, "request": Object, "requests": Object,
	"pharmacy": Object, "pharmacies": Object, "pickup": Object, "delivery": Object, "return": Object,
	"shipping": Object, "cancellation": Object, "eta": Object, "dropoff": Object, "address": Object,
	"patient": Object, "recipient": Object, "recipient_identification": Object, "prescriptions": Object,
	"prescriber": Object, "payers": Object, "payments": Object, "package_dimensions": Object,
	"dimensions": Object, "other_items": Object, "quotes": Object, "tracking_events": Object,
	"remittance": Object, "test_meta": Object, "contact": Object, "saturday": Object,

	// Error bodies: { error: { id, type, code, message } }. "error" holds an
	// object, or in a body of another shape a sentence; "type" and "code"
	// are Enums only inside "error" (qualified below).
	"error": Message, "message": Message,

	// Patient data and free text, named so that the decision is written
	// down (any name not in the table is Patient as well).
	//   - "name" is a recipient's, a pickup contact's (an individual's name
	//     when the pickup location is a person) or a pharmacy's: Patient.
	//   - "type" is a recipient identification's "human-readable
	//     description of the identification type" (free text a courier
	//     typed); "code" has no meaning outside an error.
	//   - "state" is an address's; "jurisdiction_code" the issuing state of
	//     the recipient's ID; "number" a prescription's or an ID's number.
	//   - "gender" and "relationship" (patient to recipient: Spouse,
	//     Neighbor) describe the patient; "government_plan_indicator" is the
	//     patient's insurance.
	//   - "cancelled_by" is "who cancelled the order": the documents list no
	//     values, so it may be a person's name.
	//   - "tracking_number" is a bearer key to the shipment's whereabouts
	//     on the carrier's public site (its query is hidden the same way);
	//     "reference_id" and "external_reference_number" are the caller's
	//     references, often a medical record number.
	//   - "delivery_eta" is free text; "detail" (outside a request status),
	//     "description", "status_note", "status_text", "failure_reason",
	//     "subscription_status_reason" are free text or may hold a URL.
	//   - URLs carry tokens: "signature_url", "tracking_url", "label_pdf",
	//     "listener_url".
	//   - "value" is a weight's outside "weight" (qualified), "package" a
	//     delivery information input the documents do not describe.
	"external_reference_number": Patient, "reference_id": Patient, "tracking_number": Patient,
	"first_name": Patient, "last_name": Patient, "name": Patient, "name_of_pickup": Patient,
	"date_of_birth": Patient, "date_of_service": Patient, "service_date": Patient,
	"street": Patient, "street1": Patient, "street2": Patient, "city": Patient, "state": Patient,
	"zipcode": Patient, "place_id": Patient, "origin_address": Patient, "formatted_address": Patient,
	"phone_number": Patient, "home_phone_number": Patient, "mobile_phone_number": Patient,
	"fax_number": Patient, "email": Patient, "gender": Patient, "relationship": Patient,
	"other_relationship_description": Patient, "government_plan_indicator": Patient,
	"delivery_notes": Patient, "description": Patient, "detail": Patient, "status_note": Patient,
	"status_text": Patient, "failure_reason": Patient, "signed_by": Patient, "signature_url": Patient,
	"tracking_url": Patient, "label_pdf": Patient, "listener_url": Patient,
	"subscription_status_reason": Patient, "number": Patient, "type": Patient, "code": Patient,
	"jurisdiction_code": Patient, "ndc": Patient, "bin": Patient, "pcn": Patient, "rx_group": Patient,
	"sku": Patient, "upc": Patient, "value": Patient, "delivery_eta": Patient, "cancelled_by": Patient,
	"package": Patient,
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
