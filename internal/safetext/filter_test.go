package safetext

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// call is the filter of a create that sent a patient's values, with its
// path naming no id.
func call() *Filter {
	return New(Sent{
		IDs:     []string{"ord_1"},
		Patient: []string{"Jane", "Price", "12 Street Road", "1937-11-23", "6145557319", "Leave with neighbour Marguerite"},
		Secret:  []string{"key-1234", "RX/991"},
	})
}

// TestDocumentedMessagesPass: every sentence of the vocabulary, and the
// messages the issue names, read the same through the filter, with and
// without a call's values.
func TestDocumentedMessagesPass(t *testing.T) {
	t.Parallel()
	for _, list := range [][]string{documented, simulated} {
		for _, m := range list {
			assert.Equal(t, m, (*Filter)(nil).Text(m))
		}
	}
	for _, m := range []string{
		"Order is not in a cancellable status",
		"Carrier service level does not offer saturday delivery.",
		"Invalid pharmacy",
		"API key is invalid",
		"Pricing could not be retrieved from the provider",
		"dropoff.address.zipcode: must be 5 or 9 digits",
		"prescriptions[0].payers[1].bin: is required",
		"patient.date_of_birth: must be an ISO 8601 date (YYYY-MM-DD)",
		"remittance.payments[0].kind: must be one of delivery_fee, copay",
		"external_reference_number: must be at most 255 characters",
		"test_meta.duration_between: must be between 1 and 900",
		"Order ord_1 is not in a cancellable status",
		`unknown query parameter "ids"`,
	} {
		assert.Equal(t, m, call().Text(m))
	}
}

// TestSimulatorMessagesPass: every string literal of the simulator's
// messages (the arguments of its fail, failID, add and enum calls, and the
// strings it returns as messages) passes unchanged.
func TestSimulatorMessagesPass(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "sandbox", "*.go"))
	require.NoError(t, err)
	fset := token.NewFileSet()
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(node ast.Node) bool {
			var args []ast.Expr
			switch node := node.(type) {
			case *ast.CallExpr:
				sel, ok := node.Fun.(*ast.SelectorExpr)
				if !ok || !map[string]bool{"fail": true, "failID": true, "add": true, "addRaw": true, "enum": true}[sel.Sel.Name] {
					return true
				}
				args = node.Args
			case *ast.ReturnStmt:
				args = node.Results
			default:
				return true
			}
			for _, a := range args {
				lit, ok := a.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil || !strings.Contains(s, " ") || strings.ContainsAny(s, "%") {
					continue
				}
				n++
				assert.Equal(t, s, (*Filter)(nil).Text(s), "%s: %q", fset.Position(lit.Pos()), s)
			}
			return true
		})
	}
	assert.Greater(t, n, 40, "the simulator's messages were found")
}

// TestEchoesAreRedacted: a patient's values in the forms a platform
// echoes them lose every word and digit group; the words around them
// stay.
func TestEchoesAreRedacted(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"Invalid name JANE DOE birth 1980-02-29":           "Invalid name [redacted] birth [redacted]",
		"Invalid patient Philomena Vandersloot":            "Invalid patient [redacted]",
		"Leave with neighbour Marguerit...":                "[redacted]...",
		"Leave with neighbour Marguerite is too long":      "[redacted] is too long",
		"note: the neighbour, with a key":                  "note: the [redacted] a key",
		"birth 11/23/1937":                                 "birth [redacted]",
		"birth 23.11.1937":                                 "birth [redacted]",
		"birth Nov 23, 1937":                               "birth [redacted]",
		"birth 23 November 1937":                           "birth [redacted]",
		"phone (614) 555-7319 invalid":                     "phone ([redacted] invalid",
		"phone 614 555 7319":                               "phone [redacted]",
		"phone +1-614-555-7319":                            "phone +[redacted]",
		"phone 555 is invalid":                             "phone [redacted] is invalid",
		"last name Price is invalid":                       "last name [redacted] is invalid",
		"street Street Road":                               "[redacted]",
		"Vandersl&#111;ot &amp; Philom\\u0065na":           "[redacted]",
		"Phil%6Fmena":                                      "[redacted]",
		"J. Vandersloot":                                   "[redacted]",
		"Vandersloot, Philomena":                           "[redacted]",
		"bad key key-1234 for RX/991 and RX%2F991":         "bad key [redacted] for [redacted] and [redacted]",
		"err_000123 ord_2 ord_1":                           "[redacted] ord_1",
		"4417 Quillfeather Lane, Apt 9Q":                   "[redacted]",
		"the zip 43210":                                    "the zip [redacted]",
		"\x1b[2J cleared":                                  " [[redacted] cleared",
		"Order is not in a cancellable status: 1937-11-23": "Order is not in a cancellable status: [redacted]",
	}
	for in, want := range cases {
		assert.Equal(t, want, call().Text(in), in)
	}
	assert.Equal(t, "Invalid pharmacy", call().Text("Invalid pharmacy"), "an enum value sent keeps its word")
	short := New(Sent{Patient: []string{"An"}})
	assert.Equal(t, "[redacted] is [redacted] ISO 8601 date", short.Text("An is an ISO 8601 date"), "a two-letter surname goes, as a whole word")
}

