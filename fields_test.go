package rxdelivery_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/fields"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// modelPackages are the public packages whose types go on the wire.
var modelPackages = []string{"orders", "requests", "pharmacies", "tracking", "pricing", "rxtypes"}

// wireTypes are the exported struct types of modelPackages that are
// encoded or decoded as JSON or as a query: every field of each is held
// to the fields table. The params and results of the Client's service
// methods are walked without being listed (wireTypesWalked), but for
// those notWireTypes lists; a type listed here is walked whether a method
// reaches it or not.
var wireTypes = []any{
	orders.Order{}, orders.Shipping{}, orders.ShippingDelivery{}, orders.Cancellation{}, orders.ETA{},
	orders.CreateParams{}, orders.Pharmacy{}, orders.Recipient{}, orders.Patient{}, orders.Prescription{},
	orders.Prescriber{}, orders.Payer{}, orders.OtherItem{}, orders.ShippingParams{}, orders.Weight{},
	orders.Dimensions{},
	requests.Request{}, requests.Order{}, requests.Status{}, requests.CreateParams{}, requests.PharmacyParams{},
	requests.PickupParams{}, requests.DropoffParams{}, requests.Address{}, requests.DropoffAddress{},
	requests.PatientParams{}, requests.RemittanceParams{}, requests.Contact{}, requests.Payment{},
	requests.TestMeta{},
	pharmacies.Pharmacy{}, pharmacies.Address{}, pharmacies.SearchPage{}, pharmacies.SearchParams{},
	tracking.Subscription{}, tracking.Notification{}, tracking.TrackingEvent{}, tracking.SubscribeParams{},
	pricing.Quote{}, pricing.QuoteParams{}, pricing.Location{}, pricing.Address{}, pricing.PackageDimensions{},
	rxtypes.Address{}, rxtypes.Pickup{}, rxtypes.Return{}, rxtypes.Delivery{}, rxtypes.RecipientIdentification{},
}

// notWireTypes are the other exported struct types of modelPackages, each
// with why its fields are not JSON fields, and the JSON names it stands
// for when it has any (held to the table as well).
var notWireTypes = map[string][]string{
	// Services, the listener handler and error types: no JSON of theirs.
	"orders.Service": nil, "requests.Service": nil, "pharmacies.Service": nil, "tracking.Service": nil,
	"pricing.Service": nil, "tracking.Handler": nil, "tracking.NotificationError": nil,
	"rxtypes.APIError": nil, "rxtypes.TransportError": nil, "rxtypes.DecodeError": nil,
	"rxtypes.ConfigError": nil, "rxtypes.Problem": nil, "rxtypes.ValidationError": nil,
	"rxtypes.NotSentError": nil, "rxtypes.WatchError": nil, "rxtypes.PlatformError": nil, "rxtypes.PlatformDetail": nil,
	// Scalars with a JSON form of their own (a string or a number).
	"rxtypes.Date": nil, "rxtypes.Decimal": nil, "rxtypes.Time": nil, "requests.ETA": nil,
	// Kept whole as raw JSON; the fields it types are read from these keys.
	"pharmacies.DeliveryInfo": {"npi", "ncpdp", "name", "pharmacy"},
	// Sent as a query through an unexported wire form with these keys
	// (delivery[address][street]=..., POD, package, saturday[delivery]).
	"pharmacies.DeliveryInfoParams": {"delivery", "address", "street", "street2", "city", "state", "zipcode", "POD", "package", "saturday"},
}

// envelopeKeys are the JSON names of the unexported envelopes and the
// error bodies: { order }, { orders | objects }, { request },
// { requests }, { quotes }, { error: { id, type, code, message } }.
var envelopeKeys = []string{"order", "orders", "objects", "request", "requests", "quotes", "error", "id", "type", "code", "message"}

// kindFits reports whether a scalar Go type t can hold values of kind k
// (a field of a safe kind whose Go type says otherwise is a mistake in
// the table: a date of birth named a Time, a string enum named a Flag).
func kindFits(k fields.Kind, t reflect.Type) bool {
	switch t {
	case reflect.TypeOf(rxtypes.Time{}):
		return k == fields.Time || k == fields.Patient
	case reflect.TypeOf(rxtypes.Decimal{}):
		return k == fields.Money || k == fields.Count || k == fields.Patient
	case reflect.TypeOf(rxtypes.Date{}), reflect.TypeOf(requests.ETA{}):
		return k == fields.Patient
	}
	switch t.Kind() {
	case reflect.Bool:
		return k == fields.Flag || k == fields.Patient
	case reflect.String:
		return k == fields.ID || k == fields.Enum || k == fields.Carrier || k == fields.Patient
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return k == fields.Count || k == fields.Money || k == fields.Patient
	}
	return false
}

