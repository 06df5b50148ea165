// Package endpointgen reads the SDK's endpoint table from the OpenAPI
// documents in api/ and writes it out: internal/core's descriptors
// (endpoints_gen.go), the simulator's operation names and routes
// (internal/sandbox/operations_gen.go), the test kit's operation constants
// (rxdeliverytest/operations_gen.go) and the operations table
// (docs/endpoints.md). The command internal/cmd/endpointgen, run by go
// generate in internal/core, writes what Generate returns; the endpoint
// walk test (rxdeliverytest's TestEndpointWalk) runs a test-only document
// through the same two functions.
package endpointgen

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// Document is one interface's OpenAPI document.
type Document struct {
	// File is the document's file name in its directory, such as "omni.yaml".
	File string
	// Interface is the interface it describes, as the simulator names it:
	// "omni", "delivery", "tracking" or "pricing".
	Interface string
}

// Documents are the platform interfaces' documents in api/, in table order.
var Documents = []Document{
	{"omni.yaml", "omni"},
	{"delivery.yaml", "delivery"},
	{"tracking.yaml", "tracking"},
	{"pricing.yaml", "pricing"},
}

// Operation is one operation read from a document.
type Operation struct {
	// ID is the operationId, such as "ordersGet"; capitalized it names the
	// generated Go identifiers.
	ID string
	// Name is x-rxdelivery-operation, such as "orders.Get".
	Name string
	// Interface is the document's interface, such as "delivery".
	Interface string
	// Method is the HTTP method in upper case.
	Method string
	// Route is the path template, with {name} placeholders.
	Route string
	// Write is x-rxdelivery-write.
	Write bool
	// Hidden is x-rxdelivery-hidden: the placeholders errors never show.
	Hidden []string
	// Query holds the required query parameters, each as a hint of its
	// form: "ids[]=" (form style) or "delivery[…]=" (deepObject).
	Query []string
}

// GoName is the operation's Go identifier, such as "OrdersGet".
func (o Operation) GoName() string { return strings.ToUpper(o.ID[:1]) + o.ID[1:] }

// Generate returns each generated file's contents by its path relative to
// the module's root.
func Generate(ops []Operation) (map[string][]byte, error) {
	core, err := coreTable(ops)
	if err != nil {
		return nil, err
	}
	sb, err := sandboxOps(ops)
	if err != nil {
		return nil, err
	}
	kit, err := kitOps(ops)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{
		"internal/core/endpoints_gen.go":     core,
		"internal/sandbox/operations_gen.go": sb,
		"rxdeliverytest/operations_gen.go":   kit,
		"docs/endpoints.md":                  docTable(ops),
	}, nil
}

var methods = map[string]string{"get": "MethodGet", "post": "MethodPost", "put": "MethodPut", "patch": "MethodPatch", "delete": "MethodDelete", "head": "MethodHead"}

// Read reads the operations of docs in dir, in the documents' order and
// each document's order of paths and methods.
func Read(dir string, docs []Document) ([]Operation, error) {
	var ops []Operation
	for _, d := range docs {
		b, err := os.ReadFile(filepath.Join(dir, d.File))
		if err != nil {
			return nil, err
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("%s: %w", d.File, err)
		}
		if len(doc.Content) == 0 {
			return nil, fmt.Errorf("%s: empty document", d.File)
		}
		paths := child(doc.Content[0], "paths")
		if paths == nil {
			return nil, fmt.Errorf("%s: no paths", d.File)
		}
		for i := 0; i+1 < len(paths.Content); i += 2 {
			route, item := paths.Content[i].Value, paths.Content[i+1]
			for j := 0; j+1 < len(item.Content); j += 2 {
				m := item.Content[j].Value
				if _, ok := methods[m]; !ok {
					continue
				}
				var fields struct {
					ID         string   `yaml:"operationId"`
					Name       string   `yaml:"x-rxdelivery-operation"`
					Write      bool     `yaml:"x-rxdelivery-write"`
					Hidden     []string `yaml:"x-rxdelivery-hidden"`
					Parameters []struct {
						Name     string `yaml:"name"`
						In       string `yaml:"in"`
						Required bool   `yaml:"required"`
						Style    string `yaml:"style"`
					} `yaml:"parameters"`
				}
				if err := item.Content[j+1].Decode(&fields); err != nil {
					return nil, fmt.Errorf("%s %s %s: %w", d.File, m, route, err)
				}
				if fields.ID == "" || fields.Name == "" {
					return nil, fmt.Errorf("%s %s %s: operationId and x-rxdelivery-operation are required", d.File, m, route)
				}
				o := Operation{ID: fields.ID, Name: fields.Name, Interface: d.Interface, Method: strings.ToUpper(m), Route: route, Write: fields.Write, Hidden: fields.Hidden}
				for _, p := range fields.Parameters {
					if p.In != "query" || !p.Required {
						continue
					}
					if p.Style == "deepObject" {
						o.Query = append(o.Query, p.Name+"[…]=")
					} else {
						o.Query = append(o.Query, p.Name+"=")
					}
				}
				ops = append(ops, o)
			}
		}
	}
	return ops, nil
}

