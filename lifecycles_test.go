package rxdelivery_test

// The life-cycle diagrams of docs/lifecycles.md against the SDK's status
// constants. The constants are found by reading the source of the packages
// that declare them, so a status added to the code without being drawn
// fails the test; what is final and cancellable is asked of the code's own
// Final and Cancellable methods, wherever a status type has them.

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/orders"
	"github.com/rxdelivery/rxdelivery-go/requests"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// httptest: the simulator delivers tracking notifications to a real TLS listener.

const lifecyclesDoc = "docs/lifecycles.md"

// statusPackages are the directories of the packages whose status
// constants the diagrams draw.
var statusPackages = []string{"rxtypes", "orders", "requests", "tracking"}

// statusType says where the constants of one status type are drawn.
type statusType struct {
	// all are the diagrams that must show every constant of the type.
	all []string
	// some are diagrams that show only some of them (a service level
	// that does not pass through every status).
	some []string
	// inText: the constants refine a status and need only appear in the
	// diagram's text (a transition's label), not as states.
	inText bool
	// typed converts a value to the type, so that its Final and
	// Cancellable methods can be asked; nil for inText types.
	typed func(string) any
}

// statusTypes maps every status type (package directory and type name) to
// its diagrams. A status type the scan finds that is not here fails the
// test: draw it, then add it.
var statusTypes = map[string]statusType{
	"rxtypes.OrderStatus": {
		all:   []string{"orders-courier", "requests"},
		some:  []string{"orders-shipping"},
		typed: func(v string) any { return rxtypes.OrderStatus(v) },
	},
	"requests.StatusName": {
		all:   []string{"requests"},
		typed: func(v string) any { return requests.StatusName(v) },
	},
	"requests.StatusDetail": {all: []string{"requests"}, inText: true},
	"tracking.SubscriptionStatus": {
		all:   []string{"tracking-subscription"},
		typed: func(v string) any { return tracking.SubscriptionStatus(v) },
	},
	"tracking.TrackingStatus": {
		all:   []string{"tracking-status"},
		typed: func(v string) any { return tracking.TrackingStatus(v) },
	},
}

// statusConst is one status constant found in the source.
type statusConst struct {
	name  string // qualified: rxtypes.OrderStatusNew
	typ   string // qualified type: rxtypes.OrderStatus
	value string
}

// scanStatusConsts returns the constants of the packages in dirs (relative
// to root) whose type's name contains "Status", with aliases of another
// package's constants (X = rxtypes.OrderStatusNew) resolved to that
// constant's type and value.
func scanStatusConsts(t *testing.T, root string, dirs []string) []statusConst {
	t.Helper()
	type alias struct{ name, target string }
	byName := map[string]statusConst{}
	var aliases []alias
	fset := token.NewFileSet()
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		require.NoError(t, err)
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, file, nil, 0)
			require.NoError(t, err)
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, id := range vs.Names {
						if i >= len(vs.Values) {
							continue
						}
						name := dir + "." + id.Name
						typ, lit := typeAndLiteral(dir, vs.Type, vs.Values[i])
						switch {
						case typ != "" && lit != nil && strings.Contains(typ, "Status"):
							v, err := strconv.Unquote(lit.Value)
							require.NoError(t, err, name)
							byName[name] = statusConst{name: name, typ: typ, value: v}
						case vs.Type == nil:
							if sel, ok := vs.Values[i].(*ast.SelectorExpr); ok {
								if pkg, ok := sel.X.(*ast.Ident); ok {
									aliases = append(aliases, alias{name, pkg.Name + "." + sel.Sel.Name})
								}
							}
						}
					}
				}
			}
		}
	}
	var out []statusConst
	for _, c := range byName {
		out = append(out, c)
	}
	for _, a := range aliases {
		if c, ok := byName[a.target]; ok {
			out = append(out, statusConst{name: a.name, typ: c.typ, value: c.value})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// typeAndLiteral returns the qualified type and the string literal of a
// constant written `Name Type = "v"` or `Name = Type("v")`.
func typeAndLiteral(pkg string, typ, value ast.Expr) (string, *ast.BasicLit) {
	if call, ok := value.(*ast.CallExpr); ok && typ == nil && len(call.Args) == 1 {
		typ, value = call.Fun, call.Args[0]
	}
	lit, ok := value.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", nil
	}
	switch e := typ.(type) {
	case *ast.Ident:
		return pkg + "." + e.Name, lit
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return x.Name + "." + e.Sel.Name, lit
		}
	}
	return "", nil
}