// scalarType reports whether t is encoded as one JSON scalar.
func scalarType(t reflect.Type) bool {
	switch t {
	case reflect.TypeOf(rxtypes.Time{}), reflect.TypeOf(rxtypes.Decimal{}), reflect.TypeOf(rxtypes.Date{}),
		reflect.TypeOf(requests.ETA{}):
		return true
	}
	return t.Kind() != reflect.Struct && t.Kind() != reflect.Slice && t.Kind() != reflect.Array &&
		t.Kind() != reflect.Map && t.Kind() != reflect.Pointer
}

// wireName returns a struct field's JSON (else query) name, or "" when it
// has neither or is skipped ("-").
func wireName(f reflect.StructField) string {
	for _, tag := range []string{"json", "url"} {
		if v, ok := f.Tag.Lookup(tag); ok {
			name, _, _ := strings.Cut(v, ",")
			if name == "-" {
				return ""
			}
			if name == "" {
				name = f.Name
			}
			return name
		}
	}
	return ""
}

// fieldDecision is one field of a wire type and the table's decision.
type fieldDecision struct {
	goType, goField, parent, name string
	t                             reflect.Type
}

// walkWireType calls fn for every JSON field of t and of the structs it
// holds (through pointers, slices, arrays and maps), each with the JSON
// name of the field its struct was reached through as its parent.
func walkWireType(t reflect.Type, fn func(fieldDecision)) {
	seen := map[string]bool{}
	var walk func(t reflect.Type, parent string)
	walk = func(t reflect.Type, parent string) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || scalarType(t) || seen[t.String()+"/"+parent] {
			return
		}
		seen[t.String()+"/"+parent] = true
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name := wireName(f)
			if name == "" {
				if f.Anonymous {
					walk(f.Type, parent)
				} else if _, tagged := f.Tag.Lookup("json"); !tagged {
					// An untagged field of a wire type would go on the
					// wire under its Go name: a decision is needed too.
					fn(fieldDecision{t.String(), f.Name, parent, f.Name, f.Type})
				}
				continue
			}
			fn(fieldDecision{t.String(), f.Name, parent, name, f.Type})
			walk(f.Type, name)
		}
	}
	walk(t, "")
}

// TestEveryModelFieldHasADecision walks by reflection every exported
// struct type of the model packages (models and params, and every struct
// they hold) and holds every JSON or query field name to an entry of the
// fields table: a field the table does not name fails with its Go type
// and field. A scalar field of a safe kind must have a Go type that can
// hold that kind's values. Every exported struct type of those packages
// (found in their source) is either walked or listed as no wire type with
// its reason, so a new model cannot escape the walk.
func TestEveryModelFieldHasADecision(t *testing.T) {
	t.Parallel()
	walked := map[string]bool{}
	count := 0
	for _, rt := range wireTypesWalked() {
		walked[rt.String()] = true
		walkWireType(rt, func(d fieldDecision) {
			count++
			if !fields.Known(d.name) {
				t.Errorf("%s.%s (JSON %q, Go type %s): no privacy decision for %q: give the document's property x-rxdelivery-privacy and run go generate ./internal/core (a name no document holds: internal/fields/table.go)",
					d.goType, d.goField, d.name, d.t, d.name)
				return
			}
			k := fields.OfIn(d.parent, d.name)
			if scalarType(d.t) && k != fields.Patient && !kindFits(k, d.t) {
				t.Errorf("%s.%s (JSON %q under %q, Go type %s): the table's kind %v cannot be this field's", d.goType, d.goField, d.name, d.parent, d.t, k)
			}
		})
	}
	for typ, keys := range notWireTypes {
		walked[typ] = true
		for _, k := range keys {
			if !fields.Known(k) {
				t.Errorf("%s: the fields table has no decision for %q", typ, k)
			}
		}
	}
	for _, k := range envelopeKeys {
		if !fields.Known(k) {
			t.Errorf("envelope or error body: the fields table has no decision for %q", k)
		}
	}
	for q := range fields.Qualified() {
		parent, name, _ := strings.Cut(q, ".")
		if !fields.Known(parent) || !fields.Known(name) {
			t.Errorf("qualified entry %q: its parent and its name must have entries of their own", q)
		}
	}
	// Every exported struct type declared in the packages' source.
	var missing []string
	for _, pkg := range modelPackages {
		for _, name := range exportedStructTypes(t, pkg) {
			if !walked[pkg+"."+name] {
				missing = append(missing, pkg+"."+name)
			}
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("%s: an exported struct type neither in wireTypes nor in notWireTypes (fields_test.go): say which", m)
	}
	if count < 150 {
		t.Errorf("walked %d fields: the walk lost its way", count)
	}
	t.Logf("%d fields of %d wire types held to the table", count, len(wireTypesWalked()))
}

// wireTypesWalked returns the types of wireTypes and every struct type of
// modelPackages a service method of the Client takes or returns (its
// params and its result, through pointers and slices): a new endpoint's
// params and model are walked from its method, with no line here.
func wireTypesWalked() []reflect.Type {
	var out []reflect.Type
	seen := map[reflect.Type]bool{}
	add := func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || scalarType(t) {
			return
		}
		pkg := strings.TrimPrefix(t.PkgPath(), "github.com/rxdelivery/rxdelivery-go/")
		if _, not := notWireTypes[t.String()]; not || !slices.Contains(modelPackages, pkg) {
			return
		}
		seen[t] = true
		out = append(out, t)
	}
	for _, v := range wireTypes {
		add(reflect.TypeOf(v))
	}
	client := reflect.TypeOf(rxdelivery.Client{})
	for i := 0; i < client.NumField(); i++ {
		f := client.Field(i)
		if !f.IsExported() || f.Type.Kind() != reflect.Pointer || !strings.HasSuffix(f.Type.Elem().Name(), "Service") {
			continue
		}
		for j := 0; j < f.Type.NumMethod(); j++ {
			m := f.Type.Method(j).Type
			for k := 1; k < m.NumIn(); k++ {
				add(m.In(k))
			}
			for k := 0; k < m.NumOut(); k++ {
				add(m.Out(k))
			}
		}
	}
	return out
}

