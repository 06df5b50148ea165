package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/sqlitestore"
	"github.com/rxdelivery/rxdelivery-go/rxdeliverytest"
)

// TestRunbook walks the README's runbook: two creates end unknown (one the
// platform committed, one it did not), the operator lists them, resolves
// the first with the order the platform holds and frees the second, and
// the next creates return the first order and send the second.
func TestRunbook(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.db")
	store, err := sqlitestore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	srv := rxdeliverytest.Start(t)
	o := journal.New(store, journal.WithHolder("worker-1")).Orders(srv.Client().Orders)
	ctx := context.Background()
	params := func(ref string) {
		p := rxdeliverytest.SamedayOrderParams()
		p.ExternalReferenceNumber = ref
		if _, err := o.Create(ctx, p); !errors.Is(err, rxdelivery.ErrUnknownOutcome) {
			t.Fatalf("create %s = %v; want an unknown outcome", ref, err)
		}
	}
	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.CommittedThenFailed())
	params("rx-committed")
	srv.FailNext(rxdeliverytest.OrdersCreate, 1, rxdeliverytest.StatusError(http.StatusBadGateway))
	params("rx-lost")

	admin := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := run(ctx, append([]string{"-sqlite", path}, args...), func(string) string { return "" }, &out)
		return out.String(), err
	}
	out, err := admin("list")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "rx-committed") || !strings.Contains(lines[2], "rx-lost") ||
		!strings.Contains(lines[1], "worker-1") || !strings.Contains(lines[1], "500") || !strings.Contains(lines[2], "502") {
		t.Fatalf("list printed:\n%s\nwant a header and both claims, with holder and cause", out)
	}
	orderID := srv.Orders()[0].ID
	if out, err := admin("resolve", "delivery", "rx-committed", orderID); err != nil || !strings.Contains(out, orderID) {
		t.Fatalf("resolve: %q, %v", out, err)
	}
	if out, err := admin("free", "delivery", "rx-lost"); err != nil || !strings.Contains(out, "freed") {
		t.Fatalf("free: %q, %v", out, err)
	}
	if out, err := admin("list"); err != nil || !strings.Contains(out, "no claims unknown") {
		t.Fatalf("list after settling: %q, %v", out, err)
	}
	if out, err := admin("list", "-state", "created"); err != nil || !strings.Contains(out, "rx-committed") || strings.Contains(out, "rx-lost") {
		t.Fatalf("list -state created: %q, %v; want rx-committed only", out, err)
	}
	if out, err := admin("list", "-state", "in_flight"); err != nil || !strings.Contains(out, "no claims in_flight") {
		t.Fatalf("list -state in_flight: %q, %v", out, err)
	}
	if _, err := admin("free", "delivery", "rx-committed"); !errors.Is(err, journal.ErrNoMatch) {
		t.Fatalf("free of a created claim: %v; want refused", err)
	}
	if out, err := admin("get", "delivery", "rx-committed"); err != nil || !strings.Contains(out, "created") || !strings.Contains(out, orderID) {
		t.Fatalf("get: %q, %v", out, err)
	}

	if out, err := admin("prune", "-older-than", "1h"); err != nil || !strings.Contains(out, "pruned 0") {
		t.Fatalf("prune of recent claims: %q, %v; want none pruned", out, err)
	}

	for _, ref := range []string{"rx-committed", "rx-lost"} {
		p := rxdeliverytest.SamedayOrderParams()
		p.ExternalReferenceNumber = ref
		if _, err := o.Create(ctx, p); err != nil {
			t.Fatalf("create %s after the runbook: %v", ref, err)
		}
	}
	if n := len(srv.Orders()); n != 2 {
		t.Fatalf("the platform holds %d orders; want 2, one per reference", n)
	}
}

func TestUsageErrors(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.db")
	s, err := sqlitestore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	env := func(string) string { return "" }
	for _, args := range [][]string{
		{}, {"list"}, {"-sqlite", path}, {"-sqlite", path, "nope"}, {"-sqlite", path, "get", "delivery"},
		{"-sqlite", path, "get", "pharmacy", "x"}, {"-sqlite", path, "-postgres", "list"},
		{"-sqlite", path, "list", "-state", "gone"}, {"-sqlite", path, "prune"},
	} {
		if err := run(ctx, args, env, &bytes.Buffer{}); !errors.Is(err, errUsage) {
			t.Errorf("run(%q) = %v; want a usage error", args, err)
		}
	}
	if err := run(ctx, []string{"-postgres", "list"}, env, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), envDSN) {
		t.Errorf("-postgres without %s: %v", envDSN, err)
	}
	if err := run(ctx, []string{"-sqlite", filepath.Join(t.TempDir(), "absent.db"), "list"}, env, &bytes.Buffer{}); err == nil {
		t.Error("a missing journal file was not refused")
	}
}
