package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
)

// TestDuplicateKeysRefused: a key given twice in one object of a params
// file, at any depth and in either format, is a problem under its path
// that names the lines of both; a key repeated in different objects is
// not.
func TestDuplicateKeysRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, file string
		want       []string // problems: "path: lines A and B"
	}{
		{"top.json", "{\n\"external_reference_number\": \"a\",\n\"external_reference_number\": \"b\"\n}",
			[]string{"external_reference_number: 2 and 3"}},
		{"top.yaml", "external_reference_number: a\nexternal_reference_number: b\n",
			[]string{"external_reference_number: 1 and 2"}},
		{"nested.json", "{\"recipient\": {\"address\": {\n\"city\": \"x\",\n\"city\": \"y\"}}}",
			[]string{"recipient.address.city: 2 and 3"}},
		{"nested.yaml", "recipient:\n  address:\n    city: x\n    street: s\n    city: y\n",
			[]string{"recipient.address.city: 3 and 5"}},
		{"list.json", "{\"prescriptions\": [{\"ndc\": \"1\"}, {\"payers\": [{},\n{\"bin\": \"1\",\n\"bin\": \"2\"}]}]}",
			[]string{"prescriptions[1].payers[1].bin: 2 and 3"}},
		{"list.yaml", "prescriptions:\n  - ndc: '1'\n  - payers:\n      - {}\n      - bin: '1'\n        bin: '2'\n",
			[]string{"prescriptions[1].payers[1].bin: 5 and 6"}},
		{"escaped.json", "{\"pharmacy\": {\"npi\": \"1\", \"\\u006epi\": \"2\"}}",
			[]string{"pharmacy.npi: 1 and 1"}},
		{"quoted.yaml", "pharmacy:\n  npi: '1'\n  \"npi\": '2'\n",
			[]string{"pharmacy.npi: 2 and 3"}},
		{"several.yaml", "notes: a\nnotes: b\nnotes: c\npatient: {gender: x, gender: y}\n",
			[]string{"notes: 1 and 2", "notes: 1 and 3", "patient.gender: 4 and 4"}},
		{"unknown.json", "{\"nope\": {\"a\": 1, \"a\": 2}}", []string{"nope.a: 1 and 1"}},
		{"apart.json", `{"pharmacy": {"npi": "1"}, "prescriptions": [{"npi": "x"}], "recipient": {"address": {"city": "c"}, "city": "d"}}`, nil},
		{"apart.yaml", "pharmacy: {npi: '1'}\nrecipient: {address: {city: c}}\npatient: {first_name: a}\nprescriptions: [{ndc: '1'}, {ndc: '2'}]\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tree, dups, err := parseTree(tc.name, []byte(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range dups {
				var a, b int
				if _, err := fmt.Sscanf(p.Message, msgDuplicateKey+" in one object (lines %d and %d)", &a, &b); err != nil {
					t.Fatalf("%s: message %q: %v", p.Path, p.Message, err)
				}
				got = append(got, fmt.Sprintf("%s: %d and %d", p.Path, a, b))
			}
			if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
				t.Errorf("problems %q, want %q", got, tc.want)
			}
			// Through checkInto, as a create reads it: one validation
			// error holding every duplicate, whatever else is wrong.
			var o orders.CreateParams
			err = checkInto(tree, &o, o.Validate, dups...)
			var ve *rxdelivery.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("checkInto = %v, want a validation error", err)
			}
			n := 0
			for _, p := range ve.Problems {
				if strings.HasPrefix(p.Message, msgDuplicateKey) {
					n++
				}
			}
			if n != len(tc.want) {
				t.Errorf("checkInto reported %d duplicates, want %d: %v", n, len(tc.want), err)
			}
		})
	}
}

// TestYAMLOneDocument: a YAML file of two documents is refused, naming the
// line of the second (its values would otherwise be left unread without a
// word); a file with one document, with or without its "---" and "...",
// is read.
func TestYAMLOneDocument(t *testing.T) {
	t.Parallel()
	_, _, err := parseTree("two.yaml", []byte("external_reference_number: a\n---\nexternal_reference_number: b\n"))
	var ie *inputError
	if !errors.As(err, &ie) || err.Error() != "two.yaml: line 2: a second YAML document: give one" {
		t.Errorf("two documents: %v", err)
	}
	_, _, err = parseTree("bad.yaml", []byte("a: 1\n---\na: [\n"))
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "not valid YAML") {
		t.Errorf("a broken second document: %v", err)
	}
	for _, one := range []string{"a: 1\n", "---\na: 1\n", "---\na: 1\n...\n", "# note\na: 1\n# end\n"} {
		if _, _, err := parseTree("one.yaml", []byte(one)); err != nil {
			t.Errorf("%q: %v", one, err)
		}
	}
	for _, empty := range []string{"# nothing\n", ""} {
		if _, _, err := parseTree("empty.yaml", []byte(empty)); err == nil || !strings.Contains(err.Error(), "is empty") {
			t.Errorf("%q: %v, want empty", empty, err)
		}
	}
}
