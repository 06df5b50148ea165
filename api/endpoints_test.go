package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/rxtypes"
)

// docOp is one operation of a document as the endpoint table reads it.
type docOp struct {
	file, path, method string
	operationID, name  string
	write              bool
	hidden             []string
}

// documentOps reads the operations under paths: of a document, in the
// document's order. The documents keep one layout: a path at two spaces of
// indent, a method at four, its fields at six.
func documentOps(t *testing.T, file string) []docOp {
	t.Helper()
	var ops []docOp
	inPaths := false
	path := ""
	var cur *docOp
	for _, line := range readLines(t, file) {
		trimmed := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		switch {
		case trimmed == "":
			continue
		case indent == 0:
			inPaths = line == "paths:"
			cur = nil
		case !inPaths:
		case indent == 2:
			path = strings.TrimSuffix(trimmed, ":")
			cur = nil
		case indent == 4:
			cur = nil
			m := strings.TrimSuffix(trimmed, ":")
			if slices.Contains([]string{"get", "post", "put", "delete", "patch"}, m) {
				ops = append(ops, docOp{file: file, path: path, method: strings.ToUpper(m)})
				cur = &ops[len(ops)-1]
			}
		case indent == 6 && cur != nil:
			k, v, _ := strings.Cut(trimmed, ":")
			v = strings.TrimSpace(v)
			switch k {
			case "operationId":
				cur.operationID = v
			case "x-rxdelivery-operation":
				cur.name = v
			case "x-rxdelivery-write":
				cur.write = v == "true"
			case "x-rxdelivery-hidden":
				for _, h := range strings.Split(strings.Trim(v, "[]"), ",") {
					cur.hidden = append(cur.hidden, strings.TrimSpace(h))
				}
			}
		}
	}
	return ops
}

// interfaceDocs names the document of each platform interface.
var interfaceDocs = map[rxtypes.Interface]string{
	rxtypes.InterfaceOmni:     "omni.yaml",
	rxtypes.InterfaceDelivery: "delivery.yaml",
	rxtypes.InterfaceTracking: "tracking.yaml",
	rxtypes.InterfacePricing:  "pricing.yaml",
}

// TestDocumentsMatchEndpoints checks that the interfaces' documents and the
// SDK's endpoint table name the same operations with the same interface,
// method, route, write mark and hidden placeholders, and that each
// operationId is the SDK name in camel case.
func TestDocumentsMatchEndpoints(t *testing.T) {
	t.Parallel()
	want := map[string]string{}
	for _, e := range core.Endpoints {
		want[e.Name] = fmt.Sprintf("%s %s %s write=%v hidden=%v", interfaceDocs[e.Interface], e.Method, e.Route, e.Write, e.Hidden)
	}
	got := map[string]string{}
	for _, i := range rxtypes.Interfaces {
		for _, op := range documentOps(t, interfaceDocs[i]) {
			if _, dup := got[op.name]; dup || op.name == "" {
				t.Errorf("%s %s %s: x-rxdelivery-operation %q missing or given twice", op.file, op.method, op.path, op.name)
			}
			svc, method, _ := strings.Cut(op.name, ".")
			if op.operationID != svc+method {
				t.Errorf("%s: operationId %q, want %q", op.name, op.operationID, svc+method)
			}
			got[op.name] = fmt.Sprintf("%s %s %s write=%v hidden=%v", op.file, op.method, op.path, op.write, op.hidden)
		}
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: documents say %q, endpoint table %q", name, got[name], w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: in the documents, not in the endpoint table", name)
		}
	}
}

// TestSandboxOperationIDs checks that every operation of the control API
// has an operationId and an x-rxdelivery-operation, each once.
func TestSandboxOperationIDs(t *testing.T) {
	t.Parallel()
	ops := documentOps(t, "sandbox.yaml")
	if len(ops) == 0 {
		t.Fatal("sandbox.yaml: no operations")
	}
	ids, names := map[string]bool{}, map[string]bool{}
	for _, op := range ops {
		if op.operationID == "" || op.name == "" || ids[op.operationID] || names[op.name] {
			t.Errorf("%s %s: operationId %q, x-rxdelivery-operation %q: missing or given twice", op.method, op.path, op.operationID, op.name)
		}
		ids[op.operationID], names[op.name] = true, true
	}
}