// TestCodeAndID: types and codes keep enum-like words the filter knows
// only; an id passes only when the path names it, and is "" otherwise.
func TestCodeAndID(t *testing.T) {
	t.Parallel()
	f := call()
	assert.Equal(t, "unable_to_cancel", f.Code("unable_to_cancel"))
	assert.Equal(t, "rate_limit_exceeded", f.Code("rate_limit_exceeded"))
	assert.Equal(t, "invalid [redacted]", f.Code("invalid Philomena Vandersloot"))
	assert.Equal(t, "[redacted]", f.Code("price_too_high"), "a word of the second line")
	assert.Equal(t, "[redacted]", f.Code("Philom\\u0065na"))
	assert.Equal(t, "", f.Code(""))
	assert.Equal(t, "ord_1", f.ID("ord_1"))
	assert.Equal(t, "", f.ID("err_000123"))
	assert.Equal(t, "", (*Filter)(nil).ID("ord_1"))
	assert.Equal(t, "", f.ID(""))
}

// TestDecode: escapes of every kind, and escapes of escapes.
func TestDecode(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "é & é é A", Decode(`\u00e9 &amp; &eacute; %C3%A9 \x41`))
	assert.Equal(t, "é", Decode("&amp;eacute;"))
	assert.Equal(t, "😀", Decode(`\ud83d\ude00`))
	assert.Equal(t, "%zz \\q", Decode(`%zz \q`))
}

// FuzzText: whatever the text, every word of the output is a word the
// filter knows (of the language, the vocabulary, the models) or an id the
// call names, and no value of the second line survives.
func FuzzText(f *testing.F) {
	for _, s := range []string{"Order is not in a cancellable status", "Jane Price 1937-11-23", "Phil%6Fmena",
		"&#74;ane", "a.b[0].c", "(614) 555-7319", "ord_1 ord_2", "\\u004aane", "Recipient Will Page could not be reached",
		"Fee $45.00 at 14:00 for 72 lb", "12 Elm St, Reading 43215"} {
		f.Add(s)
	}
	flt := call()
	f.Fuzz(func(t *testing.T, s string) {
		out := flt.Text(s)
		rest := strings.ReplaceAll(out, Redacted, " ")
		tx := &text{f: flt}
		for _, w := range strings.FieldsFunc(rest, func(r rune) bool { return !isWord(r) }) {
			lw := strings.ToLower(w)
			// A word with a digit passed by the form of its number (a
			// measure, a duration, a dimension); the planted digits are
			// looked for below.
			ok := tx.known(lw) || (len(lw) > 1 && pathName(lw)) || w == "ord_1" || len(lw) <= 2 ||
				strings.IndexFunc(w, unicode.IsDigit) >= 0
			if !ok {
				t.Fatalf("%q passed in %q (from %q)", w, out, s)
			}
			if flt.words[lw] {
				t.Fatalf("a word of the second line %q passed in %q", w, out)
			}
		}
		for _, v := range []string{"jane", "price", "6145557319", "1937", "marguerite", "key-1234"} {
			if containsWord(strings.ToLower(out), v) {
				t.Fatalf("%q passed in %q (from %q)", v, out, s)
			}
		}
		if flt.Text(out) != out && !strings.Contains(out, Redacted) {
			t.Fatalf("not stable: %q", out)
		}
	})
}

// containsWord reports whether v stands in s as a whole word or digit run.
func containsWord(s, v string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], v)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(v)
		if (a == 0 || !isWord(rune(s[a-1]))) && (b == len(s) || !isWord(rune(s[b]))) {
			return true
		}
		i = a + 1
	}
}

// TestSDKMessagesPass: every message literal of the SDK's packages (the
// strings of its errors.New, fmt.Errorf and Missing calls, and of its
// error types' Error methods), which may become the cause of a
// TransportError or a DecodeError, passes unchanged once its format verbs
// are removed.
func TestSDKMessagesPass(t *testing.T) {
	t.Parallel()
	verb := regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)
	n := 0
	for _, dir := range []string{"../core", "../jsonx", "../poll", "../..", "../../orders", "../../requests",
		"../../pharmacies", "../../tracking", "../../pricing", "../../rxtypes"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		fset := token.NewFileSet()
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			require.NoError(t, err)
			check := func(node ast.Node) {
				ast.Inspect(node, func(node ast.Node) bool {
					lit, ok := node.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						return true
					}
					s, err := strconv.Unquote(lit.Value)
					if err != nil {
						return true
					}
					s = strings.TrimSpace(verb.ReplaceAllString(s, " "))
					if s == "" {
						return true
					}
					n++
					assert.Equal(t, s, (*Filter)(nil).Text(s), "%s", fset.Position(lit.Pos()))
					return true
				})
			}
			ast.Inspect(f, func(node ast.Node) bool {
				switch node := node.(type) {
				case *ast.CallExpr:
					name := ""
					switch fn := node.Fun.(type) {
					case *ast.SelectorExpr:
						name = fn.Sel.Name
					case *ast.Ident:
						name = fn.Name
					}
					if (name == "New" || name == "Errorf" || name == "Missing") && !isPkg(node, "rxtypes") {
						check(node)
						return false
					}
				case *ast.FuncDecl:
					if node.Name.Name == "Error" && node.Recv != nil && dir != "../../rxtypes" {
						check(node.Body)
						return false
					}
				}
				return true
			})
		}
	}
	assert.Greater(t, n, 20, "the SDK's messages were found")
}

// isPkg reports whether call is pkg.Something(...).
func isPkg(call *ast.CallExpr, pkg string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}
