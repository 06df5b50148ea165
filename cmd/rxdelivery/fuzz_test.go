package main

import (
	"errors"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/requests"
)

// FuzzReadParams reads arbitrary files, as JSON and as YAML, into the
// params of an order and of a request: it never panics, and whatever walk
// lets through decodes (errUndecodable is never returned).
func FuzzReadParams(f *testing.F) {
	for _, seed := range []string{
		`{"delivery_fee": 5.00, "prescriptions": [{"fill_number": 0, "payers": []}]}`,
		"patient: {date_of_birth: 1980-02-29, gender: female}\nprescriptions:\n  - {ndc: 00002143380, fill_quantity: 1e2}\n",
		`{"ready_at": "2026-03-02T09:00:00Z", "service_date": "2026-03-02", "shipping": {"weight": {"value": "12"}}}`,
		"dropoff: {address: {place_id: 12}}\ntest_meta: {scenario: x, duration_between: 1.5}\n",
		"a: &a [1, 2]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: [*c, *c]\n", `[1, 2]`, `"text"`, "null", "- - -",
		`{"a": {"b": [{"c": 1, "c": 2}]}, "a": 3}`, "a: 1\nb: [{c: 1, c: 2}]\na: 2\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"p.json", "p.yaml"} {
			tree, dups, err := parseTree(name, data)
			if err != nil {
				continue
			}
			var o orders.CreateParams
			if err := checkInto(tree, &o, o.Validate, dups...); errors.Is(err, errUndecodable) {
				t.Fatalf("%s: walk passed what encoding/json refuses: %q", name, data)
			}
			var r requests.CreateParams
			if err := checkInto(tree, &r, r.Validate, dups...); errors.Is(err, errUndecodable) {
				t.Fatalf("%s: walk passed what encoding/json refuses: %q", name, data)
			}
		}
	})
}