// diagram is one Mermaid state diagram of the page.
type diagram struct {
	name        string
	text        string
	states      map[string]bool    // every state id used
	edges       map[[2]string]bool // transitions drawn, [*] for start and end
	labels      map[string]string  // state id -> label of `state "label" as id`
	final       map[string]bool    // states with a transition to [*]
	cancellable map[string]bool    // states of class cancellable
}

var (
	mermaidBlock = regexp.MustCompile("(?s)```mermaid\n(.*?)```")
	transition   = regexp.MustCompile(`^(\S+)\s+-->\s+(\S+)(?:\s*:\s*(.*))?$`)
	labelled     = regexp.MustCompile(`^state\s+"([^"]+)"\s+as\s+(\w+)$`)
	composite    = regexp.MustCompile(`^state\s+(\w+)\s*\{$`)
	classLine    = regexp.MustCompile(`^class\s+(.+?)\s+(\w+)$`)
	diagramName  = regexp.MustCompile(`^%%\s*diagram:\s*(\S+)$`)
	stateID      = regexp.MustCompile(`^\w+$`)
)

// parseDiagrams reads the Mermaid blocks of a Markdown page. It knows the
// statements the page uses and refuses any other, so that no marking can
// be written in a form the checks would not see.
func parseDiagrams(md string) ([]*diagram, error) {
	var out []*diagram
	for _, m := range mermaidBlock.FindAllStringSubmatch(md, -1) {
		d := &diagram{text: m[1], states: map[string]bool{}, edges: map[[2]string]bool{}, labels: map[string]string{},
			final: map[string]bool{}, cancellable: map[string]bool{}}
		depth := 0
		lines := strings.Split(m[1], "\n")
		if strings.TrimSpace(lines[0]) != "stateDiagram-v2" {
			return nil, fmt.Errorf("a mermaid block does not start with stateDiagram-v2: %q", lines[0])
		}
		state := func(id string) error {
			if id == "[*]" {
				return nil
			}
			if !stateID.MatchString(id) {
				return fmt.Errorf("state id %q: use letters, digits and _ (and a label for other text)", id)
			}
			d.states[id] = true
			return nil
		}
		for _, raw := range lines[1:] {
			line := strings.TrimSpace(raw)
			var err error
			switch {
			case line == "" || strings.HasPrefix(line, "classDef ") || strings.HasPrefix(line, "direction "):
			case diagramName.MatchString(line):
				d.name = diagramName.FindStringSubmatch(line)[1]
			case strings.HasPrefix(line, "%%"):
			case labelled.MatchString(line):
				g := labelled.FindStringSubmatch(line)
				d.labels[g[2]] = g[1]
				err = state(g[2])
			case composite.MatchString(line):
				depth++
				err = state(composite.FindStringSubmatch(line)[1])
			case line == "}":
				depth--
			case classLine.MatchString(line):
				g := classLine.FindStringSubmatch(line)
				for _, id := range strings.Split(g[1], ",") {
					id = strings.TrimSpace(id)
					if err = state(id); err != nil {
						break
					}
					if g[2] == "cancellable" {
						d.cancellable[id] = true
					}
				}
			case transition.MatchString(line):
				g := transition.FindStringSubmatch(line)
				if err = state(g[1]); err == nil {
					err = state(g[2])
				}
				d.edges[[2]string{g[1], g[2]}] = true
				if g[2] == "[*]" && g[1] != "[*]" {
					d.final[g[1]] = true
				}
			default:
				err = fmt.Errorf("statement %q is not one the test reads", line)
			}
			if err != nil {
				return nil, fmt.Errorf("diagram %q: %w", d.name, err)
			}
		}
		if d.name == "" {
			return nil, fmt.Errorf("a mermaid block has no %%%% diagram: NAME line:\n%s", m[1])
		}
		if depth != 0 {
			return nil, fmt.Errorf("diagram %q: unbalanced braces", d.name)
		}
		out = append(out, d)
	}
	return out, nil
}

// stateOf returns the state of d that shows value: the state whose id or
// label is the value.
func (d *diagram) stateOf(value string) (string, bool) {
	if d.states[value] {
		return value, true
	}
	for id, label := range d.labels {
		if label == value {
			return id, true
		}
	}
	return "", false
}

