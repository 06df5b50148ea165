package journal_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// lockedBuffer is a bytes.Buffer safe for the logger's concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// patientValues are the patient data orderParams sends (the date of birth
// whole: its year alone turns up in the digits of a timestamp).
var patientValues = []string{"Jane", "Doe", "6145550100", "42 Elm Avenue", "Columbus", "1980-02-29", "RX100001", "Amoxicillin"}

// logFlow runs, on a real PostgreSQL, every event the journal logs:
// claims, creates, a read back, releases, unknown outcomes, refusals, an
// ended lease, a takeover, a handled and a failed notification, an
// operator's Resolve, Free and Prune, and a store failure. It returns
// every line written, parsed, and the references it used.
func logFlow(t *testing.T, opts ...journal.Option) (lines []map[string]any, refs []string) {
	t.Helper()
	store := testdb.Postgres(t)
	refuse := refusals(t, store)
	var out lockedBuffer
	logger := slog.New(slog.NewJSONHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))
	j := journal.New(store, append([]journal.Option{journal.WithHolder("replica-a"), journal.WithLogger(logger)}, opts...)...)
	p := newPlatform(t)
	o := j.Orders(p.client(t).Orders)
	ctx := context.Background()
	ref := func(s string) string { r := mrn(s); refs = append(refs, r); return r }
	plantEnded := func(k journal.Key) {
		t.Helper()
		now := time.Now()
		if _, _, err := store.Insert(ctx, journal.Claim{Key: k, State: journal.StateInFlight, Token: "dead", Holder: "replica-dead",
			ClaimedAt: now, LeaseUntil: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}

	created := ref("created")
	if _, err := o.Create(ctx, orderParams(created)); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Create(ctx, orderParams(created)); err != nil {
		t.Fatal(err)
	}
	p.status.Store(http.StatusBadRequest)
	if _, err := o.Create(ctx, orderParams(ref("refused"))); err == nil {
		t.Fatal("a 400 succeeded")
	}
	p.status.Store(http.StatusInternalServerError)
	p.commit.Store(true)
	lost := ref("lost")
	if _, err := o.Create(ctx, orderParams(lost)); err == nil {
		t.Fatal("a 500 succeeded")
	}
	p.status.Store(0)
	p.commit.Store(false)
	if _, err := o.Create(ctx, orderParams(lost)); !errors.Is(err, journal.ErrClaimed) {
		t.Fatalf("create of an unknown claim = %v", err)
	}
	dead := deliveryKey(ref("dead"))
	plantEnded(dead)
	if _, err := o.Create(ctx, orderParams(dead.Reference)); !errors.Is(err, journal.ErrClaimed) {
		t.Fatalf("create of an ended lease = %v", err)
	}

	body := notificationBody("94001"+mrnMarker+"0000000000000", "Delivered", "2026-03-02T12:00:00Z")
	n := parseNotification(t, body)
	refs = append(refs, journal.NotificationKey(n).Reference)
	plantEnded(journal.NotificationKey(n))
	handled := func(context.Context, *tracking.Notification) error { return nil }
	if err := j.Once(handled)(ctx, n); err != nil {
		t.Fatal(err)
	}
	if err := j.Once(handled)(ctx, n); err != nil {
		t.Fatal(err)
	}
	failing := parseNotification(t, notificationBody("94001"+mrnMarker+"0000000000001", "Delivered", "2026-03-02T12:00:00Z"))
	refs = append(refs, journal.NotificationKey(failing).Reference)
	fail := func(context.Context, *tracking.Notification) error { return errors.New("callback failed for Jane Doe") }
	if err := j.Once(fail)(ctx, failing); err == nil {
		t.Fatal("the failing callback succeeded")
	}

	if err := j.Resolve(ctx, deliveryKey(lost), "ord_000002"); err != nil {
		t.Fatal(err)
	}
	if err := j.Free(ctx, dead); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Prune(ctx, time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	refuse("INSERT in_flight")
	if _, err := o.Create(ctx, orderParams(ref("store down"))); err == nil {
		t.Fatal("a refused claim succeeded")
	}
	refuse()

	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		lines = append(lines, m)
	}
	return lines, refs
}

// TestLogLinesOfAFlow captures every line of a flow through every event:
// each names its interface and holder, the flow's events are all there at
// their levels, and no line holds a reference or patient data in any
// attribute or message.
func TestLogLinesOfAFlow(t *testing.T) {
	t.Parallel()
	lines, _ := logFlow(t)
	seen := map[string]string{}
	for _, m := range lines {
		raw, _ := json.Marshal(m)
		msg, _ := m["msg"].(string)
		seen[msg], _ = m["level"].(string)
		if strings.Contains(string(raw), mrnMarker) {
			t.Errorf("a line shows a reference: %s", raw)
		}
		for _, v := range patientValues {
			if strings.Contains(string(raw), v) {
				t.Errorf("a line shows patient data %q: %s", v, raw)
			}
		}
		if _, ok := m["reference"]; ok {
			t.Errorf("a reference attribute without WithReferencesInLogs: %s", raw)
		}
		if msg != "journal: pruned created claims" && (m["interface"] == nil || m["interface"] == "") {
			t.Errorf("a line without its interface: %s", raw)
		}
		if m["holder"] != "replica-a" {
			t.Errorf("a line without this process's holder: %s", raw)
		}
	}
	for msg, level := range map[string]string{
		"journal: claimed":                                           "DEBUG",
		"journal: created":                                           "DEBUG",
		"journal: already created; reading it back":                  "DEBUG",
		"journal: released; the response proves nothing was created": "INFO",
		"journal: outcome unknown":                                   "WARN",
		"journal: refused; the key is claimed":                       "INFO",
		"journal: lease ended; outcome unknown":                      "WARN",
		"journal: taken over after a holder's lease ended":           "WARN",
		"journal: handled":                                           "DEBUG",
		"journal: already handled":                                   "DEBUG",
		"journal: released; the callback failed":                     "INFO",
		"journal: resolved by an operator":                           "INFO",
		"journal: freed by an operator":                              "INFO",
		"journal: pruned created claims":                             "INFO",
		"journal: claiming failed":                                   "ERROR",
	} {
		if got, ok := seen[msg]; !ok || got != level {
			t.Errorf("line %q at %q; want it at %s", msg, got, level)
		}
	}
	for _, m := range lines {
		if m["msg"] == "journal: outcome unknown" && !strings.Contains(m["cause"].(string), "500") {
			t.Errorf("unknown outcome without its cause: %v", m)
		}
		if m["msg"] == "journal: claiming failed" && !strings.Contains(m["error"].(string), "refused INSERT") {
			t.Errorf("store failure without the store's words: %v", m)
		}
	}
}

// TestLogLinesWithReferences: an operator who asks for references gets
// them as the attribute "reference" of every line about a key, never in
// a message or another attribute, and still no patient data.
func TestLogLinesWithReferences(t *testing.T) {
	t.Parallel()
	lines, refs := logFlow(t, journal.WithReferencesInLogs())
	got := map[string]bool{}
	for _, m := range lines {
		raw, _ := json.Marshal(m)
		r, hasRef := m["reference"].(string)
		if m["msg"] != "journal: pruned created claims" && !hasRef {
			t.Errorf("a line without its reference: %s", raw)
		}
		got[r] = true
		delete(m, "reference")
		rest, _ := json.Marshal(m)
		if strings.Contains(string(rest), mrnMarker) {
			t.Errorf("a reference outside the reference attribute: %s", raw)
		}
		for _, v := range patientValues {
			if strings.Contains(string(raw), v) {
				t.Errorf("a line shows patient data %q: %s", v, raw)
			}
		}
	}
	for _, r := range refs {
		if !got[r] {
			t.Errorf("no line carries the reference %q", r)
		}
	}
}
