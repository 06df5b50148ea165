package journal_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/journal"
	"github.com/rxdelivery/rxdelivery-go/journal/internal/testdb"
	"github.com/rxdelivery/rxdelivery-go/journal/pgstore"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// mrnMarker is in every planted reference: a medical record number that
// must not reach any rendering of an error, a Key or a Claim.
const mrnMarker = "00417"

func mrn(path string) string { return `MRN 00417'733 "Ünïcode" ` + path }

// refusals installs on s's table a trigger that refuses, with a PostgreSQL
// error quoting the row's reference (as a database's errors may), the
// changes named in the refuse table: "INSERT in_flight", "UPDATE created",
// "UPDATE unknown", "UPDATE in_flight", "DELETE in_flight"...
func refusals(t *testing.T, s *pgstore.Store) func(ops ...string) {
	t.Helper()
	db := s.DB()
	for _, q := range []string{
		`CREATE TABLE refuse (op TEXT PRIMARY KEY)`,
		`CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
		DECLARE r rxdelivery_journal%ROWTYPE;
		BEGIN
			IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
			IF EXISTS (SELECT 1 FROM refuse WHERE op = TG_OP || ' ' || r.state) THEN
				RAISE EXCEPTION 'refused % of row (%, %, %)', TG_OP, r.interface, r.reference, r.state;
			END IF;
			IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
			RETURN NEW;
		END $$`,
		`CREATE TRIGGER refuse BEFORE INSERT OR UPDATE OR DELETE ON rxdelivery_journal
			FOR EACH ROW EXECUTE FUNCTION refuse_change()`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return func(ops ...string) {
		t.Helper()
		if _, err := db.Exec(`DELETE FROM refuse`); err != nil {
			t.Fatal(err)
		}
		for _, op := range ops {
			if _, err := db.Exec(`INSERT INTO refuse (op) VALUES ($1)`, op); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// errorChain returns err and every error it wraps, through Unwrap() error
// and Unwrap() []error.
func errorChain(err error) []error {
	if err == nil {
		return nil
	}
	out := []error{err}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		out = append(out, errorChain(u.Unwrap())...)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			out = append(out, errorChain(e)...)
		}
	}
	return out
}

var renderings = []string{"%v", "%+v", "%#v", "%q", "%s", "%x"}

// noMarker fails t when any rendering of v shows the planted reference.
func noMarker(t *testing.T, what string, v any) {
	t.Helper()
	for _, verb := range renderings {
		out := fmt.Sprintf(verb, v)
		if verb == "%x" {
			// %x of a string-bearing value hex-encodes it.
			if strings.Contains(out, fmt.Sprintf("%x", mrnMarker)) {
				t.Errorf("%s: %s shows the reference (hex): %s", what, verb, out)
			}
			continue
		}
		if strings.Contains(out, mrnMarker) {
			t.Errorf("%s: %s shows the reference: %s", what, verb, out)
		}
	}
}

// checkError fails t when err is nil or when any error of its chain, in
// any rendering, shows the planted reference.
func checkError(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error", what)
	}
	for i, e := range errorChain(err) {
		noMarker(t, fmt.Sprintf("%s (chain %d, %T)", what, i, e), e)
	}
}

// TestNoReferenceInAnyRendering plants a medical record number as the
// reference of every failure the journal can return, on a real PostgreSQL
// whose refusals quote the reference, and checks every rendering of the
// error and of each error it wraps; and the renderings of Keys, Claims and
// Matches. Code still reads the reference from the error's claim.
func TestNoReferenceInAnyRendering(t *testing.T) {
	t.Parallel()
	store := testdb.Postgres(t)
	refuse := refusals(t, store)
	p := newPlatform(t)
	ctx := context.Background()
	j := journal.New(store, journal.WithHolder("replica-a"))
	o := j.Orders(p.client(t).Orders)
	plant := func(ref string, st journal.State, lease time.Duration, id string) journal.Key {
		t.Helper()
		now := time.Now().UTC().Truncate(time.Microsecond)
		k := deliveryKey(ref)
		if _, ok, err := store.Insert(ctx, journal.Claim{Key: k, State: st, Token: "planted", Holder: "replica-b", ID: id,
			ClaimedAt: now, LeaseUntil: now.Add(lease), UpdatedAt: now}); err != nil || !ok {
			t.Fatalf("planting %s: %v, %v", st, ok, err)
		}
		return k
	}

	t.Run("claim refused by the store", func(t *testing.T) {
		refuse("INSERT in_flight")
		defer refuse()
		_, err := o.Create(ctx, orderParams(mrn("insert")))
		checkError(t, "create", err)
		var pgErr interface{ SQLState() string }
		if !errors.As(err, &pgErr) || pgErr.SQLState() != "P0001" {
			t.Errorf("errors.As does not reach the database's error: %v", err)
		}
		if p.createsOf(mrn("insert")) != 0 {
			t.Error("a create was sent without a claim")
		}
	})
	t.Run("created but not recorded", func(t *testing.T) {
		refuse("UPDATE created")
		defer refuse()
		v, err := o.Create(ctx, orderParams(mrn("created")))
		checkError(t, "create", err)
		if v == nil || !errors.Is(err, journal.ErrNotRecorded) {
			t.Errorf("Create = %v, %v; want the order and ErrNotRecorded", v, err)
		}
	})
	t.Run("marking unknown refused", func(t *testing.T) {
		refuse("UPDATE unknown")
		defer refuse()
		p.status.Store(http.StatusInternalServerError)
		defer p.status.Store(0)
		_, err := o.Create(ctx, orderParams(mrn("unknown")))
		checkError(t, "create", err)
		if !errors.Is(err, rxdelivery.ErrUnknownOutcome) {
			t.Errorf("Create = %v; want ErrUnknownOutcome", err)
		}
	})
	t.Run("release refused", func(t *testing.T) {
		refuse("DELETE in_flight")
		defer refuse()
		p.status.Store(http.StatusBadRequest)
		defer p.status.Store(0)
		_, err := o.Create(ctx, orderParams(mrn("release")))
		checkError(t, "create", err)
		var apiErr *rxdelivery.APIError
		if !errors.As(err, &apiErr) {
			t.Errorf("Create = %v; want the platform's error reachable", err)
		}
	})
	t.Run("refused as claimed", func(t *testing.T) {
		inFlight := plant(mrn("in flight"), journal.StateInFlight, time.Hour, "")
		ended := plant(mrn("ended"), journal.StateInFlight, 0, "")
		p.status.Store(http.StatusInternalServerError)
		_, err := o.Create(ctx, orderParams(mrn("500")))
		p.status.Store(0)
		checkError(t, "the 500", err)
		for _, ref := range []string{inFlight.Reference, ended.Reference, mrn("500")} {
			_, err := o.Create(ctx, orderParams(ref))
			checkError(t, "create of a claimed reference", err)
			var ce *journal.ClaimedError
			if !errors.As(err, &ce) || ce.Claim.Reference != ref {
				t.Errorf("Create = %v; want a *ClaimedError whose claim holds the reference for code", err)
			}
			noMarker(t, "the claim", ce.Claim)
			noMarker(t, "the claim's key", ce.Claim.Key)
			noMarker(t, "a pointer to the claim", &ce.Claim)
			noMarker(t, "claims", []journal.Claim{ce.Claim})
			noMarker(t, "a match", journal.Match{Key: ce.Claim.Key, State: journal.StateUnknown})
			if s := ce.Claim.Key.String(); strings.Contains(s, mrnMarker) || !strings.Contains(s, "delivery") {
				t.Errorf("Key.String() = %q; want the interface, no reference", s)
			}
		}
	})
	t.Run("recorded order unreadable", func(t *testing.T) {
		k := plant(mrn("gone"), journal.StateCreated, 0, "ord_gone")
		_, err := o.Create(ctx, orderParams(k.Reference))
		checkError(t, "create", err)
		if !errors.Is(err, rxdelivery.ErrNotFound) || !strings.Contains(err.Error(), "ord_gone") {
			t.Errorf("Create = %v; want ErrNotFound naming the recorded id", err)
		}
	})
	t.Run("operator", func(t *testing.T) {
		absent := deliveryKey(mrn("absent"))
		_, err := j.Get(ctx, absent)
		checkError(t, "get of an absent claim", err)
		if !errors.Is(err, journal.ErrNoClaim) {
			t.Errorf("Get = %v; want ErrNoClaim", err)
		}
		checkError(t, "free of an absent claim", j.Free(ctx, absent))
		checkError(t, "resolve without an id", j.Resolve(ctx, absent, ""))
		live := plant(mrn("op live"), journal.StateInFlight, time.Hour, "")
		checkError(t, "resolve in flight", j.Resolve(ctx, live, "ord_1"))
		checkError(t, "free in flight", j.Free(ctx, live))
		created := plant(mrn("op created"), journal.StateCreated, 0, "ord_2")
		checkError(t, "resolve created", j.Resolve(ctx, created, "ord_2"))
		unknown := plant(mrn("op unknown"), journal.StateUnknown, 0, "")
		refuse("UPDATE created", "DELETE unknown", "DELETE created")
		defer refuse()
		checkError(t, "resolve refused", j.Resolve(ctx, unknown, "ord_3"))
		checkError(t, "free refused", j.Free(ctx, unknown))
		_, err = j.Prune(ctx, time.Now().Add(time.Hour))
		checkError(t, "prune refused", err)
	})
	t.Run("tracking", func(t *testing.T) {
		// A tracking number is not patient data; its keys follow the rule
		// all the same.
		body := notificationBody("94001"+mrnMarker+"0000000000000", "Delivered", "2026-03-02T12:00:00Z")
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		n, err := tracking.ParseNotification(req)
		if err != nil {
			t.Fatal(err)
		}
		ok := func(context.Context, *tracking.Notification) error { return nil }
		fail := func(context.Context, *tracking.Notification) error { return errors.New("callback failed") }
		refuse("INSERT in_flight")
		checkError(t, "claim refused", j.Once(ok)(ctx, n))
		refuse("DELETE in_flight")
		checkError(t, "release refused", j.Once(fail)(ctx, n))
		refuse("UPDATE created")
		checkError(t, "record refused", j.Once(ok)(ctx, n))
		refuse()
		checkError(t, "in flight", j.Once(ok)(ctx, n)) // the refused record left it in flight
		noMarker(t, "a notification key", journal.NotificationKey(n))
	})
}

// TestClaimFormatShowsItsFields keeps the renderings of a Claim useful:
// everything but the reference and the token.
func TestClaimFormatShowsItsFields(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	c := journal.Claim{Key: deliveryKey(mrn("fields")), State: journal.StateUnknown, Token: "secret-token", Holder: "replica-a",
		ID: "ord_7", Note: "a 500", ClaimedAt: at, LeaseUntil: at, UpdatedAt: at}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		out := fmt.Sprintf(verb, c)
		for _, want := range []string{"delivery", "unknown", "replica-a", "ord_7", "a 500", "2026-03-04T05:06:07Z"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s = %s; want it to show %q", verb, out, want)
			}
		}
		if strings.Contains(out, "secret-token") || strings.Contains(out, mrnMarker) {
			t.Errorf("%s = %s; shows the token or the reference", verb, out)
		}
	}
	if got := fmt.Sprintf("%+v", c); !strings.Contains(got, "State:unknown") {
		t.Errorf("%%+v = %s; want field names", got)
	}
	// Code still has every field.
	if c.Reference != mrn("fields") || !reflect.DeepEqual(c.Key, deliveryKey(mrn("fields"))) {
		t.Fatal("the claim lost its reference")
	}
}