// checkLifecycles returns every disagreement between the diagrams of md
// and the constants.
func checkLifecycles(md string, consts []statusConst) []string {
	diagrams, err := parseDiagrams(md)
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	byName := map[string]*diagram{}
	for _, d := range diagrams {
		if byName[d.name] != nil {
			report("two diagrams are named %q", d.name)
		}
		byName[d.name] = d
	}
	drawn := map[string]map[string]bool{} // diagram -> state ids that show a constant
	known := map[string]bool{}
	for _, st := range statusTypes {
		for _, n := range append(slices.Clone(st.all), st.some...) {
			known[n] = true
			if byName[n] == nil {
				report("diagram %q is missing", n)
			}
		}
	}
	for _, d := range diagrams {
		if !known[d.name] {
			report("diagram %q draws no status type of the test", d.name)
		}
		drawn[d.name] = map[string]bool{}
	}
	for _, c := range consts {
		st, ok := statusTypes[c.typ]
		if !ok {
			report("%s has status type %s, which no diagram draws", c.name, c.typ)
			continue
		}
		for _, n := range st.all {
			d := byName[n]
			if d == nil {
				continue
			}
			if st.inText {
				if !regexp.MustCompile(`\b` + regexp.QuoteMeta(c.value) + `\b`).MatchString(d.text) {
					report("diagram %q does not mention %s (%q)", n, c.name, c.value)
				}
			} else if _, ok := d.stateOf(c.value); !ok {
				report("diagram %q has no state for %s (%q)", n, c.name, c.value)
			}
		}
		if st.inText {
			continue
		}
		v := st.typed(c.value)
		for _, n := range append(slices.Clone(st.all), st.some...) {
			d := byName[n]
			if d == nil {
				continue
			}
			id, ok := d.stateOf(c.value)
			if !ok {
				continue
			}
			drawn[n][id] = true
			if f, ok := v.(interface{ Final() bool }); ok && f.Final() != d.final[id] {
				report("diagram %q: %s (%q) is drawn final=%t, Final() is %t", n, c.name, c.value, d.final[id], f.Final())
			}
			if f, ok := v.(interface{ Cancellable() bool }); ok && f.Cancellable() != d.cancellable[id] {
				report("diagram %q: %s (%q) is drawn cancellable=%t, Cancellable() is %t", n, c.name, c.value, d.cancellable[id], f.Cancellable())
			}
		}
	}
	// Every other state is a described stage of the diagram's own (its
	// label says what it is), so a misspelt status is not taken for one.
	for _, d := range diagrams {
		for id := range d.states {
			if !drawn[d.name][id] && d.labels[id] == "" {
				report("diagram %q: state %q is no status constant of its types and has no label", d.name, id)
			}
		}
	}
	sort.Strings(problems)
	return problems
}

func readLifecycles(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(lifecyclesDoc)
	require.NoError(t, err)
	return string(b)
}

// TestLifecycleDiagrams: every status constant of the SDK is drawn in its
// diagram, and the statuses drawn final and cancellable are exactly those
// whose Final and Cancellable methods say so.
func TestLifecycleDiagrams(t *testing.T) {
	t.Parallel()
	consts := scanStatusConsts(t, ".", statusPackages)
	found := map[string]int{}
	for _, c := range consts {
		found[c.typ]++
	}
	// The scan sees the 7 order statuses, defined once in rxtypes.
	assert.Equal(t, 7, found["rxtypes.OrderStatus"], "%v", consts)
	for typ := range statusTypes {
		assert.NotZero(t, found[typ], "the scan found no constant of %s", typ)
	}
	assert.Empty(t, checkLifecycles(readLifecycles(t), consts))
}

