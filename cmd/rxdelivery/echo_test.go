package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// httptest: the command builds its own client from --delivery-url, so the platform it calls listens on a real loopback address.

// echoPlants are the patient values of echoOrder, each with the words and
// digit groups of it that must not appear in what the command prints. Of
// the delivery note only its name is: its other words ("leave by the blue
// gate") are words of the language, which the safe rendering keeps where
// the call did not send the note (a get) and removes where it did (a
// create), as SECURITY.md says.
var echoPlants = []struct{ value, words, digits, sentWords string }{
	{"Philomena Vandersloot", "phil vand", "", ""},
	{"4417 Quillfeather Lane", "quil lane", "4417", ""},
	{"Leave by the blue gate Marguerite", "marg", "", "leav blue gate"},
	{"1947-11-23", "", "1947", ""},
	{"6145557291", "", "614 555 7291", ""},
	{"EXTREF-77310", "extr", "77310", ""},
	{"Ignatius Wolfsbane", "igna wolf", "", ""},
}

// echoOrder is an order file that sends the plants.
const echoOrder = `{
  "delivery_fee": 5.00, "rx_amount_due": 10.00, "initiator": "pharmacy",
  "external_reference_number": "EXTREF-77310",
  "delivery_notes": "Leave by the blue gate Marguerite",
  "pharmacy": {"npi": "1234567890", "ncpdp": "5550001"},
  "recipient": {"description": "Philomena Vandersloot", "mobile_phone_number": "6145557291",
    "address": {"street": "4417 Quillfeather Lane", "city": "Marrowfield", "state": "OH", "zipcode": "43210"}},
  "patient": {"first_name": "Philomena", "last_name": "Vandersloot", "gender": "female", "date_of_birth": "1947-11-23"},
  "prescriptions": [{"number": "RX100001", "ndc": "00002143380", "refrigeration": "none", "days_supply": 30,
    "fill_quantity": 30, "fill_number": 0, "patient_pay": 10.00,
    "prescriber": {"first_name": "Ignatius", "last_name": "Wolfsbane", "npi": "1234567893",
      "address": {"street": "1 Main St", "city": "Columbus", "state": "OH", "zipcode": "43210"}},
    "payers": [{"bin": "610279", "pcn": "PCN1", "rx_group": "GRP1", "coverage_type": "primary", "government_plan_indicator": false}]}]
}`

