package pharmacies

import (
	"bytes"
	"encoding/json"

	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// Pharmacy is a pharmacy as the lookup endpoints return it.
type Pharmacy struct {
	// NPI is the pharmacy's National Provider Identifier.
	NPI string `json:"npi"`
	// NCPDP is the pharmacy's NCPDP identifier (7 characters).
	NCPDP string `json:"ncpdp"`
	// Name is the pharmacy's name.
	Name string `json:"name"`
	// Preferred reports whether the pharmacy is a preferred partner.
	Preferred bool `json:"preferred"`
	// DistanceFromOrigin is the approximate distance to the search origin
	// in miles, rounded to 0.01. It is set in search results only;
	// [Service.Get] leaves it nil.
	DistanceFromOrigin *rxtypes.Decimal `json:"distance_from_origin,omitempty"`
	// PhoneNumber is returned for preferred pharmacies only; "" otherwise.
	PhoneNumber string `json:"phone_number"`
	// FaxNumber is returned for preferred pharmacies only; "" otherwise.
	FaxNumber string `json:"fax_number"`
	// Address is the pharmacy's address.
	Address Address `json:"address"`
}

// Address is a pharmacy's address as the omni interface returns it; its
// first line is street1.
type Address struct {
	// Street1 is the first line.
	Street1 string `json:"street1"`
	// Street2 is the second line, or "".
	Street2 string `json:"street2"`
	// City is the city.
	City string `json:"city"`
	// State is the two-letter state code.
	State string `json:"state"`
	// Zipcode is the ZIP code.
	Zipcode string `json:"zipcode"`
}

// SearchPage is one page of a pharmacy search.
type SearchPage struct {
	// Count is how many pharmacies are within the deliverable radius, over
	// every page.
	Count int `json:"count"`
	// Page is this page's number, from 1.
	Page int `json:"page"`
	// PageSize is the number of results per page.
	PageSize int `json:"page_size"`
	// TotalPages is how many pages there are.
	TotalPages int `json:"total_pages"`
	// FormattedAddress is the origin as the platform's geocoder read it.
	FormattedAddress string `json:"formatted_address"`
	// Pharmacies are this page's results in the platform's order:
	// preferred pharmacies first, then by increasing distance.
	Pharmacies []Pharmacy `json:"pharmacies"`
}

// DeliveryInfo is the response of DeliveryInfo. The delivery document does
// not show its schema, so the body is kept whole in Raw, and the fields
// below are filled only when the body carries them (at its top level or in
// a "pharmacy" object). Decode reads Raw into a type of the caller's.
type DeliveryInfo struct {
	// Raw is the response body exactly as received: a JSON value.
	Raw json.RawMessage
	// NPI is the pharmacy's NPI, when the body has an npi field.
	NPI string
	// NCPDP is the pharmacy's NCPDP identifier, when the body has an
	// ncpdp field.
	NCPDP string
	// Name is the pharmacy's name, when the body has a name field.
	Name string
}

// Decode unmarshals the raw body into v, for callers who know its shape.
func (d *DeliveryInfo) Decode(v any) error { return json.Unmarshal(d.Raw, v) }

// newDeliveryInfo keeps raw and picks the fields it can type. It never
// fails: a body of another shape leaves them empty.
func newDeliveryInfo(raw json.RawMessage) *DeliveryInfo {
	d := &DeliveryInfo{Raw: raw}
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return d
	}
	d.fill(top)
	if d.NPI == "" && d.NCPDP == "" && d.Name == "" {
		var inner map[string]json.RawMessage
		if json.Unmarshal(top["pharmacy"], &inner) == nil {
			d.fill(inner)
		}
	}
	return d
}

func (d *DeliveryInfo) fill(m map[string]json.RawMessage) {
	d.NPI = scalarText(m["npi"])
	d.NCPDP = scalarText(m["ncpdp"])
	d.Name = scalarText(m["name"])
}

// scalarText returns a JSON string's text or a number's literal; "" for
// anything else.
func scalarText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}