// TestLifecycleDiagramsCatch: the check fails on a page that leaves a
// status out, marks one final or cancellable against the code, or misses
// a mark, and on a constant of a status type nobody drew.
func TestLifecycleDiagramsCatch(t *testing.T) {
	t.Parallel()
	md := readLifecycles(t)
	consts := scanStatusConsts(t, ".", statusPackages)
	courier := func(s string) string {
		start := strings.Index(md, "%% diagram: orders-courier")
		end := start + strings.Index(md[start:], "```")
		return md[:start] + s + md[end:]
	}
	body := md[strings.Index(md, "%% diagram: orders-courier"):]
	body = body[:strings.Index(body, "```")]
	cases := []struct {
		name string
		md   string
		want string
	}{{
		name: "a status left out",
		md: courier(strings.NewReplacer(
			"    delivery_attempted --> returned_to_pharmacy : return.occurred_at set (scenario)\n", "",
			"    returned_to_pharmacy --> [*]\n", "").Replace(body)),
		want: `diagram "orders-courier" has no state for rxtypes.OrderStatusReturnedToPharmacy ("returned_to_pharmacy")`,
	}, {
		name: "a final status not marked",
		md:   courier(strings.Replace(body, "    delivered --> [*]\n", "", 1)),
		want: `diagram "orders-courier": rxtypes.OrderStatusDelivered ("delivered") is drawn final=false, Final() is true`,
	}, {
		name: "a status marked final that is not",
		md:   courier(strings.Replace(body, "    cancelled --> [*]\n", "    cancelled --> [*]\n    delivery_attempted --> [*]\n", 1)),
		want: `diagram "orders-courier": rxtypes.OrderStatusDeliveryAttempted ("delivery_attempted") is drawn final=true, Final() is false`,
	}, {
		name: "a cancellable status not marked",
		md:   courier(strings.Replace(body, "class new, submitted_to_courier cancellable", "class new cancellable", 1)),
		want: `diagram "orders-courier": rxtypes.OrderStatusSubmittedToCourier ("submitted_to_courier") is drawn cancellable=false, Cancellable() is true`,
	}, {
		name: "a status marked cancellable that is not",
		md:   courier(strings.Replace(body, "class new, submitted_to_courier cancellable", "class new, submitted_to_courier, picked_up cancellable", 1)),
		want: `diagram "orders-courier": rxtypes.OrderStatusPickedUp ("picked_up") is drawn cancellable=true, Cancellable() is false`,
	}, {
		name: "a misspelt status",
		md:   courier(strings.Replace(body, "picked_up --> delivered :", "picked_up --> deliverd :", 1)),
		want: `diagram "orders-courier": state "deliverd" is no status constant of its types and has no label`,
	}, {
		name: "a marking the test would not read",
		md:   courier(strings.Replace(body, "class new, submitted_to_courier cancellable", "new:::cancellable", 1)),
		want: `diagram "orders-courier": statement "new:::cancellable" is not one the test reads`,
	}, {
		name: "a request detail not mentioned",
		md:   strings.Replace(md, "detail patient_picked_up or pharmacy_out_of_stock", "detail pharmacy_out_of_stock", 1),
		want: `diagram "requests" does not mention requests.DetailPatientPickedUp ("patient_picked_up")`,
	}, {
		name: "a subscription status left out",
		md:   strings.Replace(md, "    ENABLED --> DISABLED : the subscription has ended (doc 3, how is not shown)\n    DISABLED --> [*]\n", "", 1),
		want: `diagram "tracking-subscription" has no state for tracking.StatusDisabled ("DISABLED")`,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.NotEqual(t, md, tc.md, "the case changes nothing")
			assert.Contains(t, checkLifecycles(tc.md, consts), tc.want)
		})
	}

	t.Run("a status type nobody drew", func(t *testing.T) {
		t.Parallel()
		more := append(slices.Clone(consts), statusConst{name: "orders.LabelStatusPrinted", typ: "orders.LabelStatus", value: "printed"})
		assert.Contains(t, checkLifecycles(md, more), "orders.LabelStatusPrinted has status type orders.LabelStatus, which no diagram draws")
	})
}

// TestScanStatusConsts: the scan finds constants written with a type, as
// a conversion, and as aliases of another package's constants, and only
// those of status types.
func TestScanStatusConsts(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write := func(dir, src string) {
		require.NoError(t, os.MkdirAll(filepath.Join(root, dir), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, dir, "a.go"), []byte(src), 0o644))
	}
	write("base", `package base
type OrderStatus string
const (
	OrderStatusNew OrderStatus = "new"
	OrderStatusGone = OrderStatus("gone")
	Other = "other"
)`)
	write("svc", `package svc
import "example.com/base"
type Kind string
const (
	StatusNew = base.OrderStatusNew
	KindA Kind = "a"
	Typed base.OrderStatus = "typed"
)`)
	got := scanStatusConsts(t, root, []string{"base", "svc"})
	assert.Equal(t, []statusConst{
		{name: "base.OrderStatusGone", typ: "base.OrderStatus", value: "gone"},
		{name: "base.OrderStatusNew", typ: "base.OrderStatus", value: "new"},
		{name: "svc.StatusNew", typ: "base.OrderStatus", value: "new"},
		{name: "svc.Typed", typ: "base.OrderStatus", value: "typed"},
	}, got)
}