func child(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// title is an interface's name capitalized, as rxtypes and the simulator
// name its constant (rxtypes.InterfaceOmni, sandbox.Omni).
func title(iface string) string { return strings.ToUpper(iface[:1]) + iface[1:] }

const header = "// Code generated by endpointgen from api/*.yaml; DO NOT EDIT.\n\n"

func coreTable(ops []Operation) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header + "package core\n\n")
	b.WriteString("import (\n\t\"net/http\"\n\n\t\"github.com/rxdelivery/rxdelivery-go/rxtypes\"\n)\n\n")
	b.WriteString("// The platform's endpoints, in the order of the documents in api/ (omni,\n// delivery, tracking, pricing) and of their paths.\nvar (\n")
	for _, o := range ops {
		fmt.Fprintf(&b, "\t%s = &Endpoint{Name: %q, Interface: rxtypes.Interface%s, Method: http.%s, Route: %q", o.GoName(), o.Name, title(o.Interface), methods[strings.ToLower(o.Method)], o.Route)
		if len(o.Hidden) > 0 {
			fmt.Fprintf(&b, ", Hidden: %#v", o.Hidden)
		}
		if o.Write {
			b.WriteString(", Write: true")
		}
		b.WriteString("}\n")
	}
	b.WriteString(")\n\n// Endpoints lists every endpoint in the order of the documents in api/.\nvar Endpoints = []*Endpoint{\n")
	for _, o := range ops {
		fmt.Fprintf(&b, "\t%s,\n", o.GoName())
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

func sandboxOps(ops []Operation) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header + "package sandbox\n\n")
	b.WriteString("// Operation names, one per endpoint, as the SDK's service methods are\n// named (Call.Operation, Fault.Operation).\nconst (\n")
	for _, o := range ops {
		fmt.Fprintf(&b, "\tOp%s = %q\n", o.GoName(), o.Name)
	}
	b.WriteString(")\n\n// Operations lists every operation name, in the order of the documents.\nvar Operations = []string{\n")
	for _, o := range ops {
		fmt.Fprintf(&b, "\tOp%s,\n", o.GoName())
	}
	b.WriteString("}\n\n// Routes lists every operation's route, in the order of the documents:\n")
	b.WriteString("// New serves each with the handler its operation has in handlers.go.\nvar Routes = []Route{\n")
	for _, o := range ops {
		fmt.Fprintf(&b, "\t{%s, %q, %q, Op%s},\n", title(o.Interface), o.Method, o.Route, o.GoName())
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

func kitOps(ops []Operation) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header + "package rxdeliverytest\n\n")
	b.WriteString("// The operations, one per endpoint. AnyOperation matches every call.\nconst (\n\tAnyOperation Operation = \"\"\n\n")
	for _, o := range ops {
		q := ""
		if len(o.Query) > 0 {
			q = "?" + strings.Join(o.Query, "&")
		}
		// The name itself, not the simulator's constant: go doc shows
		// users the value, and the package it would name is internal.
		fmt.Fprintf(&b, "\t%s Operation = %q // %s %s%s (%s)\n", o.GoName(), o.Name, o.Method, o.Route, q, o.Interface)
	}
	b.WriteString(")\n")
	return format.Source(b.Bytes())
}