// exportedStructTypes returns the exported struct types declared in the
// non-test files of the package in dir.
func exportedStructTypes(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no Go files (%v)", dir, err)
	}
	var names []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, spec := range g.Specs {
				ts := spec.(*ast.TypeSpec)
				if _, isStruct := ts.Type.(*ast.StructType); isStruct && ts.Name.IsExported() {
					names = append(names, ts.Name.Name)
				}
			}
		}
	}
	return names
}

// TestEnumConstantsAreShown holds the SDK's constants of every type used
// by a field of kind Enum or Carrier to fields.Documented: a value the
// SDK knows (a status, a carrier service, a cancellation reason) is shown
// in a transcript, not replaced.
func TestEnumConstantsAreShown(t *testing.T) {
	t.Parallel()
	enumTypes := map[string]bool{}
	for _, v := range wireTypes {
		walkWireType(reflect.TypeOf(v), func(d fieldDecision) {
			k := fields.OfIn(d.parent, d.name)
			if (k == fields.Enum || k == fields.Carrier) && d.t.Kind() == reflect.String && d.t.Name() != "string" {
				enumTypes[filepath.Base(d.t.PkgPath())+"."+d.t.Name()] = true
			}
			if d.t.Kind() == reflect.Slice && d.t.Elem().Kind() == reflect.String && (k == fields.Enum || k == fields.Carrier) {
				enumTypes[filepath.Base(d.t.Elem().PkgPath())+"."+d.t.Elem().Name()] = true
			}
		})
	}
	values := 0
	fset := token.NewFileSet()
	for _, pkg := range modelPackages {
		files, _ := filepath.Glob(filepath.Join(pkg, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range file.Decls {
				g, ok := decl.(*ast.GenDecl)
				if !ok || g.Tok != token.CONST {
					continue
				}
				for _, spec := range g.Specs {
					vs := spec.(*ast.ValueSpec)
					id, ok := vs.Type.(*ast.Ident)
					if !ok || !enumTypes[pkg+"."+id.Name] {
						continue
					}
					for i, v := range vs.Values {
						lit, ok := v.(*ast.BasicLit)
						if !ok || lit.Kind != token.STRING {
							continue
						}
						s, _ := strconv.Unquote(lit.Value)
						if s == "" {
							continue // the same-day service level is the field's absence
						}
						values++
						if !fields.Documented(s) {
							t.Errorf("%s.%s = %q (%s.%s): not fields.Documented, so a transcript hides it", pkg, vs.Names[i].Name, s, pkg, id.Name)
						}
					}
				}
			}
		}
	}
	for _, r := range orders.CancellationReasons() {
		if !fields.Documented(string(r)) {
			t.Errorf("cancellation reason %q is not fields.Documented", r)
		}
	}
	if values < 60 || len(enumTypes) < 10 {
		t.Errorf("%d constants of %d enum types: the walk lost its way (%v)", values, len(enumTypes), enumTypes)
	}
	t.Logf("%d constants of %d enum types", values, len(enumTypes))
}