// TestLifecyclesLinked: the README and the documentation of the packages
// whose statuses the page draws point to it.
func TestLifecyclesLinked(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"README.md", "doc.go", "orders/doc.go", "requests/doc.go", "rxtypes/doc.go", "tracking/doc.go"} {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.True(t, strings.Contains(string(b), "docs/lifecycles.md"), "%s does not link docs/lifecycles.md", file)
	}
}

// walk records the transitions a resource made, as edges of a diagram
// ([*] for the start and the end), to check them against the page.
type walk struct {
	edges [][2]string
	last  string
}

// to records a move to state, when it is another state than the last.
func (w *walk) to(state string) {
	if state != w.last {
		w.edges = append(w.edges, [2]string{w.last, state})
		w.last = state
	}
}

// checkWalk asserts that every transition of w is drawn in diagram name.
func checkWalk(t *testing.T, name string, w *walk) {
	t.Helper()
	diagrams, err := parseDiagrams(readLifecycles(t))
	require.NoError(t, err)
	i := slices.IndexFunc(diagrams, func(d *diagram) bool { return d.name == name })
	require.GreaterOrEqual(t, i, 0, "no diagram %q", name)
	require.NotEmpty(t, w.edges)
	for _, e := range w.edges {
		assert.True(t, diagrams[i].edges[e], "diagram %q does not draw %s --> %s", name, e[0], e[1])
	}
}