func docTable(ops []Operation) []byte {
	var b bytes.Buffer
	b.WriteString("<!-- Code generated by endpointgen from api/*.yaml; DO NOT EDIT. -->\n\n# Endpoints\n\n")
	b.WriteString("Every operation of the platform the SDK calls, as the documents in [api/](../api) describe it. ")
	b.WriteString("The operation is the name hooks, spans, logs, the test kit and the simulator use.\n\n")
	b.WriteString("| Operation | Interface | Method | Route | Write |\n|---|---|---|---|---|\n")
	for _, o := range ops {
		w := ""
		if o.Write {
			w = "yes"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | `%s` | %s |\n", o.Name, o.Interface, o.Method, o.Route, w)
	}
	return b.Bytes()
}

// ControlDocument returns the control API's document (api/sandbox.yaml)
// with its Operation enum written from ops: "" (any operation) then every
// operation's name, in the table's order. The rest of the document is kept
// byte for byte; the enum is the list of `- name` lines under the
// Operation schema's `enum:` (four spaces of indent for the schema, six
// for its keys, eight for the items).
func ControlDocument(doc []byte, ops []Operation) ([]byte, error) {
	lines := strings.SplitAfter(string(doc), "\n")
	start, end := -1, -1
	inSchema := false
	for i, l := range lines {
		trimmed := strings.TrimRight(l, "\r\n")
		switch {
		case trimmed == "    Operation:":
			inSchema = true
		case inSchema && strings.HasPrefix(trimmed, "    ") && !strings.HasPrefix(trimmed, "     "):
			inSchema = false
		case inSchema && trimmed == "      enum:":
			start = i + 1
			end = start
			for end < len(lines) && strings.HasPrefix(lines[end], "        - ") {
				end++
			}
		}
		if start >= 0 {
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("sandbox.yaml: no Operation schema with an enum list")
	}
	var b strings.Builder
	b.WriteString("        - \"\"\n")
	for _, o := range ops {
		fmt.Fprintf(&b, "        - %s\n", o.Name)
	}
	out := strings.Join(lines[:start], "") + b.String() + strings.Join(lines[end:], "")
	return []byte(out), nil
}

// privacyKinds are the values of x-rxdelivery-privacy, each the name of a
// kind of internal/fields (patient: a patient's data or free text, hidden
// everywhere; the others are safe to show, but object and message, whose
// contents are judged one by one).
var privacyKinds = map[string]string{
	"patient": "Patient", "id": "ID", "enum": "Enum", "time": "Time", "money": "Money",
	"count": "Count", "flag": "Flag", "carrier": "Carrier", "object": "Object", "message": "Message",
}

// strictness orders the kinds: patient data first, then a message and an
// object (shown only in part), then the kinds safe to show, all equal.
var strictness = map[string]int{
	"Patient": 0, "Message": 1, "Object": 2,
	"ID": 3, "Enum": 3, "Time": 3, "Money": 3, "Count": 3, "Flag": 3, "Carrier": 3,
}

// Privacy reads the privacy decision of every field of the documents: each
// schema property carries x-rxdelivery-privacy, one of privacyKinds' keys.
// A property without it is an error that names it, so a new field cannot
// go undecided. A name several properties share takes the strictest of
// their decisions (patient, then message, then object, then the safe
// kinds); two different safe kinds for one name are an error, since the
// table cannot tell them apart by name.
// The properties of a schema's if, then, else and not restate fields
// declared beside them and are not read.
func Privacy(dir string, docs []Document) (map[string]string, error) {
	out := map[string]string{}
	for _, d := range docs {
		b, err := os.ReadFile(filepath.Join(dir, d.File))
		if err != nil {
			return nil, err
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("%s: %w", d.File, err)
		}
		if len(doc.Content) == 0 {
			return nil, fmt.Errorf("%s: empty document", d.File)
		}
		if err := privacyOf(d.File, doc.Content[0], "", out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func privacyOf(file string, n *yaml.Node, at string, out map[string]string) error {
	switch n.Kind {
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if err := privacyOf(file, c, fmt.Sprintf("%s/%d", at, i), out); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, val := n.Content[i].Value, n.Content[i+1]
			switch key {
			case "example", "examples", "if", "then", "else", "not":
				continue
			case "properties":
				if val.Kind != yaml.MappingNode {
					continue
				}
				for j := 0; j+1 < len(val.Content); j += 2 {
					name, prop := val.Content[j].Value, val.Content[j+1]
					decision := ""
					if p := child(prop, "x-rxdelivery-privacy"); p != nil {
						decision = p.Value
					}
					kind, ok := privacyKinds[decision]
					if !ok {
						return fmt.Errorf("%s: property %s (at %s): x-rxdelivery-privacy is %q; say whose data it is: patient (a person's data or free text, hidden everywhere), or a kind safe to show: id, enum, time, money, count, flag, carrier, object or message", file, name, at, decision)
					}
					prev, seen := out[name]
					switch {
					case !seen || strictness[kind] < strictness[prev]:
						out[name] = kind
					case strictness[kind] == strictness[prev] && kind != prev:
						return fmt.Errorf("%s: property %s (at %s) is %s, another is %s: one name, one safe kind (the fields table qualifies a name by its parent)", file, name, at, strings.ToLower(kind), strings.ToLower(prev))
					}
				}
			}
			if err := privacyOf(file, val, at+"/"+key, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// FieldsTable returns internal/fields' table of the documents' decisions
// (documents_gen.go) from Privacy's result.
func FieldsTable(kinds map[string]string) ([]byte, error) {
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.WriteString(header + "package fields\n\n")
	b.WriteString("// documented holds the privacy decision of every field of the platform's\n" +
		"// documents in api/, from each property's x-rxdelivery-privacy (a name\n" +
		"// several properties share takes the strictest). table holds the names\n" +
		"// the documents do not (the SDK's and the simulator's own), and may be\n" +
		"// stricter than a document, never looser (TestTableKeepsTheDocuments).\n")
	b.WriteString("var documented = map[string]Kind{\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\t%q: %s,\n", n, kinds[n])
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}
