package reliability_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

// endpoints returns testutil.Calls, the row of every endpoint of
// core.Endpoints: its call with params that carry the e2e patient values,
// so that a server may echo them, and its path as errors show it.
func endpoints(t *testing.T) []testutil.Call { return testutil.Calls(t) }

// answering answers every request with its current status and body,
// through Setup's httpmock: the answers' bodies are under test, not their
// delivery.
type answering struct {
	*mocked
	status atomic.Int64
	body   atomic.Value
}

// newAnswering returns an answering platform and a client of every
// interface on it with the e2e credentials and retries off.
func newAnswering(t *testing.T) (*answering, *rxdelivery.Client) {
	a := &answering{}
	a.status.Store(200)
	a.body.Store("")
	c, m := newHostileMocked(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
		drainRequest(r)
		writeJSON(w, int(a.status.Load()), a.body.Load().(string))
	})
	a.mocked = m
	return a, c
}

// TestAnswersThatAreNotWhatTheyClaim: every endpoint that reads an answer
// refuses JSON null, an array, a string, a number and an object without the
// member it documents, with a *DecodeError naming the status and the
// endpoint, and the exact message pinned here; a write's such answer
// matches ErrUnknownOutcome.
func TestAnswersThatAreNotWhatTheyClaim(t *testing.T) {
	t.Parallel()
	shapes := []struct{ body, msg string }{
		{`null`, "the body is a JSON null, not an object"},
		{` [ {"order":{"id":"ord_1"}} ]`, "the body is a JSON array, not an object"},
		{`"ok"`, "the body is a JSON string, not an object"},
		{`201`, "the body is a JSON number, not an object"},
		{`true`, "the body is a JSON boolean, not an object"},
	}
	// What an empty object, and an object whose resource has no id, give.
	members := map[string][2]string{
		"requests.Create":        {`the response has no "request" object`, `the "request" object has no "id"`},
		"requests.Get":           {`the response has no "request" object`, `the "request" object has no "id"`},
		"requests.GetMany":       {`the response has no "requests" array`, ""},
		"orders.Create":          {`the response has no "order" object`, `the "order" object has no "id"`},
		"orders.Get":             {`the response has no "order" object`, `the "order" object has no "id"`},
		"orders.AddPrescription": {`the response has no "order" object`, `the "order" object has no "id"`},
		"orders.GetMany":         {`the response has no "orders" (or "objects") array`, ""},
	}
	idless := map[string]string{
		"requests.Create": `{"request":{"order":null}}`, "requests.Get": `{"request":{"id":""}}`,
		"orders.Create": `{"order":{"status":"new"}}`, "orders.Get": `{"order":{"id":""}}`,
		"orders.AddPrescription": `{"order":{"status":"new","id":null}}`,
	}
	a, c := newAnswering(t)
	ctx := context.Background()
	check := func(ep testutil.Call, body, msg string) {
		t.Helper()
		a.body.Store(body)
		err := ep.Call(ctx, c)
		if msg == "" {
			return
		}
		de := decodeError(t, err, ep.Endpoint.Method, ep.Path)
		if de == nil {
			return
		}
		assert.Equal(t, "rxdelivery: "+ep.Endpoint.Method+" "+ep.Path+": 200 OK: malformed response body: "+msg+
			map[bool]string{true: " (outcome unknown: reconcile before retrying)"}[ep.Endpoint.Write], err.Error(), ep.Name)
		assert.Equal(t, ep.Endpoint.Write, de.UnknownOutcome, ep.Name)
	}
	for _, ep := range endpoints(t) {
		switch ep.Name {
		case "requests.Cancel", "orders.Cancel", "orders.RemovePrescription":
			continue // no answer body is read
		}
		for _, sh := range shapes {
			msg := sh.msg
			if ep.Name == "pharmacies.DeliveryInfo" && sh.body != "null" {
				msg = "" // kept whole: its schema is not documented
			}
			check(ep, sh.body, msg)
		}
		if m, ok := members[ep.Name]; ok {
			check(ep, `{}`, m[0])
			if b, ok := idless[ep.Name]; ok {
				check(ep, b, m[1])
			}
		}
	}

	// A create answered 204 No Content returns no order: its outcome is
	// unknown.
	a.status.Store(http.StatusNoContent)
	_, err := c.Orders.Create(ctx, e2eOrder(t, "1234567890", "5550001"))
	assert.ErrorIs(t, err, rxdelivery.ErrUnknownOutcome)
	assert.EqualError(t, err, `rxdelivery: POST /api/v1/orders: 204 No Content: malformed response body: the response has no "order" object (outcome unknown: reconcile before retrying)`)
}

// TestCarelessCallers: a nil context on every endpoint is refused with a
// *ConfigError and nothing is sent (writes panicked before); the zero
// Client panics on a service call, as its documentation says, and its own
// methods do not.
func TestCarelessCallers(t *testing.T) {
	t.Parallel()
	a, c := newAnswering(t)
	var nilCtx context.Context
	for _, ep := range endpoints(t) {
		var err error
		require.NotPanics(t, func() { err = ep.Call(nilCtx, c) }, ep.Name)
		var ce *rxdelivery.ConfigError
		require.ErrorAs(t, err, &ce, ep.Name)
		assert.Contains(t, err.Error(), "nil Context", ep.Name)
	}
	assert.Zero(t, a.attempts.Load(), "requests sent with a nil context")

	var zero rxdelivery.Client
	assert.Panics(t, func() { _, _ = zero.Orders.Get(context.Background(), "ord_1") })
	assert.NotPanics(t, zero.CloseIdleConnections)
	assert.False(t, zero.Sandbox())
}
