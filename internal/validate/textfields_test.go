package validate_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/pharmacies"
	"github.com/rxdelivery/rxdelivery-go/pricing"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// validator is every params type: Validate is what each service runs
// before sending.
type validator interface{ Validate() error }

// paramsType is one params type with the valid values its string fields
// are planted in. Every string field (enum types included) must be set in
// at least one base, so a field added later without a value here fails
// the test instead of going unchecked.
type paramsType struct {
	name  string
	bases []func() validator
	// names gives the wire path of a field without a json or url tag.
	names map[string]string
	// notes are the free-text fields whose tabs and line breaks are
	// allowed.
	notes map[string]bool
}

// planted are the characters the text rule refuses in every field: C0
// (NUL, ESC, a line break, a tab), DEL, C1 (NEL), a Unicode line
// separator, and bidirectional overrides and isolates. In a note, the
// tab, the line breaks and U+2028 are allowed.
var planted = []string{"\x00", "\x1b", "\n", "\r\n", "\t", "\x7f", "\u0085", "\u009b", "\u2028", "\u202a", "\u202e", "\u2066", "\u2069"}

func noteAllows(s string) bool {
	return s == "\n" || s == "\r\n" || s == "\t" || s == "\u2028"
}

func date(y int, m time.Month, d int) rxtypes.Date { return rxtypes.Date{Year: y, Month: m, Day: d} }

func dec(s string) rxtypes.Decimal { return rxtypes.MustDecimal(s) }

func ptr[T any](v T) *T { return &v }

func address() rxtypes.Address {
	return rxtypes.Address{Street: "42 Elm Avenue", Street2: "Apt 3", City: "Columbus", State: "OH", Zipcode: "43210"}
}

func prescription() orders.Prescription {
	return orders.Prescription{
		Number: "RX100001", NDC: "00002143380", Refrigeration: orders.RefrigerationNone,
		DaysSupply: 30, FillQuantity: dec("30"), FillNumber: ptr(0), PatientPay: ptr(dec("10.00")),
		Prescriber:    orders.Prescriber{FirstName: "Alan", LastName: "Grant", NPI: "1987654320", Address: address()},
		DateOfService: "2026-03-02",
		Payers: []orders.Payer{{BIN: "610014", PCN: "MEDDPRIME", RxGroup: "RX1234",
			CoverageType: orders.CoverageTypePrimary, GovernmentPlanIndicator: ptr(false)}},
	}
}

func order(shipping *orders.ShippingParams) *orders.CreateParams {
	return &orders.CreateParams{
		ServiceLevel: orders.ServiceLevelShipping, Initiator: orders.InitiatorPharmacy,
		DeliveryNotes: "Leave with the neighbour", ExternalReferenceNumber: "rx-2026-0001",
		Pharmacy: orders.Pharmacy{NPI: "1234567890", NCPDP: "5550001"},
		Recipient: orders.Recipient{Description: "Jane Doe", MobilePhoneNumber: "6145550100",
			HomePhoneNumber: "6145550101", Address: address()},
		Patient: orders.Patient{FirstName: "Jane", LastName: "Doe", Gender: rxtypes.GenderFemale,
			DateOfBirth: date(1980, time.February, 29), MobilePhoneNumber: "6145550100", HomePhoneNumber: "6145550101"},
		Shipping:      shipping,
		Prescriptions: []orders.Prescription{prescription()},
		OtherItems:    []orders.OtherItem{{UPC: "012345678905", SKU: "SKU-1", Quantity: 1, Description: "Bandages"}},
	}
}

func requestParams(dropoff requests.DropoffAddress) *requests.CreateParams {
	return &requests.CreateParams{
		Identifier: "prog_1", ExternalReferenceNumber: "rx-2026-0001", NDC: "00002143380", NameOfPickup: "Jane Doe",
		Pharmacy: requests.PharmacyParams{NCPDP: "5550001"},
		Pickup: &requests.PickupParams{Name: "Main Street Pharmacy", PhoneNumber: "6145550100",
			Address: requests.Address{Street1: "1 Main Street", Street2: "Suite 2", City: "Columbus", State: "OH", Zipcode: "43215"}},
		Dropoff: requests.DropoffParams{Name: "Jane Doe", PhoneNumber: "6145550101", Address: dropoff},
		Patient: requests.PatientParams{FirstName: "Jane", LastName: "Doe", Gender: rxtypes.GenderFemale, DateOfBirth: date(1980, time.February, 29)},
		Remittance: &requests.RemittanceParams{
			Contact:  &requests.Contact{MobilePhoneNumber: "6145550100", Email: "jane@example.com"},
			Payments: []requests.Payment{{Fee: dec("5.00"), Kind: requests.PaymentDeliveryFee}},
		},
		TestMeta: &requests.TestMeta{Scenario: requests.ScenarioSuccessfulDelivery, DurationBetween: 5},
	}
}

