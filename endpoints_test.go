package rxdelivery_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/testutil"
)

// rows returns testutil.Calls keyed by name: the row of every endpoint of
// core.Endpoints, with the request it sends (its method and URL, written
// out in the row so that a change of route, method or interface fails).
// Calls fails the test when an endpoint has no row, or a row no endpoint:
// a new endpoint joins every per-endpoint test by one row there.
func rows(t *testing.T) map[string]testutil.Call {
	t.Helper()
	byName := map[string]testutil.Call{}
	for _, c := range testutil.Calls(t) {
		byName[c.Name] = c
	}
	return byName
}

// TestEndpointConformance gives every endpoint of core.Endpoints the same
// four checks over httpmock: its method and path on its interface, its
// body (JSON for a POST, none otherwise, with the headers of every call),
// bad options refused before sending, and a failure of the request (a
// transport error, a 5xx, a malformed 2xx body naming status and
// endpoint, or, for a DELETE that returns no result, a body not read and
// a 204 taken for success).
func TestEndpointConformance(t *testing.T) {
	t.Parallel()
	byName := rows(t)
	for _, ep := range core.Endpoints {
		row, ok := byName[ep.Name]
		if !ok {
			continue
		}
		t.Run(ep.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			lax := []rxdelivery.Option{rxdelivery.WithoutValidation(), rxdelivery.WithRetryMax(0)}

			t.Run("method and path, body", func(t *testing.T) {
				t.Parallel()
				env := testutil.Setup(t, lax...)
				rec := new(testutil.Recorder)
				env.Mock.RegisterNoResponder(rec.Wrap(testutil.BytesResponder(http.StatusNotFound, []byte(`{"error":"not found"}`))))
				err := row.Call(ctx, env.Client)
				var apiErr *rxdelivery.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
				reqs := rec.Requests()
				require.Len(t, reqs, 1)
				testutil.TestMethod(t, reqs[0], row.Method, row.URL)
				testutil.TestBody(t, reqs[0], ep.Interface, ep.Method == http.MethodPost)
			})

			t.Run("bad options", func(t *testing.T) {
				t.Parallel()
				env := testutil.Setup(t, lax...)
				rec := new(testutil.Recorder)
				env.Mock.RegisterNoResponder(rec.Wrap(testutil.BytesResponder(http.StatusOK, []byte(`{}`))))
				for _, o := range []rxdelivery.CallOption{
					rxdelivery.WithHeader("X-Line", "a\r\nb"),
					rxdelivery.WithHeader("Bad Name", "v"),
				} {
					assert.Error(t, row.Call(ctx, env.Client, o))
				}
				assert.Empty(t, rec.Requests(), "a bad option is refused before sending")
			})

			t.Run("transport error", func(t *testing.T) {
				t.Parallel()
				env := testutil.Setup(t, lax...)
				env.Mock.RegisterNoResponder(testutil.ErrorResponder(errors.New("connection refused")))
				err := row.Call(ctx, env.Client)
				var te *rxdelivery.TransportError
				require.ErrorAs(t, err, &te)
			})

			t.Run("5xx", func(t *testing.T) {
				t.Parallel()
				env := testutil.Setup(t, lax...)
				env.Mock.RegisterNoResponder(testutil.BytesResponder(http.StatusServiceUnavailable, []byte(`{"error":"down"}`)))
				err := row.Call(ctx, env.Client)
				var apiErr *rxdelivery.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, http.StatusServiceUnavailable, apiErr.StatusCode)
			})

			t.Run("malformed body", func(t *testing.T) {
				t.Parallel()
				env := testutil.Setup(t, lax...)
				env.Mock.RegisterNoResponder(testutil.BytesResponder(http.StatusOK, []byte(`{"id":`)))
				err := row.Call(ctx, env.Client)
				if ep.Method == http.MethodDelete {
					// A cancel or removal returns no result: its body is not read,
					// and a 204 without one is its success too.
					assert.NoError(t, err)
					env.Mock.RegisterNoResponder(testutil.BytesResponder(http.StatusNoContent, nil))
					assert.NoError(t, row.Call(ctx, env.Client))
					return
				}
				var de *rxdelivery.DecodeError
				require.ErrorAs(t, err, &de)
				assert.ErrorIs(t, err, rxdelivery.ErrMalformedResponse)
				assert.Equal(t, http.StatusOK, de.StatusCode)
				assert.Equal(t, ep.Method, de.Method)
				assert.Regexp(t, testutil.RoutePattern(ep.Route), de.Path)
				assert.Contains(t, err.Error(), ep.Method+" ")
				assert.Contains(t, err.Error(), "200")
			})
		})
	}
}