// TestLifecycleDiagramsFollowTheSimulator: every transition the simulator
// makes (the sandbox scenarios of omni requests, the courier and shipping
// progress of delivery orders, cancellation, a subscription suspended and
// enabled again) is an arrow of the page, and the statuses the simulator
// lets a DELETE cancel are exactly those the page marks cancellable.
func TestLifecycleDiagramsFollowTheSimulator(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	for _, sc := range []requests.Scenario{requests.ScenarioSuccessfulDelivery, requests.ScenarioUnsuccessfulDelivery, requests.ScenarioIncompleteRequest} {
		t.Run("request "+string(sc), func(t *testing.T) {
			t.Parallel()
			srv := rxdeliverytest.Start(t)
			c := srv.Client()
			created, err := c.Requests.Create(ctx, omniParams(sc))
			require.NoError(t, err)
			w := &walk{last: "[*]"}
			w.to("no_order")
			inner := ""
			for range 20 {
				r, err := c.Requests.Get(ctx, created.ID)
				require.NoError(t, err)
				if r.Order != nil {
					require.NotNil(t, r.Status)
					if inner == "" {
						w.to(string(requests.StatusRequestReceived))
						inner = "[*]"
					}
					if s := string(r.Order.Status); s != inner {
						w.edges = append(w.edges, [2]string{inner, s})
						inner = s
					}
					if r.Status.Name == requests.StatusRequestIncomplete {
						w.to(string(requests.StatusRequestIncomplete))
						w.to("[*]")
						break
					}
					require.Equal(t, requests.StatusRequestReceived, r.Status.Name)
					if r.Order.Status.Final() {
						w.edges = append(w.edges, [2]string{inner, "[*]"})
						w.to("[*]")
						break
					}
				}
				srv.Advance(10 * time.Second)
			}
			require.Equal(t, "[*]", w.last, "the scenario did not end: %v", w.edges)
			checkWalk(t, "requests", w)
		})
	}

	for _, level := range []orders.ServiceLevel{orders.ServiceLevelSameday, orders.ServiceLevelOndemand, orders.ServiceLevelShipping} {
		name := "orders-courier"
		if level == orders.ServiceLevelShipping {
			name = "orders-shipping"
		}
		label := string(level)
		if level == orders.ServiceLevelSameday {
			label = "sameday" // the zero ServiceLevel
		}
		t.Run("order "+label, func(t *testing.T) {
			t.Parallel()
			srv := rxdeliverytest.Start(t)
			c := srv.Client()
			created, err := c.Orders.Create(ctx, orderParams(level))
			require.NoError(t, err)
			w := &walk{last: "[*]"}
			for range 20 {
				o, err := c.Orders.Get(ctx, created.ID)
				require.NoError(t, err)
				w.to(string(o.Status))
				if o.Status.Final() {
					w.to("[*]")
					break
				}
				srv.Advance(rxdeliverytest.DefaultOrderCadence)
			}
			require.Equal(t, "[*]", w.last, "the order did not end: %v", w.edges)
			checkWalk(t, name, w)
		})
	}

	t.Run("cancelled orders", func(t *testing.T) {
		t.Parallel()
		diagrams, err := parseDiagrams(readLifecycles(t))
		require.NoError(t, err)
		for _, level := range []orders.ServiceLevel{orders.ServiceLevelSameday, orders.ServiceLevelShipping} {
			name := "orders-courier"
			if level == orders.ServiceLevelShipping {
				name = "orders-shipping"
			}
			d := diagrams[slices.IndexFunc(diagrams, func(d *diagram) bool { return d.name == name })]
			srv := rxdeliverytest.Start(t)
			c := srv.Client()
			for _, st := range []rxtypes.OrderStatus{rxtypes.OrderStatusNew, rxtypes.OrderStatusSubmittedToCourier, rxtypes.OrderStatusPickedUp,
				rxtypes.OrderStatusDelivered, rxtypes.OrderStatusDeliveryAttempted, rxtypes.OrderStatusReturnedToPharmacy, rxtypes.OrderStatusCancelled} {
				created, err := c.Orders.Create(ctx, orderParams(level))
				require.NoError(t, err)
				require.NoError(t, srv.SetOrderStatus(created.ID, st))
				err = c.Orders.Cancel(ctx, created.ID)
				if st == rxtypes.OrderStatusCancelled {
					continue // drawn final; what a second DELETE answers is not a transition
				}
				assert.Equal(t, d.cancellable[string(st)], err == nil, "%s: a %s order, cancel error %v", name, st, err)
				if err != nil {
					assert.ErrorIs(t, err, rxdelivery.ErrUnableToCancel)
					continue
				}
				o, err := c.Orders.Get(ctx, created.ID)
				require.NoError(t, err)
				assert.True(t, d.edges[[2]string{string(st), string(o.Status)}], "%s does not draw %s --> %s", name, st, o.Status)
			}
		}
	})

	t.Run("subscription suspended and enabled again", func(t *testing.T) {
		t.Parallel()
		listener := httptest.NewTLSServer(tracking.NewHandler(func(context.Context, *tracking.Notification) error { return nil }))
		defer listener.Close()
		srv := rxdeliverytest.Start(t, rxdeliverytest.WithListenerClient(listener.Client()))
		c := srv.Client()
		const tn = "9400100000000000000000"
		w := &walk{last: "[*]"}
		status := func() {
			sub, err := c.Tracking.GetSubscription(ctx, tn)
			require.NoError(t, err)
			w.to(string(sub.Status))
		}
		// Nothing listens on port 1 of loopback.
		_, err := c.Tracking.Subscribe(ctx, &tracking.SubscribeParams{TrackingNumber: tn, ListenerURL: "https://127.0.0.1:1/hooks"})
		require.NoError(t, err)
		status()
		srv.Track(tn, tracking.TrackingAccepted)
		status()
		_, err = c.Tracking.Subscribe(ctx, &tracking.SubscribeParams{TrackingNumber: tn, ListenerURL: listener.URL + "/hooks"})
		require.NoError(t, err)
		status()
		srv.Track(tn, tracking.TrackingMovingThroughNetwork)
		status()
		assert.Equal(t, [][2]string{{"[*]", "ENABLED"}, {"ENABLED", "SUSPENDED"}, {"SUSPENDED", "ENABLED"}}, w.edges)
		checkWalk(t, "tracking-subscription", w)
	})
}

// orderParams returns valid params of an order at level for the simulator.
func orderParams(level orders.ServiceLevel) *orders.CreateParams {
	p := rxdeliverytest.SamedayOrderParams()
	switch level {
	case orders.ServiceLevelOndemand:
		p.ServiceLevel = level
	case orders.ServiceLevelShipping:
		p.ServiceLevel, p.DeliveryFee, p.RxAmountDue = level, nil, nil
		p.Patient.HomePhoneNumber = "6145550101"
		p.Shipping = &orders.ShippingParams{
			Carrier: orders.CarrierPostal, CarrierService: orders.CarrierServicePostalPriorityMail,
			Signature: orders.SignatureNone,
			Weight:    orders.Weight{Unit: orders.WeightUnitPound, Value: rxdelivery.MustDecimal("1.5")},
			Dimensions: &orders.Dimensions{Unit: orders.DimensionUnitInch, Length: rxdelivery.MustDecimal("10"),
				Width: rxdelivery.MustDecimal("8"), Height: rxdelivery.MustDecimal("4")},
		}
	}
	return p
}