var paramsTypes = []paramsType{
	{name: "requests.CreateParams", bases: []func() validator{
		func() validator {
			return requestParams(requests.NewDropoffAddress(requests.Address{Street1: "42 Elm Avenue", Street2: "Apt 3", City: "Columbus", State: "OH", Zipcode: "43210"}))
		},
		func() validator { return requestParams(requests.NewDropoffPlace("ChIJ2eUgeAK6j4ARbn5u_wAGqWA")) },
	}},
	{name: "orders.CreateParams", notes: map[string]bool{"delivery_notes": true}, bases: []func() validator{
		func() validator {
			return order(&orders.ShippingParams{Carrier: orders.CarrierParcelA, CarrierService: orders.CarrierServiceParcelAGround,
				Signature: orders.SignatureNone, Weight: orders.Weight{Unit: orders.WeightUnitPound, Value: dec("2")},
				Dimensions: &orders.Dimensions{Unit: orders.DimensionUnitInch, Length: dec("10"), Width: dec("8"), Height: dec("4")}})
		},
		func() validator {
			return order(&orders.ShippingParams{Carrier: orders.CarrierPostal, CarrierService: orders.CarrierServicePostalPriorityMail,
				Signature: orders.SignatureNone, Weight: orders.Weight{Unit: orders.WeightUnitPound, Value: dec("2")},
				PackageCode: orders.PackagePostalSmallFlatRateBox})
		},
	}},
	{name: "orders.Prescription", bases: []func() validator{func() validator { p := prescription(); return &p }}},
	{name: "pharmacies.SearchParams", bases: []func() validator{func() validator {
		return &pharmacies.SearchParams{OriginAddress: "42 Elm Avenue, Columbus, OH 43210", PlaceID: "ChIJ2eUgeAK6j4ARbn5u_wAGqWA", Page: 1, PageSize: 30}
	}}},
	{name: "pharmacies.DeliveryInfoParams", names: map[string]string{"Address": "delivery.address", "POD": "POD", "Package": "package"},
		bases: []func() validator{func() validator {
			return &pharmacies.DeliveryInfoParams{Address: address(), POD: "signature", Package: "parcela_small_box"}
		}}},
	{name: "tracking.SubscribeParams", bases: []func() validator{func() validator {
		return &tracking.SubscribeParams{TrackingNumber: "9400111899223344551111", ListenerURL: "https://pharmacy.example.com/hooks/tracking", ReferenceID: "ord_01HXYZ"}
	}}},
	{name: "pricing.QuoteParams", bases: []func() validator{func() validator {
		return &pricing.QuoteParams{
			Pickup:    pricing.Location{Address: pricing.Address{ZIPCode: "43215"}},
			Dropoff:   pricing.Location{Address: pricing.Address{ZIPCode: "43210-1234"}},
			Providers: []pricing.Provider{pricing.ProviderAll}, ServiceLevel: pricing.ServiceKeyGround,
			PackageDimensions: pricing.PackageDimensions{LengthIn: dec("10"), WidthIn: dec("8"), HeightIn: dec("4"), WeightOz: dec("12")},
		}
	}}},
}

// textField is one string field of a params value: its wire path, whether
// its type is plain string (free text) rather than an enum type, and the
// value to change.
type textField struct {
	path  string
	plain bool
	v     reflect.Value
}