// echoForms are ways a platform repeats a value in its error words.
var echoForms = []func(string) string{
	func(v string) string { return v },
	strings.ToUpper,
	func(v string) string { return "We could not match " + strings.ToLower(v) + " on file" },
	func(v string) string { return strings.Fields(v)[len(strings.Fields(v))-1] },
	func(v string) string {
		if len(v) > 7 {
			return v[:7] + "..."
		}
		return v
	},
	func(v string) string {
		var b strings.Builder
		for _, r := range v {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		return b.String()
	},
	func(v string) string {
		var b strings.Builder
		for _, r := range v {
			fmt.Fprintf(&b, "&#%d;", r)
		}
		return b.String()
	},
	func(v string) string { return strings.ReplaceAll(v, "-", "/") },
	func(string) string { return "(614) 555-7291, Nov 23, 1947, 11/23/1947" },
}

// notEcho are the parts of what the command prints that are not the
// platform's words: the machine's digits (host, date, length), the ids
// the command named, and the runbook's quote of the reference the operator
// sent (printed so that the operator can look for the order by it).
var notEcho = regexp.MustCompile(`127\.0\.0\.1:\d+|(?m)^< Date: .*$|Content-Length: \d+|5550001|1234567890|external reference number "EXTREF-77310"`)

// leaks returns what of the plants out holds; sent adds the words that a
// call that sent the plants removes as well.
func leaks(out string, sent ...bool) []string {
	out = strings.ToLower(notEcho.ReplaceAllString(out, ""))
	runs := regexp.MustCompile(`[0-9]+`).FindAllString(out, -1)
	var found []string
	for _, p := range echoPlants {
		words := p.words
		if len(sent) > 0 && sent[0] {
			words += " " + p.sentWords
		}
		for _, w := range strings.Fields(words) {
			if strings.Contains(out, w) {
				found = append(found, w)
			}
		}
		for _, d := range strings.Fields(p.digits) {
			for _, r := range runs {
				if strings.Contains(r, d) {
					found = append(found, d)
				}
			}
		}
	}
	return found
}

// TestCommandPrintsNoEchoedPatientValue: against a platform that repeats
// the patient values of a create in its error's message, type, code and
// id, in several forms, at 400, 422 and 500, neither an orders create
// nor an orders get prints one of them, in any form, on standard output,
// standard error or in the --dump transcript. The command's documented
// words stay.
func TestCommandPrintsNoEchoedPatientValue(t *testing.T) {
	var status, form atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f := echoForms[form.Load()]
		var msg []string
		for _, p := range echoPlants {
			msg = append(msg, "Invalid value "+f(p.value)+".")
		}
		b, _ := json.Marshal(map[string]any{"error": map[string]string{
			"id": f(echoPlants[5].value), "type": "invalid " + f(echoPlants[0].value), "code": f(echoPlants[4].value),
			"message": strings.Join(msg, " "),
		}})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(int(status.Load()))
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("RXDELIVERY_API_KEY", "KEY-echo-4b1d93c7")
	t.Setenv("RXDELIVERY_API_SECRET", "SECRET-echo-a07f52de")
	dir := t.TempDir()
	order := filepath.Join(dir, "order.json")
	require.NoError(t, os.WriteFile(order, []byte(echoOrder), 0o600))

	commands := [][]string{
		{"orders", "create", "-f", order},
		{"orders", "get", "ord_1"},
	}
	runs, found := 0, 0
	for _, args := range commands {
		for _, st := range []int{400, 422, 500} {
			status.Store(int64(st))
			for i := range echoForms {
				form.Store(int64(i))
				dump := filepath.Join(dir, fmt.Sprintf("dump-%d.txt", runs))
				var stdout, stderr bytes.Buffer
				full := append([]string{"--delivery-url", srv.URL, "--retry-max", "0", "--dump", dump}, args...)
				code := run(context.Background(), full, strings.NewReader(""), &stdout, &stderr)
				runs++
				assert.NotZero(t, code, "%v at %d", args, st)
				transcript, err := os.ReadFile(dump)
				require.NoError(t, err)
				require.Contains(t, string(transcript), "--- orders.")
				for name, out := range map[string]string{"stdout": stdout.String(), "stderr": stderr.String(), "--dump": string(transcript)} {
					if l := leaks(out, args[1] == "create"); len(l) > 0 {
						found += len(l)
						t.Errorf("%v at %d, form %d: %s holds %v:\n%s", args, st, i, name, l, out)
					}
				}
				assert.Contains(t, stderr.String(), "Invalid value", "the platform's words that echo nothing stay")
			}
		}
	}
	t.Logf("commands run: %d; patient values printed: %d", runs, found)
}

// TestShowPatientDataPrintsThePlatformsWords: with --show-patient-data an
// orders create that the platform refuses prints, after the safe line,
// what the platform said as it said it, under a line that says it is
// patient data; the --dump transcript still holds none of it, and without
// the flag nothing of it is printed.
func TestShowPatientDataPrintsThePlatformsWords(t *testing.T) {
	const said = "Dropoff address 4417 Quillfeather Lane could not be geocoded for Philomena Vandersloot"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		_, _ = fmt.Fprintf(w, `{"error":{"message":%q,"details":[{"field":"recipient.address.street","message":"no such street: 4417 Quillfeather Lane"}]}}`, said)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("RXDELIVERY_API_KEY", "KEY-echo-4b1d93c7")
	t.Setenv("RXDELIVERY_API_SECRET", "SECRET-echo-a07f52de")
	dir := t.TempDir()
	order := filepath.Join(dir, "order.json")
	require.NoError(t, os.WriteFile(order, []byte(echoOrder), 0o600))
	for _, show := range []bool{false, true} {
		dump := filepath.Join(dir, fmt.Sprintf("dump-%t.txt", show))
		args := []string{"--delivery-url", srv.URL, "--retry-max", "0", "--dump", dump}
		if show {
			args = append(args, "--show-patient-data")
		}
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append(args, "orders", "create", "-f", order), strings.NewReader(""), &stdout, &stderr)
		assert.NotZero(t, code)
		transcript, err := os.ReadFile(dump)
		require.NoError(t, err)
		assert.Empty(t, leaks(string(transcript)), "the transcript never holds the platform's words")
		assert.Contains(t, stderr.String(), "could not be geocoded", "the safe line keeps the platform's words")
		if !show {
			assert.Empty(t, leaks(stderr.String()+stdout.String()))
			assert.NotContains(t, stderr.String(), "PATIENT DATA")
			continue
		}
		assert.Contains(t, stderr.String(), "PATIENT DATA (--show-patient-data): the platform said:\n  message: "+said+"\n")
		assert.Contains(t, stderr.String(), "  recipient.address.street: no such street: 4417 Quillfeather Lane\n")
	}
}
