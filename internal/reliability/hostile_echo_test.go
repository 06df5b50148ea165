package reliability_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rxdelivery "github.com/rxdelivery/rxdelivery-go"
)

// echoOf returns everything a request carried that a platform could echo:
// every string and number of its JSON body, every query value, the
// Authorization header, the key and secret it decodes to, and the path.
func echoOf(r *http.Request) string {
	var parts []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			parts = append(parts, v)
		case json.Number:
			parts = append(parts, v.String())
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	if body, _ := io.ReadAll(r.Body); len(body) > 0 {
		d := json.NewDecoder(strings.NewReader(string(body)))
		d.UseNumber()
		var doc any
		if d.Decode(&doc) == nil {
			walk(doc)
		}
	}
	for _, vs := range r.URL.Query() {
		parts = append(parts, vs...)
	}
	parts = append(parts, r.URL.RawQuery)
	auth := r.Header.Get("Authorization")
	parts = append(parts, auth)
	token := strings.TrimPrefix(auth, "Basic ")
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		if kv, err := enc.DecodeString(token); err == nil {
			parts = append(parts, strings.SplitN(string(kv), ":", 2)...)
		}
	}
	parts = append(parts, r.URL.Path, r.URL.EscapedPath())
	return strings.Join(parts, " | ")
}

// TestEchoedValuesNeverReachAString: a platform that repeats everything it
// was sent in its error bodies (every error shape, message, type, code and
// id), in upper case, and in a redirect's target. For every endpoint no
// credential and no patient value appears in the error string or in a
// debug log line. The answers reach the client whole through Setup's
// httpmock; the echo in a malformed status line, which only a connection
// carries, is TestEchoInAMalformedStatusLineNeverReachesAString's.
func TestEchoedValuesNeverReachAString(t *testing.T) {
	t.Parallel()
	answers := map[string]func(w http.ResponseWriter, r *http.Request, echo string){
		"omni 422": func(w http.ResponseWriter, _ *http.Request, echo string) {
			b, _ := json.Marshal(map[string]any{"error": map[string]string{"id": echo, "type": "invalid " + echo, "message": "Invalid: " + echo}})
			writeJSON(w, 422, string(b))
		},
		"delivery 400 upper case": func(w http.ResponseWriter, _ *http.Request, echo string) {
			b, _ := json.Marshal(map[string]any{"error": map[string]string{"message": "Order is not valid: " + strings.ToUpper(echo)}})
			writeJSON(w, 400, string(b))
		},
		"tracking 403": func(w http.ResponseWriter, _ *http.Request, echo string) {
			b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": "forbidden " + echo, "message": "Key not enabled: " + echo}})
			writeJSON(w, 403, string(b))
		},
		"top-level message 500": func(w http.ResponseWriter, _ *http.Request, echo string) {
			b, _ := json.Marshal(map[string]any{"message": echo, "error": echo})
			writeJSON(w, 500, string(b))
		},
		"redirect": func(w http.ResponseWriter, _ *http.Request, echo string) {
			w.Header().Set("Location", "https://elsewhere.example/"+url.PathEscape(echo)+"?q="+url.QueryEscape(echo))
			w.WriteHeader(http.StatusFound)
		},
	}
	found := 0
	for name, answer := range answers {
		t.Run(name, func(t *testing.T) {
			var logs lockedBuffer
			logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			c, _ := newHostileMocked(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
				answer(w, r, echoOf(r))
			}, rxdelivery.WithLogger(logger))
			found += echoesReached(t, c, &logs)
		})
	}
	t.Logf("credentials and patient values found in error strings and log lines: %d", found)

	// The platform's words stay useful where they echo nothing.
	c, _ := newHostileMocked(t, func(w http.ResponseWriter, r *http.Request, _ int64) {
		writeJSON(w, 400, `{"error":{"message":"Order is not in a cancellable status"}}`)
	})
	err := c.Orders.Cancel(context.Background(), "ord_1")
	assert.ErrorIs(t, err, rxdelivery.ErrUnableToCancel)
	assert.Contains(t, err.Error(), "Order is not in a cancellable status")
}

// echoesReached calls every endpoint on c, whose platform echoes what it
// was sent, and reports each credential or patient value (in any case)
// found in an error string or in a line of logs, c's debug log; it
// returns how many it found.
func echoesReached(t *testing.T, c *rxdelivery.Client, logs *lockedBuffer) int {
	t.Helper()
	secrets := append(e2eSecrets(), e2eRxNumber, strings.ToUpper(e2eFirst), strings.ToUpper(e2eStreet))
	found := 0
	for _, ep := range endpoints(t) {
		err := ep.Call(context.Background(), c)
		require.Error(t, err, ep.Name)
		msg := err.Error()
		for _, v := range secrets {
			if strings.Contains(strings.ToLower(msg), strings.ToLower(v)) {
				found++
				t.Errorf("%s: the error string holds %q: %s", ep.Name, v, msg)
			}
		}
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		for _, v := range secrets {
			if strings.Contains(strings.ToLower(line), strings.ToLower(v)) {
				found++
				t.Errorf("a log line holds %q: %s", v, line)
			}
		}
	}
	return found
}
