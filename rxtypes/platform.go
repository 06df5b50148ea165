package rxtypes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
)

// PlatformError is what the platform said in an error response, as it
// said it, decoded from the body by the shape of the interface that
// answered: omni's {error:{id,type,message}}, the delivery and pricing
// interfaces' {error:{message}}, tracking's {error:{code,message}}, and
// any field-level details the body carries.
//
// It is patient data. A platform echoes what it was sent: the message may
// hold the patient's name, street, date of birth or note, exactly as the
// person who entered the order typed them. It is meant for the person who
// is entitled to see them (the pharmacist at the counter, in the
// application that sent the order), never for logs: the SDK never logs
// it, never puts it in a span, a metric, a transcript or a cassette, and
// no rendering of an [APIError] shows it. To keep an accidental
// log.Printf("%v", pe) or slog attribute from writing it, PlatformError
// renders through every fmt verb, and as a slog value, as
// "[platform's words withheld]": read its fields, or [PlatformError.Text],
// where the person entitled to them will see them.
type PlatformError struct {
	// Message is the platform's message, whole.
	Message string
	// Type is omni's error type ("unable_to_cancel"); "" elsewhere.
	Type string
	// Code is tracking's error code ("not_found"); "" elsewhere.
	Code string
	// ID is omni's error id (for unable_to_cancel, the request id).
	ID string
	// Details are the field-level details the body carries, in its order;
	// none when it carries none (the documents show none).
	Details []PlatformDetail
}

// PlatformDetail is one field-level detail of an error body: the field it
// is about and what the platform said of it. Like [PlatformError], it is
// patient data.
type PlatformDetail struct {
	// Field is the field or JSON path the detail is about, as the platform
	// names it; "" when it names none.
	Field string
	// Message is what the platform said of it.
	Message string
	// Code is the detail's machine-readable code, if it has one.
	Code string
}

// withheld is how a PlatformError renders where a log may be written.
const withheld = "[platform's words withheld]"

// Text returns the platform's whole message with its details, one line,
// for the person entitled to read it: "Dropoff address 12 Elm St could not
// be geocoded (dropoff.address.street: no such street)". It is patient
// data: show it, never log it.
func (p PlatformError) Text() string {
	var b strings.Builder
	b.WriteString(p.Message)
	if len(p.Details) > 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('(')
		for i, d := range p.Details {
			if i > 0 {
				b.WriteString("; ")
			}
			if d.Field != "" {
				b.WriteString(d.Field)
				b.WriteString(": ")
			}
			b.WriteString(d.Message)
		}
		b.WriteByte(')')
	}
	return b.String()
}

// Format renders the same withheld text for every verb and flag: a
// PlatformError is read through its fields or [PlatformError.Text], never
// formatted into a log line by accident.
func (p PlatformError) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		fmt.Fprint(f, "rxtypes.PlatformError{"+withheld+"}")
		return
	}
	formatText(f, verb, withheld)
}

// LogValue renders the withheld text in a slog record.
func (p PlatformError) LogValue() slog.Value { return slog.StringValue(withheld) }

// Format renders the same withheld text for every verb and flag.
func (d PlatformDetail) Format(f fmt.State, verb rune) { formatText(f, verb, withheld) }

// LogValue renders the withheld text in a slog record.
func (d PlatformDetail) LogValue() slog.Value { return slog.StringValue(withheld) }

// Platform returns what the platform said in this error response, as it
// said it, decoded from Body by the shape of e.Interface: the entitled
// reader's view of the error, where [APIError.Error], Message, Type, Code
// and ID are the operator's safe one (see APIError). A body that is not
// JSON gives its text as the Message; an empty body gives the zero
// [PlatformError]. Body keeps the first 4 KiB of the response, so a longer
// message is read as far as that goes.
//
// It is patient data: show it to the person entitled to it (an Example
// shows how), never log it.
func (e *APIError) Platform() PlatformError {
	if e == nil {
		return PlatformError{}
	}
	return decodePlatform(e.Interface, e.Body)
}

// decodePlatform decodes an error body of the interface iface.
func decodePlatform(iface Interface, body []byte) PlatformError {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return PlatformError{}
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		// Not a JSON object (a proxy's page, a cut body): its text.
		return PlatformError{Message: string(body)}
	}
	var p PlatformError
	p.Message = text(top["message"])
	inner := bytes.TrimSpace(top["error"])
	switch {
	case len(inner) > 0 && inner[0] == '{':
		var d map[string]json.RawMessage
		if json.Unmarshal(inner, &d) == nil {
			if m := text(d["message"]); m != "" {
				p.Message = m
			}
			if iface != InterfaceDelivery && iface != InterfacePricing {
				p.ID, p.Type, p.Code = text(d["id"]), text(d["type"]), text(d["code"])
			}
			for _, k := range [...]string{"details", "errors", "fields"} {
				p.Details = append(p.Details, details(d[k])...)
			}
		}
	case len(inner) > 0 && inner[0] == '"':
		p.Message = text(inner)
	}
	for _, k := range [...]string{"details", "errors"} {
		p.Details = append(p.Details, details(top[k])...)
	}
	return p
}

// text returns a JSON string's text or a number's literal; "" otherwise.
func text(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if _, err := strconv.ParseFloat(string(raw), 64); err == nil {
		return string(raw)
	}
	return ""
}

// details decodes field-level details in the shapes APIs use: a list of
// objects naming a field and a message, a list of strings, or an object
// from field to message (or list of messages).
func details(raw json.RawMessage) []PlatformDetail {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	var out []PlatformDetail
	switch raw[0] {
	case '[':
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			return nil
		}
		for _, item := range list {
			var o map[string]json.RawMessage
			if json.Unmarshal(item, &o) == nil {
				d := PlatformDetail{
					Field:   first(o, "field", "path", "param", "parameter", "pointer", "name"),
					Message: first(o, "message", "msg", "detail", "description", "reason"),
					Code:    first(o, "code", "type"),
				}
				if d != (PlatformDetail{}) {
					out = append(out, d)
				}
			} else if s := text(item); s != "" {
				out = append(out, PlatformDetail{Message: s})
			}
		}
	case '{':
		var o map[string]json.RawMessage
		if json.Unmarshal(raw, &o) != nil {
			return nil
		}
		keys := make([]string, 0, len(o))
		for k := range o {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if s := text(o[k]); s != "" {
				out = append(out, PlatformDetail{Field: k, Message: s})
				continue
			}
			var msgs []string
			if json.Unmarshal(o[k], &msgs) == nil {
				for _, m := range msgs {
					out = append(out, PlatformDetail{Field: k, Message: m})
				}
			}
		}
	}
	return out
}

// first returns the text of the first of keys that o holds.
func first(o map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		if s := text(o[k]); s != "" {
			return s
		}
	}
	return ""
}
