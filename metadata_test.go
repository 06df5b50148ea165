package rxdelivery_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
	"github.com/rxdelivery/rxdelivery-go/option"
	"github.com/rxdelivery/rxdelivery-go/requests"
)

// btoi is 1 for true and 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// e0 drops a call's result, keeping its error.
func e0[T any](_ T, err error) error { return err }

// staleMetadata is what the caller's Metadata holds before a call: every
// field set, so that a field the call leaves alone shows.
func staleMetadata() rxdelivery.Metadata {
	return rxdelivery.Metadata{StatusCode: 599, Header: http.Header{"X-Stale": {"1"}}, RequestID: "stale",
		Attempts: 9, Duration: time.Hour, OutcomeKnown: false, AttemptLog: make([]rxdelivery.AttemptRecord, 9)}
}

// assertNotSentMetadata checks the metadata of a call that ended before
// anything was sent: no status, no header, the attempts it started (none
// when it ended before its first), the outcome known.
func assertNotSentMetadata(t *testing.T, md rxdelivery.Metadata, attempts int, msg string) {
	t.Helper()
	assert.NotEqual(t, time.Hour, md.Duration, "%s: the metadata was filled", msg)
	md.Duration = 0
	if assert.Len(t, md.AttemptLog, attempts, msg) {
		for i, a := range md.AttemptLog {
			assert.Equal(t, i+1, a.Number, msg)
			assert.Equal(t, option.AttemptNotSent, a.End, msg)
			assert.Equal(t, "not_sent", a.ErrorKind, msg)
			assert.Zero(t, a.StatusCode, msg)
			assert.Empty(t, a.RequestID, msg)
		}
	}
	md.AttemptLog = nil
	assert.Equal(t, rxdelivery.Metadata{Attempts: attempts, OutcomeKnown: true}, md, msg)
}