// textFields walks v (a struct, through pointers and slices) and returns
// every exported string field, with the path the JSON or query encoding
// gives it.
func textFields(t *testing.T, v reflect.Value, path string, names map[string]string, out *[]textField) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			textFields(t, v.Elem(), path, names, out)
		}
	case reflect.Slice:
		for i := range v.Len() {
			textFields(t, v.Index(i), path+"["+strconv.Itoa(i)+"]", names, out)
		}
	case reflect.String:
		*out = append(*out, textField{path: path, plain: v.Type() == reflect.TypeFor[string](), v: v})
	case reflect.Struct:
		ty := v.Type()
		for i := range ty.NumField() {
			f := ty.Field(i)
			if !f.IsExported() {
				continue
			}
			name := names[f.Name]
			for _, key := range []string{"json", "url"} {
				if tag, ok := f.Tag.Lookup(key); ok && name == "" {
					name, _, _ = strings.Cut(tag, ",")
				}
			}
			if name == "-" {
				continue
			}
			if name == "" {
				if hasText(f.Type) {
					t.Fatalf("%s: field %s has no json or url tag: name its wire path in the test's names", ty, f.Name)
				}
				continue
			}
			p := name
			if path != "" {
				p = path + "." + name
			}
			textFields(t, v.Field(i), p, names, out)
		}
	}
}

// hasText reports whether a value of type ty can hold an exported string.
func hasText(ty reflect.Type) bool {
	switch ty.Kind() {
	case reflect.String:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return hasText(ty.Elem())
	case reflect.Struct:
		for i := range ty.NumField() {
			if f := ty.Field(i); f.IsExported() && hasText(f.Type) {
				return true
			}
		}
	}
	return false
}

// TestEveryTextFieldRefusesControlCharacters plants each refused character
// in the middle of every string field of every params type, one at a time,
// and requires Validate to refuse the value with a problem at the field's
// path: the text rule's message for a free-text field, any message for an
// enum (its rule refuses anything but its values). Notes accept their
// tabs and line breaks and refuse the rest.
func TestEveryTextFieldRefusesControlCharacters(t *testing.T) {
	t.Parallel()
	for _, pt := range paramsTypes {
		t.Run(pt.name, func(t *testing.T) {
			t.Parallel()
			covered := map[string]bool{}
			all := map[string]bool{}
			for b, base := range pt.bases {
				if err := base().Validate(); err != nil {
					t.Fatalf("base %d is not valid: %v", b, err)
				}
				var fields []textField
				textFields(t, reflect.ValueOf(base()), "", pt.names, &fields)
				for i, f := range fields {
					all[f.path] = true
					if f.v.Len() == 0 {
						continue
					}
					covered[f.path] = true
					for _, ctl := range planted {
						p := base()
						var fs []textField
						textFields(t, reflect.ValueOf(p), "", pt.names, &fs)
						v := fs[i].v.String()
						fs[i].v.SetString(v[:len(v)/2] + ctl + v[len(v)/2:])
						err := p.Validate()
						if pt.notes[f.path] && noteAllows(ctl) {
							if err != nil {
								t.Errorf("%s with %q: refused (%v); a note may hold it", f.path, ctl, err)
							}
							continue
						}
						var ve *rxtypes.ValidationError
						if !errors.As(err, &ve) {
							t.Errorf("%s with %q: accepted (err %v)", f.path, ctl, err)
							continue
						}
						found := false
						for _, pr := range ve.Problems {
							found = found || (pr.Path == f.path && (!f.plain || strings.Contains(pr.Message, "control characters")))
						}
						if !found {
							t.Errorf("%s with %q: refused at %v, not at the field by the text rule", f.path, ctl, ve.Problems)
						}
					}
				}
			}
			var missed []string
			for p := range all {
				if !covered[p] {
					missed = append(missed, p)
				}
			}
			sort.Strings(missed)
			if len(missed) > 0 {
				t.Errorf("string fields empty in every base, so never checked: %s; set them in a base", strings.Join(missed, ", "))
			}
		})
	}
}

// TestEveryParamsTypeIsWalked finds every type of the module's public
// packages with a Validate method and requires it in paramsTypes, so that
// a new params type cannot skip the text rule's test.
func TestEveryParamsTypeIsWalked(t *testing.T) {
	t.Parallel()
	listed := map[string]bool{}
	for _, pt := range paramsTypes {
		listed[pt.name] = true
	}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "internal", "cmd", "journal", "otel", "examples", "testdata", ".git", ".ci":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "Validate" || len(fn.Recv.List) != 1 {
				continue
			}
			recv := fn.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			if id, ok := recv.(*ast.Ident); ok {
				name := f.Name.Name + "." + id.Name
				if !listed[name] {
					t.Errorf("%s has a Validate method but no entry in paramsTypes: add one with a base that sets every string field", name)
				}
				delete(listed, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range listed {
		t.Errorf("paramsTypes lists %s, which has no Validate method in the module's public packages", name)
	}
}
