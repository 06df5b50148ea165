package fields

// table is the one decision per field name. A name used by several models
// takes the strictest kind any of them needs: "name" is a patient's in a
// recipient, so it is Patient everywhere.
var table = map[string]Kind{
	// Identifiers the platform minted, and public codes.
	"id": ID, "identifier": ID, "npi": ID, "ncpdp": ID, "place_id": Patient,
	"tracking_number": ID,

	// Statuses, types and other documented words.
	"status": Enum, "subscription_status": Enum, "service_level": Enum, "service_levels": Object,
	"initiator": Enum, "type": Enum, "kind": Enum, "gender": Enum, "relationship": Enum,
	"cancellation_reason": Enum, "reason": Enum, "cancelled_by": Enum, "qualifier": Enum,
	"coverage_type": Enum, "government_plan_indicator": Enum, "scenario": Enum,
	"signature": Enum, "unit": Enum, "package_code": Enum, "provider": Enum, "service": Enum,
	"deliverable": Flag, "state": Patient,

	// Times of the platform's own events.
	"created_at": Time, "updated_at": Time, "occurred_at": Time, "arrival_at": Time,
	"ready_at": Time, "status_occurred_at": Time, "status_note_updated_at": Time,
	"subscribed_at": Time, "timestamp": Time,

	// Money.
	"cost": Money, "delivery_fee": Money, "rx_amount_due": Money, "other_items_amount_due": Money,
	"patient_pay": Money, "price_usd": Money, "fee": Money,

	// Counts, sizes and weights.
	"count": Count, "page": Count, "page_size": Count, "total_pages": Count, "quantity": Count,
	"days_supply": Count, "fill_quantity": Count, "fill_number": Count,
	"height": Count, "height_in": Count, "length": Count, "length_in": Count,
	"width": Count, "width_in": Count, "weight": Count, "weight_oz": Count,
	"distance_from_origin": Count, "duration_between": Count,

	// Flags.
	"refrigeration": Flag, "saturday_delivery": Flag, "photo_id_required": Flag, "preferred": Flag,

	// Carrier and service names.
	"carrier": Carrier, "carrier_service": Carrier, "courier_company": Carrier,

	// Objects and lists: their fields are judged one by one.
	"order": Object, "orders": Object, "objects": Object, "request": Object, "requests": Object,
	"pharmacy": Object, "pharmacies": Object, "pickup": Object, "delivery": Object, "return": Object,
	"shipping": Object, "cancellation": Object, "eta": Object, "dropoff": Object, "address": Object,
	"patient": Object, "recipient": Object, "recipient_identification": Object, "prescriptions": Object,
	"prescriber": Object, "payers": Object, "payments": Object, "package_dimensions": Object,
	"dimensions": Object, "other_items": Object, "quotes": Object, "providers": Object,
	"tracking_events": Object, "remittance": Object, "test_meta": Object, "contact": Object,

	// Patient data and free text, named so that the decision is written
	// down (any name not in the table is Patient as well).
	"external_reference_number": Patient, "reference_id": Patient,
	"first_name": Patient, "last_name": Patient, "name": Patient, "name_of_pickup": Patient,
	"date_of_birth": Patient, "date_of_service": Patient, "service_date": Patient,
	"street": Patient, "street1": Patient, "street2": Patient, "city": Patient, "zipcode": Patient,
	"formatted_address": Patient, "phone_number": Patient, "home_phone_number": Patient,
	"mobile_phone_number": Patient, "fax_number": Patient, "email": Patient,
	"delivery_notes": Patient, "description": Patient, "detail": Patient, "status_note": Patient,
	"status_text": Patient, "failure_reason": Patient, "signed_by": Patient, "signature_url": Patient,
	"tracking_url": Patient, "label_pdf": Patient, "listener_url": Patient,
	"subscription_status_reason": Patient, "number": Patient, "ndc": Patient, "bin": Patient,
	"pcn": Patient, "rx_group": Patient, "sku": Patient, "upc": Patient, "value": Patient,
	"jurisdiction_code": Patient, "other_relationship_description": Patient, "delivery_eta": Patient,
	"a": Patient, "b": Patient, "c": Patient, "d": Patient,
}