// TestMetadataAtEveryEndBeforeSending ends each endpoint of core.Endpoints in
// every way a call can end before anything is sent, and checks that
// WithMetadata was filled each time: status 0, no header, 0 attempts, the
// outcome known (the README's `if !md.OutcomeKnown` branch must not take
// an invalid create for one to reconcile). The server sees no request.
func TestMetadataAtEveryEndBeforeSending(t *testing.T) {
	t.Parallel()
	s := newOptMock()
	sandboxed := s.client(t)
	// The valid calls are also made on clients without validation, so that
	// only the end under test stops them.
	lax := s.client(t, rxdelivery.WithoutValidation())
	production := s.client(t, rxdelivery.WithSandbox(false), rxdelivery.WithoutValidation())
	unsent := []rxdelivery.Option{rxdelivery.WithRetryMax(0), rxdelivery.WithoutValidation()}
	// A client with no base URL for any interface of the endpoint (and
	// credentials for the others, so that it can be built).
	noURL := func(iface rxdelivery.Interface) *rxdelivery.Client {
		var opts []rxdelivery.Option
		for _, other := range []rxdelivery.Interface{rxdelivery.Omni, rxdelivery.Delivery, rxdelivery.Tracking, rxdelivery.Pricing} {
			if other != iface {
				opts = append(opts, rxdelivery.WithBaseURL(other, s.URL))
			}
		}
		c, err := rxdelivery.NewClient("key", "secret", append(opts, unsent...)...)
		require.NoError(t, err)
		return c
	}
	refuse := func(next option.AttemptFunc) option.AttemptFunc {
		return func(context.Context, *option.Attempt) option.AttemptResult { return option.AttemptResult{} }
	}
	var nilCtx context.Context
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()

	// An end runs an endpoint's call, or returns errNotApplicable.
	type end struct {
		name string
		run  func(e testutil.Call, opts ...option.CallOption) error
		// attempts is what the metadata counts: an attempt a hook stopped
		// was started, and hooks saw it.
		attempts int
	}
	ends := []end{
		{"nil params", func(e testutil.Call, o ...option.CallOption) error {
			if e.NilParams == nil {
				return errNotApplicable
			}
			return e.NilParams(context.Background(), sandboxed, o...)
		}, 0},
		{"invalid params", func(e testutil.Call, o ...option.CallOption) error {
			if e.InvalidParams == nil {
				return errNotApplicable
			}
			return e.InvalidParams(context.Background(), sandboxed, o...)
		}, 0},
		{"empty id", func(e testutil.Call, o ...option.CallOption) error {
			if e.EmptyID == nil {
				return errNotApplicable
			}
			return e.EmptyID(context.Background(), sandboxed, o...)
		}, 0},
		{"call option with a line break", func(e testutil.Call, o ...option.CallOption) error {
			return e.Call(context.Background(), lax, append(o, rxdelivery.WithHeader("X-Note", "a\r\nb"))...)
		}, 0},
		{"call option with a bad header name", func(e testutil.Call, o ...option.CallOption) error {
			return e.Call(context.Background(), lax, append([]option.CallOption{rxdelivery.WithHeader("X Note", "v")}, o...)...)
		}, 0},
		{"nil context", func(e testutil.Call, o ...option.CallOption) error {
			return e.Call(nilCtx, lax, o...)
		}, 0},
		{"cancelled context", func(e testutil.Call, o ...option.CallOption) error {
			return e.Call(cancelled, lax, o...)
		}, 0},
		{"no base URL", func(e testutil.Call, o ...option.CallOption) error {
			return e.Call(context.Background(), noURL(e.Interface), o...)
		}, 0},
		{"an attempt hook that does not send", func(e testutil.Call, o ...option.CallOption) error {
			return e.Call(context.Background(), lax, append(o, rxdelivery.WithMiddleware(refuse))...)
		}, 1},
		{"test_meta outside the sandbox", func(e testutil.Call, o ...option.CallOption) error {
			if e.Name != "requests.Create" {
				return errNotApplicable
			}
			_, err := production.Requests.Create(context.Background(), &requests.CreateParams{
				TestMeta: &requests.TestMeta{Scenario: requests.Scenario("x")}}, o...)
			require.ErrorIs(t, err, rxdelivery.ErrSandboxOnly)
			return err
		}, 0},
	}
	calls := testutil.Calls(t)
	covered := map[string]int{}
	for _, e := range calls {
		for _, end := range ends {
			md := staleMetadata()
			err := end.run(e, rxdelivery.WithMetadata(&md))
			if err == errNotApplicable {
				continue
			}
			covered[end.name]++
			msg := e.Name + ", " + end.name
			require.Error(t, err, msg)
			assert.NotErrorIs(t, err, rxdelivery.ErrUnknownOutcome, msg)
			assertNotSentMetadata(t, md, end.attempts, msg)
		}
	}
	assert.EqualValues(t, 0, s.hits.Load(), "nothing was sent")
	// Every endpoint of core.Endpoints has its row, and each form of input
	// it takes was run.
	n := len(calls)
	require.Len(t, core.Endpoints, n)
	var nilParams, invalidParams, emptyID int
	for _, e := range calls {
		nilParams += btoi(e.NilParams != nil)
		invalidParams += btoi(e.InvalidParams != nil)
		emptyID += btoi(e.EmptyID != nil)
	}
	assert.Equal(t, map[string]int{
		"nil params": nilParams, "invalid params": invalidParams, "empty id": emptyID,
		"call option with a line break": n, "call option with a bad header name": n, "nil context": n,
		"cancelled context": n, "no base URL": n, "an attempt hook that does not send": n,
		"test_meta outside the sandbox": 1,
	}, covered)

	// All, the iterator of Search's pages, fills it for nil params too.
	md := staleMetadata()
	for _, err := range sandboxed.Pharmacies.All(context.Background(), nil, rxdelivery.WithMetadata(&md)) {
		require.Error(t, err)
	}
	assertNotSentMetadata(t, md, 0, "pharmacies.All, nil params")
}

// errNotApplicable marks an end an endpoint cannot reach.
var errNotApplicable = errorString("not applicable")

type errorString string

func (e errorString) Error() string { return string(e) }
